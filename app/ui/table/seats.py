"""Table seats (0-3, turn order) against the score editor's seats relative to the winner:
下家 `right` = the next seat, 对家 `across`, 上家 `left` (`app.ui.state.OTHER_SEATS`), and the winner's
hand in the editor as the ledger's typed `Winner`, 吃炮 facts by table seat.

>>> relative(2, winner=1), absolute("left", winner=1)
('right', 0)
"""

from __future__ import annotations

from dataclasses import replace

from app.ui.state import ME, OTHER_SEATS, Conditions, EditHand, hand_input
from ledger import Table, Winner
from ledger.recorded import RecordedHand, payer_facts

__all__ = ["absolute", "relative", "sync_conditions", "winner_entry"]


def relative(seat: int, winner: int) -> str:
    """The editor's name for table ``seat`` seen from ``winner``: `me`, `right`, `across`, `left`."""
    d = (seat - winner) % 4
    return ME if d == 0 else OTHER_SEATS[d - 1]


def absolute(rel: str, winner: int) -> int:
    return winner if rel == ME else (winner + 1 + OTHER_SEATS.index(rel)) % 4


def sync_conditions(
    cond: Conditions, table: Table, dealer: int, winner: int, discarder: int | None, pv
) -> None:
    """What the table decides, written into the editor's conditions (DECISIONS §1.5-1.6): the
    variant, 自摸 or the discarder, the dealer (from the seats) and the point value of this hand."""
    cond.variant = table.variant
    cond.self_drawn = discarder is None
    if discarder is not None:
        cond.discarder = relative(discarder, winner)
    cond.dealer = relative(dealer, winner)
    cond.point_value = (
        int(pv) if pv == int(pv) else 1
    )  # the editor previews whole values; the ledger pays exactly


def winner_entry(table: Table, hand: EditHand, cond: Conditions, winner: int) -> Winner:
    """The editor's hand as the ledger's typed :class:`ledger.Winner`: the recorded hand (without
    what the table decides) and the 吃炮 facts of each paying table seat that has some. Raises
    what `hand_input` raises (`HandError`)."""
    hi = hand_input(hand, cond)
    eaten = {
        absolute(p.name, winner): replace(p, name="", is_dealer=False)  # the fold names the seat
        for p in hi.payers or ()
        if payer_facts(p)
    }
    return Winner(winner, RecordedHand.of(hi), eaten)
