"""The interleaved benchmark runs on synthetic photos (two models directories, with references) and skips
cleanly without photos."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path

from tests.vision.conftest import encode

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_interleaved.py"


def load_bench():
    sys.path.insert(0, str(BENCH.parent))
    spec = importlib.util.spec_from_file_location("bench_interleaved", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_skips_without_photos(tmp_path, capsys):
    assert load_bench().main(["--images", str(tmp_path / "absent")]) == 0
    assert "skipped" in capsys.readouterr().out


def test_times_four_contenders_interleaved_with_the_load(tmp_path, scene, scene_pixels, capsys):
    from vision import testing

    models = testing.build_models(tmp_path / "models", scene, (1600, 1200))
    testing.build_classifier(models / "classifier.onnx", embedding=True)
    photos = tmp_path / "photos"
    photos.mkdir()
    for k in range(2):
        (photos / f"p{k}.jpg").write_bytes(encode(scene_pixels, "JPEG", quality=90))
    out = tmp_path / "il.json"
    argv = ["--images", str(photos), "--models", str(models), "--baseline", str(models), "--min-mp", "0"]
    assert load_bench().main([*argv, "--rounds", "2", "--refs", "5", "--cores", "0", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "round 2: load" in text and "models_refs" in text
    j = json.loads(out.read_text())
    assert j["photos"] == ["p0.jpg", "p1.jpg"] and j["refs"] == 5 and len(j["load"]) == 3
    assert set(j["median_ms"]) == {"models", "models_refs", "baseline", "baseline_refs"}
    assert all(v["wall"] > 0 for v in j["median_ms"].values())


def test_the_default_baseline_is_the_models_without_the_flag_file(tmp_path):
    models = tmp_path / "models"
    models.mkdir()
    for name in ("classifier.onnx", "localizer.onnx", "flag.npz"):
        (models / name).write_bytes(name.encode())
    copy = Path(load_bench().without_flag(models))
    assert sorted(p.name for p in copy.iterdir()) == ["classifier.onnx", "localizer.onnx"]
    assert (copy / "classifier.onnx").read_bytes() == b"classifier.onnx"
    shutil.rmtree(copy)
