"""Issue 36 item 7: the variant chosen after a photo derives again what it sets aside; the photo's
reading keeps every tile it saw (the 發 set aside for 九江 stand in a 新余 hand, and back)."""

from __future__ import annotations

from app.photo_hand import hand_from_photo
from app.ui.state import EditHand
from app.ui.state.photo_tiles import for_variant, in_hand, left_out, set_aside_codes
from tests.app.test_photo_hand import photo
from tests.app.test_state import hand

FA_APART = "F F F | 1m 2m 3m 4m 5m 6m 7p 8p 9p 9s | 9s"  # a 新余 hand: 發 pung laid apart + 11


def _read(spec: str, variant: str = "jiujiang"):
    result = photo(spec)
    return result, EditHand.from_guess(hand_from_photo(result, variant, whole=True))


def test_choosing_xinyu_puts_the_fa_set_aside_back_as_the_pung_they_are():
    result, h = _read(FA_APART)
    assert h.bonus_tiles == 3 and h.tile_count == 11
    x = for_variant(h, result.detections, result.groups, "xinyu")
    assert [(m.kind, m.codes) for m in x.melds] == [("pung", ["F"] * 3)]
    assert x.tile_count == 14 and x.bonus_tiles == 0 and in_hand(x) == set(range(14))
    assert left_out(result.detections, x, set_aside_codes("xinyu")) == []  # nothing greyed
    assert x.winning_tile == "9s"
    back = for_variant(x, result.detections, result.groups, "jiujiang")  # and back: set aside again
    assert back.melds == () and back.bonus_tiles == 3 and back.concealed == h.concealed


def test_a_fa_standing_in_the_row_stands_again_in_xinyu():
    result, h = _read("1m 2m 3m F 4m 5m 6m 7p 8p 9p 1s 1s 9s 9s | 9s")
    assert h.bonus_tiles == 1 and "F" not in [x.code for x in h.concealed]
    x = for_variant(h, result.detections, result.groups, "xinyu")
    assert [x_.code for x_ in x.concealed].count("F") == 1 and x.bonus_tiles == 0 and not x.melds


def test_without_a_photo_typed_fa_move_to_the_bonus_count_and_nothing_else_changes():
    typed = hand("123m456m789p99sFF")
    jj = for_variant(typed, (), (), "jiujiang")
    assert jj.bonus_tiles == 2 and "F" not in [x.code for x in jj.concealed]
    assert for_variant(jj, (), (), "xinyu") == jj  # nothing of a photo to put back
    assert for_variant(hand("123m456m789p99s11s"), (), (), "xingzi") == hand("123m456m789p99s11s")


def test_the_page_keeps_the_fa_when_xinyu_is_chosen_after_the_photo(monkeypatch):
    from tests.app.test_apptest_photo_tiles import _app, _upload

    result = photo(FA_APART)
    at = _app(monkeypatch, result)
    _upload(at)
    assert at.session_state.hip.hand.bonus_tiles == 3
    at.segmented_control(key="w_variant").set_value("xinyu")
    at.run()
    h = at.session_state.hip.hand
    assert not at.exception and [m.codes for m in h.melds] == [["F"] * 3] and h.tile_count == 14
    assert not [b for b in at.button if b.key and b.key.startswith("tile_out")]  # none greyed
