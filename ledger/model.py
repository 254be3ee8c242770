"""Typed records of a table (牌局): the :class:`Table` and its recorded :class:`Hand` list.

Only facts are recorded: who won on whose discard (or self-draw 自摸), the winning hand
(:class:`ledger.recorded.Winner`: typed, without the fields the table decides), the 跟庄 facts of
九江, the kongs of the other players in 新余. Dealer, raise, payments and totals are
derived from the hand list by :func:`ledger.fold.replay` (DECISIONS §1.6, §2).
Seats are 0-3 in turn order (counter-clockwise round the table).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from typing import Any
from unicodedata import normalize

from ledger.errors import LedgerError, shown
from ledger.names import check_text, code_points, shows_nothing
from ledger.recorded import Winner
from ledger.rules import LedgerRules, largest_raise, load_ledger_rules, scoring_rules
from scoring import VARIANTS
from scoring.model import MAX_POINT_VALUE

__all__ = ["KINDS", "SEAT_COUNT", "Follow", "Hand", "Table", "Winner", "by_index", "parse_money"]

SEAT_COUNT = 4
#: ``kind`` of a recorded hand: a win (胡), a drawn hand (黄庄 / 荒牌), a false win (炸糊).
KINDS = ("win", "drawn", "false_win")
MAX_NAME = 24
MAX_TITLE = 80  # the tables.title column (VARCHAR(80))
#: Score-JSON fields the table decides (DECISIONS §1.5-1.6): never stored with a hand.
DERIVED_FIELDS = ("variant", "self_drawn", "winner_is_dealer", "point_value", "payers")


_MONEY = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
"""Money as text: ASCII digits with at most one decimal point, a minus at most (refused as not above
0); no plus, exponent, separator or space."""


def parse_money(value: Any, what: str = "base point value") -> Decimal:
    """A positive amount of money as :class:`Decimal` (``1``, ``0.5``, ``"2"``: text in ASCII
    digits), at most 4 decimals; raises :class:`LedgerError` ``bad_money`` naming the value."""
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        raise LedgerError("bad_money", f"the {what} must be a number, not {shown(value)}")
    if isinstance(value, str) and not value.isascii():  # Decimal("٢") is 2: digits of any script
        raise LedgerError("bad_money", f"the {what} must be a number in ASCII digits 0-9, not {shown(value)}")
    if isinstance(value, str) and not _MONEY.fullmatch(value):  # Decimal(" 1_0 ") is 10
        raise LedgerError("bad_money", f"the {what} must be a number such as 1 or 0.5, not {shown(value)}")
    try:
        d = Decimal(str(value))
    except InvalidOperation:
        raise LedgerError("bad_money", f"the {what} must be a number, not {shown(value)}") from None
    if not d.is_finite() or d <= 0 or d > 10**6 or d != d.quantize(Decimal("0.0001")):
        raise LedgerError(
            "bad_money", f"the {what} must be above 0, at most 1000000, 4 decimals at most: {shown(value)}"
        )
    return d.normalize() if d != d.to_integral() else d.quantize(Decimal(1))


@dataclass(frozen=True)
class Table:
    """A table (牌局): ``variant``, four ``seats`` (names in turn order), ``base`` point value
    (money per 炮 / per point before raises), ``house_rules`` (``{"ledger": {"section.key": v},
    "scoring": {table key: v}}``, the scoring keys of scoring/rules/overrides.py), ``created``
    (UTC), ``code`` (the key to its ledger), ``locked``. ``stored``: read back from the store or
    from an export (``ledger.exchange.table_from_export``): house-rule numbers need not lie in today's bounds
    (ledger.rules.INT_RANGES, the largest raise), so a table stored before a bound still loads;
    a hand it can no longer score is marked by the replay (ledger.fold), never the whole table."""

    variant: str
    seats: tuple[str, ...]
    base: Decimal = Decimal(1)
    house_rules: dict[str, dict[str, Any]] = field(default_factory=dict)
    created: datetime = field(default_factory=lambda: datetime.now(UTC).replace(microsecond=0))
    code: str = ""
    locked: bool = False
    title: str = ""
    stored: bool = field(default=False, repr=False, compare=False, kw_only=True)

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise LedgerError(
                "unknown_variant", f"unknown variant {shown(self.variant)}: use {', '.join(VARIANTS)}"
            )
        names = tuple(str(n).strip() for n in self.seats) if isinstance(self.seats, list | tuple) else ()
        if len(names) != SEAT_COUNT or not all(names):
            raise LedgerError(
                "bad_seats", f"a table has {SEAT_COUNT} seats, each with a name: got {shown(self.seats)}"
            )
        if not self.stored:  # typed names: one form (NFC), and none that reads as another (NFKC)
            names = tuple(normalize("NFC", n) for n in names)
        keys = names if self.stored else {normalize("NFKC", n) for n in names}  # a stored table opens
        if len(set(keys)) != SEAT_COUNT or max(map(len, names)) > MAX_NAME:
            raise LedgerError(
                "bad_seats", f"seat names must differ and be at most {MAX_NAME} characters: {shown(names)}"
            )
        object.__setattr__(self, "seats", names)
        if not isinstance(self.title, str) or len(self.title) > MAX_TITLE:
            n = len(self.title) if isinstance(self.title, str) else shown(self.title)
            raise LedgerError("bad_title", f"the title is at most {MAX_TITLE} characters, not {n}")
        if not self.stored:  # new names and titles only: a stored table still opens (ledger.names)
            for i, name in enumerate(names):
                check_text(name, "the seat name", "bad_seats")
                if shows_nothing(name):  # "\u0301": strip() leaves it, yet nobody sees a name
                    raise LedgerError(
                        "bad_seats",
                        f"a table has {SEAT_COUNT} seats, each with a name: seat {i}'s name "
                        f"({code_points(name)}) shows nothing, only combining marks or blank characters",
                    )
            check_text(self.title, "the title", "bad_title")
        object.__setattr__(self, "base", parse_money(self.base))
        hr = {} if self.house_rules is None else self.house_rules  # [] or 0 is named below
        if (
            not isinstance(hr, dict)
            or set(hr) - {"ledger", "scoring"}
            or not all(isinstance(v, dict) for v in hr.values())
        ):
            raise LedgerError(
                "bad_rule", 'house rules are {"ledger": {"section.key": value}, "scoring": {option: value}}'
            )
        # an unknown key is refused at once; the bounds only on new input (a stored table loads)
        lr = load_ledger_rules(self.variant, hr.get("ledger"), bounded=not self.stored)
        if not self.stored and self.base * largest_raise(lr) > MAX_POINT_VALUE:  # a later hand would fail
            raise LedgerError(
                "bad_rule",
                f"with these house rules the raises can multiply the base {self.base} beyond "
                f"{MAX_POINT_VALUE:,} per 炮, more than any hand can be scored at: use raises.combine "
                "= max, smaller raises, a shorter drawn.window or a smaller base",
            )
        scoring_rules(self.variant, hr.get("scoring"))
        object.__setattr__(self, "house_rules", {k: dict(v) for k, v in hr.items() if v})

    @property
    def ledger_rules(self) -> LedgerRules:
        """This table's ledger rules (ledger.rules, DECISIONS §1.6), checked when the table was made,
        so never refused by a bound added since (``stored``); cached in :func:`load_ledger_rules`.

        >>> old = Table("jiujiang", ("a", "b", "c", "d"), 1, {"ledger": {"drawn.raise": 100}}, stored=True)
        >>> old.ledger_rules["drawn.raise"]
        100
        """
        return load_ledger_rules(self.variant, self.house_rules.get("ledger"), bounded=False)

    def seat(self, value: Any) -> int:
        """Seat index of ``value``: an index 0-3 (a number, or its ASCII digit where no seat has that
        name: at a table of 1 2 3 4, ``"1"`` is the seat named 1) or a seat name. Raises ``unknown_seat``."""
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < SEAT_COUNT:
            return value
        if isinstance(value, str) and (named := self.seat_named(value)) is not None:
            return named
        if isinstance(value, str) and value.strip() in ("0", "1", "2", "3"):  # not "١" or "²"
            return int(value)
        raise LedgerError(
            "unknown_seat", f"unknown seat {shown(value)}: the seats are 0-3 or {', '.join(self.seats)}"
        )

    def seat_named(self, name: str) -> int | None:
        """The seat whose name is ``name`` (spaces round it aside, in either Unicode form: an
        ``é`` typed as ``e`` + a combining accent is the seat ``é``), or None."""
        key = normalize("NFC", name.strip())
        return next((i for i, seat in enumerate(self.seats) if normalize("NFC", seat) == key), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "title": self.title,
            "variant": self.variant,
            "seats": list(self.seats),
            "base": _num(self.base),
            "house_rules": self.house_rules,
            "created": self.created.isoformat(),
            "locked": self.locked,
        }


@dataclass(frozen=True)
class Follow:
    """九江 跟庄 facts of a hand (DECISIONS §1.6): the three others ``followed`` the dealer's first
    discard; that discard was 中/白 (``dragon``); the ``second`` discard was followed too."""

    followed: bool = False
    dragon: bool = False
    second: bool = False

    @classmethod
    def from_json(cls, data: Any) -> Follow:
        if data in (None, False):
            return cls()
        if data is True:
            return cls(True)
        if not isinstance(data, dict) or set(data) - {"followed", "dragon", "second"}:
            raise LedgerError(
                "bad_hand", 'follow (跟庄) is {"followed": bool, "dragon": bool, "second": bool}'
            )
        if not all(isinstance(v, bool) for v in data.values()):
            raise LedgerError("bad_hand", "follow (跟庄) fields are true or false")
        f = cls(**data)
        if (f.dragon or f.second) and not f.followed:
            raise LedgerError(
                "bad_hand", "跟庄: a 中/白 first discard or a followed second discard needs followed = true"
            )
        return f

    def to_json(self) -> dict[str, bool] | None:
        return {"followed": True, "dragon": self.dragon, "second": self.second} if self.followed else None


MAX_NOTE = 200
"""The most characters a hand's ``note`` holds (the parser's, the CLI's and the app's limit)."""


@dataclass(frozen=True)
class Hand:
    """A recorded hand. ``kind``: ``win`` (``winners``, ``discarder`` seat or None for 自摸; several
    winners only on one discard, 一炮多响), ``drawn`` (黄庄), ``false_win`` (炸糊 by ``declarer``).
    ``follow``: 九江 跟庄 facts. ``kongs``: 新余 kongs of players other than the winner,
    ``{seat: (exposed, concealed)}`` (DECISIONS §2 kong money); as JSON
    ``[{"seat": index, "exposed": n, "concealed": n}]``."""

    kind: str
    winners: tuple[Winner, ...] = ()
    discarder: int | None = None
    declarer: int | None = None
    follow: Follow = Follow()
    kongs: dict[int, tuple[int, int]] = field(default_factory=dict)
    note: str = ""
    recorded: str = ""

    @property
    def self_drawn(self) -> bool:
        return self.kind == "win" and self.discarder is None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.kind == "win":
            out["winners"] = [w.to_json() for w in self.winners]
            out["discarder"] = self.discarder
        if self.kind == "false_win":
            out["declarer"] = self.declarer
        if self.follow.followed:
            out["follow"] = self.follow.to_json()
        if self.kongs:  # the seat as an index, like a winner's: a list, never keys ("2" may be a name)
            out["kongs"] = [
                {"seat": s, "exposed": e, "concealed": c} for s, (e, c) in sorted(self.kongs.items())
            ]
        if self.note:
            out["note"] = self.note
        if self.recorded:
            out["recorded"] = self.recorded
        return out


def by_index(old: Any) -> Any:
    """Hand JSON of store schema v1-v2 and export version 1, in today's form.

    Those key 新余 ``kongs`` and each winner's ``eaten`` by the seat index as text
    (``{"2": {...}}``). Today they are lists, ``[{"seat": 2, ...}]``, so that a seat named "2" is
    not seat 2. A key that is no number (a name, in a hand-typed file) is kept as the seat.
    Anything else is returned unchanged, for the parser to name.

    >>> by_index({"kind": "drawn", "kongs": {"2": {"exposed": 1}, "张三": [0, 1]}})["kongs"]
    [{'seat': 2, 'exposed': 1}, {'seat': '张三', 'exposed': 0, 'concealed': 1}]
    >>> by_index({"winners": [{"seat": 0, "hand": {}, "eaten": {"3": {"bonus_tiles": 1}}}]})["winners"]
    [{'seat': 0, 'hand': {}, 'eaten': [{'seat': 3, 'bonus_tiles': 1}]}]
    >>> by_index({"kongs": {"2": {"seat": 1, "exposed": 1}}})["kongs"]  # not moved to seat 1
    [{'seat': 2, 'value': {'seat': 1, 'exposed': 1}}]
    """
    if not isinstance(old, dict):
        return old
    new = dict(old)
    if isinstance(old.get("kongs"), dict):
        new["kongs"] = _listed(old["kongs"], lambda v: {"exposed": v[0], "concealed": v[1]})
    if isinstance(old.get("winners"), list):
        new["winners"] = [
            {**w, "eaten": _listed(w["eaten"])}
            if isinstance(w, dict) and isinstance(w.get("eaten"), dict)
            else w
            for w in old["winners"]
        ]
    return new


def _listed(by_key: dict, pair: Any = None) -> list[dict[str, Any]]:
    out = []
    for key, v in by_key.items():
        seat: Any = int(key) if key.isdecimal() and key.isascii() and len(key) < 9 else key
        if pair and isinstance(v, list | tuple) and len(v) == 2:
            v = pair(v)
        # facts that name a seat of their own are not facts: kept whole, for the parser to name
        # (``{"seat": seat, **v}`` let an inner "seat" move them to another seat)
        plain = isinstance(v, dict) and "seat" not in v
        out.append({"seat": seat, **v} if plain else {"seat": seat, "value": v})
    return out


def _num(d: Decimal) -> int | float:
    """A Decimal as a JSON number: an int when whole (``15``, not ``15.0``)."""
    return int(d) if d == d.to_integral() else float(d)
