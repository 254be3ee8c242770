"""`vision.gaps`: a tile the localiser missed between two neighbours of a row is cut and read;
a gap that is no whole number of tiles, a gap read `none` or `back` (the table, the rack) and a
sideways tile already boxed there add nothing.

Two kinds of scenes: stand-in models (`vision.testing`) through `TileReader.detect`, and a row drawn
by `datasets.scenes` read by the shipped classifier, a tile's box taken away."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.util import DRAWN_OPTS, drawn_row
from vision import ReaderConfig, TileReader, testing
from vision.gaps import fill_gaps, gap_boxes, rows
from vision.image import LoadedImage
from vision.modelfiles import CLASSIFIER_CLASSES, CLASSIFIER_FILE, LOCALIZER_FILE

SIZE = (1600, 1200)
TW, TH, PITCH = 72.0, 96.0, 76.0  # an upright tile and the distance between neighbours, pixels
CODES = ["1m", "2m", "3m", "P", "P", "P", "5s", "6s"]


def row_boxes(n: int = len(CODES), x: float = 100.0, y: float = 500.0) -> list[tuple[float, ...]]:
    return [(x + k * PITCH, y, x + k * PITCH + TW, y + TH) for k in range(n)]


def standin(tmp_path, found, painted, fill=True, embedding=False):
    """Stand-in models finding the boxes `found`; `painted`: `(xyxy, code)` drawn in the photo."""
    testing.build_localizer(tmp_path / LOCALIZER_FILE, found, image_size=SIZE, size=256)
    testing.build_classifier(tmp_path / CLASSIFIER_FILE, classes=CLASSIFIER_CLASSES, embedding=embedding)
    img = testing.paint_scene(*SIZE, painted, classes=CLASSIFIER_CLASSES)
    return TileReader(tmp_path, ReaderConfig(refine_min_gain=0, fill_gaps=fill)), img


@pytest.mark.parametrize("fill", [True, False])
def test_two_tiles_missed_in_a_row_are_cut_and_read(tmp_path, fill):
    boxes = row_boxes()
    found = [b for k, b in enumerate(boxes) if k not in (3, 4)]  # two blank 白 the localiser missed
    reader, img = standin(tmp_path, found, list(zip(boxes, CODES, strict=True)), fill)
    dets = sorted(reader.detect(img).detections, key=lambda d: d.xyxy[0])
    if fill:
        assert [d.tile for d in dets] == CODES
        assert np.allclose(dets[3].xyxy, boxes[3], atol=3) and np.allclose(dets[4].xyxy, boxes[4], atol=3)
    else:
        assert [d.tile for d in dets] == ["1m", "2m", "3m", "P", "5s", "6s"]


def test_a_gap_tile_is_read_with_the_sets_references_too(tmp_path):
    # with references the views are read again from where each box came from: a gap box's views
    # follow the split unions' (`vision.gaps.append_views`), and the gap tiles keep their reading
    from PIL import Image

    from vision.refs import Ref

    boxes = row_boxes()
    found = [b for k, b in enumerate(boxes) if k not in (3, 4)]
    reader, img = standin(tmp_path, found, list(zip(boxes, CODES, strict=True)), embedding=True)
    Image.fromarray(img).save(tmp_path / "earlier.png")
    refs = reader.embed_refs([Ref(tmp_path / "earlier.png", b, c) for b, c in zip(boxes, CODES, strict=True)])
    dets = sorted(reader.detect(img, refs).detections, key=lambda d: d.xyxy[0])
    assert [d.tile for d in dets] == CODES


@pytest.mark.parametrize("gap", ["none", "back", "table"])
def test_a_gap_read_as_the_table_or_the_rack_stays_empty(tmp_path, gap):
    # the same row, but the two places hold what the classifier calls `none` (the table between
    # two groups) or `back` (a wooden rack seen between them), or the table itself, unlike the
    # tiles' faces (the stand-in classifier would read it as a tile: only the face rule stops it)
    boxes = row_boxes()
    found = [b for k, b in enumerate(boxes) if k not in (3, 4)]
    codes = [gap if k in (3, 4) else c for k, c in enumerate(CODES)]
    painted = [(b, c) for b, c in zip(boxes, codes, strict=True) if c != "table"]
    reader, img = standin(tmp_path, found, painted)
    result = reader.detect(img)
    assert [d.tile for d in sorted(result.detections, key=lambda d: d.xyxy[0])] == [
        "1m",
        "2m",
        "3m",
        "P",
        "5s",
        "6s",
    ]
    assert result.rejected == []  # a gap box read `none` was never a box: not listed as rejected


def test_a_gap_of_no_whole_number_of_tiles_is_two_groups():
    boxes = np.array(row_boxes(), np.float32)
    # the second group half a pitch further than one missed tile: a space between two groups
    cut = np.delete(boxes, 3, 0)
    cut[3:, [0, 2]] += 0.5 * PITCH
    assert len(gap_boxes(cut)[0]) == 0
    cut = np.delete(boxes, 3, 0)  # one whole tile missed: one box, where it stood
    assert np.allclose(gap_boxes(cut)[0], [boxes[3]], atol=1)


def test_a_sideways_tile_between_two_rows_of_upright_ones_is_not_cut_again():
    boxes = np.array(row_boxes(), np.float32)
    sideways = np.array([[boxes[3, 0], boxes[3, 3] - TW, boxes[3, 0] + TH, boxes[3, 3]]], np.float32)
    cut = np.concatenate([np.delete(boxes, [3, 4], 0), sideways])
    assert len(rows(cut)) == 1  # the sideways box is not in the chain of upright ones ...
    assert len(gap_boxes(cut)[0]) == 1  # ... but where it lies no box is cut: only the one beside it


def test_rows_apart_and_tiles_of_other_sizes_do_not_make_gaps():
    upper = np.array(row_boxes(4, y=100.0), np.float32)
    lower = np.array(row_boxes(4, y=300.0), np.float32)
    lower[:, 0] += 2 * PITCH  # offset, so an upper tile and a lower one are two pitches apart in x
    lower[:, 2] += 2 * PITCH
    small = np.array(row_boxes(3, x=100.0 + 4 * PITCH, y=100.0), np.float32)
    small[:, 2] = small[:, 0] + TW / 2  # discards far away: half the size
    small[:, 3] = small[:, 1] + TH / 2
    assert len(gap_boxes(np.concatenate([upper, lower, small]))[0]) == 0


# -- the shipped classifier on a drawn row ---------------------------------------------------

SETS = [[0, 1, 2], [33, 33, 33], [19, 20, 21], [27, 27, 27], [10, 10]]  # 123m, PPP, 234s, EEE, 2p 2p


@pytest.fixture(scope="module")
def drawn():
    from datasets.tiles import CLASSES

    reader, classify, loaded, xyxy, boxes = drawn_row(SETS)
    order = np.argsort(xyxy[:, 0])
    return (reader, classify, loaded.pixels), xyxy[order], [CLASSES[boxes[k].cls] for k in order]


def fill(read, xyxy):
    reader, classify, pixels = read
    ones, zeros = np.ones(len(xyxy), np.float32), np.zeros(len(xyxy), np.int64)
    classes = reader.classifier.classes
    return fill_gaps(xyxy, ones, zeros, classify(xyxy), classify, classes, (pixels, 1.0), 0.3)


def test_drawn_blank_white_dragon_missed_is_read_white_dragon(drawn):
    read, xyxy, codes = drawn
    k = codes.index("P") + 1  # the middle 白 of the pung
    g = fill(read, np.delete(xyxy, k, 0))
    names = read[0].classifier.classes
    assert len(g.xyxy) == len(xyxy) and names[g.readings.cls[-1]] == "P"
    assert np.abs(g.xyxy[-1] - xyxy[k]).max() < 0.25 * (xyxy[k, 2] - xyxy[k, 0])


def test_drawn_whole_row_gets_nothing(drawn):
    _read, xyxy, _codes = drawn
    g = fill(_read, xyxy)
    assert len(g.kept) == 0 and len(g.xyxy) == len(xyxy)


# drawn sets where the old rule read the table 白: a body below the face, or an outline alone (of
# seeds 0-11, 6 did; on 4 and 11 the baize's colour is the faces', and painting the table wipes them)
@pytest.mark.parametrize("seed", [0, 5, 6, 9])
def test_drawn_light_table_one_tile_between_two_groups_is_no_tile(drawn, seed):
    """A drawn row whose last group stands one tile apart, on a light (cream) table: the table
    there is face-coloured and its gap box was read 白 (p 0.5+), a tile invented. The neighbours'
    rim at their top or bottom edge (a body, an outline), missing in the gap box (`rimless`),
    says it is the table."""
    from datasets.scenes import make_scene

    reader = drawn[0][0]
    sets = [[0, 1, 2], [19, 20, 21], [27, 27, 27], [10, 10], [3, 4, 5]]  # 123m 234s EEE 2p2p 456m
    opts = {**DRAWN_OPTS, "rows": 1, "row_frac": 0.7, "last_apart": False}
    img, boxes = make_scene(np.random.default_rng(seed), sets=sets, source="font", opts=opts)
    img = np.clip(img, 0, 255).astype(np.uint8)
    xyxy = np.array(sorted(b.xyxy for b in boxes), np.float32)
    cut, pitch = round(float(xyxy[10, 2] + xyxy[11, 0]) / 2), float(xyxy[10, 0] - xyxy[9, 0])  # 2p 2p
    step = round(float(xyxy[10, 0] + 2 * pitch - xyxy[11, 0]))  # 456m one tile apart from the 2p
    assert step > 0
    out = img.copy()  # 456m moved right, the table (the baize, then cream) between
    out[:, cut + step :], out[:, cut : cut + step] = img[:, cut:-step], img[5, 5]
    table = np.abs(out.astype(int) - img[5, 5].astype(int)).max(axis=2) < 60
    noise = np.random.default_rng(0).integers(-6, 7, out.shape)[table]
    out[table] = np.clip(np.array([236, 234, 226]) + noise, 0, 255)
    xyxy[11:, 0::2] += step
    loaded = LoadedImage.from_array(out)

    def classify(b):
        return reader.classifier.classify(loaded, np.asarray(b, np.float32), {"decode": 0.0})

    gap = gap_boxes(xyxy)[0]
    mid = (gap[:, 0] + gap[:, 2]) / 2
    assert ((xyxy[10, 2] < mid) & (mid < xyxy[11, 0])).any()  # one between 2p and 4m
    g = fill((reader, classify, out), xyxy)
    assert len(g.kept) == 0 and len(g.xyxy) == len(xyxy)
