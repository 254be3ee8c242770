"""`datasets.eval_hand`: the taps a player needs, counted as `../shared/tools/taps_eval.py` counts them."""

from __future__ import annotations

from datasets.eval_hand import place, tap_summary, taps
from tests.vision.util import edits as edit_distance
from vision.detection import Detection, DetectResult, Group

LAB = {"rows": [["1m", "2m", "3m"], ["X", "X"]], "row_bbox": [[0.1, 0.5, 0.4, 0.6], [0.5, 0.1, 0.6, 0.2]]}


def tile(x0: float, y0: float, code: str) -> Detection:
    return Detection((x0, y0, x0 + 90.0, y0 + 90.0), code, 0.9)


def test_a_box_is_placed_in_the_row_its_centre_falls_in_or_none():
    assert place((100.0, 500.0, 190.0, 590.0), LAB["row_bbox"], 1000, 1000) == 0
    assert place((100.0, 800.0, 190.0, 890.0), LAB["row_bbox"], 1000, 1000) is None
    # within 2 % of the width beside the row and half its height above it
    assert place((400.0, 460.0, 430.0, 500.0), LAB["row_bbox"], 1000, 1000) == 0


def test_taps_count_misreads_in_the_rows_and_grouped_tiles_outside_them():
    dets = [
        tile(100, 505, "1m"),
        tile(200, 505, "5m"),
        tile(300, 505, "3m"),
        tile(100, 800, "E"),
        tile(700, 800, "W"),
    ]
    res = DetectResult(1000, 1000, dets, [Group((0, 1, 2), "chow"), Group((3,), "single")])
    # one misread in the hand row; the flower row holds nothing read (not counted: all X); E taken from
    # outside; W outside but left out of every group costs nothing
    assert taps(res, LAB, edit_distance) == (1, 1)
    # a labelled tile left out of the groups is one to add
    assert taps(DetectResult(1000, 1000, dets, [Group((0, 2), "pair")]), LAB, edit_distance) == (1, 0)


def test_tap_summary():
    assert tap_summary([0, 0, 1, 3]) == {"photos": 4, "mean": 1.0, "median": 0.5, "zero": 2, "at_most_one": 3}
    assert tap_summary([])["mean"] is None


def test_each_set_gets_the_model_fitted_without_it(tmp_path):
    import pickle

    import numpy as np

    from datasets.eval_hand import held_out_models
    from datasets.flag_sets import held_out_model
    from tests.datasets.test_flag_sets import records

    recs = [*records(3), {**records(4)[0], "tag": "report", "set": "hue"}]
    path = tmp_path / "recs.pkl"
    path.write_bytes(pickle.dumps(recs))
    models = held_out_models(path, ["1m", "2m", "3m"], audit=False)
    assert set(models) == {"a", "b", "c", "swapped"}  # the reported stand-in is never a fitting set
    want = held_out_model(recs[:-1], "b", 3, 4.0, 0.025, True)
    assert np.allclose(models["b"].weights, want.weights) and models["b"].threshold == want.threshold
    assert models["b"].grey and models["b"].tta_band == 4.0


def test_skips_without_the_photos(tmp_path, capsys):
    from datasets.eval_hand import main

    assert main(["--root", str(tmp_path / "absent")]) == 0
    assert capsys.readouterr().out.startswith("skipped")
