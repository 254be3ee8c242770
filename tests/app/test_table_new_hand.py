"""Every per-hand choice of the 牌局 page starts fresh (issue 36 item 1): after a win recorded, a
黄庄, a 炸糊 or a drop, the next hand is a brand-new hand — the model (`HandInProgress`, its
`TableChoices`) and every widget as the phone's browser holds it — and only the evening (the
table, the phone's token) is kept. A phone is driven as a browser holds its widgets
(`tests.app.held`): main dropped the widgets' keys on the server only, so the 跟庄 box stayed
ticked on the phone and its next tap recorded the follow again."""

from __future__ import annotations

from dataclasses import asdict

import pytest

from ledger import Table
from ledger.store import open_store
from tests.app.held import Phone, widgets
from tests.app.test_table_page import HAND_A, SEATS

pytestmark = pytest.mark.usefixtures("fresh_store")

PAGE_KEYS = ("tw_edit", "tw_hist", "tw_lock", "ed_")  # the edit panel's, history's, lock's: not the hand's


def _phone(code: str, token: str | None = None) -> Phone:
    return Phone({"table": code, **({"d": token} if token else {})})


def _enter(p: Phone, winner: int, discarder: int | None) -> None:
    p.set("text_input", "typed", HAND_A)
    p.click("btn_typed")
    p.set("segmented_control", "tw_winner", winner)
    if discarder is not None:
        p.set("segmented_control", "tw_how", discarder)


def _state(p: Phone) -> dict:
    """The hand in progress as the phone holds it: the model and every widget of the hand."""
    h = p.hip
    shown = {
        w.key: w.value
        for w in widgets(p.at)
        if w.key and w.key.startswith(("tw_", "w_", "typed")) and not w.key.startswith(PAGE_KEYS)
    }
    photo = (h.photo is not None, h.photo_src, h.photo_bytes)
    return {"hand": asdict(h.hand), "cond": asdict(h.cond), "table": asdict(h.table), "photo": photo, **shown}


# each per-hand field: (variant, how the player sets it)
FIELDS = {
    "followed": ("jiujiang", lambda p: p.set("checkbox", "tw_followed", True)),
    "follow_dragon": (
        "jiujiang",
        lambda p: (p.set("checkbox", "tw_followed", True), p.set("checkbox", "tw_dragon", True)),
    ),
    "follow_second": (
        "jiujiang",
        lambda p: (p.set("checkbox", "tw_followed", True), p.set("checkbox", "tw_second", True)),
    ),
    "kongs": ("xinyu", lambda p: (p.set("number_input", "tw_ke2", 1), p.set("number_input", "tw_kc3", 2))),
    "false_win_seat": ("xingzi", lambda p: p.set("selectbox", "tw_fw", 2)),
    "pending": ("jiujiang", lambda p: (_enter(p, 1, 2), p.click("tb_more"))),
    "winner": ("jiujiang", lambda p: p.set("segmented_control", "tw_winner", 3)),
    # the dealer's discard before a winner is chosen (main: the page failed, the dealer being
    # the winner it previews)
    "discarder": ("jiujiang", lambda p: p.set("segmented_control", "tw_how", 0)),
    "note": ("xingzi", lambda p: p.set("text_input", "tw_note", "老王换了座位")),
    "events": ("jiujiang", lambda p: p.set("pills", "w_events", ["kong_bloom"])),
    "typed": ("xingzi", lambda p: p.set("text_input", "typed", "19m19p19s")),
}


def _record(p: Phone) -> None:
    """A win: 张三 self-draws (on 新余) or wins on 李四's discard — the winner, discarder and the
    hand's tiles entered last, over whatever was chosen."""
    choices = p.hip.table
    if choices.pending:  # 一炮多响: 赵六 too, on the same discard
        _enter(p, 3, choices.discarder)
    else:
        _enter(p, 0, None if p.hip.cond.variant == "xinyu" else 1)
    p.click("tb_record")


