"""The 0.6.0 recipe's parts: the split by source photo, hard negatives, ONNX weights back into
PyTorch for a fine-tune, and the flag calibration."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.calibrate import fit, reading
from datasets.negatives import negative_boxes
from datasets.real import iou_matrix, source_of, split_by_source


def test_split_keeps_every_version_of_a_source_photo_together_and_is_seeded():
    stems = [f"p{i}_jpg.rf.{h}" for i in range(200) for h in ("aa", "bb")]
    s = split_by_source(stems, 1, 0.2)
    assert all(s[f"p{i}_jpg.rf.aa"] == s[f"p{i}_jpg.rf.bb"] for i in range(200))
    share = sum(v == "val" for v in s.values()) / len(s)
    assert 0.12 < share < 0.28
    assert s == split_by_source(list(reversed(stems)), 1, 0.2)
    assert s != split_by_source(stems, 2, 0.2)
    assert source_of("IMG_1_jpg.rf.0123") == "IMG_1"


def test_negatives_never_cover_a_whole_tile():
    rng = np.random.default_rng(0)
    tiles = np.array([[100 + 42 * k, 200, 140 + 42 * k, 256] for k in range(8)], np.float32)
    boxes = np.array(negative_boxes(tiles, (640, 480), rng, complete=True, n=(4, 3, 6)), np.float32)
    assert len(boxes) >= 8
    iou = iou_matrix(boxes, tiles)
    assert iou.max() < 0.6  # a straddle, a half or background: never one tile
    straddles = boxes[:4]
    assert all(((iou_matrix(b[None], tiles) > 0.1).sum() == 2) for b in straddles)


def test_partial_labels_keep_background_negatives_a_tile_away_from_known_boxes():
    rng = np.random.default_rng(1)
    tiles = np.array([[300, 300, 340, 356]], np.float32)
    others = np.array([[100, 100, 140, 156]], np.float32)  # found, unlabelled: maybe a tile
    boxes = negative_boxes(tiles, (640, 480), rng, complete=False, others=others, n=(0, 0, 20))
    for b in boxes:
        for k in (tiles[0], others[0]):
            gap_x = max(k[0] - b[2], b[0] - k[2])
            gap_y = max(k[1] - b[3], b[1] - k[3])
            assert max(gap_x, gap_y) >= 40  # a tile's width of clearance


def test_onnx_weights_load_back_into_the_net(tmp_path):
    torch = pytest.importorskip("torch", reason="needs torch (the train extra)")
    pytest.importorskip("onnx", reason="needs onnx (the train extra)")
    from datasets.export import _to_onnx
    from datasets.nets import TileClassifier
    from datasets.onnx_init import load_onnx, verify

    torch.manual_seed(0)
    src = TileClassifier(5, 8)
    for m in src.modules():  # non-trivial BatchNorm statistics, folded by the exporter
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 2.0)
    src.eval()
    path = tmp_path / "c.onnx"
    model = _to_onnx(
        src, torch.rand(2, 3, 32, 24), "crops", "logits", {"crops": {0: "b"}, "logits": {0: "b"}}
    )
    path.write_bytes(model.SerializeToString())
    dst = TileClassifier(6, 8)  # one class more: its row keeps the fresh init
    x = torch.rand(3, 3, 32, 24)
    assert load_onnx(dst, path, x) == ["layer 10: 5 of 6 outputs loaded"]
    dst.eval()
    with torch.no_grad():
        assert verify(dst(x).numpy(), path, x, "crops") < 1e-4


def test_calibration_flags_wrong_reads_within_the_right_budget():
    rng = np.random.default_rng(0)
    n, c = 2000, 5
    y = rng.integers(0, c - 1, n)
    z = rng.normal(0, 1, (n, c))
    sure = rng.random(n) < 0.7
    z[np.arange(n), y] += np.where(sure, rng.uniform(4, 9, n), 0.0)  # confident and right, or a coin toss
    z1 = z.copy()
    z1[~sure] = rng.normal(0, 1, (int((~sure).sum()), c))  # the unsure ones read otherwise upside down
    res = fit(z, z1, y, c - 1, 0.05)
    assert res["right_flagged"] <= 0.05 + 1e-9
    assert res["wrong_flagged"] > 0.5
    assert 0.5 <= res["temperature"] <= 4.0
    r = reading(z, z1, res["temperature"])
    assert r["p"].shape == (n, c) and np.allclose(r["p"].sum(1), 1, atol=1e-5)


def test_calibration_on_the_logit_margin_stores_its_own_threshold():
    rng = np.random.default_rng(1)
    n, c = 1000, 6
    y = rng.integers(0, c - 1, n)
    z = rng.normal(0, 1, (n, c))
    z[np.arange(n), y] += rng.uniform(0, 8, n)
    res = fit(z, z, y, c - 1, 0.05, score="logit_margin")
    assert "flag_margin" not in res and res["flag_logit_margin"] > 0
    assert res["right_flagged"] <= 0.05 + 1e-9
    r = reading(z, z, res["temperature"])
    zs = np.sort(z / res["temperature"], 1)
    assert np.allclose(r["logit_margin"], zs[:, -1] - zs[:, -2])
