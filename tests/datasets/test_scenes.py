"""The scene generator's layouts: packed rows, side faces in the gaps, boxes that hold their tiles."""

import itertools

import numpy as np
import pytest

from datasets.crops import crop_for_classifier
from datasets.scenes import _layout, _side_faces, make_scene
from datasets.tiles import random_style

TW, TH = 150, 260
HAND = [[0, 1, 2], [9, 9, 9], [18, 19, 20], [27, 27, 27], [31, 31]]  # 14 tiles in 5 sets


def _spans(placed):
    return [(x, y, x + (TH if rot else TW), y + (TW if rot else TH)) for _, x, y, rot in placed]


@pytest.mark.parametrize("rows", [1, 2, 3])
def test_layout_wraps_the_hand_into_rows(rows):
    placed = _layout(np.random.default_rng(4), HAND, TW, TH, rows=rows)
    assert len(placed) == 14
    assert len({round(y) for _, _, y, rot in placed if not rot}) == rows


def test_tiles_of_a_layout_never_overlap():
    for seed in range(30):
        spans = _spans(_layout(np.random.default_rng(seed), HAND, TW, TH, rows=1 + seed % 3))
        for i, a in enumerate(spans):
            for b in spans[i + 1 :]:
                overlap_x = min(a[2], b[2]) - max(a[0], b[0])
                overlap_y = min(a[3], b[3]) - max(a[1], b[1])
                assert overlap_x <= 1e-6 or overlap_y <= 1e-6


def test_side_faces_lie_in_gaps_and_never_cover_a_tile():
    found = 0
    for seed in range(40):
        rng = np.random.default_rng(seed)
        placed = _layout(rng, HAND, TW, TH, rows=1)
        style = {**random_style(rng), "thick": 0.3}
        spans = _spans(placed)
        for x0, y0, x1, y1, _inner_left in _side_faces(rng, placed, TW, TH, style):
            found += 1
            assert 2 <= x1 - x0 <= 0.35 * TW + 1e-6
            for a0, b0, a1, b1 in spans:
                assert min(x1, a1) - max(x0, a0) <= 1e-6 or min(y1, b1) - max(y0, b0) <= 1e-6
    assert found > 20  # the gaps between sets do show sides


def test_flat_tiles_show_no_side_faces():
    rng = np.random.default_rng(1)
    placed = _layout(rng, HAND, TW, TH, rows=1)
    assert _side_faces(rng, placed, TW, TH, {**random_style(rng), "thick": 0.0}) == []


def test_packed_rows_scene_has_a_box_per_tile_inside_the_image():
    rng = np.random.default_rng(11)
    img, boxes = make_scene(rng, sets=HAND, source="font", opts={"rows": 2, "angle": 0.0, "clean": True})
    h, w = img.shape[:2]
    assert len(boxes) == 14
    for b in boxes:
        x0, y0, x1, y1 = b.xyxy
        assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
    centres = sorted((b.xyxy[1] + b.xyxy[3]) / 2 for b in boxes)
    heights = [b.xyxy[3] - b.xyxy[1] for b in boxes]
    # two rows: one jump in the sorted centres larger than half a tile
    assert sum(b - a > 0.5 * np.median(heights) for a, b in itertools.pairwise(centres)) == 1


def test_classifier_crops_have_the_runtime_shape():
    rng = np.random.default_rng(2)
    img, boxes = make_scene(rng, sets=HAND, source="font")
    crops = [crop_for_classifier(img, b, rng) for b in boxes]
    assert all(c.shape == (64, 48, 3) and c.dtype == np.uint8 for c in crops)
