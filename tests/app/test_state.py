"""The app's typed state: edits of `EditHand` and the engine input `hand_input` builds."""

from __future__ import annotations

import pytest

from app.photo_hand import UNKNOWN, hand_from_photo
from app.ui.state import (
    DISSOLVE,
    Conditions,
    EditHand,
    EditRefused,
    Selection,
    hand_input,
    tile_kinds,
)
from scoring import HandError, Meld, format_tiles, score
from scoring.payer_sets import lay_out
from tests.app.test_photo_hand import photo


def hand(text: str, *melds: tuple[str, str]) -> EditHand:
    """`hand("234m777p678s999s55p")`: one code per tile, the last one the winning tile."""
    from scoring import parse_tiles

    codes = [t.code for t in parse_tiles(text)]
    return EditHand.typed(codes, [(k, [t.code for t in parse_tiles(m)]) for k, m in melds])


def codes(h: EditHand) -> str:
    return "".join(t.code for t in h.concealed)


def test_typed_hand_wins_on_its_last_tile():
    h = hand("234m777p678s999s55p")
    assert h.winning_tile == "5p" and h.winning_index == 13 and h.tile_count == 14


def test_deleting_before_the_winning_tile_keeps_its_mark():
    h = hand("234m777p678s999s55p").without(Selection(0))
    assert h.winning_tile == "5p" and codes(h).startswith("3m4m")


def test_deleting_the_winning_tile_marks_the_last_one():
    h = hand("234m777p678s999s55p").with_winning(0).without(Selection(0))
    assert h.winning_index == len(h.concealed) - 1


def test_a_picked_tile_becomes_the_winning_tile():
    assert hand("234m").plus("9s").winning_tile == "9s"


@pytest.mark.parametrize(
    "index,kind,meld,standing",
    [
        (3, "pung", "7p7p7p", "2m3m4m6s7s8s9s9s9s5p5p"),
        (3, "kong", None, None),
        (6, "chow", "6s7s8s", "2m3m4m7p7p7p9s9s9s5p5p"),
        (7, "chow", "6s7s8s", "2m3m4m7p7p7p9s9s9s5p5p"),
    ],
)
def test_make_meld(index, kind, meld, standing):
    h = hand("234m777p678s999s55p")
    if meld is None:
        with pytest.raises(EditRefused) as refused:
            h.with_meld(index, kind)
        assert refused.value.key == "msg.meld_needs_tiles" and refused.value.fields == {"kind": kind}
        return
    got = h.with_meld(index, kind)
    assert "".join(got.melds[0].codes) == meld and codes(got) == standing
    assert got.winning_tile == "5p"


def test_a_kong_holding_the_winning_tile_moves_the_mark():
    h = hand("234m456p678s99s7777p")  # the last 7p is the winning tile
    got = h.with_meld(11, "kong")
    assert "".join(got.melds[0].codes) == "7p7p7p7p"
    assert got.winning_tile == "9s" and got.winning_index == len(got.concealed) - 1


def test_chow_of_an_honour_is_refused_with_its_reason():
    with pytest.raises(EditRefused) as refused:
        hand("CCC123m").with_meld(0, "chow")
    assert refused.value.key == "msg.chow_needs_suit"


def test_meld_kinds_regroup_and_dissolve():
    h = hand("234m777p678s999s55p").with_meld(3, "pung")
    kong = h.with_meld_kind(0, "kong")
    assert kong.melds[0].codes == ["7p"] * 4
    assert kong.with_meld_kind(0, "pung").melds[0].codes == ["7p"] * 3
    back = kong.with_meld_kind(0, DISSOLVE)
    assert not back.melds and len(back.concealed) == 15 and back.winning_tile == "5p"


def test_naming_one_tile_of_a_hidden_kong_names_all_four():
    guess = hand_from_photo(photo("back back back back | 1m 1m"), "xingzi")
    h = EditHand.from_guess(guess)
    assert h.melds[0].codes == [UNKNOWN] * 4
    assert h.with_tile(Selection(0, 0), "5s").melds[0].codes == ["5s"] * 4


def test_sorted_keeps_the_winning_tile():
    h = hand("9s1m5p").with_winning(0).sorted()
    assert codes(h) == "1m5p9s" and h.winning_tile == "9s"


def test_unsure_tiles():
    guess = hand_from_photo(photo("1m 2m back 5p 5p"), "xingzi")
    h = EditHand.from_guess(guess)
    assert [t.needs_check for t in h.concealed] == [False, False, True, False, False]
    assert not h.with_tile(Selection(2), "3m").concealed[2].needs_check


