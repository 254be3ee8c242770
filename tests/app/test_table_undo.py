"""Undo of the last hand on the 牌局 page puts that hand back in the editor (nothing the player
entered is lost): the tiles, the meld, the winning tile, the 吃炮 counts, winner and discarder,
跟庄 facts; recording it again gives the same ledger. Pure converter cases beside it."""

from __future__ import annotations

import pytest

from app.ui import i18n
from app.ui.state import EditHand
from app.ui.table.reopen import editor_state
from ledger import Table, parse_hand
from ledger.parse import Context
from ledger.store import open_store
from tests.app.conftest import button_by_prefix
from tests.app.test_table_page import HAND_A, SEATS, _click, _enter, _open, _table

TYPED = "123m456p789s777pCC"  # 777p laid apart as a pung: won on 中 off a discard, 2 炮


def _ledger_of(code: str) -> tuple[list, list]:
    rec = open_store().get(code)
    hands = [{k: v for k, v in h.to_json().items() if k != "recorded"} for h in rec.hands]
    return hands, [o.deltas for o in rec.ledger().outcomes]


def test_undo_puts_the_hand_back_in_the_editor_and_recording_again_gives_the_same_ledger():
    code = _table()
    at = _open(code)
    at.text_input(key="typed").input(TYPED)
    at.button(key="btn_typed").click()
    at.run()
    button_by_prefix(at, "tile_c9").click()  # the first 7p
    at.run()
    _click(at, "mk_pung")
    at.segmented_control(key="tw_winner").set_value(1)
    at.run()
    at.segmented_control(key="tw_how").set_value(2)
    at.run()
    at.session_state["payers_open"] = True  # the 吃炮 panel opened: a closed one draws no field
    at.run()
    at.number_input(key="w_right_bonus_tiles").set_value(1)  # 王五 (the discarder) set aside one 發
    at.run()
    at.session_state["payers_open"] = False  # ... and closed again: the count stays in the hand
    at.run()
    entered, seats = at.session_state.hip.hand, at.session_state.hip.cond.seats
    assert [m.kind for m in entered.melds] == ["pung"] and entered.winning_tile == "C"
    _click(at, "tb_record")
    recorded = _ledger_of(code)
    assert at.session_state.hip.hand.is_empty and len(recorded[0]) == 1
    assert recorded[0][0]["winners"][0]["eaten"] == [{"seat": 2, "bonus_tiles": 1}]  # entered, panel closed
    _click(at, "tb_undo")
    assert _ledger_of(code) == ([], [])
    assert at.session_state.hip.hand == entered  # same tiles, meld and winning tile
    assert at.session_state.hip.cond.seats["right"] == seats["right"]
    assert at.segmented_control(key="tw_winner").value == 1
    assert at.segmented_control(key="tw_how").value == 2
    again = _open(code, at.session_state["draft_token"])  # a reload: this phone's draft holds the hand too
    assert again.session_state.hip.hand == entered
    _click(again, "tb_record")
    assert _ledger_of(code) == recorded


def _stored(table: Table, data: dict):
    return parse_hand(table, data, Context(1))


@pytest.mark.parametrize(
    "data, winner, discarder, pending",
    [
        ({"seat": 0, "discarder": None, "hand": {"concealed": "123m456p789s234mCC", "winning_tile": "C"}},
         0, None, 0),
        ({"kind": "win", "discarder": 3, "winners": [
            {"seat": 1, "hand": {"concealed": "123m456p789s234mCC", "winning_tile": "C"}},
            {"seat": 2, "hand": {"concealed": "123m456p789sCC", "winning_tile": "C",
                                 "melds": [{"kind": "concealed_kong", "tiles": "7777p"}]}}]},
         2, 3, 1),
    ],
)  # fmt: skip
def test_editor_state_names_the_last_winner_and_keeps_the_earlier_ones_pending(
    data, winner, discarder, pending
):
    table = Table("jiujiang", SEATS)
    hand, cond, choices = editor_state(table, _stored(table, data))
    assert (choices.winner, choices.discarder, len(choices.pending)) == (winner, discarder, pending)
    assert cond.self_drawn == (discarder is None) and hand.winning_tile == "C"


