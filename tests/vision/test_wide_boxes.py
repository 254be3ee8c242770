"""`vision.wide_boxes`: a localizer box around several tiles (a row on a large photo, boxed three or
four tiles a box) is localized again closer and replaced by the tiles found there; a sideways tile,
a meld boxed tile by tile, a tile boxed large with its shadow and a box whose closer look finds no
tile are left as they are.

Two kinds of scenes: stand-in models (`vision.testing`) through `TileReader.detect`, the localizer
seeing groups on the whole photo and tiles on a region of it; and a row drawn by `datasets.scenes`
read by the shipped classifier, the closer look's boxes the drawn tiles in the region."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.util import drawn_row
from vision import ReaderConfig, TileReader, testing
from vision.boxes import nms
from vision.modelfiles import CLASSIFIER_CLASSES, CLASSIFIER_FILE, LOCALIZER_FILE
from vision.wide_boxes import region, split_wide, wide

SIZE = (1600, 1200)
TW, TH, PITCH = 72.0, 96.0, 76.0
CODES = ["1m", "2m", "3m", "4m", "7p", "8p", "9p", "E"]


def row_boxes(n=8, x=100.0, y=500.0):
    return [(x + k * PITCH, y, x + k * PITCH + TW, y + TH) for k in range(n)]


def offset(pix: np.ndarray) -> tuple[int, int]:
    """`(x0, y0)` of a view `pix` in the array it was cut from."""
    root = pix
    while isinstance(root.base, np.ndarray):
        root = root.base
    off = pix.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    return (off % root.strides[0]) // root.strides[1], off // root.strides[0]


def fake_localizer(coarse, tiles):
    """`TileReader._localize` of a localizer that, on the whole photo, boxes `coarse` (groups of
    tiles as one box) and, on a region of it, every box of `tiles` whose centre lies there."""
    tiles = np.array(tiles, np.float32)

    def localize(pix, size=None, weak=None, to=None):  # `weak`: `vision.row_ends`
        if pix.shape[:2] == (SIZE[1], SIZE[0]):
            found = np.array(coarse, np.float32)
        else:
            x0, y0 = offset(pix)
            cx, cy = (tiles[:, 0] + tiles[:, 2]) / 2 - x0, (tiles[:, 1] + tiles[:, 3]) / 2 - y0
            there = (0 <= cx) & (cx < pix.shape[1]) & (0 <= cy) & (cy < pix.shape[0])
            found = tiles[there] - np.array([x0, y0, x0, y0], np.float32)
        return found, np.full(len(found), 0.7, np.float32), np.zeros(len(found), np.int64)

    return localize


def standin(tmp_path, coarse, split=True, embedding=False):
    boxes = row_boxes()
    testing.build_localizer(tmp_path / LOCALIZER_FILE, boxes, image_size=SIZE, size=256)
    # a classifier less sure than the stand-in's default (gain 20: every box read at p ~1): a pure
    # colour reads p ~0.9, a box over several tiles' colours far less (`vision.wide_boxes.SURE_P`)
    testing.build_classifier(
        tmp_path / CLASSIFIER_FILE, classes=CLASSIFIER_CLASSES, embedding=embedding, gain=3.0
    )
    img = testing.paint_scene(*SIZE, list(zip(boxes, CODES, strict=True)), classes=CLASSIFIER_CLASSES)
    cfg = ReaderConfig(refine_min_gain=0, fill_gaps=False, split_wide=split)
    reader = TileReader(tmp_path, cfg)
    reader._localize = fake_localizer(coarse, boxes)  # type: ignore[method-assign]
    return reader, img


@pytest.mark.parametrize("split", [True, False])
def test_a_box_around_four_tiles_is_cut_into_the_four(tmp_path, split):
    boxes = row_boxes()
    x0, y0, x1, y1 = boxes[4][0] - 6, boxes[4][1] - TH / 2, boxes[7][2] + 6, boxes[7][3] + TH / 2
    reader, img = standin(tmp_path, [*boxes[:4], (x0, y0, x1, y1)], split)
    dets = sorted(reader.detect(img).detections, key=lambda d: d.xyxy[0])
    if split:
        assert [d.tile for d in dets] == CODES
        assert np.allclose([d.xyxy for d in dets[4:]], boxes[4:], atol=2)
    else:  # before: the four tiles are one box, read as one tile (or none)
        assert len(dets) <= 5 and [d.tile for d in dets[:4]] == CODES[:4]


def test_the_pieces_are_read_with_the_sets_references_too(tmp_path):
    # with references the views are read again from where each box came from: the pieces' views
    # follow the split unions' (`Cut.boxes`), the wide box's are dropped
    from PIL import Image

    from vision.refs import Ref

    boxes = row_boxes()
    x0, y0, x1, y1 = boxes[4][0] - 6, boxes[4][1] - TH / 2, boxes[7][2] + 6, boxes[7][3] + TH / 2
    reader, img = standin(tmp_path, [*boxes[:4], (x0, y0, x1, y1)], embedding=True)
    Image.fromarray(img).save(tmp_path / "earlier.png")
    refs = reader.embed_refs([Ref(tmp_path / "earlier.png", b, c) for b, c in zip(boxes, CODES, strict=True)])
    dets = sorted(reader.detect(img, refs).detections, key=lambda d: d.xyxy[0])
    assert [d.tile for d in dets] == CODES


def test_two_wide_boxes_over_one_row_give_each_tile_once(tmp_path):
    # the street photo's boxes overlap: the tiles two closer looks both see are kept once
    boxes = row_boxes()
    a = (boxes[2][0] - 4, boxes[2][1] - TH / 2, boxes[5][2] + 4, boxes[5][3] + TH / 3)
    b = (boxes[4][0] - 4, boxes[4][1] - TH / 3, boxes[7][2] + 4, boxes[7][3] + TH / 2)
    reader, img = standin(tmp_path, [*boxes[:2], (300, 100, 372, 196), a, b])
    dets = [d for d in reader.detect(img).detections if d.xyxy[1] > 300]
    assert [d.tile for d in sorted(dets, key=lambda d: d.xyxy[0])] == CODES


def test_sideways_tiles_and_a_meld_boxed_tile_by_tile_are_not_wide():
    upright = [(100 + k * PITCH, 500, 100 + k * PITCH + TW, 500 + TH) for k in range(6)]
    sideways = [(600, 500 + TH - TW, 600 + TH, 500 + TH)]  # a claimed tile, 4:3
    kong = [(800 + k * TW, 500, 800 + (k + 1) * TW, 500 + TH) for k in range(4)]  # touching
    assert wide(np.array(upright + sideways + kong, np.float32)).tolist() == []
    near = [(100, 400, 100 + 1.4 * TW, 400 + 1.4 * TH)]  # the nearest tile, twice the others' area
    assert wide(np.array(upright + near, np.float32)).tolist() == []


def test_the_closer_look_is_the_box_and_a_quarter_around_it():
    assert region(np.array([100, 100, 500, 300], np.float32)) == (0, 50, 600, 350)


# -- the shipped classifier on a drawn row ---------------------------------------------------

SETS = [[0, 1, 2], [19, 20, 21], [27, 27, 27], [10, 10], [3, 4, 5]]  # 123m 234s EEE 2p2p 456m


@pytest.fixture(scope="module")
def drawn():
    from datasets.tiles import CLASSES

    reader, classify, loaded, xyxy, boxes = drawn_row(SETS)
    order = np.argsort(xyxy[:, 0])
    return reader, classify, loaded.pixels, xyxy[order], [CLASSES[boxes[k].cls] for k in order]


def cut(drawn, coarse, closer):
    """`split_wide` on the boxes `coarse`, the closer look finding the boxes of `closer` there."""
    reader, classify, _pixels, _xyxy, _codes = drawn
    coarse = np.asarray(coarse, np.float32)
    closer = np.asarray(closer, np.float32).reshape(-1, 4)

    def look(reg):
        cx, cy = (closer[:, 0] + closer[:, 2]) / 2, (closer[:, 1] + closer[:, 3]) / 2
        there = (reg[0] <= cx) & (cx < reg[2]) & (reg[1] <= cy) & (cy < reg[3])
        return closer[there], np.full(int(there.sum()), 0.7, np.float32), np.zeros(int(there.sum()), np.int64)

    def dedupe(b, s, c):
        return nms(b, s, c, 0.45, 300, 0.8)

    ones, zeros = np.ones(len(coarse), np.float32), np.zeros(len(coarse), np.int64)
    classes = reader.classifier.classes
    w = split_wide(coarse, ones, zeros, classify(coarse), look, classify, classes, dedupe)
    names = [classes[c] for c in w.readings.cls]
    order = np.argsort(w.xyxy[:, 0])
    return w, [names[k] for k in order], w.xyxy[order]


def union(xyxy, a, b, grow=0.0):
    box = np.concatenate([xyxy[a:b, :2].min(0), xyxy[a:b, 2:].max(0)])
    h = box[3] - box[1]
    return box + np.array([0, -grow * h, 0, grow * h], np.float32)


def test_drawn_three_tiles_in_one_box_are_read_one_by_one(drawn):
    *_, xyxy, codes = drawn
    coarse = np.concatenate([xyxy[:11], [union(xyxy, 11, 14, 0.4)]])  # 456m boxed as one
    w, names, boxes = cut(drawn, coarse, xyxy)
    assert names == codes
    assert np.allclose(boxes[11:], xyxy[11:], atol=1)
    assert w.cut.tolist() == [11]


def test_drawn_a_tile_boxed_with_its_shadow_stays_one_tile(drawn):
    # a tile boxed 1.6 x its size each way (2.6 x its area, a long shadow): the closer look finds
    # the tile and the shadow beside it, which reads no tile: never two tiles there
    *_, xyxy, codes = drawn
    t = xyxy[13]
    w_, h_ = t[2] - t[0], t[3] - t[1]
    big = np.array([t[0] - 0.3 * w_, t[1] - 0.3 * h_, t[2] + 0.3 * w_, t[3] + 0.3 * h_], np.float32)
    shadow = np.array([t[2] + 1, t[1], t[2] + 1 + w_, t[3]], np.float32)
    _w, names, _boxes = cut(drawn, np.concatenate([xyxy[:13], [big]]), np.stack([t, shadow]))
    assert len(names) == 14 and names[:13] == codes[:13]
    assert names[13] == codes[13]


def test_drawn_a_closer_look_that_finds_no_tile_cuts_nothing(drawn):
    # the closer look boxes the wide box again and a strip of table below the row: no tile read
    *_, xyxy, _codes = drawn
    wide_box = union(xyxy, 11, 14, 0.4)
    h = float(wide_box[3] - wide_box[1])
    table = [
        [x, wide_box[3] - 0.2 * h, x + 30, wide_box[3] - 0.05 * h] for x in (wide_box[0], wide_box[0] + 60)
    ]
    coarse = np.concatenate([xyxy[:11], [wide_box]])
    w, _names, _boxes = cut(drawn, coarse, np.concatenate([[wide_box], table]))
    assert w.cut.tolist() == [] and len(w.xyxy) == 12


def test_drawn_pieces_that_lie_apart_cut_nothing(drawn):
    # a loose box over a heap: the closer look boxes it again and finds two tiles a tile apart
    # (each read confidently): no row of tiles there, the box stays as it is
    *_, xyxy, codes = drawn
    wide_box = union(xyxy, 11, 14, 0.4)
    coarse = np.concatenate([xyxy[:11], [wide_box]])
    w, _names, _boxes = cut(drawn, coarse, np.stack([wide_box, xyxy[11], xyxy[13]]))
    assert w.cut.tolist() == [] and len(w.xyxy) == 12
    w, names, _boxes = cut(drawn, coarse, np.stack([wide_box, xyxy[11], xyxy[12]]))  # side by side: cut
    assert w.cut.tolist() == [11] and names[11:] == codes[11:13]
