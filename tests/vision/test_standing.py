"""`vision.standing`: a standing tile boxed loose (wider than a sideways box's ratio, as tall as
its row) is cut to its row's width and read again; a tile lying sideways, shorter than the
standing ones, is left as it is.

Stand-in models (`vision.testing`) through `TileReader.detect`: the localizer finds the boxes
given, the classifier reads the mean colour of a crop's central half, so a box reaching over a
third of its neighbour reads another tile."""

from __future__ import annotations

import numpy as np
import pytest

from vision import ReaderConfig, TileReader, testing
from vision.modelfiles import CLASSIFIER_CLASSES, CLASSIFIER_FILE, LOCALIZER_FILE
from vision.reading import Readings
from vision.standing import loose, stand_loose

SIZE = (1600, 1200)
T = 80.0  # the row's tiles seen at a low angle: boxes about square


def scene(tmp_path, codes: str, stand: bool):
    """A row of tiles `codes` (one string); the tile marked `*` is boxed off centre, reaching 40 px
    into its left neighbour (130 x 80 px: "sideways" by its ratio)."""
    boxes, paint = [], []
    x, y, wanted = 100.0, 500.0, None
    for code in codes.split():
        tile = (x, y, x + T, y + T)
        paint.append((tile, code.strip("*")))
        if code.endswith("*"):
            boxes.append((x - 40, y, x + T + 10, y + T))
            wanted = tile
        else:
            boxes.append(tile)
        x += T + 2
    testing.build_localizer(tmp_path / LOCALIZER_FILE, boxes, image_size=SIZE, size=256)
    testing.build_classifier(
        tmp_path / CLASSIFIER_FILE,
        classes=CLASSIFIER_CLASSES,
        meta_override={"upside_down": True},
        gain=2.0,  # less sure than the default: a crop of two colours reads less likely than one
    )
    img = testing.paint_scene(*SIZE, [], classes=CLASSIFIER_CLASSES)
    for (a, b, c, d), code in paint:
        img[int(b) : int(d), int(a) : int(c)] = testing.tile_colour(code, CLASSIFIER_CLASSES)
    reader = TileReader(tmp_path, ReaderConfig(refine_min_gain=0, stand_loose=stand))
    return reader, img, wanted


@pytest.mark.parametrize("stand", [True, False])
def test_a_standing_tile_boxed_loose_is_read_at_its_rows_width(tmp_path, stand):
    reader, img, _ = scene(tmp_path, "1m 2m 3m 9p* 1s E", stand)
    dets = reader.detect(img).detections
    tiles = [d.tile for d in dets]
    if stand:
        assert tiles == ["1m", "2m", "3m", "9p", "1s", "E"]
        x0, _, x1, _ = dets[3].xyxy
        assert x1 - x0 == pytest.approx(T, abs=3) and not dets[3].rotated  # the row's width, upright
    else:  # without the stage: the loose box reads another tile, turned
        assert len(tiles) == 6 and tiles[3] != "9p" and dets[3].rotated


def test_a_tile_lying_sideways_is_not_cut():
    # a row of standing tiles 60 x 80; a sideways tile 80 x 60 beside them (a claimed tile)
    row = [[x, 0, x + 60, 80] for x in (0, 62, 124, 186)]
    assert loose(np.array([*row, [250, 20, 330, 80]], np.float32))[0].tolist() == []


def test_the_cut_is_kept_only_when_it_reads_a_face_likelier():
    row = [[x, 0, x + 80, 80] for x in (0, 82, 164, 410)]
    boxes = np.array([*row, [246, 0, 369, 80]], np.float32)
    n = len(boxes)
    r = Readings(np.full(n, 3), np.full(n, 0.75), np.zeros(n), np.ones(n, bool))

    def read(p, cls):
        return lambda b: Readings(
            np.full(len(b), cls), np.full(len(b), p), np.zeros(len(b)), np.ones(len(b), bool)
        )

    ones, ids = np.ones(n, np.float32), np.zeros(n, np.int64)
    worse = stand_loose(boxes, ones, ids, r, read(0.6, 17), CLASSIFIER_CLASSES)
    assert worse.at.tolist() == [] and worse.xyxy is boxes
    none = stand_loose(boxes, ones, ids, r, read(0.99, CLASSIFIER_CLASSES.index("none")), CLASSIFIER_CLASSES)
    assert none.at.tolist() == []
    better = stand_loose(boxes, ones, ids, r, read(0.98, 17), CLASSIFIER_CLASSES)
    assert better.at.tolist() == [4] and better.readings.cls.tolist() == [3, 3, 3, 3, 17]
    assert better.xyxy[4].tolist() == [267.5, 0.0, 347.5, 80.0]
