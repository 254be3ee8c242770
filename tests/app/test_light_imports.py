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
heavy = sorted({{m.split(".")[0] for m in sys.modules}} & {names!r})
print(",".join(heavy))
"""


VISION_STACK = {"numpy", "cv2", "onnxruntime", "PIL"}


def heavy_after(body: str, names: set[str] = VISION_STACK) -> str:
    """The packages of `names` a fresh interpreter has imported after running `body`, joined."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(body=body, names=names)],
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
    assert vision.ImageError.__module__ == "vision.image_errors"  # re-exported by vision.image
    assert vision.ImageError is vision.image.ImageError
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


def test_reader_status_while_another_session_imports_opencv(tmp_path, monkeypatch):
    """Issue 37: a session's thread importing cv2 has put a module without `__spec__` in
    `sys.modules`; another session's page asked `find_spec("cv2")`, which raised ValueError, and
    the page showed "出了点问题" instead of the uploader. Being imported is being installed."""
    import types

    from app.ui import services

    half = types.ModuleType("cv2")
    half.__spec__ = None
    monkeypatch.setitem(sys.modules, "cv2", half)
    monkeypatch.setenv("JXMJ_MODELS_DIR", str(tmp_path))  # no models: the next thing it says
    monkeypatch.setattr(services, "_READER_BUILT", False)
    why = services.reader_status()
    assert why is not None and "localizer.onnx" in why


TABLE_FIRST_RUN = """
import os, sys
from streamlit.testing.v1 import AppTest
from ledger import Table, read_hands
from ledger.store import open_store
store = open_store(os.environ["JXMJ_DB"])
table = Table("jiujiang", ("张三", "李四", "王五", "赵六"))
hand = {"concealed": "123m456p789s234mCC", "winning_tile": "C"}
hands = read_hands(table, [{"seat": 1, "discarder": 2, "hand": hand}, {"kind": "drawn"}])
code = store.create_table(table, hands).table.code
at = AppTest.from_file(os.path.join(os.getcwd(), "app", "streamlit_app.py"), default_timeout=120)
at.query_params["table"] = code
at.run()
assert not at.exception, [e.value for e in at.exception]
assert [e for e in at.main if e.type == "vega_lite_chart"], "no chart drawn"
assert "streamlit.emojis" not in sys.modules, "Streamlit's emoji table was loaded"
"""


def test_the_table_pages_first_run_imports_no_vision_stack_nor_arrow(tmp_path, monkeypatch):
    """A process whose first visit is a table link (a chart, the hand form, the QR) loads none of
    numpy, OpenCV, ONNX Runtime, Pillow or pyarrow (nor Streamlit's emoji table): the favicon is a
    Material icon, the chart's rows are in its spec, the references wait for a photo."""
    monkeypatch.setenv("JXMJ_DB", f"sqlite:///{tmp_path / 't.sqlite3'}")
    assert heavy_after(TABLE_FIRST_RUN, VISION_STACK | {"pyarrow", "pandas"}) == ""
