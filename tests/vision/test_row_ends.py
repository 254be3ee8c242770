"""`vision.row_ends`: a tile the localiser saw only under its score cut one pitch past a row's end
is cut and read; nothing is added where no weak box points, where the weak box is off the row's
pitch or baseline or too small (a die), past a wall of backs, over the table (not the faces'
colour, or a light table without a tile's rim), or where it reads `none` / `back`.

Three kinds of scenes: boxes alone (the geometry), stand-in models (`vision.testing`) through
`TileReader.detect`, and a row drawn by `datasets.scenes` read by the shipped classifier."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.util import DRAWN_OPTS
from vision import ReaderConfig, TileReader, testing
from vision.image import LoadedImage
from vision.modelfiles import CLASSIFIER_CLASSES, CLASSIFIER_FILE, LOCALIZER_FILE
from vision.reading import Readings
from vision.row_ends import end_boxes, fill_ends

SIZE = (1600, 1200)
TW, TH, PITCH = 72.0, 96.0, 76.0  # an upright tile and the distance between neighbours, pixels


def row_boxes(n: int, x: float = 300.0, y: float = 500.0) -> np.ndarray:
    return np.array([(x + k * PITCH, y, x + k * PITCH + TW, y + TH) for k in range(n)], np.float32)


def shift(boxes, *by: float) -> np.ndarray:
    """`boxes` `(n, 4)` moved edge by edge `by = (dx0, dy0, dx1, dy1)`."""
    return np.asarray(boxes, np.float32) + np.array(by, np.float32)


# -- geometry: where a weak box points -----------------------------------------------------------


def test_a_weak_box_one_pitch_past_either_end_makes_a_place_on_the_row():
    row = row_boxes(5)
    weak = np.array([row[0] - [PITCH + 4, 3, PITCH + 4, 3], row[-1] + [PITCH - 5, 2, PITCH + 9, 6]])
    places, end, step = end_boxes(row, weak, np.ones(5, bool))
    assert sorted(end.tolist()) == [0, 4] and step.tolist() == [1, 1]
    # the places are the row's: its pitch, its size, its baseline (not the weak box's)
    want = sorted([row[0] - [PITCH, 0, PITCH, 0], row[-1] + [PITCH, 0, PITCH, 0]], key=lambda b: b[0])
    assert np.allclose(sorted(places.tolist()), want, atol=0.5)


def test_three_weak_boxes_in_a_row_make_three_places_in_order():
    row = row_boxes(8)
    places, end, step = end_boxes(row[:5], shift(row[5:], 3, -4, 3, -4), np.ones(5, bool))
    assert step.tolist() == [1, 2, 3] and end.tolist() == [4, 4, 4]
    assert np.allclose(places, row[5:], atol=0.5)


@pytest.mark.parametrize(
    "why",
    ["none", "half_a_pitch", "off_the_baseline", "a_die", "wider_than_two_tiles", "boxed_already", "a_wall"],
)
def test_no_place_without_a_weak_box_on_the_pitch(why):
    row = row_boxes(5)
    weak = shift(row[-1:], PITCH, 0, PITCH, 0)  # one pitch past the right end, the row's size
    faces, others = np.ones(5, bool), None
    if why == "none":
        weak = weak[:0]
    elif why == "half_a_pitch":
        weak = shift(weak, PITCH / 2, 0, PITCH / 2, 0)
    elif why == "off_the_baseline":
        weak = shift(weak, 0, TH / 2, 0, TH / 2)
    elif why == "a_die":  # a die lying there: half a tile
        c = (weak[0, :2] + weak[0, 2:]) / 2
        weak = np.array([[*(c - TW / 4), *(c + TW / 4)]], np.float32)
    elif why == "wider_than_two_tiles":  # a box around the next group, not a tile
        weak = shift(weak, -PITCH, 0, 2 * PITCH, 0)
    elif why == "boxed_already":  # a sideways tile boxed there, not in the chain
        others = np.concatenate([row, [[row[-1, 2] + 4, 520, row[-1, 2] + 4 + TH, 520 + TW]]])
    elif why == "a_wall":  # the row is backs: a wall's end
        faces = np.zeros(5, bool)
    assert len(end_boxes(row, weak, faces, others)[0]) == 0


# -- stand-in models through `TileReader.detect` -------------------------------------------------

CODES = [
    "1m",
    "2m",
    "3m",
    "4s",
    "5s",
    "6s",
    "6s",
    "6s",
]  # a pung at the end: one face colour (the stand-in paints each code its own)


def standin(tmp_path, found, scores, painted, ends=True):
    """Stand-in models finding the boxes `found` at `scores`; `painted`: `(xyxy, code)` drawn."""
    testing.build_localizer(tmp_path / LOCALIZER_FILE, found, image_size=SIZE, size=256, scores=scores)
    testing.build_classifier(tmp_path / CLASSIFIER_FILE, classes=CLASSIFIER_CLASSES)
    img = testing.paint_scene(*SIZE, painted, classes=CLASSIFIER_CLASSES)
    return TileReader(tmp_path, ReaderConfig(refine_min_gain=0, row_ends=ends)), img


@pytest.mark.parametrize("ends", [True, False])
def test_the_last_two_tiles_seen_weakly_are_read(tmp_path, ends):
    boxes = row_boxes(len(CODES))
    found = [*boxes[:6], boxes[6] + [6, -5, 10, -2], boxes[7] + [-7, 3, 4, 5]]  # the last two sloppy
    scores = [0.9] * 6 + [0.2, 0.15]  # under the score cut (0.3)
    reader, img = standin(tmp_path, found, scores, list(zip(boxes, CODES, strict=True)), ends)
    dets = sorted(reader.detect(img).detections, key=lambda d: d.xyxy[0])
    if ends:
        assert [d.tile for d in dets] == CODES
        assert np.allclose(dets[6].xyxy, boxes[6], atol=2) and np.allclose(dets[7].xyxy, boxes[7], atol=2)
    else:
        assert [d.tile for d in dets] == CODES[:6]


@pytest.mark.parametrize("there", ["none", "back", "table"])
def test_a_weak_box_past_the_end_over_no_tile_adds_nothing(tmp_path, there):
    # the localiser's weak box lies past the row's end over what the classifier calls `none`, a
    # back, or the table itself (bright enough for the stand-in localiser, unlike the faces)
    boxes = row_boxes(7)
    painted = [(b, c) for b, c in zip(boxes[:6], CODES[:6], strict=True)]
    if there != "table":
        painted.append((boxes[6], there))
    reader, img = standin(tmp_path, list(boxes), [0.9] * 6 + [0.2], painted)
    if there == "table":
        img[500:596, int(boxes[6, 0]) : int(boxes[6, 2])] = [250, 250, 250]
    dets = reader.detect(img).detections
    assert [d.tile for d in sorted(dets, key=lambda d: d.xyxy[0])] == CODES[:6]


# -- the shipped classifier on a drawn row --------------------------------------------------------

LONE = [[0, 1, 2], [19, 20, 21], [27, 27, 33]]  # 123m 234s, then E E 白: a 白 at the end beside an E
PAIR = [[0, 1, 2], [19, 20, 21], [27, 27, 27], [33, 33]]  # ... a pair of 白 at the end


@pytest.fixture(scope="module")
def drawn():
    """`draw(sets)`: `(reader, img, xyxy, codes)` of one row of `sets` drawn (seed 1), left to right."""
    from datasets.scenes import make_scene
    from datasets.tiles import CLASSES
    from vision.modelfiles import models_dir

    reader = TileReader(models_dir())

    def draw(sets):
        opts = {**DRAWN_OPTS, "rows": 1, "last_apart": False}
        img, boxes = make_scene(np.random.default_rng(1), sets=sets, opts=opts)
        img = np.ascontiguousarray(np.clip(img, 0, 255).astype(np.uint8))
        order = sorted(range(len(boxes)), key=lambda k: boxes[k].xyxy[0])
        xyxy = np.array([boxes[k].xyxy for k in order], np.float32)
        return reader, img, xyxy, [CLASSES[boxes[k].cls] for k in order]

    return draw


def ends(reader, img, xyxy, weak):
    loaded = LoadedImage.from_array(img)

    def classify(b):
        return reader.classifier.classify(loaded, np.asarray(b, np.float32), {"decode": 0.0})

    ones, zeros = np.ones(len(xyxy), np.float32), np.zeros(len(xyxy), np.int64)
    names = reader.classifier.classes
    return fill_ends(xyxy, ones, zeros, classify(xyxy), classify, names, (img, 1.0), 0.3, np.float32(weak))


def test_drawn_blank_white_dragon_at_the_rows_end_seen_weakly_is_read(drawn):
    reader, img, xyxy, codes = drawn(LONE)
    assert codes[-2:] == ["E", "P"]
    w = xyxy[-1, 2] - xyxy[-1, 0]
    weak = shift(xyxy[-1:], 0.15 * w, -2, 0.3 * w, 3)  # the localiser's sloppy box, under the cut
    g = ends(reader, img, xyxy[:-1], weak)
    assert len(g.kept) == 1 and reader.classifier.classes[g.readings.cls[-1]] == "P"
    assert np.abs(g.xyxy[-1] - xyxy[-1]).max() < 0.25 * w
    assert len(ends(reader, img, xyxy[:-1], np.zeros((0, 4))).kept) == 0  # no weak box: nothing


def test_drawn_light_table_past_the_rows_end_is_no_white_dragon(drawn):
    """The row's last tile wiped out by a light (cream) table, and a weak box there: the table is
    face-coloured and the classifier reads blank cream 白; it has no tile's rim, so it is no tile."""
    reader, img, xyxy, _codes = drawn(LONE)
    out = img.copy()
    x0, x1 = int(xyxy[-1, 0] - 2), int(xyxy[-1, 2] + 40)
    y0, y1 = int(xyxy[:, 1].min() - 40), int(xyxy[:, 3].max() + 40)
    noise = np.random.default_rng(0).integers(-6, 7, (y1 - y0, x1 - x0, 3))
    out[y0:y1, x0:x1] = np.clip(np.array([236, 234, 226]) + noise, 0, 255)
    g = ends(reader, out, xyxy[:-1], xyxy[-1:])
    assert len(g.kept) == 0 and len(g.xyxy) == len(xyxy) - 1