def test_hand_input_for_a_discard_with_a_payers_dragon_kong():
    h = hand("234m567p67899s6s", ("pung", "777p"))
    cond = Conditions(variant="xingzi", self_drawn=False, discarder="left", dealer="left")
    cond.seats["left"].sets["dragon_kongs"] = 1
    data = hand_input(h, cond)
    assert format_tiles(data.concealed, sort=True) == "234m567p667899s" and data.winning_tile.code == "6s"
    assert data.melds == (Meld.of("pung", "777p"),)
    assert [p.name for p in data.payers] == ["left"] and data.payers[0].is_dealer
    assert data.payers[0].dragon_kongs == 1 and data.payers[0].melds == ()  # a count: the engine lays it out
    assert lay_out(data.payers, [0] * 34)[0].melds == (Meld.of("kong", "CCCC"),)  # as the engine scores it
    assert not data.winner_is_dealer


def test_no_dealer_chosen_means_nobody_is_the_dealer():
    data = hand_input(hand("234m567p678s99s777p"), Conditions(variant="xingzi"))
    assert not data.winner_is_dealer and not any(p.is_dealer for p in data.payers)


def test_impossible_payer_sets_are_the_engines_refusal():
    cond = Conditions(variant="jiujiang", dealer="me")
    cond.seats["right"].sets["dragon_pungs"] = 2
    cond.seats["left"].sets["dragon_pungs"] = 1
    data = hand_input(hand("234m567p678s99s777p"), cond)
    assert [p.dragon_pungs for p in data.payers] == [2, 0, 1]
    with pytest.raises(HandError) as e:
        score(data)
    assert e.value.code == "payer_sets_impossible"


def test_xinyu_has_no_bonus_or_eaten_items_and_knows_winds():
    h = hand("123m456p789s345sEE").with_bonus(2)
    data = hand_input(h, Conditions(variant="xinyu"))
    assert data.bonus_tiles == 0 and all(p.melds == () for p in data.payers)
    assert (
        "E" in tile_kinds("xinyu") and "E" not in tile_kinds("xingzi") and "F" not in tile_kinds("jiujiang")
    )


@pytest.mark.parametrize(
    "variant,self_drawn,offered",
    [
        ("jiujiang", True, ("kong_bloom", "last_tile", "heavenly", "ready_declared")),
        ("xingzi", False, ("robbing_kong", "kong_discard", "last_tile", "earthly")),
        ("xinyu", True, ("kong_bloom",)),
    ],
)
def test_events_offered_come_from_the_rule_table(variant, self_drawn, offered):
    assert Conditions(variant=variant, self_drawn=self_drawn).events_offered() == offered


def test_events_that_do_not_fit_are_not_sent():
    cond = Conditions(variant="xingzi", self_drawn=True, events=["robbing_kong", "last_tile"])
    assert hand_input(hand("234m567p678s99s777p"), cond).events == ("last_tile",)


@pytest.mark.parametrize(
    "conf, flagged, unsure",
    [
        (0.95, True, True),
        (0.44, False, True),
        (0.30, False, True),
        (0.50, False, False),
        (0.80, False, False),
    ],
)
def test_red_follows_the_readers_flag_or_a_low_confidence_until_the_player_names_the_tile(
    conf, flagged, unsure
):
    """The reader's calibrated flag (vision.Detection.uncertain) marks a tile for checking, and
    so does a reading below `SURE_CONF` (issue 21: a tile at 44 % is never shown as sure)."""
    from vision.detection import Detection

    result = photo("7m 8m 9m 1p")
    dets = result.detections
    dets[1] = Detection(dets[1].xyxy, "8m", conf, uncertain=flagged)
    h = EditHand.from_guess(hand_from_photo(result, "xingzi"))
    assert [t.needs_check for t in h.concealed] == [False, unsure, False, False]
    assert not h.with_tile(Selection(1), "8m").concealed[1].needs_check


def test_the_page_names_impossible_payer_sets_as_its_own_refusal():
    from app.ui import services

    cond = Conditions(variant="jiujiang", dealer="me")
    cond.seats["right"].sets["dragon_pungs"] = 2
    cond.seats["left"].sets["dragon_pungs"] = 1
    out = services.score_hand(hand("123m456p789s234m99p"), cond)
    assert isinstance(out, services.Refusal) and out.code == "payer_tiles" and "dragon pung" in out.message
