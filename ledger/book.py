"""Pure edits of a hand list: :func:`add_hand`, :func:`edit_hand`; each checks the new list.

Both take a typed :class:`Hand` (built by the app, or read from JSON at an edge by
:func:`read_hand`) and return it checked and stamped with the replayed :class:`Ledger` of the
new list, or raise :class:`LedgerError` naming the hand at fault — also when an edit of an early
hand makes a later one impossible (a later 地胡 whose discarder is no longer the dealer, say), so
a stored ledger always replays cleanly. ``ledger.store`` wraps these in a checked transaction.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from ledger.check import check_hand
from ledger.errors import LedgerError
from ledger.fold import Ledger, extend, replay
from ledger.model import Hand, Table
from ledger.parse import Context, parse_hand

__all__ = ["CheckedHands", "add_hand", "edit_hand", "read_hand", "read_hands"]


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def _before(table: Table, hands: list[Hand] | tuple[Hand, ...], before: Ledger | None) -> Ledger:
    if before is None:
        return replay(table, hands, strict=False)
    if before.table != table or len(before.outcomes) != len(hands):
        raise ValueError(f"before is not the replay of these {len(hands)} hands of this table")
    return before


def read_hand(
    table: Table, hands: list[Hand] | tuple[Hand, ...], data: Any, number: int | None = None,
    *, before: Ledger | None = None,
) -> Hand:  # fmt: skip
    """The JSON edge (the CLI, an import): ``data`` parsed as hand ``number`` (default: the next,
    ``len(hands) + 1``), checked against the dealer and point value the table derives for it
    from the hands before it (``before``: their replay, when already made)."""
    number = len(hands) + 1 if number is None else number
    if not 1 <= number <= len(hands) + 1:
        raise LedgerError("no_such_hand", f"no hand {number}: the table has {len(hands)} hands")
    prefix = hands[: number - 1]
    led = _before(table, prefix, before if before is not None and number == len(hands) + 1 else None)
    return parse_hand(table, data, Context(number, led.next_dealer, led.next_point_value))


def add_hand(
    table: Table, hands: list[Hand] | tuple[Hand, ...], hand: Hand, *, before: Ledger | None = None
) -> tuple[Hand, Ledger]:
    """Check ``hand`` as hand ``len(hands) + 1`` and replay the list with it appended.

    ``before``: the replay of ``table`` and ``hands`` already made (``TableRecord.ledger()``,
    strict or not). The new hand is then folded onto it — one hand scored, not the whole table
    again — with the same result and the same errors; raises :class:`ValueError` if it is the
    replay of another table or of another number of hands.
    """
    before = _before(table, hands, before)
    hand = _stamped(check_hand(table, hand, len(hands) + 1))
    return hand, extend(before, hand)  # the strict replay of the new list, one hand folded


def edit_hand(table: Table, hands: list[Hand], number: int, hand: Hand) -> tuple[Hand, Ledger]:
    """Replace hand ``number`` (1-based) by ``hand`` and replay: every later hand is recomputed."""
    if not 1 <= number <= len(hands):
        raise LedgerError("no_such_hand", f"no hand {number}: the table has {len(hands)} hands")
    prefix = replay(table, hands[: number - 1], strict=False)
    hand = _stamped(check_hand(table, hand, number))
    return hand, extend(prefix, hand, *hands[number:])  # the prefix is folded once, not twice


def _stamped(hand: Hand) -> Hand:
    return hand if hand.recorded else replace(hand, recorded=_now())


class CheckedHands(list[Hand]):
    """Hands of `table` checked one by one as they were read (:func:`read_hands`), with `ledger`,
    their strict replay: storing them (``Store.create_table``) need not score each hand again."""

    def __init__(self, table: Table, hands: list[Hand], ledger: Ledger) -> None:
        super().__init__(hands)
        self.table, self.ledger = table, ledger

    def replay_of(self, table: Table) -> Ledger | None:
        """`ledger`, if it is still the strict replay of this list at `table` (the very hands it
        folded, none changed since), else None (check them again)."""
        outcomes = self.ledger.outcomes
        same = table == self.table and len(outcomes) == len(self)
        return self.ledger if same and all(o.hand is h for o, h in zip(outcomes, self, strict=True)) else None


def read_hands(table: Table, data: list[Any] | tuple[Any, ...]) -> CheckedHands:
    """The JSON edge for a whole list (an import): each hand read as :func:`read_hand` reads it,
    then folded onto the ones before it (so a later hand is checked against the dealer the
    earlier ones make) — each scored once; the list keeps its strict replay (:class:`CheckedHands`)."""
    hands: list[Hand] = []
    led = replay(table, (), strict=False)
    for value in data:
        ctx = Context(len(hands) + 1, led.next_dealer, led.next_point_value)
        hand, led = add_hand(table, hands, parse_hand(table, value, ctx), before=led)
        hands.append(hand)
    return CheckedHands(table, hands, led)
