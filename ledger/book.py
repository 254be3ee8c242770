"""Pure edits of a hand list: :func:`add_hand`, :func:`edit_hand`; each checks the new list.

Each returns the parsed :class:`Hand` and the replayed :class:`Ledger` of the new list, or
raises :class:`LedgerError` naming the hand at fault — also when an edit of an early hand
makes a later one impossible (a later 地胡 whose discarder is no longer the dealer, say), so a
stored ledger always replays cleanly. ``ledger.store`` wraps these in a checked transaction.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ledger.fold import Ledger, replay
from ledger.model import Hand, Table
from ledger.parse import Context, hand_from_json

__all__ = ["add_hand", "edit_hand"]


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def add_hand(table: Table, hands: list[Hand], data: Any) -> tuple[Hand, Ledger]:
    """Parse ``data`` as hand ``len(hands) + 1`` (checked against the dealer and point value the
    table derives for it) and replay the list with it appended."""
    before = replay(table, hands, strict=False)
    ctx = Context(len(hands) + 1, before.next_dealer, before.next_point_value)
    hand = hand_from_json(table, data, ctx)
    if not hand.recorded:
        hand = _stamped(hand)
    return hand, replay(table, [*hands, hand])


def edit_hand(table: Table, hands: list[Hand], number: int, data: Any) -> tuple[Hand, Ledger]:
    """Replace hand ``number`` (1-based) by ``data`` and replay: every later hand is recomputed."""
    from ledger.errors import LedgerError

    if not 1 <= number <= len(hands):
        raise LedgerError(f"no hand {number}: the table has {len(hands)} hands", "no_such_hand")
    prefix = replay(table, hands[: number - 1], strict=False)
    ctx = Context(number, prefix.next_dealer, prefix.next_point_value)
    hand = hand_from_json(table, data, ctx)
    if not hand.recorded:
        hand = _stamped(hand)
    new = [*hands[: number - 1], hand, *hands[number:]]
    return hand, replay(table, new)


def _stamped(hand: Hand) -> Hand:
    from dataclasses import replace

    return replace(hand, recorded=_now())
