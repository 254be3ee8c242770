"""`vision.row_pitch`: the boxes of a row of touching tiles that reach into their neighbours (issue
35: a tight riichi strip boxed a third to a half wider than its pitch) are cut where the tiles meet,
and the tiles are read from the cut boxes; boxes that merely touch, one tile boxed twice and boxes
of another row keep their edges.

Scenes of stand-in models (`vision.testing`) read through `TileReader.detect`."""

from __future__ import annotations

import numpy as np
import pytest

from vision import ReaderConfig, TileReader, testing
from vision.modelfiles import CLASSIFIER_CLASSES, CLASSIFIER_FILE, LOCALIZER_FILE
from vision.row_pitch import neighbours, trim_overlaps

SIZE = (1600, 400)  # a strip: one row, tight
TW, TH = 80.0, 110.0  # an upright tile; touching tiles: the pitch is the tile's width
HAND = "1m 9s 2m 8s 3m 7s 4m 6s".split()  # neighbours far apart in the stand-in's colours


def row(n: int, x: float = 200.0, y: float = 150.0) -> list[tuple[float, float, float, float]]:
    return [(x + k * TW, y, x + (k + 1) * TW, y + TH) for k in range(n)]


def off_by_a_third(b: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """The box the localizer gives on the strips: its right edge half a tile into the next one,
    its left 0.1 into the previous one (1.6 tiles wide, centred 0.2 of a tile off)."""
    x0, y0, x1, y1 = b
    return (x0 - 0.1 * TW, y0, x1 + 0.5 * TW, y1)


@pytest.mark.parametrize("trim", [True, False])
def test_boxes_half_a_tile_off_are_cut_to_the_tiles_and_read_right(tmp_path, trim):
    tiles = row(len(HAND))
    # the row's last box as it is (nothing right of it to cut at: `trim_overlaps` leaves it)
    found = [off_by_a_third(b) for b in tiles[:-1]] + [tiles[-1]]
    testing.build_localizer(tmp_path / LOCALIZER_FILE, found, image_size=SIZE, size=256)
    testing.build_classifier(tmp_path / CLASSIFIER_FILE, classes=CLASSIFIER_CLASSES)
    img = testing.paint_scene(*SIZE, list(zip(tiles, HAND, strict=True)), classes=CLASSIFIER_CLASSES)
    reader = TileReader(tmp_path, ReaderConfig(refine_min_gain=0, fill_gaps=False, trim_rows=trim))
    dets = sorted(reader.detect(img).detections, key=lambda d: d.xyxy[0])
    assert len(dets) == len(HAND)
    right_edges = [d.xyxy[2] for d in dets[:-1]]
    if trim:
        # each shared edge at the middle of the overlap: 0.2 of a tile right of where the tiles
        # meet (the boxes were pushed right; the last pair 0.25), no longer half a tile in
        want = [b[2] + 0.2 * TW for b in tiles[:-2]] + [tiles[-2][2] + 0.25 * TW]
        assert right_edges == pytest.approx(want, abs=1)
        assert [d.tile for d in dets] == HAND
    else:  # as before: the classifier's view of each box holds an eighth of its neighbour's face
        assert right_edges == pytest.approx([b[2] + 0.5 * TW for b in tiles[:-1]], abs=1)
        assert sum(d.tile != t for d, t in zip(dets, HAND, strict=True)) >= 4


def test_a_row_boxed_wide_around_the_right_centres_goes_back_to_the_pitch():
    tiles = np.array(row(5), np.float32)
    wide = tiles + np.array([-0.22, 0, 0.22, 0], np.float32) * TW  # 1.44 tiles wide, centres right
    cut = trim_overlaps(wide)
    assert cut[:-1, 2] == pytest.approx(tiles[:-1, 2]) and cut[1:, 0] == pytest.approx(tiles[1:, 0])
    assert cut[0, 0] == wide[0, 0] and cut[-1, 2] == wide[-1, 2]  # the row's ends: nothing to cut at
    assert (cut[:, [1, 3]] == wide[:, [1, 3]]).all()


def test_touching_boxes_one_tile_boxed_twice_and_another_row_keep_their_edges():
    tiles = np.array(row(3), np.float32)
    touching = tiles + np.array([-3, 0, 3, 0], np.float32)  # 6 px overlap: any photo's boxes
    assert (trim_overlaps(touching) == touching).all()
    twice = np.array([tiles[0], tiles[0] + [0.3 * TW, 0, 0.3 * TW, 0]], np.float32)  # 0.7: one tile
    assert (trim_overlaps(twice) == twice).all()
    below = tiles[1] + np.array([-0.3 * TW, 1.5 * TH, -0.3 * TW, 1.5 * TH], np.float32)  # the next row
    two_rows = np.array([tiles[0], below], np.float32)
    assert neighbours(two_rows) == [] and (trim_overlaps(two_rows) == two_rows).all()
    diagonal = tiles[1] + np.array([-0.3 * TW, 0.4 * TH, -0.3 * TW, 0.4 * TH], np.float32)  # a column
    assert neighbours(np.array([tiles[0], diagonal], np.float32)) == []
    smaller = tiles[1] + np.array([-0.3 * TW, 0, -0.3 * TW, -0.5 * TH], np.float32)  # half as tall
    assert neighbours(np.array([tiles[0], smaller], np.float32)) == []
    flat = np.array([[0, 0, 76, 45], [60, 0, 136, 45]], np.float32)  # tiles lying flat, low angle
    assert (trim_overlaps(flat) == flat).all()
