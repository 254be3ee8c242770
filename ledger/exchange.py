"""Export and import: a table as JSON (everything, derived values included) or CSV (one row a hand).

``export_json`` is what ``jxmj table show|export`` print and the app downloads; ``table_from_export``
reads it back (the derived ``outcome`` of each hand is ignored and recomputed) and checks every
hand again, so a hand-edited file with a wrong shape is a clear :class:`LedgerError`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any
from unicodedata import normalize

from ledger.book import read_hands
from ledger.codes import normalize_code
from ledger.errors import LedgerError, shown
from ledger.fold import HandOutcome, Ledger, Raise
from ledger.model import Follow, Hand, Table, by_index
from ledger.names import check_text, shows_nothing, visible
from ledger.settle import settle
from scoring.result import json_number

__all__ = ["CSV_WORDS", "FORMAT", "export_csv", "export_json", "outcome_json", "table_from_export"]

FORMAT = "jxmj-table"
VERSION = 2
"""The export's version: 2 writes a hand's 新余 ``kongs`` and 吃炮 facts (``eaten``) as
``[{"seat": index, ...}]``; version 1 (still read) keyed them by the index as text
(:func:`ledger.model.by_index`)."""
READS = (1, 2)


def _reasons(rs: tuple[Raise, ...]) -> list[dict[str, Any]]:
    return [{"code": r.code, "factor": r.factor, "source": r.source} for r in rs]


def outcome_json(ledger: Ledger, o: HandOutcome) -> dict[str, Any]:
    """The derived part of one hand: dealer, raise, point value, money, results (score JSON)."""
    seats = ledger.table.seats
    out: dict[str, Any] = {
        "dealer": seats[o.dealer],
        "raise": o.raise_,
        "reasons": _reasons(o.reasons),
        "point_value": json_number(o.point_value),
        "deltas": {n: json_number(d) for n, d in zip(seats, o.deltas, strict=True)},
        "totals": {n: json_number(t) for n, t in zip(seats, o.totals, strict=True)},
        "results": [r.to_json() for r in o.results],
    }
    if o.error:
        out["error"] = o.error
    return out


def export_json(ledger: Ledger) -> dict[str, Any]:
    """The whole table: facts, every hand with its derived ``outcome``, totals, next hand, settlement."""
    t = ledger.table
    return {
        "format": FORMAT,
        "version": VERSION,
        "table": t.to_json(),
        "hands": [{**o.hand.to_json(), "outcome": outcome_json(ledger, o)} for o in ledger.outcomes],
        "totals": {n: json_number(v) for n, v in zip(t.seats, ledger.totals, strict=True)},
        "next": {
            "hand": len(ledger.outcomes) + 1,
            "dealer": t.seats[ledger.next_dealer],
            "raise": ledger.next_raise,
            "reasons": _reasons(ledger.next_reasons),
            "point_value": json_number(ledger.next_point_value),
        },
        "settlement": settle(t.seats, ledger.totals).to_json(),
    }


def _cell(name: str) -> str:
    """A seat name as a spreadsheet shows it, never a formula (OWASP "CSV injection"): a name whose
    first visible character is ``= + - @`` or one a spreadsheet may read as them (full-width
    ``＝＋－＠``, small ``﹦﹢﹣﹫``: NFKC's forms), a tab or a carriage return, gets a leading
    ``'`` — also behind characters that show nothing (U+034F, a zero-width space, a byte-order
    mark, a Hangul filler, a space: :func:`ledger.names.shows_nothing`).

    >>> _cell("=HYPERLINK(1)"), _cell("张三"), _cell("＝1"), _cell("\u034f+1")
    ("'=HYPERLINK(1)", '张三', "'＝1", "'\u034f+1")
    """
    lead = next((ch for ch in name if not shows_nothing(ch)), "")
    formula = name[:1] in ("\t", "\r") or normalize("NFKC", lead)[:1] in _FORMULA
    name = visible(name)  # a control character stored before ledger.names refused it: U+FFFD
    return "'" + name if formula else name


_FORMULA = ("=", "+", "-", "@")


#: the CSV's words (headers, the kinds of hand) by key; ``delta`` / ``total`` name a seat's columns
CSV_WORDS = {
    "hand": "hand", "kind": "kind", "dealer": "dealer", "raise": "raise", "point_value": "point_value",
    "winners": "winners", "discarder": "discarder", "declarer": "declarer", "delta": "{seat} +/-",
    "total": "{seat} total", "win": "win", "drawn": "drawn", "false_win": "false_win",
    "follow": "follow", "followed": "followed", "follow_dragon": "a dragon", "follow_second": "second too",
    "kongs": "kongs of the others", "kong_cell": "{seat} {exposed} exposed {concealed} concealed",
    "note": "note",
}  # fmt: skip


def _follow(f: Follow, w: Mapping[str, str]) -> str:
    """A hand's 跟庄 facts in one cell: "" when not followed."""
    if not f.followed:
        return ""
    more = [w["follow_dragon"]] * f.dragon + [w["follow_second"]] * f.second
    return " · ".join([w["followed"], *more])


