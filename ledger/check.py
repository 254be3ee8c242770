"""A typed :class:`Hand` in: :func:`check_hand` checks one built in Python against its table.

The JSON edge (:func:`ledger.parse.parse_hand`: the CLI, an import, the store reading its rows)
checks shapes and turns JSON into types; a hand already typed (the app's editor, an edit made by
:func:`dataclasses.replace`) is checked here for what the types cannot say: seats of the table,
who may win on whose discard, who pays, counts 0-4, the note's length. Same codes and words as
the parser (``bad_hand``, ``unknown_seat``, ``payers_contradict_seats``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ledger.errors import LedgerError
from ledger.model import KINDS, MAX_NOTE_CHARS, SEAT_COUNT, Hand, Table
from ledger.parse import payer_seats
from ledger.recorded import Winner

__all__ = ["check_hand"]

_Fail = Callable[..., LedgerError]
_Seat = Callable[[int | None, str], None]


def check_hand(table: Table, hand: Hand, number: int) -> Hand:
    """``hand`` as hand ``number`` of ``table``, checked (raises :class:`LedgerError` naming
    the fact at fault); 新余 kongs of (0, 0) are dropped, as the parser drops them."""

    def fail(message: str, code: str = "bad_hand") -> LedgerError:
        return LedgerError(code, f"hand {number}: {message}")

    def seat(value: int | None, what: str) -> None:
        if value is not None and (isinstance(value, bool) or not 0 <= value < SEAT_COUNT):
            raise fail(f"{what} must be a seat 0-{SEAT_COUNT - 1}, not {value!r}", "unknown_seat")

    if hand.kind not in KINDS:
        raise fail(f"unknown kind {hand.kind!r}: use {', '.join(KINDS)}")
    if len(hand.note) > MAX_NOTE_CHARS:
        raise fail(f"note must be text of at most {MAX_NOTE_CHARS} characters")
    f = hand.follow
    if (f.dragon or f.second) and not f.followed:
        raise fail("跟庄: a 中/白 first discard or a followed second discard needs followed = true")
    for s, counts in hand.kongs.items():
        seat(s, "a kong's seat")
        if any(isinstance(n, bool) or not 0 <= n <= 4 for n in counts):
            raise fail(f"{table.seats[s]}'s kongs must be whole numbers 0-4, not {counts!r}")
    kongs = {s: c for s, c in sorted(hand.kongs.items()) if any(c)}
    if hand.kind != "win" and (hand.winners or hand.discarder is not None):
        raise fail(f"a {hand.kind} hand has no winners and no discarder")
    if hand.kind == "false_win":
        if hand.declarer is None:
            raise fail("a false win (炸糊) needs the declarer's seat")
        seat(hand.declarer, "the declarer")
    elif hand.declarer is not None:
        raise fail(f"a {hand.kind} hand has no declarer")
    if hand.kind == "win":
        _winners(table, hand, fail, seat)
    return replace(hand, kongs=kongs) if kongs != hand.kongs else hand


def _winners(table: Table, hand: Hand, fail: _Fail, seat: _Seat) -> None:
    seat(hand.discarder, "the discarder")
    if not hand.winners or len(hand.winners) > SEAT_COUNT - 1:
        raise fail("a win needs winners: a list of 1 to 3 {seat, hand} objects")
    seats = [w.seat for w in hand.winners]
    if len(set(seats)) != len(seats):
        raise fail("the same seat is given twice as a winner")
    if hand.discarder is None and len(seats) > 1:
        raise fail("several winners are possible only on one discard (一炮多响): give the discarder")
    for w in hand.winners:
        _winner(table, w, hand.discarder, fail, seat)


def _winner(table: Table, w: Winner, discarder: int | None, fail: _Fail, seat: _Seat) -> None:
    seat(w.seat, "a winner's seat")
    name = table.seats[w.seat]
    if w.seat == discarder:
        raise fail(f"{name} cannot win on their own discard", "payers_contradict_seats")
    if w.hand is None:
        if w.problem is not None:
            raise fail(f"{name}'s hand: {w.problem}", w.problem.code)
        raise fail(f"{name}'s hand is missing")
    paying = payer_seats(w.seat, discarder)
    for s in w.eaten:
        if s not in paying:
            raise fail(f"吃炮 facts for {table.seats[s]}, who does not pay {name}", "payers_contradict_seats")
