"""A people-readable rendering of a :class:`~scoring.result.ScoreResult` (`jxmj score --format
text`), in Chinese or English: headers, reasons, wait words and the payment table in one language.

>>> from scoring.model import HandInput
>>> from scoring.engine import score
>>> result = score(HandInput("xinyu", "EEESSSWWWCCCPP", "P", True))
>>> print(format_text(result, lang="zh"))  # doctest: +ELLIPSIS
新余麻将 — 可以胡
牌型（标准，考虑了 2 种读法）：[东东东] [南南南] [西西西] [中中中] [白白*]
听牌：单钓：白（胡前听 东、南、西、北、中、發、白）   （* = 胡的那张）
明细：
...
本身：32（番数相乘）
...
"""

from __future__ import annotations

import tomllib
import unicodedata
from pathlib import Path

from scoring.result import Block, ScoreResult, _money, json_number, rule_sections
from scoring.rules import RuleTable, load_rules
from scoring.text_zh import error_zh, uncounted_wait, wait_note, wait_zh, zh_codes, zh_tiles
from scoring.tiles import Tile, format_tiles

__all__ = ["LANGS", "format_error", "format_text", "wait_words"]

LANGS = ("zh", "en")

# every word of the output as (English, Chinese), kept as data beside this module
_WORDS: dict[str, tuple[str, str]] = {
    key: tuple(pair)
    for key, pair in tomllib.loads(
        Path(__file__).with_name("text_words.toml").read_text(encoding="utf-8")
    ).items()
}


def _in(table: dict[str, tuple[str, str]], lang: str) -> dict[str, str]:
    i = LANGS.index(lang) ^ 1  # LANGS is (zh, en); the pairs are (en, zh)
    return {k: v[i] for k, v in table.items()}


# the words of each language, built once (not per call, per item's rule column or per wait)
_BY_LANG = {lang: _in(_WORDS, lang) for lang in LANGS}
_WAIT_BY_LANG = {
    lang: {k[5:]: v for k, v in w.items() if k.startswith("wait.")} for lang, w in _BY_LANG.items()
}


_MELD_ZH = {"pung": "碰", "kong": "明杠", "added_kong": "补杠", "concealed_kong": "暗杠", "chow": "吃"}


def _inert(s: str) -> str:
    """`s` with control and format characters (a newline, ESC of a terminal colour code, a
    right-to-left override) written as ``\\uXXXX``: a payer's name stays on its line and
    cannot drive the terminal.

    >>> _inert("a\\nb\\x1b[31m"), _inert("张三")
    ('a\\\\u000ab\\\\u001b[31m', '张三')
    """
    return "".join(f"\\u{ord(c):04x}" if unicodedata.category(c) in ("Cc", "Cf") else c for c in s)


