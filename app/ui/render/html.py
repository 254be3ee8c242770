"""The result as HTML: decomposition, item table, payments, headline total (pure functions).

Everything takes the engine's typed `scoring.ScoreResult` (or its parts) and returns a string;
words come from the catalog in the current language (`app.ui.i18n`). Every value the
player or the engine supplied is escaped. Tested in tests/app/test_render.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from html import escape

from app.ui.i18n import has, lang, t
from app.ui.render.tiles import groups_html
from app.ui.rule_links import links_html
from scoring import Block, Item, Payment, ScoreResult
from scoring.result import json_number
from scoring.rules import load_rules
from scoring.text_zh import zh_codes
from vision.detection import BACK


def num(v: float | int | Decimal | None) -> str:
    """A number on the page, as `json_number` writes it: `3.0` -> `"3"`, `2.5` -> `"2.5"`,
    `Decimal("2.50")` -> `"2.5"`, None -> `"0"`; a float to 6 significant digits (no float noise)."""
    if v is None:
        return "0"
    n = json_number(v)
    return f"{n:g}" if isinstance(n, float) and not isinstance(v, Decimal) else str(n)


def label(prefix: str, value: str) -> str:
    """A catalog label for an engine code (`block.pung`), or the code itself when there is none."""
    key = f"{prefix}.{value}"
    return t(key) if has(key) else value


_ONE_TILE_WAITS = {"edge": "edge_wait", "closed": "closed_wait", "single": "single_wait"}


def wait_label(result: ScoreResult) -> str:
    """The wait's label; a 边/卡/单钓 shape the engine did not count because the hand waited on
    several kinds says so (never "单钓 · 听 六条 九条", which the items contradict)."""
    text = label("wait", result.wait or "none")
    key = _ONE_TILE_WAITS.get(result.wait or "")
    if key and len(result.waits) > 1 and not any(i.key == key for i in result.items):
        return t("wait.several", wait=text, n=len(result.waits))
    return text


def is_fan(result: ScoreResult) -> bool:
    """The variant multiplies 番 (新余, DECISIONS §2) instead of adding 炮."""
    return load_rules(result.variant).family == "fan"


def decomposition_html(blocks: Sequence[Block], win_tile: str | None, size: str = "md") -> str:
    """The engine's chosen reading as tile pictures, the winning tile framed in gold
    (in the block the engine marks `winning`, else its first copy)."""
    groups = []
    for b in blocks:
        caption = label("meld", b.kind) if b.source == "meld" else label("block", b.kind)
        codes = [tile.code for tile in b.tiles]
        if b.kind == "concealed_kong" and len(codes) == 4:  # laid down as on the table: backs outside
            codes = [BACK, codes[1], codes[2], BACK]
        groups.append((caption, codes, b.winning))
    marked = any(w for _, _, w in groups)
    parts = []
    for caption, codes, winning in groups:
        wt = win_tile if (winning or not marked) else None
        parts.append(groups_html([(caption, codes)], win_tile=wt, size=size, wrap=False))
        if wt in codes:
            marked, win_tile = True, None
    return '<div class="jx-groups">' + "".join(parts) + "</div>"


def item_name(item: Item) -> tuple[str, str]:
    """(first, second) name of an item: the page language's first; the English page keeps the
    Chinese term beside (平胡 at the table), the Chinese page shows no English ("")."""
    zh, en = item.name_zh, item.name_en or item.key
    return (en, zh) if lang() == "en" else (zh, "")


def item_reason(item: Item) -> tuple[str, str]:
    """(why, reference): the engine's own reason for this item in the page language, its tiles
    written as tile names on the Chinese page (``连对 三四五六七八九筒``, not ``3456789p``): one
    home for the reasons, the engine."""
    if lang() == "zh" and item.reason_zh:
        return zh_codes(item.reason_zh), item.rule
    return item.reason, item.rule


def rule_ref(ref: str, variant: str) -> str:
    """An item's rule reference as HTML: links to its sections on the Learn page ("规则 1.3"),
    or the reference as text when it names no section."""
    return links_html(ref, variant, lang(), t("res.rule")) or escape(ref)


def table(head: Sequence[str], rows: Sequence[str]) -> str:
    return (
        "<table class='jx-items'><thead><tr>"
        + "".join(f"<th>{escape(h)}</th>" for h in head)
        + "</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def sum_row(text: str, value: str, column: int) -> str:
    """The bold last row: `text`, then `value` in column 1 or 2 of the two after it."""
    cells = ["", ""]
    cells[column - 1] = value
    return (
        f"<tr class='jx-sum'><td>{escape(text)}</td>"
        + "".join(
            f"<td class='{'jx-pts' if k == column - 1 else ''}'>{escape(c)}</td>" for k, c in enumerate(cells)
        )
        + "</tr>"
    )


def items_table(result: ScoreResult) -> str:
    """Item, value (+炮 or ×), and why, with a link to its rule under; the own total last."""
    fan = is_fan(result)
    head = t("res.col_item"), t("res.col_value_x") if fan else t("res.col_value"), t("res.col_reason")
    rows = []
    for it in result.items:
        first, second = item_name(it)
        value = f"×{num(it.multiplier)}" if it.multiplier is not None else f"+{num(it.points)}"
        why, ref = item_reason(it)
        rows.append(
            f"<tr><td>{escape(first)}"
            + (f"<br><span class='jx-en'>{escape(second)}</span>" if second else "")
            + "</td>"
            f"<td class='jx-pts'>{escape(value)}</td>"
            f"<td><span class='jx-why'>{escape(why)}</span>"
            + (f"<br><span class='jx-ref'>{rule_ref(ref, result.variant)}</span>" if ref else "")
            + "</td></tr>"
        )
    if result.own is not None:
        rows.append(sum_row(t("res.own_short"), f"×{num(result.own)}" if fan else num(result.own), 1))
    return table(head, rows)


def payer_label(p: Payment, names: Mapping[str, str] | None = None) -> str:
    """A payer's name on the page: the player's name where the page knows the seats (`names`:
    the 牌局 page's seat names by the editor's seat codes), else the seat's label (下家), a name
    the engine gave a payer left unnamed in the page language (from its code,
    `Payment.default_name`: 放炮者, 玩家1), any other name as it is."""
    if names and p.payer in names:
        return names[p.payer]
    if has(f"seat.{p.payer}"):
        return t(f"seat.{p.payer}")
    return p.payer_zh if lang() == "zh" else p.payer


def payments_table(result: ScoreResult, names: Mapping[str, str] | None = None) -> str:
    """Who pays what: 吃炮 per payer (with what was eaten), dealer doubling, kong money; payers
    by `names` when given (:func:`payer_label`), 庄 / doubled as marks of their own."""
    rows = []
    for p in result.payments:
        seat = payer_label(p, names)
        badge = ""
        if p.is_dealer:
            badge += f"<span class='jx-badge'>{escape(t('res.dealer'))}</span>"
        if p.doubled:
            badge += f"<span class='jx-badge'>{escape(t('res.doubled'))}</span>"
        extra = escape(t("res.eaten", n=num(p.eaten))) if p.eaten else ""
        eaten = [item_name(i)[0] for i in p.eaten_items]  # not `names`: every payer is named by it
        if eaten:
            extra += f"<br><span class='jx-ref'>{escape(t('punct.list').join(eaten))}</span>"
        if p.kong_money:
            extra += escape(num(p.kong_money))
        rows.append(
            f"<tr><td>{escape(seat)}{' ' if badge else ''}{badge}</td><td class='jx-why'>{extra}</td>"
            f"<td class='jx-pts'>{escape(num(p.amount))}</td></tr>"
        )
    rows.append(sum_row(t("res.total"), num(result.total), 2))
    second = t("res.col_kong") if is_fan(result) else t("res.col_eaten")
    return table((t("res.col_payer"), second, t("res.col_amount")), rows)


def total_html(result: ScoreResult) -> str:
    """The headline: what the winner collects, and the hand's own 炮 (or 番)."""
    fan = is_fan(result)
    unit = t("res.unit_fan") if fan else t("res.unit_pao")
    own = t("res.own_xinyu") if fan else t("res.own")
    total = num(result.total)
    return (
        f'<div class="jx-total"><span><span class="jx-lbl">{escape(t("res.total"))}</span><br>'
        f'<span class="jx-big" id="jx-total" data-total="{total}">{total}</span></span>'
        f'<span><span class="jx-lbl">{escape(own)}</span><br>'
        f'<span class="jx-big">{num(result.own)}</span> {escape(unit)}</span></div>'
    )


