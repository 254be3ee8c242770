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
from typing import Any, NamedTuple
from unicodedata import normalize

from ledger.book import read_hands
from ledger.codes import normalize_code
from ledger.errors import LedgerError, shown
from ledger.fold import HandOutcome, Ledger, Raise
from ledger.model import Follow, Hand, Table, by_index
from ledger.names import check_text, shows_nothing, visible
from ledger.settle import settle
from scoring.result import json_number

__all__ = [
    "COLUMNS",
    "CSV_WORDS",
    "FORMAT",
    "Column",
    "export_csv",
    "export_json",
    "outcome_json",
    "table_from_export",
]

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


class Row(NamedTuple):
    """One hand as its CSV row sees it: its outcome, the hand, the seats as cells, the words."""

    o: HandOutcome
    h: Hand
    seats: tuple[str, ...]
    w: Mapping[str, str]


class Column(NamedTuple):
    """A CSV column: its word's key (``csv.<key>`` in the app's catalogs), its English word and
    its cell; ``per_seat``: one column a seat, the word naming ``{seat}``, the cells a tuple."""

    key: str
    en: str
    cell: Callable[[Row], Any]
    per_seat: bool = False


def _seat(r: Row, s: int | None) -> str:
    return "" if s is None else r.seats[s]


#: the CSV's columns, in order: header and value side by side (a new column: one line here, and
#: its word ``csv.<key>`` in both catalogs)
COLUMNS: tuple[Column, ...] = (
    Column("hand", "hand", lambda r: r.o.number),
    Column("kind", "kind", lambda r: r.w[r.h.kind]),
    Column("dealer", "dealer", lambda r: r.seats[r.o.dealer]),
    Column("raise", "raise", lambda r: r.o.raise_),
    Column("point_value", "point_value", lambda r: json_number(r.o.point_value)),
    Column("winners", "winners", lambda r: " ".join(r.seats[x.seat] for x in r.h.winners)),
    Column("discarder", "discarder", lambda r: _seat(r, r.h.discarder)),
    Column("declarer", "declarer", lambda r: _seat(r, r.h.declarer)),
    Column("delta", "{seat} +/-", lambda r: tuple(json_number(d) for d in r.o.deltas), per_seat=True),
    Column("total", "{seat} total", lambda r: tuple(json_number(t) for t in r.o.totals), per_seat=True),
    Column("follow", "follow", lambda r: _follow(r.h.follow, r.w)),
    Column("kongs", "kongs of the others", lambda r: _kongs(r.h.kongs, r.seats, r.w)),
    Column("note", "note", lambda r: _cell(r.h.note)),
)

#: the CSV's words by key: the columns' (`COLUMNS`), the kinds of hand and the words inside cells
CSV_WORDS = {
    **{c.key: c.en for c in COLUMNS}, "win": "win", "drawn": "drawn", "false_win": "false_win",
    "followed": "followed", "follow_dragon": "a dragon", "follow_second": "second too",
    "kong_cell": "{seat} {exposed} exposed {concealed} concealed",
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


def export_csv(ledger: Ledger, words: Mapping[str, str] | None = None) -> str:
    """One row per hand, a cell per column of `COLUMNS` (number, kind, dealer, raise, point value,
    who won / paid, money per seat, 跟庄, 新余 kongs, the note); seat names and notes as text
    (:func:`_cell`; the JSON export keeps them as they are), every cell quoted.
    ``words``: the headers and kinds in another language (the keys of :data:`CSV_WORDS`; the app
    passes its catalog's), else English."""
    w_ = {**CSV_WORDS, **(words or {})}
    seats = tuple(_cell(s) for s in ledger.table.seats)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_ALL)
    w.writerow(
        [
            h
            for c in COLUMNS
            for h in ([w_[c.key].format(seat=s) for s in seats] if c.per_seat else [w_[c.key]])
        ]
    )
    for o in ledger.outcomes:
        r = Row(o, o.hand, seats, w_)
        w.writerow([v for c in COLUMNS for v in (c.cell(r) if c.per_seat else (c.cell(r),))])
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

    def bad(why: str, cause: str = "") -> LedgerError:
        return LedgerError("bad_import", f"not a jxmj table export: {why}", cause)

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise bad(f'expected a JSON object with "format": "{FORMAT}"')
    version = data.get("version")
    if isinstance(version, bool) or version not in READS:
        reads = " and ".join(map(str, READS))
        raise bad(f"version {shown(version)}; this jxmj reads versions {reads}", "import_version")
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
            raise bad(e.message, e.code) from None
        raise bad(f"its table is malformed ({e})") from None
    try:  # an import is new input: no control or format character in its names (ledger.names)
        for name in table.seats:
            check_text(name, "the seat name", "bad_import")
        check_text(table.title, "the title", "bad_import")
    except LedgerError as e:
        raise bad(e.message, "import_names") from None
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
