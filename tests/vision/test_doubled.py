"""`vision.doubled`: one tile boxed twice (each box two thirds of it, overlapping by half a tile
along the row) and read alike both times is one tile; touching tiles of a pung, and two boxes
that overlap as much but read different tiles, stay two.

Stand-in models (`vision.testing`) through `TileReader.detect`: the localizer finds the boxes
given, the classifier reads a crop's colour."""

from __future__ import annotations

import numpy as np
import pytest

from vision import ReaderConfig, TileReader, testing
from vision.doubled import doubled, join_doubled
from vision.modelfiles import CLASSIFIER_CLASSES, CLASSIFIER_FILE, LOCALIZER_FILE
from vision.reading import Readings

SIZE = (1600, 1200)
TW, TH = 72.0, 96.0  # an upright tile, pixels


def colour(code: str) -> tuple[int, int, int]:
    return testing.tile_colour(code, CLASSIFIER_CLASSES)


def scene(tmp_path, codes: str, last: str, join: bool):
    """A row of upright tiles `codes` (one string, space-separated), then a sideways tile `last`
    (TH x TW) boxed twice: its left two thirds and its right two thirds (IoU 0.33)."""
    boxes, paint = [], []
    x, y = 100.0, 500.0
    for code in codes.split():
        boxes.append((x, y, x + TW, y + TH))
        paint.append(((x, y, x + TW, y + TH), code))
        x += TW + 2  # touching tiles
    x0, y0 = x + 20, y + TH - TW
    paint.append(((x0, y0, x0 + TH, y0 + TW), last))
    boxes += [(x0, y0, x0 + 64, y0 + TW), (x0 + 32, y0, x0 + TH, y0 + TW)]
    testing.build_localizer(tmp_path / LOCALIZER_FILE, boxes, image_size=SIZE, size=256)
    testing.build_classifier(
        tmp_path / CLASSIFIER_FILE, classes=CLASSIFIER_CLASSES, meta_override={"upside_down": True}
    )
    img = testing.paint_scene(*SIZE, [], classes=CLASSIFIER_CLASSES)
    for (a, b, c, d), code in paint:
        img[int(b) : int(d), int(a) : int(c)] = colour(code)
    reader = TileReader(tmp_path, ReaderConfig(refine_min_gain=0, join_doubled=join))
    return reader, img, (x0, y0, x0 + TH, y0 + TW)


@pytest.mark.parametrize("join", [True, False])
def test_a_sideways_tile_boxed_twice_is_one_tile(tmp_path, join):
    reader, img, whole = scene(tmp_path, "2m 2m 2m 5p 6p", "4s", join)
    dets = reader.detect(img).detections
    tiles = [d.tile for d in dets]
    if join:
        assert tiles == ["2m", "2m", "2m", "5p", "6p", "4s"]  # the pung's touching tiles stay three
        assert np.allclose(dets[-1].xyxy, whole, atol=3)  # the union: the whole tile
    else:  # without the stage: the tile read twice (vision.splits keeps halves that both read it)
        assert tiles == ["2m", "2m", "2m", "5p", "6p", "4s", "4s"]


def readings(cls, p):
    n = len(cls)
    return Readings(np.array(cls), np.array(p, np.float64), np.zeros(n), np.ones(n, bool))


ROW = [[x, 0, x + 72, 96] for x in (-300, -226, -152, -78)]  # standing tiles left of the pair


def test_boxes_half_a_tile_apart_reading_different_tiles_stay_two():
    boxes = np.array([*ROW, [0, 24, 64, 96], [32, 24, 96, 96]], np.float32)
    r = readings([3, 3, 3, 3, 3, 4], [0.9] * 4 + [0.9, 0.8])
    j = join_doubled(boxes, np.ones(6, np.float32), np.zeros(6, np.int64), r, CLASSIFIER_CLASSES)
    assert j.pairs == [] and len(j.xyxy) == 6


def test_the_likelier_reading_is_kept_with_the_union():
    boxes = np.array([*ROW, [0, 24, 64, 96], [32, 24, 96, 96]], np.float32)
    r = readings([3, 3, 3, 3, 21, 21], [0.9] * 4 + [0.4, 0.8])
    scores = np.array([0.7] * 4 + [0.9, 0.5], np.float32)
    j = join_doubled(boxes, scores, np.zeros(6, np.int64), r, CLASSIFIER_CLASSES)
    assert j.pairs == [(5, 4)] and j.keep.tolist() == [0, 1, 2, 3, 5]
    assert j.xyxy[-1].tolist() == [0, 24, 96, 96]
    assert j.readings.p[-1] == 0.8 and np.isclose(j.scores[-1], 0.5)


def test_a_row_seen_steeply_keeps_its_overlapping_tiles():
    """A row running at a slant across a small photo: each tile's box overlaps the next by 0.84
    of its width and 0.70 of its height (a val photo's two 9p), one pitch apart: not one tile."""
    step = np.array([15, 33, 15, 33], np.float32)
    boxes = np.array([np.array([216, 155, 309, 264], np.float32) + k * step for k in range(5)])
    j = join_doubled(
        boxes,
        np.ones(5, np.float32),
        np.zeros(5, np.int64),
        readings([17] * 5, [0.9] * 5),
        CLASSIFIER_CLASSES,
    )
    assert j.pairs == [] and len(j.xyxy) == 5


def test_backs_and_stacked_tiles_are_never_doubled():
    # two backs overlapping (a wall seen low), and two 4s stacked across the row, touching (the
    # added tile of a riichi kong, beside the sideways one)
    boxes = np.array([[0, 0, 64, 72], [32, 0, 96, 72], [0, 200, 96, 272], [0, 264, 96, 336]], np.float32)
    faces = np.array([False, False, True, True])
    assert doubled(boxes, np.array([5, 5, 21, 21]), faces) == []
