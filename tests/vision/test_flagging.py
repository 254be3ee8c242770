"""Flag 2 (`vision.flagging`): the rule with a stand-in model, the TTA views near the threshold
only, the hand's fifth copy, and the one too-small rule (`vision.room`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from app.ui.tile_room import tile_room as app_tile_room
from vision import ImageError, TileReader, testing
from vision.flagging import FEATURES, FlagModel, feature_matrix, fifth_copies, load_flag_model, tta_boxes
from vision.modelfiles import CLASS_CODES
from vision.room import min_tile_px, tile_room

SIZE = (1600, 1200)
SCENE = testing.hand_scene(*SIZE)


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("flag_models")
    testing.build_localizer(d / "localizer.onnx", [b for b, _ in SCENE], image_size=SIZE,
                            backs=[c == "back" for _, c in SCENE])  # fmt: skip
    calibration = {"temperature": 1.0, "flag_logit_margin": 0.5, "disagree_factor": 0.0}
    testing.build_classifier(
        d / "classifier.onnx", embedding=True, gain=2.0, meta_override={"calibration": calibration}
    )
    return d


def stand_in(d: Path, threshold: float, band: float = 4.0, weights=None, grey: bool = False) -> FlagModel:
    """A flag model: no prototypes (similarity 1), `weights` (default all 0: the score is 0)."""
    w = np.zeros(1 + len(FEATURES)) if weights is None else np.asarray(weights, float)
    fm = FlagModel(np.zeros((len(CLASS_CODES), 3), np.float32), w, threshold, band, grey)
    fm.save(d / "flag.npz")
    return fm


def test_no_flag_file_reads_with_the_calibration_rule(models):
    assert load_flag_model(models) is None
    assert TileReader(models).classifier.flag_model is None


def test_the_rule_flags_by_the_model_score(models, tmp_path):
    for f in models.iterdir():
        (tmp_path / f.name).write_bytes(f.read_bytes())
    img = testing.paint_scene(*SIZE, SCENE)
    stand_in(tmp_path, threshold=-1.0)  # score 0 > -1: every tile
    every = TileReader(tmp_path).detect(img).detections
    assert every and all(d.uncertain for d in every if d.tile != "back")
    stand_in(tmp_path, threshold=1.0)  # none (the scene has no fifth copy)
    assert not any(d.uncertain for d in TileReader(tmp_path).detect(img).detections)
    loaded = load_flag_model(tmp_path)
    assert loaded.threshold == 1.0 and loaded.tta_band == 4.0 and loaded.weights.shape == (5,)


def counting(views, calls: list[int]):
    def wrapped(loaded, xyxy, *a, **k):
        calls.append(len(xyxy))
        return views(loaded, xyxy, *a, **k)

    return wrapped


def test_tta_views_only_below_the_band(models, tmp_path):
    for f in models.iterdir():
        (tmp_path / f.name).write_bytes(f.read_bytes())
    img = testing.paint_scene(*SIZE, SCENE)
    calls: list[int] = []
    for band, extra in ((-1e9, 0), (1e9, len(TTA := tta_boxes(np.zeros((1, 4)))))):
        stand_in(tmp_path, threshold=1.0, band=band)
        reader = TileReader(tmp_path)
        calls.clear()
        reader.classifier.views = counting(reader.classifier.views, calls)
        n = len(reader.detect(img).detections)
        assert (calls[-1] == extra * n) if extra else (len(calls) == 1 or calls[-1] != 2 * calls[0])
    assert len(TTA) == 2


def test_tta_boxes_shift_and_scale_about_the_centre():
    b = tta_boxes(np.array([[100.0, 100.0, 140.0, 160.0]]))
    assert b.shape == (2, 4)
    tight, shifted = b
    assert np.allclose((tight[:2] + tight[2:]) / 2, [120, 130])  # same centre, 0.9 the size
    assert np.isclose(tight[2] - tight[0], 36.0)
    assert shifted[0] > 100 and shifted[1] > 100 - 0.1  # moved right and down, a bit larger


@pytest.mark.parametrize("grey", [False, True])
def test_grey_views_join_the_tta_views_when_the_model_says(models, tmp_path, grey):
    for f in models.iterdir():
        (tmp_path / f.name).write_bytes(f.read_bytes())
    img = testing.paint_scene(*SIZE, SCENE)
    stand_in(tmp_path, threshold=1.0, band=1e9, grey=grey)
    reader = TileReader(tmp_path)
    assert reader.classifier.flag_model.grey is grey
    calls: list[bool] = []
    views = reader.classifier.views

    def spy(loaded, xyxy, *a, grey=False, **k):
        calls.append(grey)
        return views(loaded, xyxy, *a, grey=grey, **k)

    reader.classifier.views = spy
    reader.detect(img)
    assert calls.count(True) == (1 if grey else 0)


def test_a_flag_file_without_the_grey_key_reads_without_grey_views(tmp_path):
    fm = stand_in(tmp_path, threshold=1.0)
    with np.load(tmp_path / "flag.npz") as z:
        np.savez(tmp_path / "flag.npz", **{k: z[k] for k in z.files if k != "grey"})
    assert load_flag_model(tmp_path).grey is False and fm.grey is False


def test_grey_views_are_the_same_for_any_order_of_the_channels():
    from vision.flagging import grey_views

    rng = np.random.default_rng(0)
    batch = rng.random((2, 3, 4, 5), dtype=np.float32)
    g = grey_views(batch)
    assert g.shape == batch.shape and np.allclose(g, grey_views(batch[:, ::-1]))
    assert np.allclose(g[:, 0], batch.mean(1)) and np.allclose(g[:, 0], g[:, 2])


def test_features_use_the_own_margin_without_tta_views():
    x = feature_matrix(
        np.array([20.0, 1.0]), np.array([True, False]), np.array([0.9, 0.5]), np.array([np.nan, -2.0])
    )
    assert x.tolist() == [[12.0, 0.0, 0.9, 12.0], [1.0, 1.0, 0.5, -2.0]]


def test_a_fifth_copy_flags_the_copies_with_the_lowest_margins():
    tiles = ["2p"] * 6 + ["back"] * 5 + ["1m"]
    margins = [5.0, 0.5, 9.0, 1.0, 7.0, 8.0] + [0.0] * 5 + [0.1]
    assert fifth_copies(tiles, margins) == [False, True, False, True] + [False] * 8
    assert not any(fifth_copies(["2p"] * 4, [0.0] * 4))


def codes(line: str) -> list[str]:
    from scoring.tiles import parse_tiles

    return [t.code for t in parse_tiles(line)]


@pytest.mark.parametrize(
    "hand, flagged",
    [
        ("22222p 1m", ["2p"]),  # five 2p in one hand: the one with the lowest margin
        ("222222p 123m", ["2p", "2p"]),
        ("2222p 123m 456s", []),  # four: a set holds them
        ("22222p 123456789m 12345s", []),  # 19 tiles, more than one hand: five 2p can be right
        ("22222p 123456789m 1234s", ["2p"]),  # 18 tiles: still one hand (four kongs)
    ],
)
def test_a_fifth_copy_counts_only_within_one_hand(hand, flagged):
    tiles = codes(hand)
    margins = [float(i % 7) for i in range(len(tiles))]
    got = [t for t, f in zip(tiles, fifth_copies(tiles, margins), strict=True) if f]
    assert got == flagged


@pytest.mark.parametrize("short", [-1, -7])
def test_an_image_too_small_for_a_readable_tile_is_too_small(models, short):
    reader = TileReader(models)
    need = min_tile_px(reader.classifier.input_size)  # the app's rule as well (app.ui.tile_room)
    for w, h in ((need + short, 400), (400, need + short)):
        with pytest.raises(ImageError) as err:
            reader.detect(np.zeros((h, w, 3), np.uint8))
        assert err.value.code == "too_small" and err.value.fields["limit"] == need
    assert tile_room(60, 24, (64, 48)) == 32 and tile_room is app_tile_room
    reader.detect(np.zeros((need, need, 3), np.uint8))  # room for one: read (nothing there)


def test_jxmj_detect_on_a_60x24_photo_answers_too_small_with_the_shipped_models(
    tmp_path, monkeypatch, capsys
):
    import json

    from PIL import Image

    from app import cli
    from vision.modelfiles import models_dir

    monkeypatch.delenv("JXMJ_MODELS_DIR", raising=False)
    if not (models_dir() / "classifier.onnx").exists():
        pytest.skip("no shipped models")
    photo = tmp_path / "tiny.png"
    Image.new("RGB", (60, 24), (200, 200, 200)).save(photo)
    status = cli.main(["detect", str(photo)])
    j = json.loads(capsys.readouterr().out)
    assert status == 2 and j["code"] == "too_small" and "60x24" in j["error"]


def test_the_shipped_models_flag_with_flag_2():
    """`models/flag.npz` ships: the reader of the shipped models loads it, one prototype per
    classifier class, a margin weight < 0, a disagreement weight > 0, a TTA weight <= 0 (TTA only
    adds flags), the TTA band of `datasets.flag_sets` (4.0) and its grey views."""
    from vision.modelfiles import models_dir

    d = models_dir()
    if not (d / "classifier.onnx").exists():
        pytest.skip("no shipped models")
    fm = load_flag_model(d)
    assert fm is not None and (d / "flag.npz").stat().st_size < 32_000
    reader = TileReader(d)
    assert reader.classifier.flag_model is not None
    assert fm.prototypes.shape[0] == len(reader.classifier.classes)
    w = dict(zip(FEATURES, fm.weights[1:], strict=True))
    assert w["logit_margin"] < 0 < w["disagree"] and w["tta_margin"] <= 0 and w["proto_sim"] <= 0
    assert fm.tta_band == 4.0 and fm.grey is True
