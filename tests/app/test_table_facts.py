"""Every fact of a recorded hand that moves money is shown and can be corrected (issue 36 item
3): 跟庄 (with 中/白, the second discard) and 新余 kongs of the others in the history's line of the
hand — a 黄庄's line named no 跟庄 — and in the CSV, and the hand's note (`Hand.note`: stored and
exported, never entered nor shown) entered with the hand, shown in the history and corrected in
the edit panel."""

from __future__ import annotations

import pytest

from app.ui import i18n
from ledger import Table
from ledger.store import open_store
from tests.app.test_table_page import HAND_A, SEATS, _click, _open
from tests.ledger.util import json_hand

pytestmark = pytest.mark.usefixtures("fresh_store")
WIN = {"seat": 1, "discarder": 2, "hand": {"concealed": HAND_A, "winning_tile": "C"}}


def _titles(at) -> list[str]:
    return [e.label for e in at.expander if e.label[:1].isdigit()]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_history_line_names_the_follow_and_the_kongs(lang):
    store = open_store()
    jj = store.create_table(Table("jiujiang", SEATS)).table.code
    store.append(
        jj,
        json_hand(store, jj, {"kind": "drawn", "follow": {"followed": True, "dragon": True, "second": True}}),
    )
    store.append(
        jj, json_hand(store, jj, {**WIN, "follow": {"followed": True, "dragon": False, "second": False}})
    )
    xy = store.create_table(Table("xinyu", SEATS)).table.code
    store.append(
        xy, json_hand(store, xy, {"kind": "drawn", "kongs": [{"seat": 2, "exposed": 1, "concealed": 0}]})
    )
    at = _open(jj)
    at.segmented_control(key="lang").set_value(lang)
    at.run()
    w = i18n.catalog(lang)
    follow, dragon, second = (w[f"table.fact_{k}"] for k in ("follow", "follow_dragon", "follow_second"))
    drawn, dealer = w["table.kind_drawn"], w["table.dealer_short"].format(name="张三")
    assert _titles(at)[1] == f"1. {drawn} · {dragon} · {second} · {dealer}"  # main: "1. 黄庄 · 张三 坐庄"
    assert f"{w['table.won_off'].format(who='李四', off='王五')} · {follow} · " in _titles(at)[0]
    at = _open(xy)
    at.segmented_control(key="lang").set_value(lang)
    at.run()
    kongs = w["table.fact_kongs"].format(name="王五", exposed=1, concealed=0)
    assert _titles(at)[0].startswith(f"1. {drawn} · {kongs} · ")


def test_a_note_is_entered_shown_in_the_history_and_corrected():
    code = open_store().create_table(Table("jiujiang", SEATS)).table.code
    at = _open(code)
    at.text_input(key="tw_note").input("老王换了座位")
    at.run()
    _click(at, "tb_drawn")
    assert open_store().get(code).hands[0].note == "老王换了座位"
    said = [c.value for c in at.caption]
    assert i18n.catalog("zh")["table.note_is"].format(note="老王换了座位") in said
    assert at.text_input(key="tw_note").value == ""  # the next hand's note is empty
    at.number_input(key="tw_edit_n").set_value(1)
    at.run()
    assert at.text_input(key="ed_note_1").value == "老王换了座位"  # the edit starts from it
    at.text_input(key="ed_note_1").input("第二圈")
    at.run()
    _click(at, "tb_edit_1")
    hand = open_store().get(code).hands[0]
    assert (hand.kind, hand.note) == ("drawn", "第二圈")
    assert i18n.catalog("zh")["table.note_is"].format(note="第二圈") in [c.value for c in at.caption]


def test_an_edit_draft_keeps_the_note_and_refuses_one_too_long():
    from app.ui.table.edit_draft import form_of

    def draft(note):
        return {"v": 1, "n": 1, "begun": 2, "form": {"ed_note": note}}

    assert form_of(draft("第二圈")) == (1, 2, {"ed_note": "第二圈"})
    assert form_of(draft("x" * 201)) is None and form_of(draft(3)) is None


def test_the_kongs_of_a_xinyu_hand_are_corrected_in_the_edit_panel():
    """新余 kong money moves money: the edit panel shows each seat's kongs as recorded and saves
    a correction (main: not editable at all)."""
    store = open_store()
    code = store.create_table(Table("xinyu", SEATS)).table.code
    store.append(
        code, json_hand(store, code, {"kind": "drawn", "kongs": [{"seat": 2, "exposed": 1, "concealed": 0}]})
    )
    at = _open(code)
    at.number_input(key="tw_edit_n").set_value(1)
    at.run()
    assert (at.number_input(key="ed_ke2_1").value, at.number_input(key="ed_kc3_1").value) == (1, 0)
    at.number_input(key="ed_kc3_1").set_value(2)
    at.run()
    _click(at, "tb_edit_1")
    assert open_store().get(code).hands[0].kongs == {2: (1, 0), 3: (0, 2)}
    assert "赵六 明杠 0 暗杠 2" in _titles(at)[0]
