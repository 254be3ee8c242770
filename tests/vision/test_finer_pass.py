"""A first localizer pass that finds fewer boxes than a hand holds runs again, finer, over the whole
photo (issue 35: a riichi table photo, 1920 x 1440, whose 14-tile hand the 384 pass missed)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from tests.vision.util import edits, localizer_shapes
from vision.boxes import halves
from vision.image import open_image
from vision.reader import TileReader
from vision.scale import finer_input

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "app" / "assets" / "sample_hand.jpg"
ROW = "2m 3m 4m 5p 6p 7p 6s 7s 8s 7p 7p 7p 9s 9s"


def _far_row() -> np.ndarray:
    """A 1920 x 1440 grey table: two of the sample's tiles large at the top corners (the first
    pass finds them, and so no region for its second pass), the sample hand's row shrunk to 0.3
    near the bottom edge (tiles 29 x 47 px: 6 px wide in the 384 input)."""
    pix = open_image(SAMPLE).pixels
    frame = np.full((1440, 1920, 3), 128, np.uint8)
    row = cv2.resize(pix[560:740, 120:1490], None, fx=0.3, fy=0.3, interpolation=cv2.INTER_AREA)
    h, w = row.shape[:2]
    frame[1340 - h : 1340, (1920 - w) // 2 : (1920 - w) // 2 + w] = row
    big = cv2.resize(pix[572:728, 132:221], None, fx=2, fy=2)
    for x0 in (40, 1920 - 40 - big.shape[1]):
        frame[40 : 40 + big.shape[0], x0 : x0 + big.shape[1]] = big
    return frame


def test_finer_input_only_for_few_boxes_and_enough_pixels():
    assert finer_input((1440, 1920), 7, (384, 384)) == (896, 1184)
    assert finer_input((1440, 1920), 13, (384, 384)) is None  # a hand's worth: one pass
    assert finer_input((640, 640), 2, (384, 384)) is None  # under 2x the pixels a side: no gain


def test_a_far_row_is_localized_again_finer(monkeypatch):
    reader = TileReader(REPO / "models")
    shapes = localizer_shapes(monkeypatch, reader)
    result = reader.detect(_far_row())
    assert shapes[:2] == [(1, 3, 384, 384), (1, 3, 896, 1184)]
    hand = [result.detections[k].tile for g in result.groups for k in g.tiles]
    # without the finer pass: 6 of the 14 (2m 5p 7p 7s 7p 9s), 9 edits
    assert edits(hand, ROW.split()) <= 3
    shapes.clear()
    reader.detect(open_image(SAMPLE).pixels)  # a hand of 14 found at once: no second look
    assert shapes == [(1, 3, 384, 384)]


def test_a_later_half_of_a_tile_goes_a_tile_as_large_stays():
    first = np.array([[100, 100, 200, 250]], np.float32)
    later = np.array(
        [
            [100, 100, 150, 250],  # the left half of the first box: a split, dropped
            [104, 98, 203, 251],  # the first box again, shifted: NMS's to choose
            [210, 100, 310, 250],  # its neighbour, touching: kept
            [600, 400, 700, 550],  # a tile elsewhere: kept
        ],
        np.float32,
    )
    assert halves(later, first).tolist() == [True, False, False, False]
    assert not halves(later, first[:0]).any() and len(halves(first[:0], later)) == 0
