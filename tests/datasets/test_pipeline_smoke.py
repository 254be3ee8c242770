"""Smoke test of the whole training pipeline on the CPU: generate, train a step, export, run the ONNX pair.

Needs the `train` extra (torch, onnx); uses the shared tile imagery when present (JXMJ_SHARED, default
../shared beside the repository; without it the generator falls back to font-rendered faces only).
"""

import json

import numpy as np
import onnxruntime as ort

from datasets import export, gen, train_cls, train_loc
from datasets.predict import Predictor
from datasets.scenes import make_scene
from datasets.tiles import CLASSES


def test_generate_train_export_load(tmp_path):
    data = tmp_path / "data"
    gen.generate(data, scenes=3, val=2, seed=5, workers=1, save_side=320, crops_per_tile=1)
    assert len(list((data / "loc/train/images").glob("*.jpg"))) == 3
    labels = (data / "loc/train/labels/000000.txt").read_text().split("\n")
    first = labels[0].split()
    assert first[0] in ("0", "1") and all(0 <= float(v) <= 1 for v in first[1:])

    train_cls.main(
        ["--data", str(data), "--out", str(tmp_path / "cls"), "--iters", "2", "--bs", "8", "--threads", "1"]
    )
    train_loc.main(
        [
            "--data",
            str(data),
            "--out",
            str(tmp_path / "loc"),
            "--iters",
            "2",
            "--bs",
            "2",
            "--size",
            "128",
            "--threads",
            "1",
        ]
    )
    models = tmp_path / "models"
    export.main(
        [
            "--cls",
            str(tmp_path / "cls/final.pt"),
            "--loc",
            str(tmp_path / "loc/final.pt"),
            "--out",
            str(models),
            "--size",
            "128",
        ]
    )

    loc = ort.InferenceSession(str(models / "localizer.onnx"), providers=["CPUExecutionProvider"])
    meta = json.loads(loc.get_modelmeta().custom_metadata_map["jxmj"])
    assert (
        meta["task"] == "localize"
        and meta["classes"] == ["tile", "back"]
        and meta["input_size"] == [128, 128]
    )
    out = loc.run(None, {"images": np.zeros((1, 3, 128, 128), np.float32)})[0]
    assert out.shape == (1, 6, (128 // 4) ** 2)

    cls = ort.InferenceSession(str(models / "classifier.onnx"), providers=["CPUExecutionProvider"])
    meta = json.loads(cls.get_modelmeta().custom_metadata_map["jxmj"])
    assert meta["task"] == "classify" and meta["classes"] == CLASSES and len(CLASSES) == 36
    h, w = meta["input_size"]
    assert cls.run(None, {"crops": np.zeros((3, 3, h, w), np.float32)})[0].shape == (3, 36)

    img, _ = make_scene(np.random.default_rng(0), 320, 240)
    res = Predictor(models, conf=0.0).detect(img)
    assert isinstance(res["detections"], list)