def _kongs(kongs: Mapping[int, tuple[int, int]], seats: Sequence[str], w: Mapping[str, str]) -> str:
    """新余 kongs of the players other than the winner in one cell, by seat."""
    cell = w["kong_cell"]
    each = sorted(kongs.items())
    return "; ".join(cell.format(seat=seats[s], exposed=e, concealed=c) for s, (e, c) in each)


#: the columns after the seats' money: each hand's other facts that move money, and its note
FACT_COLUMNS: tuple[tuple[str, Callable[[Hand, Sequence[str], Mapping[str, str]], str]], ...] = (
    ("follow", lambda h, seats, w: _follow(h.follow, w)),
    ("kongs", lambda h, seats, w: _kongs(h.kongs, seats, w)),
    ("note", lambda h, seats, w: _cell(h.note)),
)


def export_csv(ledger: Ledger, words: Mapping[str, str] | None = None) -> str:
    """One row per hand: number, kind, dealer, raise, point value, who won / paid, money per seat,
    then the hand's other facts (`FACT_COLUMNS`: 跟庄, 新余 kongs, the note); seat names and notes as
    text (:func:`_cell`; the JSON export keeps them as they are), every cell quoted.
    ``words``: the headers and kinds in another language (the keys of :data:`CSV_WORDS`; the app
    passes its catalog's), else English."""
    w_ = {**CSV_WORDS, **(words or {})}
    seats = tuple(_cell(s) for s in ledger.table.seats)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_ALL)
    head = ("hand", "kind", "dealer", "raise", "point_value", "winners", "discarder", "declarer")
    w.writerow([*(w_[k] for k in head), *(w_["delta"].format(seat=s) for s in seats),
                *(w_["total"].format(seat=s) for s in seats), *(w_[k] for k, _ in FACT_COLUMNS)])  # fmt: skip
    for o in ledger.outcomes:
        h = o.hand
        w.writerow([
            o.number, w_[h.kind], seats[o.dealer], o.raise_, json_number(o.point_value),
            " ".join(seats[x.seat] for x in h.winners),
            "" if h.discarder is None else seats[h.discarder],
            "" if h.declarer is None else seats[h.declarer],
            *(json_number(d) for d in o.deltas), *(json_number(t) for t in o.totals),
            *(cell(h, seats, w_) for _, cell in FACT_COLUMNS),
        ])  # fmt: skip
    return buf.getvalue()


def table_from_export(data: Any) -> tuple[Table, list[Hand]]:
    """The :class:`Table` and hands of an export (the import edge: each hand read from its JSON
    and checked in turn, :func:`ledger.book.read_hands`); raises ``bad_import`` on a wrong shape.

    An export is a table jxmj stored, so it is read as stored data (:class:`Table` ``stored``),
    exactly as the store reads its own rows: its house rules must have known keys and the right
    types, and their numbers must be whole and >= 0, but need not lie in today's bounds
    (ledger.rules.INT_RANGES, the largest raise), which hold for rules typed as new input
    (``jxmj table new --rules``, the app's 开一桌). So every export round-trips, whichever jxmj
    wrote it — a table stored before a bound existed included. Every hand is checked as it is
    read, and again as it is stored (``Store.create_table``): one the rules can no longer score
    is refused, named."""

    def bad(why: str) -> LedgerError:
        return LedgerError("bad_import", f"not a jxmj table export: {why}")

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise bad(f'expected a JSON object with "format": "{FORMAT}"')
    version = data.get("version")
    if isinstance(version, bool) or version not in READS:
        raise bad(f"version {shown(version)}; this jxmj reads versions {' and '.join(map(str, READS))}")
    t, hands = data.get("table"), data.get("hands")
    if not isinstance(t, dict) or not isinstance(hands, list):
        raise bad('it needs "table" (an object) and "hands" (a list)')
    if not isinstance(t.get("locked", False), bool):
        raise bad(f"locked must be true or false, not {shown(t['locked'])}")
    try:
        created = datetime.fromisoformat(t["created"]) if "created" in t else None
        variant: Any = t.get("variant")  # JSON as read: Table checks both (unknown_variant, bad_seats)
        seats: Any = t.get("seats")
        table = Table(
            variant, seats, t.get("base", 1), t.get("house_rules") or {},
            **({"created": created} if created else {}), code=str(t.get("code", "")),
            locked=t.get("locked", False), title=str(t.get("title", "")), stored=True,
        )  # fmt: skip
    except (TypeError, ValueError, KeyError) as e:
        if isinstance(e, LedgerError):
            raise bad(e.message) from None
        raise bad(f"its table is malformed ({e})") from None
    try:  # an import is new input: no control or format character in its names (ledger.names)
        for name in table.seats:
            check_text(name, "the seat name", "bad_import")
        check_text(table.title, "the title", "bad_import")
    except LedgerError as e:
        raise bad(e.message) from None
    if table.code:
        try:
            table = replace(table, code=normalize_code(table.code))
        except LedgerError:
            table = replace(table, code="")  # a fresh code is drawn
    if not all(isinstance(h, dict) for h in hands):
        raise bad("each hand must be an object")
    hands = [{k: v for k, v in h.items() if k != "outcome"} for h in hands]
    if version == 1:
        hands = [by_index(h) for h in hands]
    return table, read_hands(table, hands)
