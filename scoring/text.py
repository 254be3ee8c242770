"""A people-readable rendering of a :class:`~scoring.model.ScoreResult` (`jxmj score --format text`)."""

from __future__ import annotations

import unicodedata

from scoring.result import ScoreResult, _money, _num
from scoring.rules import load_rules
from scoring.tiles import format_tiles

__all__ = ["format_text"]


def _width(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def _pad(s: str, n: int) -> str:
    return s + " " * max(0, n - _width(s))


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(_width(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(_pad(c, widths[i]) for i, c in enumerate(r)).rstrip() for r in rows]


def format_text(result: ScoreResult) -> str:
    """Decomposition, item table, own total and payments as plain text."""
    rules = load_rules(result.variant)
    fan = rules.family == "fan"
    lines = [f"{rules.name_zh} {rules.name_en} — {'can win' if result.can_win else 'cannot win'}"]
    if result.reason:
        lines.append(f"  {result.reason}")
    blocks = []
    for b in result.decomposition:
        text = format_tiles(b.tiles)
        if b.source == "meld":
            text = f"{b.kind}:{text}"
        if b.winning:
            text += "*"
        blocks.append(f"[{text}]")
    lines.append(f"Reading ({result.shape}, {result.readings} considered): " + " ".join(blocks))
    waits = format_tiles(result.waits) or "-"
    lines.append(f"Wait: {result.wait or '-'}; before the win it waited on {waits}   (* = winning tile)")
    lines.append("Items:")
    head = ["key", "名", "item", "x" if fan else "炮", "why", "rule"]
    rows = [head]
    for i in result.items:
        val = f"x{_num(i.multiplier)}" if i.multiplier is not None else str(i.points)
        rows.append([i.key, i.name_zh, i.name_en, val, i.reason, i.rule])
    lines.extend(_table(rows))
    if result.own is not None:
        lines.append(f"Own: {_num(result.own)}{' (product)' if fan else ' 炮'}")
    if result.payments:
        lines.append(f"Payments (point value {_num(result.point_value)}):")
        rows = [["payer", "eaten", "x2", "kong money", "pays"]]
        for p in result.payments:
            name = p.payer + (" (dealer)" if p.is_dealer else "")
            rows.append(
                [
                    name,
                    str(p.eaten),
                    "yes" if p.doubled else "",
                    str(p.kong_money or ""),
                    str(_money(p.amount)),
                ]
            )
        lines.extend(_table(rows))
        for p in result.payments:
            for i in p.eaten_items:
                lines.append(f"    eaten from {p.payer}: {i.key} {i.name_zh} +{i.points} — {i.reason}")
        lines.append(f"Total to the winner: {_money(result.total)}")
    for n in result.notes:
        lines.append(f"Note: {n}")
    return "\n".join(lines) + "\n"
