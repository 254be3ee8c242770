"""Suit by shape (`vision.suit_shape`, `vision.shape_check`): circles, sticks and strokes on
synthetic faces of several inks, whatever colour, and the rule that uses them."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from vision.detection import Detection
from vision.face_polarity import light_face
from vision.modelfiles import CLASS_CODES
from vision.shape_check import check_with_shape, decide
from vision.suit_shape import SuitShape, read_shape

IVORY = (238, 234, 222)


def face(code: str, kind: str, seed: int = 0) -> np.ndarray:
    """A `(100, 75, 3)` BGR face: `code` drawn by `datasets.world_styles` in `kind`."""
    from datasets.world_styles import world_face

    art = world_face(code, np.random.default_rng(seed), None, kind)
    canvas = Image.new("RGB", (300, 400), IVORY)
    canvas.paste(art, (0, 0), art)
    return np.ascontiguousarray(np.asarray(canvas.resize((75, 100), Image.Resampling.LANCZOS))[..., ::-1])


def strokes() -> np.ndarray:
    """A character-like face: a box, crossing strokes and a hook (no circles, no upright sticks)."""
    img = Image.new("RGB", (300, 400), IVORY)
    d = ImageDraw.Draw(img)
    d.rectangle((70, 90, 230, 250), outline=(20, 20, 20), width=18)
    d.line((40, 170, 260, 170), fill=(20, 20, 20), width=18)
    d.line((150, 60, 150, 340), fill=(20, 20, 20), width=18)
    d.line((60, 330, 250, 290), fill=(20, 20, 20), width=18)
    return np.ascontiguousarray(np.asarray(img.resize((75, 100), Image.Resampling.LANCZOS))[..., ::-1])


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("code", ["2p", "4p", "5p", "6p", "8p"])
@pytest.mark.parametrize("kind", ["dot_ink", "mixed_dots"])
def test_dots_are_circles_in_any_ink(kind, code, seed):
    got = read_shape(face(code, kind, seed))
    if (kind, code, seed) in {("mixed_dots", "5p", 1), ("mixed_dots", "4p", 2)}:
        assert got.suit == "z"  # dots drawn touching: no layout of separate circles, never sticks
        return
    assert got.suit == "p" and got.conf >= 0.7 and got.sticks == 0.0


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("code", ["2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s"])
def test_bamboo_is_sticks_in_any_ink(code, seed):
    got = read_shape(face(code, "bamboo_ink", seed))
    assert got.suit == "s" and got.conf >= 0.8 and got.circles == 0.0


def test_beaded_sticks_are_never_circles():
    """Two beaded sticks are eight round beads in two columns: an 8筒's layout, but beads are small."""
    for seed in range(3):
        for code in ("2s", "4s", "6s", "8s"):
            assert read_shape(face(code, "beaded", seed)).suit != "p"


def test_strokes_are_neither():
    got = read_shape(strokes())
    assert got.suit == "z" and got.circles == 0.0 and got.sticks <= 0.2


def test_a_dark_face_is_read_through_its_light_face():
    black = light_face(face("6p", "dot_ink"))  # white dots on black
    assert read_shape(black).suit != "p"
    assert read_shape(light_face(black)).suit == "p"


def det(tile: str, **kw) -> Detection:
    return Detection(xyxy=(0.0, 0.0, 75.0, 100.0), tile=tile, conf=0.5, **kw)


def probs_for(**p: float) -> np.ndarray:
    out = np.full(len(CLASS_CODES), 0.001, np.float32)
    for code, v in p.items():
        out[CLASS_CODES.index(code.lstrip("_"))] = v
    return out


def test_circles_take_the_likeliest_dot_class_from_a_bamboo_reading():
    circles = SuitShape("p", 0.95, 0.95, 0.0)
    probs = probs_for(_5s=0.6, _4s=0.2, _5p=0.15, _3p=0.05)
    got = decide(det("5s"), circles, probs, CLASS_CODES)
    assert (got.tile, got.second, got.uncertain) == ("5p", "5s", True)
    sure = decide(det("5s"), circles, probs, CLASS_CODES, count=4)  # a sure pip count wins
    assert (sure.tile, sure.second, sure.uncertain) == ("4p", "5s", False)


def test_agreement_and_weak_shapes_change_nothing_and_other_disagreements_flag():
    probs = probs_for(_5p=0.9)
    assert decide(det("5p"), SuitShape("p", 0.95, 0.95, 0.0), probs, CLASS_CODES) == det("5p")
    assert decide(det("5s"), SuitShape("p", 0.5, 0.5, 0.0), probs, CLASS_CODES) == det("5s")
    assert decide(det("C"), SuitShape("s", 0.9, 0.0, 0.9), probs, CLASS_CODES).uncertain
    assert decide(det("7s"), SuitShape("z", 1.0, 0.0, 0.0), probs, CLASS_CODES).uncertain
    assert not decide(det("1s"), SuitShape("z", 1.0, 0.0, 0.0), probs, CLASS_CODES).uncertain  # the bird
    assert (
        decide(det("back", face_down=True), SuitShape("p", 1.0, 1.0, 0.0), probs, CLASS_CODES).tile == "back"
    )


def test_check_with_shape_reads_each_face_of_the_photo():
    photo = np.zeros((100, 150, 3), np.uint8)
    photo[:, :75] = face("6p", "dot_ink")[..., ::-1]  # RGB, as the reader's crop source
    photo[:, 75:] = face("6s", "bamboo_ink")[..., ::-1]
    dets = [Detection((0.0, 0.0, 75.0, 100.0), "6s", 0.5), Detection((75.0, 0.0, 150.0, 100.0), "6s", 0.5)]
    probs = [probs_for(_6s=0.5, _6p=0.3, _8p=0.2), probs_for(_6s=0.9)]
    got = check_with_shape(dets, probs, CLASS_CODES, photo, 1.0)
    assert [d.tile for d in got] == ["6p", "6s"]
    assert got[0].second == "6s" and got[1] == dets[1]
