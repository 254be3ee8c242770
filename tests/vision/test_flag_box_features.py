"""Flag 3 (`vision.flagging`, issue 35 item 5): a flag file that names the box features
(`BOX_FEATURES`) reads them from the boxes; a damaged or unknown flag file is a coded error."""

from __future__ import annotations

import json

import numpy as np
import pytest

from app import cli
from tests.vision.test_flagging import SCENE, SIZE, models, stand_in  # noqa: F401  (the fixture)
from vision import ModelError, TileReader, testing
from vision.flagging import (
    BOX_FEATURES,
    FEATURES,
    FlagModel,
    FlagModelError,
    box_features,
    feature_matrix,
    load_flag_model,
)
from vision.modelfiles import CLASS_CODES

FLAG3 = (*FEATURES, *BOX_FEATURES)


def flag3(d, weights, threshold: float, knee: float = 1.0) -> FlagModel:
    """A flag-3 file in `d`: no prototypes, `weights` by feature name (bias `"bias"`), 0 elsewhere."""
    w = np.array([weights.get(n, 0.0) for n in ("bias", *FLAG3)], float)
    fm = FlagModel(np.zeros((len(CLASS_CODES), 3), np.float32), w, threshold, 4.0, False, FLAG3, knee)
    fm.save(d / "flag.npz")
    return fm


def copy_models(src, dst) -> None:
    for f in src.iterdir():
        (dst / f.name).write_bytes(f.read_bytes())


def test_box_features_measure_a_box_against_the_photos_face_up_boxes():
    boxes = np.array(
        [[0, 0, 40, 60], [50, 0, 90, 60], [100, 0, 140, 60], [150, 0, 170, 30], [0, 80, 40, 120]]
    )
    face_down = np.array([False, False, False, False, True])
    f = box_features(boxes, np.array([0.9, 0.8, 0.85, 0.3, 0.7]), face_down)
    assert f["loc"].tolist() == [0.9, 0.8, 0.85, 0.3, 0.7]
    assert f["size_all"][:3].tolist() == [0.0, 0.0, 0.0]  # the row's own size
    assert f["size_all"][3] == pytest.approx(np.log(2))  # half the row's long side: a split box
    assert f["aspect_all"][3] == pytest.approx(0.0)  # the same shape, only smaller
    assert f["aspect_all"][4] == pytest.approx(np.log(1.5))  # a square (face-down: not in the median)


def test_a_flag_3_file_round_trips_its_features(tmp_path):
    fm = flag3(tmp_path, {"bias": 1.0, "loc": -2.0}, 0.5, knee=0.6)
    got = load_flag_model(tmp_path)
    assert got.features == FLAG3 and got.weights.tolist() == fm.weights.tolist() and got.threshold == 0.5
    assert got.loc_knee == 0.6
    stand_in(tmp_path, threshold=1.0)  # flag 2's file: its four features, no knee
    assert load_flag_model(tmp_path).features == FEATURES and load_flag_model(tmp_path).loc_knee == 1.0


def test_a_box_surer_than_the_knee_is_no_surer_for_the_flag():
    fm = FlagModel(np.zeros((1, 1)), np.r_[np.zeros(5), -10.0, 0.0, 0.0], 0.0, 4.0, False, FLAG3, 0.6)
    base = np.zeros((3, 4))
    s = fm.score(fm.matrix(base, {"loc": np.array([0.3, 0.6, 0.95])}))
    assert s.tolist() == pytest.approx([-3.0, -6.0, -6.0])  # 0.95 counts as 0.6


def test_agreement_and_the_box_features_move_the_score():
    fm = FlagModel(
        np.zeros((1, 1)), np.array([0.0, -1.0, 2.0, 0.0, 0.0, -3.0, 4.0, 0.0]), 0.0, 4.0, features=FLAG3
    )
    base = feature_matrix(
        np.array([1.0, 1.0, 1.0]), np.array([True, False, True]), np.ones(3), np.full(3, np.nan)
    )
    box = {"loc": np.array([0.9, 0.9, 0.2]), "size_all": np.array([0.0, 0.0, 0.7])}
    s = fm.score(fm.matrix(base, box))
    assert s[1] - s[0] == pytest.approx(2.0)  # the views disagree: +2
    assert s[2] - s[0] == pytest.approx(3.0 * 0.7 + 4.0 * 0.7)  # a weak, odd-sized box
    assert s[0] == pytest.approx(-1.0 - 3.0 * 0.9) and not fm.flags(fm.matrix(base, box))[0]


def test_the_reader_hands_the_box_features_to_a_flag_3_model(models, tmp_path):  # noqa: F811
    copy_models(models, tmp_path)
    img = testing.paint_scene(*SIZE, SCENE)
    flag3(tmp_path, {"bias": 1.0, "loc": -10.0}, 0.0)  # score 1 - 10 loc: a box flagged below loc 0.1
    reader = TileReader(tmp_path)
    seen = []
    matrix = reader.classifier.flag_model.matrix

    def spy(base, box=None):
        seen.append(box)
        return matrix(base, box)

    object.__setattr__(reader.classifier.flag_model, "matrix", spy)
    dets = reader.detect(img).detections
    assert seen and set(seen[0]) == set(BOX_FEATURES) and len(seen[0]["loc"]) >= len(dets)
    assert not any(d.uncertain for d in dets)  # the stand-in localiser is sure of every box
    flag3(tmp_path, {"bias": 1.0, "loc": -0.1}, 0.0)  # now every box
    assert all(d.uncertain for d in TileReader(tmp_path).detect(img).detections if d.tile != "back")


@pytest.mark.parametrize(
    "damage, code",
    [
        (lambda p: p.write_bytes(p.read_bytes()[:40]), "flag_model_unreadable"),  # truncated
        (lambda p: p.write_bytes(b"not a zip at all"), "flag_model_unreadable"),
        (lambda p: np.savez(p, weights=np.zeros(5)), "flag_model_unreadable"),  # keys missing
        (lambda p: _rewrite(p, features=np.array([*FEATURES, "moon_phase"])), "flag_model_contract"),
        (lambda p: _rewrite(p, weights=np.zeros(3)), "flag_model_contract"),
    ],
)
def test_a_damaged_flag_file_is_a_coded_error(models, tmp_path, damage, code):  # noqa: F811
    copy_models(models, tmp_path)
    stand_in(tmp_path, threshold=1.0)
    damage(tmp_path / "flag.npz")
    with pytest.raises(FlagModelError) as e:
        load_flag_model(tmp_path)
    assert e.value.code == code and e.value.fields == {"path": str(tmp_path / "flag.npz")}
    with pytest.raises(ModelError):  # the reader refuses it as it refuses a damaged model
        TileReader(tmp_path)


def _rewrite(path, **keys) -> None:
    with np.load(path) as z:
        kept = {k: z[k] for k in z.files}
    np.savez(path, **{**kept, **keys})


def test_jxmj_detect_answers_a_damaged_flag_file_with_a_code(models, tmp_path, capsys):  # noqa: F811
    copy_models(models, tmp_path)
    (tmp_path / "flag.npz").write_bytes(b"PK\x03\x04 damaged")
    photo = tmp_path / "hand.png"
    from PIL import Image

    Image.fromarray(testing.paint_scene(*SIZE, SCENE)).save(photo)
    status = cli.main(["detect", "--models", str(tmp_path), str(photo)])
    out = json.loads(capsys.readouterr().out)
    assert status == 1 and out["code"] == "models_unavailable" and "flag" in out["error"]