def test_editor_state_counts_payer_sets_and_skips_the_robbed_pung():
    table = Table("jiujiang", SEATS)
    eaten = {"melds": [{"kind": "pung", "tiles": "CCC"}, {"kind": "kong", "tiles": "PPPP"},
                       {"kind": "concealed_kong", "tiles": "9999s"}], "bonus_tiles": 2}  # fmt: skip
    won = {"concealed": "123m456p789s234mCC", "winning_tile": "C", "events": ["robbing_kong"]}
    data = {"kind": "win", "discarder": 1, "winners": [{"seat": 0, "hand": won, "eaten": {"1": eaten}}]}
    _, cond, _ = editor_state(table, _stored(table, data))
    seat = cond.seats["right"]
    assert seat.bonus_tiles == 2 and cond.events == ["robbing_kong"]
    assert {k: v for k, v in seat.sets.items() if v} == {"dragon_kongs": 1, "concealed_kongs": 1}


def test_a_drawn_hand_gives_an_empty_editor_with_its_follow_facts():
    table = Table("jiujiang", SEATS)
    data = {"kind": "drawn", "follow": {"followed": True, "dragon": True, "second": False}}
    hand, _, choices = editor_state(table, _stored(table, data))
    assert hand == EditHand() and (choices.followed, choices.dragon, choices.winner) == (True, True, None)


def test_a_hand_being_entered_when_undo_is_tapped_stays_one_editor_undo_away():
    code = _table()
    at = _open(code)
    _enter(at, HAND_A, winner=1, discarder=2)
    first = at.session_state.hip.hand
    _click(at, "tb_record")
    _enter(at, "234m567p678s999sPP", winner=3, discarder=0)  # the next hand, half entered
    typed = at.session_state.hip.hand
    _click(at, "tb_undo")  # asked first (below); then replaced on purpose
    _click(at, "tb_undo_yes")
    assert at.session_state.hip.undo == [typed]  # the editor's own undo brings it back
    back = at.session_state.hip.hand  # the tile string keeps each suit together: the order may differ
    assert back.sorted() == first.sorted() and back.winning_tile == first.winning_tile == "C"


def test_undo_over_a_hand_being_entered_asks_first_and_keep_leaves_everything_as_it_was():
    """The undone hand would replace the one on screen (its winner, discarder and note with it): the
    page asks, and "keep" leaves the table and the hand being entered untouched."""
    zh = i18n.catalog("zh")
    code = _table()
    at = _open(code)
    _enter(at, HAND_A, winner=1, discarder=2)
    _click(at, "tb_record")
    _enter(at, "234m567p678s999sPP", winner=3, discarder=0)
    typed = at.session_state.hip.hand
    _click(at, "tb_undo")
    assert [w.value for w in at.warning] == [zh["table.undo_ask"].format(n=1)]
    assert len(_ledger_of(code)[0]) == 1  # nothing undone yet
    _click(at, "tb_undo_no")
    assert not at.warning and not [b for b in at.button if b.key == "tb_undo_yes"]
    assert len(_ledger_of(code)[0]) == 1
    assert at.session_state.hip.hand == typed
    assert at.segmented_control(key="tw_winner").value == 3


def test_undo_with_nothing_being_entered_asks_nothing():
    code = _table()
    at = _open(code)
    _enter(at, HAND_A, winner=1, discarder=2)
    _click(at, "tb_record")
    assert at.session_state.hip.hand.is_empty
    _click(at, "tb_undo")
    assert _ledger_of(code) == ([], []) and not [b for b in at.button if b.key == "tb_undo_yes"]
