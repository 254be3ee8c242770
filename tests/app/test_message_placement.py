"""A refused action is said beside the control that was tapped, in document
order: on a 390 px phone the tile panel is ~770 px tall (the picker) and the page ~2,500 px, so
a message at the panel's top or the page's top is off the screen when the player taps."""

from __future__ import annotations

from app.ui import i18n
from tests.app.test_at_the_table import tap, type_hand


def _in_order(node) -> list:
    """Every element of the AppTest page, depth first in document order."""
    children = getattr(node, "children", None)
    if children is None:
        return [node]
    return [e for k in sorted(children) for e in _in_order(children[k])]


def _position(at, pred) -> int:
    elements = _in_order(at.main)
    return next(i for i, e in enumerate(elements) if pred(e))


def _button(key: str):
    return lambda e: getattr(e, "type", "") == "button" and getattr(e, "key", None) == key


def _text(value: str):
    return lambda e: getattr(e, "value", None) == value


def test_a_refused_meld_is_said_under_the_meld_buttons(at):
    type_hand(at, "234m567p678s99s777p")  # 777p: three copies, the winning tile among them
    tap(at, "tile_c7")
    at.button(key="mk_kong").click()  # a kong needs four
    at.run()
    [refused] = at.warning
    assert (
        at.session_state.hip.panel_msg.key == "msg.meld_needs_tiles" and at.session_state.hip.hand.melds == ()
    )
    # after the last meld button (吃), not above the picker's 29 tiles
    assert _position(at, _text(refused.value)) > _position(at, _button("mk_chow"))
    assert _position(at, _text(refused.value)) > _position(at, _button("pick_change_C"))


def test_a_tile_string_that_cannot_be_read_is_said_under_its_box(at):
    type_hand(at, "234m567p678s777p99s")
    before = at.session_state.hip.hand
    at.text_input(key="typed").input("123m456x")
    at.button(key="btn_typed").click()
    at.run()
    assert not at.exception
    [err] = at.error
    assert "123m456x" in err.value
    assert _position(at, _text(err.value)) == _position(at, _button("btn_typed")) + 1
    assert at.session_state.hip.hand == before  # nothing the player had is lost
    assert at.expander[0].proto.expanded  # the box stays open around the message
    at.text_input(key="typed").input("234m567p678s777p99s")  # a readable string: the message goes
    at.button(key="btn_typed").click()
    at.run()
    assert not at.error


def test_a_tile_string_that_cannot_be_read_is_said_in_the_page_language(at):
    """The callback runs before the page sets its language: the reason is worded when drawn
    (it once came out Chinese on the English page: "… 123m456x (有认不出的牌名。) (unknown …)")."""
    at.segmented_control(key="lang").set_value("en")
    at.run()
    at.text_input(key="typed").input("123m456x")
    at.button(key="btn_typed").click()
    at.run()
    [err] = at.error
    assert err.value.startswith("Could not read that tile string: 123m456x (")
    assert "unknown tile character" in err.value and "牌" not in err.value


def test_a_photo_that_cannot_be_read_says_so_on_the_table_page():
    """The 牌局 page's photo path queued its message and never drew it: the player saw nothing."""
    from tests.app.test_table_page import _open, _table

    at = _open(_table())
    at.session_state["pending_photo"] = b"this is not an image"
    at.run()
    assert not at.exception
    i18n.set_lang("zh")
    assert [e.value for e in at.error] == [i18n.t("image.not_image")]
    assert _position(at, _text(at.error[0].value)) < _position(at, _button("btn_sample"))
    at.run()
    assert not at.error  # said once


def test_the_eaten_expander_names_baoting_only_where_payers_declare_it(at):
    """星子 has no payer 报听 (DECISIONS §1.5); its 吃炮 expander said 报听 all the same."""
    i18n.set_lang("zh")
    assert [e.label for e in at.expander if e.label.startswith("吃炮")] == [i18n.t("cond.payers")]
    assert "报听" in i18n.t("cond.payers")
    at.segmented_control(key="w_variant").set_value("xingzi")
    at.run()
    [label] = [e.label for e in at.expander if e.label.startswith("吃炮")]
    assert "报听" not in label and "發" in label


def test_a_reload_keeps_the_tiles_the_reader_was_unsure_of():
    """The draft dropped `uncertain`: after a reload the red frames (and the hint to check
    them) were gone, the tiles the player still had to check no longer marked."""
    from app.ui.state import EditHand, EditTile, draft
    from app.ui.state.progress import HandInProgress

    hand = EditHand(concealed=(EditTile("2p", 0.41, 3, uncertain=True), EditTile("6p", 0.99, 4)))
    back = draft.from_json(draft.to_json(HandInProgress(hand=hand))).hand
    assert back == hand
    assert [t.needs_check for t in back.concealed] == [True, False]
