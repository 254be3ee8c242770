"""Stored hands read back: a row's JSON text becomes a typed :class:`~ledger.model.Hand` once.

A hand's row never changes meaning: the same text at a table with the same variant and seats is
the same :class:`Hand` (a frozen value), so :func:`read` remembers the hands it parsed by
``(variant, seats, text)`` and a table read again (another phone's write moved its revision)
parses only its new rows. A row that is not JSON raises :class:`ValueError` (the store names it
as damage); what :func:`ledger.parse.parse_hand` raises is passed on.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Sequence

from ledger.model import Hand, Table
from ledger.parse import Context, parse_hand

__all__ = ["CACHED", "decode", "read", "remember"]

CACHED = 65536
"""Hands remembered, process-wide (a few kB each)."""
_HANDS: OrderedDict[tuple[str, tuple[str, ...], str], Hand] = OrderedDict()
_LOCK = threading.Lock()


def decode(variant: str, seats: tuple[str, ...], texts: Sequence[str]) -> list[object]:
    """Each row as the :class:`Hand` already read from that text, or else its JSON value
    (``json.loads``; raises :class:`ValueError` for a row that is not JSON)."""
    out: list[object] = []
    with _LOCK:
        known = [_HANDS.get((variant, seats, t)) for t in texts]
    for text, hand in zip(texts, known, strict=True):
        out.append(hand if hand is not None else json.loads(text))
    return out


def read(
    table: Table, seats: tuple[str, ...], texts: Sequence[str], decoded: Sequence[object]
) -> tuple[Hand, ...]:
    """The table's hands from its rows (``decoded`` by :func:`decode`), in order; a stored hand
    is read leniently (``Context(lenient=True)``: a hand that no longer reads opens, marked)."""
    hands = []
    for i, (text, value) in enumerate(zip(texts, decoded, strict=True), 1):
        if not isinstance(value, Hand):
            value = parse_hand(table, value, Context(i, lenient=True))
            remember(table.variant, seats, text, value)
        hands.append(value)
    return tuple(hands)


def remember(variant: str, seats: tuple[str, ...], text: str, hand: Hand) -> None:
    """Keep ``hand`` as what ``text`` reads as at a table of this variant and seats."""
    with _LOCK:
        _HANDS[(variant, seats, text)] = hand
        while len(_HANDS) > CACHED:
            _HANDS.popitem(last=False)
