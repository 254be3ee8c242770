"""Copies of one tile print alike (`vision.ink_match`): the ink of a face, when two inks are other
inks, and which copies are flagged — on synthetic faces printed in several inks and lights."""

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.detection import Detection
from vision.grey_pass import grey_check
from vision.ink_match import INK_Z, Ink, flag_unlike_inks, ink_of, unlike
from vision.reader_config import ReaderConfig

PAPER = (236, 232, 222)
INKS = {
    "red": (200, 35, 40),
    "green": (30, 130, 60),
    "blue": (40, 70, 190),
    "black": (30, 30, 32),
}
W, H = 48, 64


def face(ink, light=(1.0, 1.0, 1.0), second=None) -> np.ndarray:
    """A tile face (`(H, W, 3)` RGB): a dragon-like scrawl in `ink` (and half of it in `second`),
    lit by `light` (a gain per channel: a warm lamp is (1.0, 0.93, 0.8))."""
    img = np.zeros((H, W, 3), np.uint8)
    img[:] = PAPER
    cv2.putText(img, "S", (9, 50), cv2.FONT_HERSHEY_SIMPLEX, 1.6, INKS[ink], 5)
    cv2.line(img, (10, 12), (38, 12), INKS[ink], 3)
    if second:
        cv2.circle(img, (24, 32), 9, INKS[second], -1)
    return np.clip(img * np.array(light), 0, 255).astype(np.uint8)


def photo(faces: list[np.ndarray]) -> tuple[np.ndarray, list[tuple[float, float, float, float]]]:
    """The faces side by side in one RGB photo, and their boxes."""
    img = np.zeros((H + 20, (W + 10) * len(faces) + 10, 3), np.uint8) + 90
    boxes = []
    for k, f in enumerate(faces):
        x = 10 + k * (W + 10)
        img[10 : 10 + H, x : x + W] = f
        boxes.append((float(x), 10.0, float(x + W), float(10 + H)))
    return img, boxes


def dets_of(tiles: list[str], boxes) -> list[Detection]:
    return [Detection(b, t, 0.9) for t, b in zip(tiles, boxes, strict=True)]


@pytest.mark.parametrize(
    ("ink", "hue_lo", "hue_hi"),
    [("red", 20, 60), ("green", 120, 180), ("blue", -120, -60)],
)
def test_a_coloured_ink_has_its_hue(ink, hue_lo, hue_hi):
    got = ink_of(face(ink))
    assert got is not None and got.chroma > 20
    assert hue_lo <= got.hue <= hue_hi


def test_black_ink_has_no_colour_and_a_blank_face_no_ink():
    assert ink_of(face("black")).chroma < 8
    blank = np.zeros((H, W, 3), np.uint8) + np.array(PAPER, np.uint8)
    assert ink_of(blank) is None
    assert ink_of(face("red")[:6, :6]) is None  # too small to say


def test_the_paper_is_taken_out_a_lamp_does_not_change_the_ink():
    plain, lamp = ink_of(face("red")), ink_of(face("red", light=(1.0, 0.93, 0.8)))
    assert abs(plain.hue - lamp.hue) < 15
    assert not unlike(plain, lamp)


@pytest.mark.parametrize(
    ("x", "y", "want"),
    [
        ("red", "green", True),
        ("green", "blue", True),
        ("red", "red", False),
        ("black", "black", False),
        ("black", "red", False),  # black has no hue to compare
    ],
)
def test_unlike_table(x, y, want):
    assert unlike(ink_of(face(x)), ink_of(face(y))) is want


def test_unlike_bars_each_hold_alone():
    red = Ink(40.0, 20.0, 4.0)
    assert unlike(red, Ink(-30.0, 15.0, 4.0))
    assert not unlike(red, Ink(6.0, 3.0, 1.0))  # under the chroma bar
    assert not unlike(red, Ink(20.0, 38.0, 4.0))  # 36° of hue: the same ink, lit otherwise
    assert not unlike(red, Ink(-30.0, 15.0, 60.0))  # a face of many inks: its mean wanders
    assert unlike(red, Ink(-30.0, 15.0, 4.0), z=INK_Z) and not unlike(red, Ink(-30.0, 15.0, 4.0), z=30.0)


def test_two_against_two_all_four_are_flagged():
    img, boxes = photo([face("green"), face("red"), face("red"), face("green")])
    out = flag_unlike_inks(dets_of(["F"] * 4, boxes), img, 1.0)
    assert [d.uncertain for d in out] == [True] * 4


def test_the_odd_copy_alone_is_flagged():
    img, boxes = photo([face("green"), face("red"), face("green"), face("green", light=(1.0, 0.95, 0.85))])
    out = flag_unlike_inks(dets_of(["F"] * 4, boxes), img, 1.0)
    assert [d.uncertain for d in out] == [False, True, False, False]
    assert [d.tile for d in out] == ["F"] * 4  # flagged, never renamed


def test_copies_printed_alike_stay_unflagged():
    img, boxes = photo([face("blue", second="red")] * 3 + [face("green")])
    out = flag_unlike_inks(dets_of(["8p", "8p", "8p", "C"], boxes), img, 1.0)
    assert not any(d.uncertain for d in out)


@pytest.mark.parametrize("tile", ["5p", "5s", "5m", "P", "flower"])
def test_tiles_printed_otherwise_by_design_are_not_compared(tile):
    img, boxes = photo([face("red"), face("green")])  # a red five beside a plain one
    out = flag_unlike_inks(dets_of([tile, tile], boxes), img, 1.0)
    assert not any(d.uncertain for d in out)


def test_other_readings_face_down_tiles_and_z_none_are_left():
    img, boxes = photo([face("red"), face("green"), face("blue")])
    assert not any(d.uncertain for d in flag_unlike_inks(dets_of(["C", "F", "1s"], boxes), img, 1.0))
    down = dets_of(["F", "F", "F"], boxes)
    down[2] = replace(down[2], face_down=True, tile="back")
    down[1] = replace(down[1], face_down=True)
    assert not any(d.uncertain for d in flag_unlike_inks(down, img, 1.0))
    assert not any(d.uncertain for d in flag_unlike_inks(dets_of(["F"] * 3, boxes), img, 1.0, z=None))


def test_the_scale_maps_boxes_to_the_pixels():
    img, boxes = photo([face("green"), face("red")])
    half = cv2.resize(img, (img.shape[1] // 2, img.shape[0] // 2), interpolation=cv2.INTER_AREA)
    out = flag_unlike_inks(dets_of(["F", "F"], boxes), half, 0.5)
    assert [d.uncertain for d in out] == [True, True]


def test_grey_check_compares_inks_with_or_without_the_grey_reader():
    img, boxes = photo([face("green"), face("red")])
    dets = dets_of(["F", "F"], boxes)
    assert all(d.uncertain for d in grey_check({}, dets, (img, 1.0), ReaderConfig()))
    assert not any(d.uncertain for d in grey_check({}, dets, (img, 1.0), ReaderConfig(ink_match_z=None)))
