"""The pip counter (`vision.pips`) on synthetic faces, and its rule (`vision.pips_check`)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.pip_faces import INKS, bird_face, dot_face, scribble_face, stick_face
from vision.detection import Detection
from vision.pip_layouts import LAYOUTS, PipCount, layout_error
from vision.pips import count_pips
from vision.pips_check import PIPS_MIN_CONF, check_with_pips, decide, pip_suit, wants_pips


@pytest.mark.parametrize("ink", sorted(INKS))
@pytest.mark.parametrize("turn", [False, True])
def test_dots_counted_in_any_ink_either_way_up(ink, turn):
    got = [count_pips(dot_face(n, ink, turn=turn), "p") for n in range(1, 10)]
    assert [c.count if c else None for c in got] == list(range(1, 10))
    assert min(c.conf for c in got if c) >= 0.5


@pytest.mark.parametrize("ink", sorted(INKS))
@pytest.mark.parametrize("turn", [False, True])
def test_sticks_counted_in_any_ink_either_way_up(ink, turn):
    got = [count_pips(stick_face(n, ink, turn=turn), "s") for n in range(2, 10)]
    assert [c.count if c else None for c in got] == list(range(2, 10))
    assert min(c.conf for c in got if c) >= 0.5


def test_a_tall_face_and_a_small_one_count_the_same():
    assert count_pips(dot_face(6, "blue", w=48, h=64), "p").count == 6
    assert count_pips(dot_face(9, "black", w=120, h=160), "p").count == 9


def test_no_structure_no_count():
    assert count_pips(bird_face(), "s") is None  # 一條: a bird, never a count
    assert count_pips(np.full((80, 60, 3), 220, np.uint8), "p") is None  # a blank face
    assert count_pips(np.full((80, 60, 3), 220, np.uint8), "s") is None
    for seed in range(12):  # scribbles: nothing, or nothing sure enough to act on
        for suit in "ps":
            c = count_pips(scribble_face(seed), suit)
            assert c is None or c.conf < 0.5, (seed, suit, c)
    assert count_pips(dot_face(4, "red")[:6], "p") is None  # too small to read


def test_a_stick_face_is_not_counted_as_dots_with_confidence():
    c = count_pips(stick_face(6, "green"), "p")
    assert c is None or c.count != 6 or c.conf < PIPS_MIN_CONF


def test_layout_error_tells_the_layouts_apart():
    grid = np.array([(x, y) for y in (10.0, 40.0, 70.0) for x in (10.0, 30.0)])  # 2 x 3
    assert layout_error(grid, LAYOUTS[6]) < 0.01
    assert layout_error(grid[::-1], LAYOUTS[6]) < 0.01  # the order found does not matter
    assert layout_error(grid, LAYOUTS[8]) == float("inf")
    line = np.array([(10.0, 10.0), (30.0, 20.0), (50.0, 30.0), (70.0, 40.0), (90.0, 50.0), (110.0, 60.0)])
    assert layout_error(line, LAYOUTS[6]) > 0.5  # six in a line are no 六筒


def test_suit_count_raises_on_another_suit():
    with pytest.raises(ValueError, match="suit"):
        count_pips(dot_face(2, "red"), "m")


def _det(tile, second=None, uncertain=True, face_down=False):
    box = (10.0, 10.0, 70.0, 90.0)
    return Detection(xyxy=box, tile=tile, conf=0.5, uncertain=uncertain, second=second, face_down=face_down)


def test_which_tiles_are_counted():
    assert wants_pips(_det("4p"))
    assert wants_pips(_det("E", second="2s"))  # a suit tile as runner-up
    assert pip_suit(_det("E", second="2s")) == "s"
    assert not wants_pips(_det("4p", uncertain=False))  # only flagged tiles: the cost stays low
    assert not wants_pips(_det("E", second="3m"))
    assert not wants_pips(_det("back", face_down=True))


def test_agreement_clears_the_flag():
    out = decide(_det("4p", second="2p"), PipCount(4, 0.95, 0.0))
    assert (out.tile, out.uncertain, out.second) == ("4p", False, "2p")


def test_a_sure_count_of_the_runner_up_overrides():
    out = decide(_det("4p", second="2p"), PipCount(2, 0.95, 0.0))
    assert (out.tile, out.uncertain, out.second) == ("2p", False, "4p")


def test_disagreement_or_a_weak_count_keeps_the_flag():
    det = _det("4p", second="2p")
    assert decide(det, PipCount(6, 0.99, 0.0)) == det  # neither reading: flagged as it was
    assert decide(det, PipCount(2, PIPS_MIN_CONF - 0.01, 0.0)) == det  # below the threshold
    assert decide(det, None) == det
    assert decide(det, PipCount(2, 0.5, 0.0), min_conf=0.4).tile == "2p"


def test_check_with_pips_reads_the_face_in_the_photo():
    photo = np.full((120, 100, 3), 40, np.uint8)
    photo[10:90, 10:70] = dot_face(4, "dark_green")[:, :, ::-1]  # RGB photo, BGR face
    dets = [_det("2p", second="4p"), _det("2p", second="4p", uncertain=False)]
    out = check_with_pips(dets, photo, 1.0, min_conf=0.5)
    assert (out[0].tile, out[0].second, out[0].uncertain) == ("4p", "2p", False)
    assert out[1] == dets[1]  # not flagged: not counted
