"""Faces cut from the photo around the box (`vision.refface`) and the set-agreement gate
(`vision.refmatch.agreement`): a tile whose box the localiser shifted or stretched over its
neighbour is still matched; references that do not agree with the photo change nothing."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_refmatch import HAND, IDX, STYLES, TILE, photo, refs_of
from vision.modelfiles import CLASS_CODES
from vision.reading import Readings
from vision.refblend import RefSet
from vision.refmatch import MatchCalibration, class_scores, cut_faces, decide, match, match_refs, templates

ROW = ["2m", "3m", "2p", "5m", "7s"]


def stretched(boxes: np.ndarray, k: int, share: float) -> np.ndarray:
    """`boxes` with box `k` reaching `share` of a tile's width over its right neighbour."""
    out = boxes.copy()
    out[k, 2] += share * TILE[0]
    return out


@pytest.mark.parametrize("style", sorted(STYLES))
@pytest.mark.parametrize("share", [0.45, 0.6])
def test_a_box_stretched_over_its_neighbour_is_matched(style, share):
    """A 2m (box 1.15-1.3x wider than it is tall: cut sideways before) and a 2p whose boxes reach
    over the next tile, read 3m and 4p: the same set's references put both right."""
    img, boxes = photo(ROW, style)
    boxes = stretched(stretched(boxes, 0, share), 2, share)
    t, lab = refs_of(HAND, style)
    s = class_scores(match(cut_faces(img, boxes), t), lab, len(CLASS_CODES))
    read = np.array([IDX[c] for c in ["3m", "3m", "4p", "5m", "7s"]])
    d = decide(read, s, MatchCalibration())
    assert [CLASS_CODES[c] for c in d.cls] == ROW
    assert d.best[[0, 2]].min() > 0.9


@pytest.mark.parametrize("style", sorted(STYLES))
def test_a_box_shifted_by_a_fifth_of_a_tile_is_matched(style):
    img, boxes = photo(ROW, style)
    boxes[1] += np.float32([0.2 * TILE[0], 0.1 * TILE[1], 0.2 * TILE[0], 0.1 * TILE[1]])
    t, lab = refs_of(HAND, style)
    s = class_scores(match(cut_faces(img, boxes), t), lab, len(CLASS_CODES))
    assert CLASS_CODES[int(s[1].argmax())] == "3m" and s[1].max() > 0.85


def test_references_that_disagree_with_the_photo_change_nothing():
    """Another set whose faces look like ours but mean other tiles (its 2m drawn as our 3m, ...):
    each face matches one of them perfectly, yet the photo's right readings stay."""
    img, boxes = photo(ROW, "ivory")
    ref_img, ref_boxes = photo(HAND, "ivory", shift=3)
    t = templates(cut_faces(ref_img, ref_boxes))
    lab = np.array([IDX[c] for c in HAND[1:] + HAND[:1]])  # every label one place on
    refs = RefSet(np.zeros((1, 4), np.float32), np.array([0]), len(CLASS_CODES), len(HAND), t, lab)
    cls = np.array([IDX[c] for c in ROW])
    r = Readings(cls, np.full(5, 0.9), np.full(5, 0.5), np.ones(5, bool))
    out, flags = match_refs(img, boxes, r, np.zeros(5, bool), refs)
    assert out.cls.tolist() == cls.tolist() and not flags.any()
    # without the gate the same references would misread every tile
    got = decide(
        cls, class_scores(match(cut_faces(img, boxes), t), lab, len(CLASS_CODES)), MatchCalibration()
    )
    assert got.changed.sum() >= 4
    cal = MatchCalibration(agree=-np.inf)
    assert match_refs(img, boxes, r, np.zeros(5, bool), refs, cal)[0].cls.tolist() != cls.tolist()


@pytest.mark.parametrize("other", ["hk", "blue"])
def test_another_styles_references_never_change_a_right_reading(other):
    """The photo in ivory read right; the references of another style (every class of the row):
    nothing changes, nothing is flagged."""
    img, boxes = photo(ROW, "ivory")
    t, lab = refs_of(ROW + HAND, other)
    refs = RefSet(np.zeros((1, 4), np.float32), np.array([0]), len(CLASS_CODES), len(lab), t, lab)
    cls = np.array([IDX[c] for c in ROW])
    r = Readings(cls, np.full(5, 0.9), np.full(5, 0.5), np.ones(5, bool))
    out, flags = match_refs(img, boxes, r, np.zeros(5, bool), refs)
    assert out.cls.tolist() == cls.tolist() and not flags.any()


def test_the_blends_move_with_references_that_disagree_goes_back():
    """The embedding blend moved the 2m to 3m, and another set's 3m looks exactly like our 2m:
    references that do not agree with the photo move nothing, the blend's move included."""
    img, boxes = photo(ROW, "ivory")
    ref_img, ref_boxes = photo(HAND, "ivory", shift=3)
    t = templates(cut_faces(ref_img, ref_boxes))
    lab = np.array([IDX[c] for c in HAND[1:] + HAND[:1]])  # its 3m drawn as our 2m, ...
    refs = RefSet(np.zeros((1, 4), np.float32), np.array([0]), len(CLASS_CODES), len(HAND), t, lab)
    plain = np.array([IDX[c] for c in ROW])
    blended = plain.copy()
    blended[0] = IDX["3m"]
    r = Readings(blended, np.full(5, 0.9), np.full(5, 0.5), np.ones(5, bool))
    out, _ = match_refs(img, boxes, r, np.zeros(5, bool), refs, plain=plain)
    assert out.cls.tolist() == plain.tolist()
