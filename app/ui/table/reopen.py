"""A recorded hand back in the table page's editor (undo of the last hand loses nothing entered).

Pure (no Streamlit): :func:`editor_state` turns a recorded :class:`ledger.Hand` (its winner's
typed hand, with 吃炮 facts under ``eaten`` by table seat) into the editor's typed state — the
inverse of `app.ui.table.seats.winner_entry`. The last winner is the hand in the editor; earlier
winners on the same discard (一炮多响) wait in ``pending`` as before.
What the table decides (dealer, point value) is not kept: `sync_conditions` sets it every run.

>>> from ledger import Hand, Table, Winner
>>> from ledger.recorded import RecordedHand
>>> from scoring import HandInput, Meld
>>> table = Table("jiujiang", ("A", "B", "C", "D"))
>>> won = HandInput("jiujiang", "123m456p789sCC", "C", False, (Meld.of("pung", "777p"),))
>>> won = Winner(1, RecordedHand.of(won))
>>> hand, cond, choices = editor_state(table, Hand("win", (won,), discarder=2))
>>> hand.winning_tile, [m.codes for m in hand.melds], cond.discarder, choices.winner
('C', [['7p', '7p', '7p']], 'right', 1)
"""

from __future__ import annotations

from app.ui.state import Conditions, EditHand, EditMeld, EditTile, Seat
from app.ui.state.progress import TableChoices
from app.ui.table.seats import relative
from ledger import Table
from ledger.model import Hand
from ledger.recorded import RecordedHand
from scoring import Payer
from scoring.model import SET_KEYS
from scoring.payer_sets import PAYER_SETS
from scoring.tiles import Tile

__all__ = ["editor_state"]


def _edit_hand(hand: RecordedHand) -> EditHand:
    """The editor's hand from a winner's recorded hand; the winning tile is the last standing
    copy of ``winning_tile`` (as typed: the tile entered last)."""
    codes, win = [t.code for t in hand.concealed], hand.winning_tile.code
    melds = tuple(EditMeld(m.kind, tuple(EditTile(t.code) for t in m.tiles)) for m in hand.melds)
    index = max((i for i, c in enumerate(codes) if c == win), default=None)
    return EditHand(tuple(EditTile(c) for c in codes), melds, index, hand.bonus_tiles)


def _set_key(kind: str, tile: Tile) -> str | None:
    """The count a payer's meld is, for a hand recorded with its sets laid out as melds (None:
    not a counted set, e.g. 抢杠's pung)."""
    kind = "kong" if kind == "added_kong" else kind
    return next((ps.key for ps in PAYER_SETS if ps.kind == kind and tile in ps.pool), None)


def _seat(facts: Payer, robbed: str | None) -> Seat:
    """A payer's 吃炮 counts from its recorded facts (``robbed``: the pung 抢杠 added, not counted)."""
    seat = Seat(bonus_tiles=facts.bonus_tiles, ready_declared=facts.ready_declared)
    for key in SET_KEYS:
        seat.sets[key] = getattr(facts, key)
    for m in facts.melds:
        if robbed is not None and m.kind == "pung" and m.tile.code == robbed:
            robbed = None
            continue
        counted = _set_key(m.kind, m.tile)
        if counted is not None:
            seat.sets[counted] += 1
    return seat


def editor_state(table: Table, hand: Hand) -> tuple[EditHand, Conditions, TableChoices]:
    """The editor's hand, conditions and table choices that record `hand` again on `table`.

    A drawn hand or 炸糊 gives an empty editor with its 跟庄 / kong facts (and the 炸糊's seat);
    every hand its note. Raises
    `scoring.HandError` only for a stored tile string that no longer parses.
    """
    choices = TableChoices(
        followed=hand.follow.followed,
        dragon=hand.follow.dragon,
        second=hand.follow.second,
        kongs=dict(hand.kongs),
        declarer=hand.declarer,
        note=hand.note,
    )
    cond = Conditions(variant=table.variant, self_drawn=hand.discarder is None)
    if hand.kind != "win" or not hand.winners:
        return EditHand(), cond, choices
    *earlier, last = hand.winners
    choices.winner, choices.discarder = last.seat, hand.discarder
    choices.pending = list(earlier)
    if last.hand is None:  # a stored hand that no longer reads
        assert last.problem is not None
        raise last.problem
    recorded = last.hand
    cond.events = list(recorded.events)
    if hand.discarder is not None:
        cond.discarder = relative(hand.discarder, last.seat)
    win = recorded.winning_tile.code
    robbed = win if "robbing_kong" in cond.events and hand.discarder is not None else None
    for s, facts in last.eaten.items():
        cond.seats[relative(s, last.seat)] = _seat(facts, robbed if s == hand.discarder else None)
    return _edit_hand(recorded), cond, choices