def _width(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def _pad(s: str, n: int) -> str:
    return s + " " * max(0, n - _width(s))


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(_width(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(_pad(c, widths[i]) for i, c in enumerate(r)).rstrip() for r in rows]


def _blocks(result: ScoreResult, lang: str) -> str:
    """The reading's blocks; a quad in 七对 (two equal pair blocks) prints as one block."""
    out: list[str] = []
    blocks: list[Block] = list(result.decomposition)
    i = 0
    while i < len(blocks):
        b = blocks[i]
        tiles, winning = list(b.tiles), b.winning
        nxt = blocks[i + 1] if i + 1 < len(blocks) else None
        if (
            result.shape == "seven_pairs"
            and nxt is not None
            and nxt.tiles == b.tiles
            and nxt.source == "hand"
        ):
            tiles += nxt.tiles
            winning = winning or nxt.winning
            i += 1
        text = zh_tiles(tiles) if lang == "zh" else format_tiles(tiles)
        if b.source == "meld":
            text = f"{_MELD_ZH[b.kind] if lang == 'zh' else b.kind}:{text}"
        out.append(f"[{text}{'*' if winning else ''}]")
        i += 1
    return " ".join(out)


def wait_words(result: ScoreResult, lang: str = "en") -> str:
    """The winning block's wait in real tiles, the one wording of the CLIs (`jxmj score --format
    text`, `jxmj photo`): ``closed 2m in 1m_3m``, ``edge 3p``, ``single 5s``, ``pair of E (seven
    pairs)`` — never 单钓 for seven pairs (DECISIONS §1.3a); in Chinese ``卡张：一三万听二万``."""
    if lang == "zh":
        return wait_zh(result)
    words = _WAIT_BY_LANG[lang]
    win = result.winning_tile
    if win is None:
        return result.wait or "-"
    if result.shape == "free":
        hand = [t for b in result.decomposition if b.source == "hand" for t in b.tiles]
        return words["free"].format(tiles=format_tiles(hand, sort=True))
    if result.shape == "seven_pairs":
        return words["pair"].format(win=win.code)
    where = win.code
    if result.wait == "closed":
        where = words["closed_in"].format(win=win.code, a=Tile(win - 1).code, b=Tile(win + 1).code)
    if uncounted_wait(result):  # the app's words (wait.several): single wait shape, not counted
        return words["shape_of"].format(wait=result.wait, where=where)
    return words.get(result.wait or "", "{win}").format(win=where)


_ONE_TILE = {"edge": "edge_wait", "closed": "closed_wait", "single": "single_wait"}


def _excluded(result: ScoreResult, rules: RuleTable, lang: str) -> list[str]:
    """A line for each adder whose own condition holds but that a holding pattern shuts out of
    the whole hand (DECISIONS §1.3a; the why-not's words): ``地胡不算门清``, ``杠上开花不算自摸``."""
    if not rules.exclusions or not result.can_win:
        return []
    have = {i.key for i in result.items if i.points}
    holds = {  # the adder's own condition, from the result
        "concealed": not any(b.source == "meld" and b.kind != "concealed_kong" for b in result.decomposition),
        "self_drawn": len(result.payments) == 3,
    }
    one = _ONE_TILE.get(result.wait or "")
    if one is not None and len(result.waits) == 1 and result.shape == "standard":
        holds[one] = True
    out = []
    for adder, by in rules.exclusions.items():
        pats = sorted(by & have, key=list(rules.patterns).index)
        if adder in have or not pats or not holds.get(adder):
            continue
        zh, en, _ = rules.name(adder)
        names = [rules.name(p) for p in pats]
        if lang == "zh":
            out.append(_BY_LANG[lang]["excluded"].format(pattern="、".join(n[0] for n in names), item=zh))
        else:
            out.append(_BY_LANG[lang]["excluded"].format(pattern=" and ".join(n[1] for n in names), item=en))
    return out


def _rule(ref: str, lang: str) -> str:
    """The rule column: the reference as the engine gives it, in Chinese the sections it names
    ("DECISIONS §1.3 definitions, §1.3a" -> "规则 1.3、1.3a")."""
    sections = rule_sections(ref)
    if lang != "zh" or not sections:
        return ref
    return _BY_LANG[lang]["rule"].format(n="、".join(sections))


def format_error(code: str, message: str, lang: str = "en") -> str:
    """An error line of `jxmj score --format text`: the English sentence, or in Chinese a sentence
    by ``code`` with the tiles or key the message names, and the code."""
    if lang == "zh":
        return _BY_LANG["zh"]["error"].format(message=error_zh(code, message), code=code)
    return _BY_LANG["en"]["error"].format(message=message, code=code)


def format_text(result: ScoreResult, lang: str = "en") -> str:
    """Decomposition, wait, item table, own total and payments as plain text in ``lang``
    (``"zh"`` or ``"en"``). Raises ValueError for another language."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {', '.join(LANGS)}, not {lang!r}")
    w = _BY_LANG[lang]
    zh = lang == "zh"
    rules = load_rules(result.variant)
    fan = rules.family == "fan"
    title = f"{rules.name_zh}麻将" if zh else f"{rules.name_zh} {rules.name_en}"
    lines = [f"{title} — {w['can'] if result.can_win else w['cannot']}"]
    reason = zh_codes(result.reason_zh) if zh and result.reason_zh else result.reason
    if reason:
        lines.append(f"  {reason}")
    lines.append(w["reading"].format(shape=w.get(f"shape.{result.shape}", result.shape), n=result.readings))
    lines[-1] += _blocks(result, lang)
    if zh:
        waits = "、".join(Tile(t).zh for t in result.waits) or "-"
        lines.append(w["wait"].format(wait=wait_zh(result), waits=waits))
    else:
        lines.append(w["wait"].format(wait=wait_words(result, lang), waits=format_tiles(result.waits) or "-"))
    note = wait_note(result, lang, rules.options.wait_bonus_needs_single_wait and not fan)
    if note:
        lines.append(f"  {note}")
    lines.append(w["items"])
    unit = ("番" if zh else "x") if fan else "炮"
    rows = [[h.format(unit=unit) for h in w["head"]]]
    for i in result.items:
        times = "×" if zh else "x"
        val = f"{times}{json_number(i.multiplier)}" if i.multiplier is not None else str(i.points)
        if zh:  # no key and no English name in Chinese text
            rows.append([i.name_zh, val, zh_codes(i.reason_zh), _rule(i.rule, lang)])
        else:
            rows.append([i.key, i.name_zh, i.name_en, val, i.reason, _rule(i.rule, lang)])
    lines.extend(_table(rows))
    lines.extend(f"  {line}" for line in _excluded(result, rules, lang))
    if result.own is not None:
        lines.append((w["own_fan"] if fan else w["own_pao"]).format(own=json_number(result.own)))
    if result.payments:
        lines.append(w["payments_fan" if fan else "payments"].format(pv=json_number(result.point_value)))
        # columns that say something for this hand: 吃炮 in 九江/星子, ×2 when a payment is doubled,
        # kong money when there is some (新余)
        pays = result.payments
        keep = (True, not fan, any(p.doubled for p in pays), any(p.kong_money for p in pays), True)
        rows = [list(w["pay_head"])]
        for p in pays:
            name = _inert(p.payer_zh if zh else p.payer) + (w["dealer"] if p.is_dealer else "")
            doubled = w["yes"] if p.doubled else ""
            rows.append([name, str(p.eaten), doubled, str(p.kong_money or ""), str(_money(p.amount))])
        lines.extend(_table([[c for c, k in zip(row, keep, strict=True) if k] for row in rows]))
        for p in result.payments:
            for i in p.eaten_items:
                why = _inert(zh_codes(i.reason_zh) if zh else i.reason)
                who = _inert(p.payer_zh if zh else p.payer)
                lines.append(w["eaten"].format(payer=who, key=i.key, zh=i.name_zh, pts=i.points, why=why))
        lines.append(w["total"].format(total=_money(result.total)))
    for n in result.notes_zh if zh and result.notes_zh else result.notes:
        lines.append(w["note"].format(note=zh_codes(n) if zh else n))
    return "\n".join(lines) + "\n"
