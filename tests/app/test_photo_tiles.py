"""Issue 21, the app side in plain state: tiles left out of the hand and taken back, an over-full
hand and its likeliest hand, a pung made a kong without a fifth copy (no Streamlit)."""

from __future__ import annotations

import pytest

from app.photo_hand import hand_from_photo
from app.ui.state import EditHand
from app.ui.state.photo_tiles import in_hand, left_out, photo_tile, rows, set_aside_codes
from app.ui.state.too_many import likeliest, physical, too_many
from tests.app.test_photo_hand import photo
from tests.app.test_state import hand
from vision.detection import Detection


def codes(h: EditHand) -> str:
    return "".join(t.code for t in h.concealed)


def test_off_row_tiles_are_left_out_and_one_tap_puts_one_in_with_its_reading():
    result = photo("1m 2m 3m 5p 5p")
    d = result.detections
    result.detections.append(Detection((1500.0, 900.0, 1560.0, 980.0), "6m", 0.44, role="discard"))
    h = EditHand.from_guess(hand_from_photo(result, "xingzi"))
    assert left_out(d, h) == [5] and codes(h) == "1m2m3m5p5p"
    back = h.with_photo_tiles([photo_tile(d[5], 5)])
    assert codes(back) == "1m2m3m5p5p6m" and back.winning_tile == "5p"  # the winning mark stays
    assert back.concealed[-1].detection == 5 and back.concealed[-1].needs_check  # 44 %: shown unsure
    assert left_out(d, back) == []


def test_taking_out_a_row_or_a_meld_takes_every_tile_of_it_and_they_show_as_left_out():
    result = photo("7p 7p~ 7p | 6m 6m", "1m 2m 3m 4m 5m 6m 6s 7s 8s 2p | 2p")
    h = EditHand.from_guess(hand_from_photo(result, "xingzi"))
    top, bottom = rows(result.detections, result.groups)
    assert top == (0, 1, 2, 3, 4) and bottom == tuple(range(5, 16))
    out = h.without_detections(top)
    assert out.melds == () and codes(out) == "1m2m3m4m5m6m6s7s8s2p2p"
    assert left_out(result.detections, out) == list(top) and out.winning_tile == "2p"
    assert in_hand(h.without_meld(0)) == set(range(16)) - {0, 1, 2}


@pytest.mark.parametrize("variant, aside", [("jiujiang", ("F", "flower")), ("xinyu", ("flower",))])
def test_the_bonus_tile_is_set_aside_not_left_out_where_the_variant_has_one(variant, aside):
    assert set_aside_codes(variant) == aside


def test_a_face_down_tile_put_back_is_an_unknown_tile_to_name():
    d = Detection((0.0, 0.0, 60.0, 80.0), "back", 0.9, face_down=True)
    assert photo_tile(d, 3).code == "?" and photo_tile(d, 3).needs_check


@pytest.mark.parametrize(
    "tiles, melds, over",
    [
        ("234m567p678s99s777p", (), False),  # 14
        ("234m567p678s99s7777p", (), False),  # 15, four alike standing: the kong question
        ("234m567p678s99s7777p1m", (), True),  # 16: more than one kong can explain
        ("234m567p678s99s", (("kong", "7777p"),), False),  # 15 with a kong laid apart
        ("1111m2222m3333m4444m55m", (), False),  # 18: four kongs not laid apart
        ("1111m2222m3333m4444m55m6m", (), True),  # 19
    ],
)
def test_too_many_means_more_than_kongs_can_explain(tiles, melds, over):
    assert too_many(hand(tiles, *melds)) is over


def test_likeliest_hand_is_the_bottom_row_with_its_melds_not_the_discards_in_front():
    """12 discards in a row above the 14-tile hand row (the issue's photo): 26 tiles, and one tap
    keeps the hand row: never a kong question about the fourth 6m that is a discard."""
    result = photo("6m 1p 9s E 3s 6m | 2p 8m 5s W N 1s", "6m 6m 6m 2m 3m 4m 5p 6p 7p 6s 7s 8s 9s | 9s")
    h = EditHand.from_guess(hand_from_photo(result, "xingzi", whole=True))  # as the app reads it
    assert physical(h) == 26 and too_many(h)
    best = likeliest(h, result.detections, result.groups)
    assert best is not None and physical(best) == 14
    assert sorted(in_hand(best)) == list(range(12, 26))
    assert best.winning_tile == "9s" and not too_many(best)
    assert likeliest(best, result.detections, result.groups) is None  # nothing smaller to offer


