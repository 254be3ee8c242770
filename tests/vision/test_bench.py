"""The detect benchmark runs (on a couple of small synthetic photos) and skips cleanly without photos."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from tests.vision.conftest import encode

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_detect.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("bench_detect", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bench_skips_without_photos(tmp_path, capsys):
    assert load_bench().main(["--images", str(tmp_path / "absent")]) == 0
    assert "skipped" in capsys.readouterr().out


def test_bench_times_jxmj(tmp_path, models_dir, scene, scene_pixels, capsys):
    photos = tmp_path / "photos"
    photos.mkdir()
    for k in range(2):
        (photos / f"p{k}.jpg").write_bytes(encode(scene_pixels, "JPEG", quality=90))
    out = tmp_path / "bench.json"
    argv = [
        "--images",
        str(photos),
        "--models",
        str(models_dir),
        "--min-mp",
        "0",
        "--repeat",
        "1",
        "--cores",
        "0",
    ]
    assert load_bench().main([*argv, "--no-mjd", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "median" in text and "p0.jpg" in text
    j = json.loads(out.read_text())
    assert len(j["jxmj"]["ms"]) == 2 and j["jxmj"]["median_ms"] > 0
    assert j["jxmj"]["tiles"] == [len(scene)] * 2  # every tile of the synthetic hand


def test_bench_times_reading_with_references(tmp_path, scene, scene_pixels, capsys):
    from vision import testing

    models = testing.build_models(tmp_path / "models", scene, (1600, 1200))
    testing.build_classifier(models / "classifier.onnx", embedding=True)
    photos = tmp_path / "photos"
    photos.mkdir()
    (photos / "p0.jpg").write_bytes(encode(scene_pixels, "JPEG", quality=90))
    out = tmp_path / "bench.json"
    argv = ["--images", str(photos), "--models", str(models), "--min-mp", "0", "--repeat", "1"]
    assert load_bench().main([*argv, "--cores", "0", "--no-mjd", "--refs", "40", "--json", str(out)]) == 0
    assert "with 40 references" in capsys.readouterr().out
    r = json.loads(out.read_text())["jxmj_refs"]
    assert r["refs"] == 40 and r["ref_photos"] == 1 and len(r["ms"]) == 1 and r["refs_embed_ms"] > 0


def test_bench_interleaves_the_peer_photo_by_photo(tmp_path, models_dir, scene_pixels, capsys, monkeypatch):
    import sys

    photos = tmp_path / "photos"
    photos.mkdir()
    for k in range(3):
        (photos / f"p{k}.jpg").write_bytes(encode(scene_pixels, "JPEG", quality=90))
    fake = tmp_path / "peer"
    fake.mkdir()
    log = tmp_path / "peer.log"
    (fake / "mahjong_detector.py").write_text(  # a stand-in peer that logs what it reads
        f"def detect_tiles(im):\n    open({str(log)!r}, 'a').write(f'{{im.size}}\\n')\n    return [1, 2]\n"
    )
    monkeypatch.setenv("PYTHONPATH", str(fake))
    out = tmp_path / "bench.json"
    argv = ["--images", str(photos), "--models", str(models_dir), "--min-mp", "0", "--repeat", "2"]
    assert load_bench().main([*argv, "--cores", "0", "--mjd-python", sys.executable, "--json", str(out)]) == 0
    j = json.loads(out.read_text())
    peer = j["mahjong-detector 0.0.6"]
    assert peer["tiles"] == [2, 2, 2] and len(peer["ms"]) == 3 and len(j["load_average"]) == 3
    assert len(log.read_text().splitlines()) == 3 * 4  # per photo: warm-up, 2 timed, the tile count
    assert "jxmj is" in capsys.readouterr().out