def cannot_win_html(reason: str) -> str:
    """The headline of a complete hand that may not be won, with the translated reason."""
    return (
        f'<div class="jx-total jx-nowin"><span><span class="jx-big">{escape(t("res.cannot_win"))}'
        f'</span><br><span class="jx-lbl">{escape(reason)}</span></span></div>'
    )


def mini_html(result: ScoreResult | None) -> str:
    """On a phone the result is far down: a one-line total fixed at the bottom of the screen."""
    if result is not None and result.can_win:  # the headline's words (`total_html`): 新余's multiplier
        fan = is_fan(result)
        total, own = escape(t("res.total")), escape(t("res.own_xinyu") if fan else t("res.own"))
        unit = f" {escape(t('res.unit_fan'))}" if fan else ""  # 炮 is glossed once, in the headline
        text = f"{total} <b>{num(result.total)}</b> · {own} <b>{num(result.own)}</b>{unit}"
    else:
        text = f"<b>{escape(t('res.cannot_win'))}</b>"
    return f'<div class="jx-mini">{text} &nbsp; <a href="#jx-result">{escape(t("res.jump"))}</a></div>'


def whatif_html(columns: Sequence[str], rows: Sequence[tuple[str, Sequence[tuple[str, bool]]]]) -> str:
    """A small grid: column heads, then per row its head and `(text, is_current)` cells."""
    out = [
        "<table class='jx-whatif'><tr><th></th>" + "".join(f"<th>{escape(c)}</th>" for c in columns) + "</tr>"
    ]
    for head, cells in rows:
        tds = "".join(f"<td class='{'jx-cur' if cur else ''}'>{escape(text)}</td>" for text, cur in cells)
        out.append(f"<tr><th>{escape(head)}</th>{tds}</tr>")
    out.append("</table>")
    return "".join(out)


__all__ = [
    "cannot_win_html",
    "decomposition_html",
    "items_table",
    "label",
    "mini_html",
    "num",
    "payments_table",
    "total_html",
    "whatif_html",
]


def patterns_html(rows: Sequence[tuple[str, bool, str, str]]) -> str:
    """The "why not" table: per pattern its name, holds?, and the value or the reason (and change)."""
    body = "".join(
        f"<tr><td>{escape(name)}</td><td class='jx-pts'>{'✓' if holds else '✗'}</td>"
        f"<td class='jx-why'>{escape(text)}</td></tr>"
        + (f"<tr><td></td><td></td><td class='jx-ref'>{escape(change)}</td></tr>" if change else "")
        for name, holds, text, change in rows
    )
    return f"<table class='jx-items jx-teach'><tbody>{body}</tbody></table>"