def test_drawn_white_dragon_beside_a_white_dragon_is_not_added(drawn):
    """A blank face is a tile only beside a printed one: a wall's backs read 白 one after another
    (R4 on `real_sets_dev`) vouch for nothing. The second 白 of a pair at the row's end, missed, is
    left to the player (what it costs)."""
    reader, img, xyxy, codes = drawn(PAIR)
    assert codes[-2:] == ["P", "P"]
    g = ends(reader, img, xyxy[:-1], xyxy[-1:])
    assert len(g.kept) == 0


# -- a tile lying flat past the row's end: its weak box read itself --------------------------------


def test_a_flat_tile_past_the_end_is_read_by_its_own_weak_box():
    """Set G: the last tile lies flat past the row's end, larger than the standing tiles and
    raised off their baseline; cut at the row's size it shows half its face and reads no tile
    surely, its weak box (the localiser's own box of it) reads it. Without its weak box read, it
    is missed (as before); a place that reads a face keeps the row's box (as before)."""
    row = row_boxes(6)
    weak = shift(row[-1:], PITCH - 10, -40, PITCH + 20, 5)  # wider, taller, raised: lying flat
    place = shift(row[-1:], PITCH, 0, PITCH, 0)[0]
    names = list(CLASSIFIER_CLASSES)

    def reads(place_code, place_p):
        def classify(b):
            b = np.asarray(b, np.float32)
            is_weak = np.all(np.abs(b - weak[0]) < 1, axis=1)
            is_place = np.all(np.abs(b - place) < 1, axis=1)
            cls = np.where(is_weak, names.index("6p"), np.where(is_place, names.index(place_code), 0))
            p = np.where(is_weak, 0.92, np.where(is_place, place_p, 0.9))
            n = len(b)
            return Readings(cls, p, np.zeros(n), np.ones(n, bool))

        return classify

    def ends(classify):
        ones, zeros = np.ones(len(row), np.float32), np.zeros(len(row), np.int64)
        return fill_ends(row, ones, zeros, classify(row), classify, names, None, 0.3, weak)

    g = ends(reads("1p", 0.44))  # the place: half a face, read unsurely
    assert len(g.xyxy) == 7 and names[g.readings.cls[-1]] == "6p"
    assert np.allclose(g.xyxy[-1], weak[0]) and g.kept.tolist() == [1]  # the weak box, read second
    g = ends(reads("6p", 0.8))  # the place reads the tile: the row's box, as before
    assert np.allclose(g.xyxy[-1], place) and g.kept.tolist() == [0]
    g = ends(reads("none", 0.9))
    assert np.allclose(g.xyxy[-1], weak[0])