ENDINGS = {
    "recorded": _record,
    "drawn": lambda p: p.click("tb_drawn"),
    "false_win": lambda p: (
        p.set("selectbox", "tw_fw", 1) if p.hip.table.declarer is None else None,
        p.click("tb_false_win"),
    ),
    "dropped": lambda p: p.click("tb_drop"),  # offered once something is entered
}
CASES = [
    (f, e)
    for f, (variant, _) in FIELDS.items()
    for e in ENDINGS
    if e != "false_win" or variant == "xingzi"  # 炸糊 is recorded where it costs (星子)
]


@pytest.mark.parametrize(("field", "ending"), CASES)
def test_the_next_hand_is_a_brand_new_hand(field, ending):
    variant, choose = FIELDS[field]
    code = open_store().create_table(Table(variant, SEATS)).table.code
    p = _phone(code)
    choose(p)
    if ending == "dropped" and not any(b.key == "tb_drop" for b in p.at.button):
        p.set("text_input", "typed", HAND_A)  # a string typed, events chosen: nothing entered yet
        p.click("btn_typed")
    ENDINGS[ending](p)
    p.run()  # the next tap: the phone sends what its widgets show
    hands = open_store().get(code).hands
    assert len(hands) == (0 if ending == "dropped" else 1)
    assert _state(p) == _state(_phone(code))  # a phone that opens the table now: a brand-new hand


def test_a_follow_ticked_for_a_drawn_hand_is_not_recorded_with_the_next_win():
    """The issue's repro: tick 跟庄, tap 黄庄, then a win on the same phone (winner, 自摸, 记这一手):
    hand 1 is the drawn hand with the follow, hand 2 has none (main stored ``followed: true``)."""
    code = open_store().create_table(Table("jiujiang", SEATS)).table.code
    p = _phone(code)
    p.set("checkbox", "tw_followed", True)
    p.click("tb_drawn")
    assert not p.at.checkbox(key="tw_followed").value  # the box is empty on the phone
    _enter(p, 0, None)
    p.click("tb_record")
    hands = open_store().get(code).hands
    assert [(h.kind, h.follow.followed) for h in hands] == [("drawn", True), ("win", False)]
    head = next(m.value for m in p.at.markdown if 'id="jx-next"' in m.value)
    assert "第 2 把跟庄" not in head and "第 1 把的跟庄" in head  # main: "…第 2 把跟庄" too


def test_a_note_is_recorded_with_its_hand_and_not_the_next():
    code = open_store().create_table(Table("jiujiang", SEATS)).table.code
    p = _phone(code)
    p.set("text_input", "tw_note", "  老王换了座位 ")
    p.click("tb_drawn")
    _enter(p, 1, 2)
    p.click("tb_record")
    assert [h.note for h in open_store().get(code).hands] == ["老王换了座位", ""]


def test_the_next_winner_on_one_discard_starts_fresh_and_keeps_the_discards_facts():
    """一炮多响: 另一家也胡 keeps what belongs to the discard (who discarded, 跟庄) and the first
    winner, and starts the next winner's hand fresh: no tiles, none of the first winner's events."""
    code = open_store().create_table(Table("jiujiang", SEATS)).table.code
    p = _phone(code)
    p.set("checkbox", "tw_followed", True)
    _enter(p, 1, 2)
    p.set("pills", "w_events", ["last_tile"])
    p.click("tb_more")
    p.run()
    h = p.hip
    assert (h.table.winner, h.table.discarder, h.table.followed, len(h.table.pending)) == (None, 2, True, 1)
    assert h.hand.is_empty and h.cond.events == [] and p.at.text_input(key="typed").value == ""


def test_the_uploaders_photo_is_not_read_into_the_next_hand():
    """The uploader keeps its file after a record; the uploads already read are kept with the
    evening (`progress.KEPT`), so the next hand starts with no photo (main read the last hand's
    photo again into it)."""
    from tests.app.conftest import SAMPLE_JPG

    code = open_store().create_table(Table("jiujiang", SEATS)).table.code
    p = _phone(code)
    p.at.file_uploader(key="uploader").set_value(("hand.jpg", SAMPLE_JPG.read_bytes(), "image/jpeg"))
    p.run()
    assert p.hip.photo is not None and p.hip.photo_src == "upload"
    p.click("tb_drawn")
    p.run()
    assert p.hip.photo is None and p.hip.hand.is_empty
