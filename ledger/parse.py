"""Hand JSON in: :func:`parse_hand` turns a recorded hand's JSON into a :class:`Hand`.

Two forms are read: the input form (a winner's ``hand`` is score JSON, docs/score-json.md,
whose ``payers`` list gives the 吃炮 facts; ``winner_is_dealer``, ``point_value`` and payer
``is_dealer`` may be given but must agree with the table) and the stored form (the same
without those fields, 吃炮 facts under ``eaten``: ``[{"seat", ...}]``). A seat is an index 0-3 or a
name (:meth:`Table.seat`: the number 2 is seat 2; the text "2" is the seat named "2" where
there is one, else seat 2).
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from ledger.errors import LedgerError
from ledger.model import DERIVED_FIELDS, KINDS, MAX_NOTE_CHARS, SEAT_COUNT, Follow, Hand, Table
from ledger.names import unprintable
from ledger.recorded import RecordedHand, Winner
from scoring import HandError, HandInput
from scoring.jsontype import json_type, non_finite
from scoring.model import SET_KEYS

__all__ = ["Context", "parse_hand", "payer_seats", "read_winner"]

_HAND_KEYS = {
    "kind",
    "winners",
    "discarder",
    "declarer",
    "follow",
    "kongs",
    "note",
    "recorded",
    "seat",
    "hand",
}
_PAYER_FACTS = ("bonus_tiles", "melds", "ready_declared", *SET_KEYS)


class Context:
    """What the table decides for the hand being parsed: its ``number`` (1-based), ``dealer``
    seat and ``point_value`` (base x raise, DECISIONS §1.6). ``None`` skips those checks.
    ``lenient``: a stored hand (the store reading its rows): a winner's hand that no longer
    reads is kept with its ``problem`` for the replay to mark, not refused."""

    def __init__(
        self,
        number: int,
        dealer: int | None = None,
        point_value: Decimal | None = None,
        *,
        lenient: bool = False,
    ) -> None:
        self.number, self.dealer, self.point_value = number, dealer, point_value
        self.lenient = lenient


def payer_seats(winner: int, discarder: int | None) -> tuple[int, ...]:
    """Who pays a winner (DECISIONS §1.5): the discarder alone, or on a self-draw the three
    others in turn order from the winner.

    >>> payer_seats(1, None), payer_seats(1, 3)
    ((2, 3, 0), (3,))
    """
    if discarder is not None:
        return (discarder,)
    return tuple((winner + i) % SEAT_COUNT for i in range(1, SEAT_COUNT))


def _fail(ctx: Context, message: str, code: str = "bad_hand") -> LedgerError:
    return LedgerError(code, f"hand {ctx.number}: {message}")


def parse_hand(table: Table, data: Any, ctx: Context) -> Hand:
    """Parse one hand for ``table``; raises :class:`LedgerError` naming the field at fault
    (codes ``bad_hand``, ``unknown_seat``, ``payers_contradict_seats``, ``not_the_dealer``)."""
    if not isinstance(data, dict):
        raise _fail(ctx, f"a hand is a JSON object, not {json_type(data)}")
    bad = None if ctx.lenient else non_finite(data)  # an annotation is stored as given
    if bad is not None:
        raise _fail(ctx, f"it holds {json_type(bad)}, which is not a finite number: give a number")
    unknown = sorted(set(data) - _HAND_KEYS)
    if unknown:
        raise _fail(ctx, f"unknown field {unknown[0]!r} (a hand has {', '.join(sorted(_HAND_KEYS))})")
    kind = data.get("kind", "win")
    if kind not in KINDS:
        raise _fail(ctx, f"unknown kind {kind!r}: use {', '.join(KINDS)}")
    note = data.get("note", "")
    if not isinstance(note, str) or len(note) > MAX_NOTE_CHARS:
        raise _fail(ctx, f"note must be text of at most {MAX_NOTE_CHARS} characters")
    hidden = None if ctx.lenient else unprintable(note)  # as a seat name: no NUL, line break, U+202E
    if hidden:
        raise _fail(ctx, f"the note {note!r} holds {hidden}, a control or format character: leave it out")
    seat = _seat_of(table, ctx)
    common: dict[str, Any] = {
        "follow": _follow(data.get("follow"), ctx),
        "kongs": _kongs(table, data.get("kongs"), ctx),
        "note": note,
        "recorded": str(data.get("recorded", "")),
    }
    if kind == "drawn":
        _none_of(data, ("winners", "discarder", "declarer", "seat", "hand"), "a drawn hand (黄庄)", ctx)
        return Hand("drawn", **common)
    if kind == "false_win":
        _none_of(data, ("winners", "discarder", "seat", "hand"), "a false win (炸糊)", ctx)
        if data.get("declarer") is None:
            raise _fail(ctx, "a false win (炸糊) needs the declarer's seat")
        return Hand("false_win", declarer=seat(data["declarer"]), **common)
    _none_of(data, ("declarer",), "a win", ctx)
    raw = data.get("winners")
    if raw is None and "seat" in data:
        raw = [{"seat": data["seat"], "hand": data.get("hand")}]
    elif "seat" in data or "hand" in data:
        raise _fail(ctx, "give either winners or seat + hand, not both")
    if not isinstance(raw, list) or not raw or len(raw) > SEAT_COUNT - 1:
        raise _fail(ctx, "a win needs winners: a list of 1 to 3 {seat, hand} objects")
    discarder = None if data.get("discarder") is None else seat(data["discarder"])
    winners = tuple(_winner(table, w, discarder, ctx) for w in raw)
    seats = [w.seat for w in winners]
    if len(set(seats)) != len(seats):
        raise _fail(ctx, "the same seat is given twice as a winner")
    if discarder is None and len(winners) > 1:
        raise _fail(ctx, "several winners are possible only on one discard (一炮多响): give the discarder")
    if discarder in seats:
        raise _fail(
            ctx, f"{table.seats[discarder]} cannot win on their own discard", "payers_contradict_seats"
        )
    return Hand("win", winners, discarder, **common)


def read_winner(variant: str, data: Any, discarder: int | None) -> Winner:
    """One winner's own JSON (:meth:`Winner.to_json`, seats as indexes) read back as on a table of
    ``variant`` (the app's draft of winners entered before on the same discard)."""
    return _winner(Table(variant, ("0", "1", "2", "3")), data, discarder, Context(0))


def _seat_of(table: Table, ctx: Context) -> Callable[[Any], int]:
    def seat(value: Any) -> int:
        try:
            return table.seat(value)
        except LedgerError as e:
            raise _fail(ctx, e.message, e.code) from None

    return seat


def _none_of(data: dict[str, Any], keys: tuple[str, ...], what: str, ctx: Context) -> None:
    for k in keys:
        if data.get(k) not in (None, [], {}):
            raise _fail(ctx, f"{what} has no {k}")


def _follow(data: Any, ctx: Context) -> Follow:
    try:
        return Follow.from_json(data)
    except LedgerError as e:
        raise _fail(ctx, e.message, e.code) from None


def _count(v: Any, what: str, ctx: Context) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 4:
        raise _fail(ctx, f"{what} must be a whole number 0-4, not {v!r}")
    return v


def _by_seat(table: Table, data: Any, what: str, ctx: Context) -> list[tuple[int, Any]]:
    """``[{"seat", ...fields}]`` (``seat`` as every seat is given: :meth:`Table.seat`) or
    ``{seat: fields}`` whose keys are seats written as text, read by the same :meth:`Table.seat`
    (the seat named "2" first, else seat 2): ``(seat index, fields)`` pairs, each seat once."""
    if isinstance(data, dict):
        entries = list(data.items())
    elif isinstance(data, list) and all(isinstance(k, dict) and "seat" in k for k in data):
        entries = [(k["seat"], {f: v for f, v in k.items() if f != "seat"}) for k in data]
    else:
        raise _fail(ctx, f'{what} are [{{"seat": seat, ...}}, ...] (docs/ledger-json.md)')
    out: list[tuple[int, Any]] = []
    for key, v in entries:
        s = _seat_of(table, ctx)(key)
        if any(s == seen for seen, _ in out):
            raise _fail(ctx, f"{table.seats[s]}'s {what} are given twice (by name and by number?)")
        out.append((s, v))
    return out


def _kongs(table: Table, data: Any, ctx: Context) -> dict[int, tuple[int, int]]:
    """新余 kongs: ``[{"seat", "exposed", "concealed"}]`` or ``{seat: {...}}`` (:func:`_by_seat`)."""
    out: dict[int, tuple[int, int]] = {}
    for s, v in _by_seat(table, data or {}, "kongs", ctx):
        if isinstance(v, list | tuple) and len(v) == 2:
            v = {"exposed": v[0], "concealed": v[1]}
        if not isinstance(v, dict) or set(v) - {"exposed", "concealed"}:
            raise _fail(ctx, f'kongs of {table.seats[s]} are {{"exposed": n, "concealed": n}}')
        e, c = (_count(v.get(k, 0), f"{table.seats[s]}'s {k} kongs", ctx) for k in ("exposed", "concealed"))
        if e or c:
            out[s] = (e, c)
    return out


def _winner(table: Table, data: Any, discarder: int | None, ctx: Context) -> Winner:
    if not isinstance(data, dict) or set(data) - {"seat", "hand", "eaten"} or "seat" not in data:
        raise _fail(ctx, "each winner is {seat, hand} (hand: the score JSON of docs/score-json.md)")
    seat = _seat_of(table, ctx)(data["seat"])
    name = table.seats[seat]
    hand = data.get("hand")
    if not isinstance(hand, dict):
        raise _fail(ctx, f"{name}'s hand must be a score-JSON object (docs/score-json.md)")
    _agree(hand, "variant", table.variant, f"the table plays {table.variant}", ctx)
    _agree(hand, "self_drawn", discarder is None, "self_drawn must agree with the discarder", ctx)
    if ctx.dealer is not None:
        dealer = table.seats[ctx.dealer]
        _agree(hand, "winner_is_dealer", seat == ctx.dealer, f"the dealer of this hand is {dealer}", ctx)
    if ctx.point_value is not None and "point_value" in hand:
        pv = hand["point_value"]
        if isinstance(pv, bool) or not isinstance(pv, int | float) or Decimal(str(pv)) != ctx.point_value:
            raise _fail(
                ctx, f"point_value comes from the table ({ctx.point_value} for this hand): leave it out"
            )
    paying = payer_seats(seat, discarder)
    eaten = dict(_by_seat(table, data.get("eaten") or {}, "吃炮 facts (eaten)", ctx))
    for s, facts in eaten.items():
        if s not in paying:
            raise _fail(
                ctx, f"吃炮 facts for {table.seats[s]}, who does not pay {name}", "payers_contradict_seats"
            )
        if not isinstance(facts, dict) or set(facts) - set(_PAYER_FACTS):
            raise _fail(ctx, f"吃炮 facts of {table.seats[s]} are some of {', '.join(_PAYER_FACTS)}")
    eaten.update(_payers(table, hand.get("payers"), paying, name, ctx))
    clean = {k: v for k, v in hand.items() if k not in DERIVED_FIELDS}
    eaten = {s: f for s, f in eaten.items() if f}
    recorded = {"hand": clean, "eaten": eaten}
    try:  # the engine's type checks, once, here at the edge (the fold gets typed values)
        typed = HandInput.from_json(
            {**clean, "variant": table.variant, "self_drawn": discarder is None,
             "payers": [eaten.get(s, {}) for s in paying]}
        )  # fmt: skip
    except HandError as e:
        if not ctx.lenient:
            raise _fail(ctx, f"{name}'s hand: {e}", e.code) from None
        return Winner(seat, None, {}, recorded, e)  # a stored hand that no longer reads
    assert typed.payers is not None
    facts = {s: p for s, p in zip(paying, typed.payers, strict=True) if s in eaten}
    return Winner(seat, RecordedHand.of(typed), facts, recorded)


def _agree(hand: dict[str, Any], key: str, want: Any, why: str, ctx: Context) -> None:
    if key in hand and hand[key] != want:
        raise _fail(ctx, f"{key} = {hand[key]!r} contradicts the table: {why}", "payers_contradict_seats")


def _payers(
    table: Table, raw: Any, paying: tuple[int, ...], name: str, ctx: Context
) -> dict[int, dict[str, Any]]:
    if raw is None:
        return {}
    who = ", ".join(table.seats[s] for s in paying)
    if not isinstance(raw, list) or len(raw) > len(paying):
        raise _fail(ctx, f"{name} is paid by {who}: at most {len(paying)} payers", "payers_contradict_seats")
    out: dict[int, dict[str, Any]] = {}
    for i, p in enumerate(raw):
        if not isinstance(p, dict):
            raise _fail(ctx, f"payer {i + 1} must be an object")
        s = paying[i]
        if "name" in p:
            named = table.seat_named(p["name"]) if isinstance(p["name"], str) else None
            if named not in paying:
                raise _fail(
                    ctx,
                    f"payer {p['name']!r} does not pay {name}: the payers are {who}",
                    "payers_contradict_seats",
                )
            s = named
        if s in out:
            raise _fail(ctx, f"{table.seats[s]} is given twice among the payers", "payers_contradict_seats")
        if ctx.dealer is not None and "is_dealer" in p and p["is_dealer"] != (s == ctx.dealer):
            dealer = table.seats[ctx.dealer]
            raise _fail(
                ctx,
                f"payer {table.seats[s]}: is_dealer contradicts the table (the dealer is {dealer})",
                "not_the_dealer",
            )
        out[s] = {k: p[k] for k in _PAYER_FACTS if k in p and p[k] not in (0, False, [], None)}
        extra = set(p) - {"name", "is_dealer", *_PAYER_FACTS}
        if extra:
            raise _fail(ctx, f"payer {table.seats[s]}: unknown field {sorted(extra)[0]!r}")
    return out
