"""The score page as a new user fills it — its number fields: each bad entry is said under its
field, naming it and its range in the page's language; an entry that is no number is set back
and said so (what the field shows is what the page counts)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from app.ui import i18n
from tests.app.conftest import APP, total_of
from tests.app.test_hostile_input import HAND, _type_hand


@pytest.mark.parametrize("typed", [-5.0, 99999999999.0, 0.0000001])
def test_a_bad_point_value_is_named_with_its_range(at, typed):
    _type_hand(at, HAND)
    at.number_input(key="w_point_value").set_value(typed)
    at.run()
    i18n.set_lang("zh")
    errors = [e.value for e in at.error]
    assert "每炮分值：请输入 1 到 9999 之间的整数。" in errors and total_of(at) is None
    assert at.number_input(key="w_point_value").value == typed  # kept as typed, with the error


def test_an_infinite_point_value_is_set_back_and_the_total_is_of_the_value_shown(at):
    _type_hand(at, HAND)
    shown = total_of(at)
    at.number_input(key="w_point_value").set_value(float("inf"))  # 1e309 in the browser
    at.run()
    i18n.set_lang("zh")
    said = "每炮分值：输入的不是 1 到 9999 之间的数（空着、太大或不是数），已改回 1。"
    assert [e.value for e in at.error] == [said]
    assert at.number_input(key="w_point_value").value == 1.0 and total_of(at) == shown
    at.run()
    assert not at.error  # said once; the field shows 1 and the page counts 1


def test_the_bonus_field_says_its_range_in_english_not_streamlits():
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["lang"] = "en"
    at.run()
    _type_hand(at, HAND)
    key = next(n.key for n in at.number_input if n.key and n.key.startswith("bonus_"))
    assert not at.number_input(key=key).proto.has_min and not at.number_input(key=key).proto.has_max
    at.number_input(key=key).set_value(-5.0)
    at.run()
    i18n.set_lang("en")
    bonus = i18n.t("hand.bonus")
    assert f"{bonus}: enter a whole number from 0 to 4." in [e.value for e in at.error]
    assert at.session_state.hip.hand.bonus_tiles == 0


@pytest.mark.parametrize("typed", [2.5, -5.0, 9.0])
def test_a_bad_bonus_entry_holds_the_total_as_the_other_bad_fields_do(at, typed):
    """A bad 發 entry is a bad number like the point value and the payers' counts: the result
    panel names it and shows no total (it showed the total of the old count before)."""
    _type_hand(at, HAND)
    shown = total_of(at)
    key = next(n.key for n in at.number_input if n.key and n.key.startswith("bonus_"))
    at.number_input(key=key).set_value(typed)
    at.run()
    i18n.set_lang("zh")
    bonus = i18n.t("hand.bonus")
    errors = [e.value for e in at.error]
    assert f"{bonus}：请输入 0 到 4 之间的整数。" in errors  # under the field, as before
    assert i18n.t("msg.bad_number_in", fields=bonus) in errors and total_of(at) is None
    assert at.session_state.hip.bad_numbers == {key} and at.session_state.hip.hand.bonus_tiles == 0
    assert at.number_input(key=key).value == typed  # kept as typed
    at.number_input(key=key).set_value(2.0)
    at.run()
    assert not at.error and at.session_state.hip.hand.bonus_tiles == 2
    assert (shown, total_of(at)) == (9, 15)  # fixed: two 發 are +2 炮, from each of the three payers


def test_the_manual_mode_hint_goes_when_undo_brings_the_hand_back(at):
    """Manual entry empties the hand and says how to pick tiles; undo brings the 14 back, and
    the hint for an empty hand goes with it."""
    n = at.session_state.hip.hand.tile_count
    at.button(key="btn_manual").click()
    at.run()
    i18n.set_lang("zh")
    hint = i18n.t("photo.none_manual")
    assert hint in [c.value for c in at.caption] and at.session_state.hip.hand.is_empty
    at.button(key="btn_undo").click()
    at.run()
    assert at.session_state.hip.hand.tile_count == n == 14 and hint not in [c.value for c in at.caption]


def test_the_result_sentence_names_the_bad_fields_with_their_seat(at):
    """`numbers.bad_text`: the sentence for the result panel while entries are bad."""
    from app.ui.hand import numbers

    _type_hand(at, HAND)
    at.session_state["payers_open"] = True  # the 吃炮 panel opened: a closed one draws no field
    at.run()
    key = next(n.key for n in at.number_input if n.key and n.key.endswith("_bonus_tiles"))
    at.number_input(key="w_point_value").set_value(-5.0)
    at.number_input(key=key).set_value(9.0)
    at.run()
    i18n.set_lang("zh")
    seat = key.removeprefix("w_").removesuffix("_bonus_tiles")
    assert at.session_state.hip.bad_numbers == {"w_point_value", key}
    names = at.session_state[numbers.NAMES]
    assert names["w_point_value"] == "每炮分值" and names[key] == f"{i18n.t(f'seat.{seat}')} 發"
    with_names = {numbers.NAMES: names}
    old, numbers.ss = numbers.ss, with_names
    try:
        said = numbers.bad_text({"w_point_value", key})
    finally:
        numbers.ss = old
    assert said == f"每炮分值、{names[key]} 不是范围内的数，改好后才能算分。"  # in the order drawn
