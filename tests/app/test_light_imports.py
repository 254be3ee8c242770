"""The app's pages load without the vision stack: importing them (the server's first run of any
page) imports neither numpy, OpenCV, ONNX Runtime nor Pillow — `vision` names its parts on first
use (PEP 562), `app.photo_hand` imports `vision.roles` (numpy) only for a photo of more tiles
than a hand, and `services.reader_status` answers from the installation until a photo is read."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import sys
{body}
heavy = sorted({{m.split(".")[0] for m in sys.modules}} & {{"numpy", "cv2", "onnxruntime", "PIL"}})
print(",".join(heavy))
"""


def heavy_after(body: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(body=body)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.strip()


def test_the_pages_and_photo_hand_import_no_vision_stack():
    assert heavy_after("import app.streamlit_app, app.photo_hand, vision.detection, vision.layout") == ""


def test_reader_status_loads_no_model_before_a_photo():
    assert heavy_after("from app.ui import services\nprint(services.reader_status(), file=sys.stderr)") == ""


def test_vision_still_names_every_part_on_use():
    import vision

    assert vision.get_reader.__module__ == "vision.reader"
    assert vision.ImageError.__module__ == "vision.image"
    assert set(vision.__all__) <= set(dir(vision))
    assert vision.image.__name__ == "vision.image"  # a submodule by attribute
    try:
        vision.no_such_name  # noqa: B018
    except AttributeError as e:
        assert "no_such_name" in str(e)
    else:
        raise AssertionError("vision.no_such_name did not raise AttributeError")


def test_reader_status_says_why_without_models(tmp_path, monkeypatch):
    from app.ui import services

    monkeypatch.setenv("JXMJ_MODELS_DIR", str(tmp_path))
    monkeypatch.setattr(services, "_READER_BUILT", False)
    why = services.reader_status()
    assert why is not None and "localizer.onnx" in why
