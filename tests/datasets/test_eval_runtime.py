"""`datasets.eval_runtime`: skips cleanly without ../shared; reads synthetic validation scenes end to end."""

from pathlib import Path

import pytest

from datasets import eval_runtime

MODELS = Path(__file__).resolve().parents[2] / "models"


def test_real_rows_skip_cleanly_without_the_shared_data(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(eval_runtime, "SHARED", tmp_path)
    assert eval_runtime.main(["--models", str(MODELS)]) == 0
    assert "skipped" in capsys.readouterr().out


def test_synthetic_scenes_read_through_the_shipped_models():
    res = eval_runtime.synthetic(MODELS, 2, crop_margins=(0.0, 0.1))
    assert set(res) == {0.0, 0.1}
    for r in res.values():
        assert r["tiles"] > 10
        assert r["box_recall"] > 0.5  # the shipped localiser finds most tiles of its own validation scenes
        assert 0.0 <= r["end_to_end_recall"] <= r["box_recall"]
    # the margin only changes the crops: the localiser's boxes are the same; a crop the classifier
    # calls `none` at one margin moves that box from `detections` to `rejected`
    assert res[0.0]["localized_boxes"] == res[0.1]["localized_boxes"] > 10


@pytest.mark.parametrize(
    ("a", "b", "iou"),
    [
        ((0, 0, 10, 10), (0, 0, 10, 10), 1.0),
        ((0, 0, 10, 10), (5, 0, 15, 10), 1 / 3),
        ((0, 0, 1, 1), (2, 2, 3, 3), 0.0),
    ],
)
def test_iou(a, b, iou):
    assert eval_runtime.iou(a, b) == pytest.approx(iou)
