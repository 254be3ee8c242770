"""Table seats (0-3, turn order) against the score editor's seats relative to the winner:
下家 `right` = the next seat, 对家 `across`, 上家 `left` (`app.ui.state.OTHER_SEATS`), and the winner's
hand in the editor as ledger hand JSON (docs/ledger-json.md), payers named by table seat.

>>> relative(2, winner=1), absolute("left", winner=1)
('right', 0)
"""

from __future__ import annotations

from typing import Any

from app.ui.state import ME, OTHER_SEATS, Conditions, EditHand, hand_input
from ledger import Table
from scoring.tiles import format_tiles

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


def winner_entry(table: Table, hand: EditHand, cond: Conditions, winner: int) -> dict[str, Any]:
    """``{"seat", "hand"}`` for the ledger: the editor's hand as score JSON, 吃炮 facts per payer
    named by table seat. Raises what `hand_input` raises (`PayerTilesImpossible`, `HandError`)."""
    hi = hand_input(hand, cond)
    payers = [
        {
            "name": table.seats[absolute(p.name, winner)],
            "bonus_tiles": p.bonus_tiles,
            "melds": [{"kind": m.kind, "tiles": m.code} for m in p.melds],
            "ready_declared": p.ready_declared,
        }
        for p in hi.payers or ()
    ]
    data: dict[str, Any] = {
        "concealed": format_tiles(hi.concealed),
        "winning_tile": hi.winning_tile.code,
        "melds": [{"kind": m.kind, "tiles": m.code} for m in hi.melds],
        "bonus_tiles": hi.bonus_tiles,
        "events": list(hi.events),
        "payers": payers,
    }
    return {"seat": winner, "hand": data}
