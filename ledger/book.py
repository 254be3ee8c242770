"""Pure edits of a hand list: :func:`add_hand`, :func:`edit_hand`; each checks the new list.

Each returns the parsed :class:`Hand` and the replayed :class:`Ledger` of the new list, or
raises :class:`LedgerError` naming the hand at fault — also when an edit of an early hand
makes a later one impossible (a later 地胡 whose discarder is no longer the dealer, say), so a
stored ledger always replays cleanly. ``ledger.store`` wraps these in a checked transaction.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ledger.fold import Ledger, extend, replay
from ledger.model import Hand, Table
from ledger.parse import Context, parse_hand

__all__ = ["add_hand", "edit_hand"]


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def add_hand(
    table: Table, hands: list[Hand] | tuple[Hand, ...], data: Any, *, before: Ledger | None = None
) -> tuple[Hand, Ledger]:
    """Parse ``data`` as hand ``len(hands) + 1`` (checked against the dealer and point value the
    table derives for it) and replay the list with it appended.

    ``before``: the replay of ``table`` and ``hands`` already made (``TableRecord.ledger()``,
    strict or not). The new hand is then folded onto it — one hand scored, not the whole table
    again — with the same result and the same errors; raises :class:`ValueError` if it is the
    replay of another table or of another number of hands.
    """
    if before is None:
        before = replay(table, hands, strict=False)
    elif before.table != table or len(before.outcomes) != len(hands):
        raise ValueError(f"before is not the replay of these {len(hands)} hands of this table")
    ctx = Context(len(hands) + 1, before.next_dealer, before.next_point_value)
    hand = parse_hand(table, data, ctx)
    if not hand.recorded:
        hand = _stamped(hand)
    return hand, extend(before, hand)  # the strict replay of the new list, one hand folded


def edit_hand(table: Table, hands: list[Hand], number: int, data: Any) -> tuple[Hand, Ledger]:
    """Replace hand ``number`` (1-based) by ``data`` and replay: every later hand is recomputed."""
    from ledger.errors import LedgerError

    if not 1 <= number <= len(hands):
        raise LedgerError("no_such_hand", f"no hand {number}: the table has {len(hands)} hands")
    prefix = replay(table, hands[: number - 1], strict=False)
    ctx = Context(number, prefix.next_dealer, prefix.next_point_value)
    hand = parse_hand(table, data, ctx)
    if not hand.recorded:
        hand = _stamped(hand)
    return hand, extend(prefix, hand, *hands[number:])  # the prefix is folded once, not twice


def _stamped(hand: Hand) -> Hand:
    from dataclasses import replace

    return replace(hand, recorded=_now())
