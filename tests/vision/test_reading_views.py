"""How the reader reads a crop, on stand-in models: `none` boxes go to `rejected`, every crop is
read at 0° and 180° and the likelier view wins, and the calibrated `uncertain` flag (margin, view
agreement, a tile read more often than a set holds)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import ReaderConfig, TileReader, testing
from vision.arrange import arrange
from vision.boxes import cut_crops
from vision.detection import Detection
from vision.modelfiles import CLASSIFIER_CLASSES, CLASSIFIER_FILE, LOCALIZER_FILE
from vision.reading import Readings, combine_views, uncertain

SIZE = (1600, 1200)


def build(tmp_path, tiles, calibration=None, upside_down=False):
    """Stand-ins with the 37 classes of 0.6.0 (`none` last) for a scene of `(xyxy, code)`."""
    testing.build_localizer(tmp_path / LOCALIZER_FILE, [b for b, _ in tiles], image_size=SIZE, size=128)
    meta = {"upside_down": upside_down}
    if calibration is not None:
        meta["calibration"] = calibration
    testing.build_classifier(tmp_path / CLASSIFIER_FILE, classes=CLASSIFIER_CLASSES, meta_override=meta)
    pixels = testing.paint_scene(*SIZE, tiles, classes=CLASSIFIER_CLASSES)
    # the stand-in localizer knows its boxes in whole-image coordinates only: no second pass
    return TileReader(tmp_path, ReaderConfig(refine_min_gain=0)), pixels


def row(codes, x=100.0, y=500.0, w=72.0, h=96.0):
    return [((x + k * (w + 4), y, x + k * (w + 4) + w, y + h), c) for k, c in enumerate(codes)]


def test_a_box_read_as_none_moves_to_rejected(tmp_path):
    tiles = row(["1m", "2m", "3m", "none", "5p"])
    reader, pixels = build(tmp_path, tiles)
    result = reader.detect(pixels)
    assert [d.tile for d in result.detections] == ["1m", "2m", "3m", "5p"]
    assert len(result.rejected) == 1
    rej = result.rejected[0]
    assert rej.why == "not_a_tile" and np.allclose(rej.xyxy, tiles[3][0], atol=2)
    assert result.to_json()["rejected"][0]["why"] == "not_a_tile"
    assert sorted(i for g in result.groups for i in g.tiles) == [0, 1, 2, 3]


def test_cut_crops_both_ways_gives_every_upright_box_a_180_view():
    img = np.zeros((60, 80, 3), np.uint8)
    img[10:20, 10:30] = 200  # top part of the box is bright
    batch, rotated, owner = cut_crops(
        img, np.array([[10, 10, 30, 50], [0, 0, 80, 20]], np.float32), (16, 8), both_ways=True
    )
    assert owner == [0, 0, 1, 1] and rotated.tolist() == [False, True]
    assert batch[0, 0, 0, 4] > 0.5 and batch[0, 0, -1, 4] < 0.1  # as it is: bright on top
    assert np.allclose(batch[1], batch[0][:, ::-1, ::-1])  # turned 180°
    single, _, owner1 = cut_crops(img, np.array([[10, 10, 30, 50]], np.float32), (16, 8))
    assert owner1 == [0] and len(single) == 1


def test_the_likelier_view_wins_and_disagreement_is_recorded():
    # box 0: upright view says class 2 at 0.5, the 180° view says class 1 at 0.8 -> 1 wins
    p = np.array([[0.2, 0.3, 0.5], [0.1, 0.8, 0.1], [0.05, 0.05, 0.9], [0.1, 0.1, 0.8]])
    r = combine_views(np.log(p), [0, 0, 1, 1], 2)
    assert r.cls.tolist() == [1, 2]
    assert r.p == pytest.approx([0.8, 0.9], abs=1e-5)
    assert r.margin == pytest.approx([0.7, 0.85], abs=1e-5)
    assert r.agree.tolist() == [False, True]


def test_temperature_softens_the_probabilities():
    z = np.log(np.array([[0.8, 0.2]]))
    assert combine_views(z, [0], 1, 2.0).p[0] == pytest.approx(2 / 3, abs=1e-4)


def test_a_disagreement_counts_by_the_disagree_factor():
    r = Readings(np.array([0, 0]), np.array([0.9, 0.9]), np.array([0.6, 0.6]), np.array([True, False]))
    cal = {"temperature": 1.0, "flag_margin": 0.4, "disagree_factor": 0.5}
    assert uncertain(r, np.array([0.9, 0.9]), cal).tolist() == [False, True]
    assert uncertain(r, np.array([0.9, 0.9]), {**cal, "disagree_factor": 1.0}).tolist() == [False, False]


@pytest.mark.parametrize(
    ("margin", "agree", "flag_margin", "expected"),
    [(0.5, True, 0.3, False), (0.2, True, 0.3, True), (0.9, False, 0.3, True), (0.0, True, 0.0, False)],
)
def test_uncertain_uses_margin_and_agreement(margin, agree, flag_margin, expected):
    r = Readings(np.array([0]), np.array([0.9]), np.array([margin]), np.array([agree]))
    assert uncertain(r, np.array([0.95]), {"temperature": 1.0, "flag_margin": flag_margin}).tolist() == [
        expected
    ]


def test_the_logit_margin_is_log_p1_over_p2_of_the_winning_view_after_temperature():
    p = np.array([[0.2, 0.3, 0.5], [0.1, 0.8, 0.1], [0.6, 0.3, 0.1]])
    r = combine_views(np.log(p), [0, 0, 1], 2, temperature=2.0)
    assert r.logit_margin == pytest.approx([np.log(8.0) / 2, np.log(2.0) / 2], abs=1e-5)


@pytest.mark.parametrize(
    ("p1", "p2", "by_prob", "by_logit"),
    [(0.8, 0.03, True, False), (0.55, 0.4, True, True), (0.97, 0.01, False, False)],
)
def test_the_logit_margin_flag_spares_spread_probability(p1, p2, by_prob, by_logit):
    r = Readings(
        np.array([0]), np.array([p1]), np.array([p1 - p2]), np.array([True]), np.array([np.log(p1 / p2)])
    )
    conf = np.array([p1])
    assert uncertain(r, conf, {"flag_margin": 0.815}).tolist() == [by_prob]
    assert uncertain(r, conf, {"flag_logit_margin": 3.13}).tolist() == [by_logit]
    r_off = Readings(r.cls, r.p, r.margin, np.array([False]), r.logit_margin)
    assert uncertain(r_off, conf, {"flag_logit_margin": 3.13}).tolist() == [True]  # views disagree


def test_uncertain_flag_from_the_model_calibration(tmp_path):
    tiles = row(["1m", "2m", "3m"])
    sharp, pixels = build(tmp_path / "a", tiles, {"temperature": 1.0, "flag_margin": 0.01}, upside_down=True)
    assert not any(d.uncertain for d in sharp.detect(pixels).detections)
    strict, _ = build(tmp_path / "b", tiles, {"temperature": 1.0, "flag_margin": 1.01}, upside_down=True)
    assert all(d.uncertain for d in strict.detect(pixels).detections)
    by_logit, _ = build(tmp_path / "c", tiles, {"flag_logit_margin": 1e6}, upside_down=True)
    assert all(d.uncertain for d in by_logit.detect(pixels).detections)
    sharp_logit, _ = build(tmp_path / "d", tiles, {"flag_logit_margin": 0.01}, upside_down=True)
    assert not any(d.uncertain for d in sharp_logit.detect(pixels).detections)
    assert strict.detect(pixels).to_json()["detections"][0]["uncertain"] is True


@pytest.mark.parametrize(
    ("codes", "flagged"),
    [
        (["2p"] * 4 + ["3p"] * 2, []),  # four of a tile: a set holds them
        (["2p"] * 5 + ["3p"], ["2p"] * 5),  # five 2p: every 2p reading is checked
        (["flower"] * 9 + ["1m"], []),  # bonus tiles: some sets hold more than 8
        (["back"] * 6, []),  # face down: any tile
        (["2p"] * 5 + ["3p"] * 14, []),  # 19 tiles: more than one hand (several hands, a table)
        # 18 tiles and 4 flowers: one hand
        (
            ["2p"] * 5 + [f"{n}m" for n in range(1, 10)] + ["1s", "2s", "3s", "4s"] + ["flower"] * 4,
            ["2p"] * 5,
        ),
    ],
)
def test_a_tile_read_more_often_than_a_set_holds_is_uncertain(codes, flagged):
    dets = [Detection(b, c, 0.99) for b, c in row(codes)]
    out, _groups = arrange(dets)
    assert sorted(d.tile for d in out if d.uncertain) == flagged


def test_the_reader_owns_its_classifier_and_a_classifier_reads_on_its_own(tmp_path):
    from vision.image import LoadedImage
    from vision.modelfiles import open_model
    from vision.views import Classifier

    tiles = row(["1m", "2m", "none", "5p"])
    reader, pixels = build(tmp_path, tiles, {"temperature": 2.0, "flag_margin": 0.5}, upside_down=True)
    assert TileReader.__mro__ == (TileReader, object)  # composition: no mixin behind the reader
    clf = reader.classifier
    assert isinstance(clf, Classifier) and clf.flag_model is None  # no flag.npz beside the stand-ins
    assert (clf.classes, clf.input_size, clf.path) == (
        clf.spec.classes,
        clf.spec.input_size,
        tmp_path / CLASSIFIER_FILE,
    )
    assert clf.temperature == 2.0 and clf.calibration(None) == {"temperature": 2.0, "flag_margin": 0.5}
    # a Classifier made apart from any reader, from the same file, reads the boxes as the reader's does
    alone = Classifier(open_model(tmp_path / CLASSIFIER_FILE, "classify", 1), ReaderConfig())
    loaded = LoadedImage.from_array(pixels)
    xyxy = np.array([b for b, _ in tiles], np.float32)
    ours, theirs = clf.classify(loaded, xyxy, {"decode": 0.0}), alone.classify(loaded, xyxy, {"decode": 0.0})
    assert [CLASSIFIER_CLASSES[k] for k in theirs.cls] == ["1m", "2m", "none", "5p"]
    assert np.array_equal(ours.cls, theirs.cls) and np.array_equal(ours.p, theirs.p)
    assert [d.tile for d in reader.detect(pixels).detections] == ["1m", "2m", "5p"]