def test_likeliest_hand_keeps_a_meld_set_apart_beside_the_hand_row():
    result = photo("1s 5p 9m | E", "7p 7p~ 7p | 2m 3m 4m 5p 6p 7p 6s 7s 8s 9s | 9s")
    h = EditHand.from_guess(hand_from_photo(result, "xingzi"))
    best = likeliest(h, result.detections, result.groups)
    assert best is not None and sorted(in_hand(best)) == list(range(4, 18))
    assert [m.codes for m in best.melds] == [["7p"] * 3] and best.tile_count == 14


@pytest.mark.parametrize("kind", ["concealed_kong", "kong"])
def test_a_pung_made_a_kong_takes_the_fourth_copy_from_the_hand_not_a_fifth(kind):
    h = hand("234m456s678s7p99s", ("pung", "777p"))
    kong = h.with_meld_kind(0, kind)
    assert kong.melds[0].codes == ["7p"] * 4 and kong.melds[0].kind == kind
    assert codes(kong) == "2m3m4m4s5s6s6s7s8s9s9s" and kong.winning_tile == "9s"
    assert [t.code for t in kong.tiles].count("7p") == 4  # was 5: a new fourth beside the standing one
    assert kong.tile_count == 14


def test_a_pung_made_a_kong_with_no_fourth_standing_adds_it_and_the_winning_one_is_taken_last():
    h = hand("234m56p678s99s", ("pung", "777p"))
    assert h.with_meld_kind(0, "concealed_kong").concealed == h.concealed  # none standing: one added
    won_on = hand("234m56p678s99s7p", ("pung", "777p"))  # the lone 7p is the winning tile
    kong = won_on.with_meld_kind(0, "concealed_kong")
    assert codes(kong) == "2m3m4m5p6p6s7s8s9s9s" and kong.winning_index == len(kong.concealed) - 1
    assert kong.melds[0].tiles[3] == won_on.concealed[-1]


@pytest.mark.parametrize(
    "size, crop, need",
    [
        ((60, 24), (64, 48), 32),
        ((24, 60), (64, 48), 32),
        ((31, 4000), (64, 48), 32),
        ((32, 32), (64, 48), None),
        ((4000, 3000), (64, 48), None),
        ((40, 90), (96, 72), 48),
    ],
)
def test_a_photo_needs_room_for_one_tile_half_the_classifiers_crop_tall(size, crop, need):
    from app.ui.tile_room import tile_room

    assert tile_room(*size, crop) == need


def test_likeliest_hand_of_a_row_of_19_is_the_whole_hand_not_the_surest_14():
    """The trial's photo: the sample hand with five tiles more at the end of its row (19, every
    tile sure), in the reader's groups. C(19, 14) = 11,628 ways over the 5,000 tried: the offer
    was the surest 14, no hand ("还不成胡"). Now a whole group left out first (the five at the
    end): the photo's hand 234m 567p 777p 678s 99s — not 234m 234m 567p 678s 77p, complete
    too and more confident, which choosing by kind alone finds."""
    from dataclasses import replace

    from scoring import is_complete

    result = photo("2m 3m 4m 5p 6p 7p | 6s 7s 8s | 7p 7p 7p 9s | 9s | 2m 3m 4m 5p 6p")  # as read
    conf = [0.8, 0.8, 0.8, 0.8, 0.54, 0.73, 0.71, 0.64, 0.67, 0.84, 0.63, 0.81, 0.7, 0.63, *[0.8] * 5]
    result.detections[:] = [replace(d, conf=c) for d, c in zip(result.detections, conf, strict=True)]
    h = EditHand.from_guess(hand_from_photo(result, "jiujiang", whole=True))
    assert physical(h) == 19
    best = likeliest(h, result.detections, result.groups, "jiujiang")
    assert best is not None and physical(best) == 14
    kept = sorted(t.code for t in best.concealed)
    assert kept == sorted("2m 3m 4m 5p 6p 7p 6s 7s 8s 7p 7p 7p 9s 9s".split())
    assert is_complete(codes(best), [], "jiujiang")
