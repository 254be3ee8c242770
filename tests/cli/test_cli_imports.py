"""The light commands stay light: `jxmj score` and `jxmj --help` import neither the vision
stack (numpy, OpenCV, ONNX Runtime, Pillow) nor the web app's (Streamlit), nor
`importlib.metadata` (read by `--version` only). Checked in a child process with
`python -X importtime`, which names every module the process imported."""

from __future__ import annotations

import json
import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("numpy", "cv2", "onnxruntime", "PIL", "pillow_heif", "streamlit", "pandas", "vision")
HAND = runpy.run_path(str(ROOT / "bench" / "bench_cli.py"))["HAND"]  # the hand the bench times


def imported(args: list[str], stdin: str = "") -> tuple[subprocess.CompletedProcess, set[str]]:
    """Run `python -X importtime -m app ARGS`; the process and the top-level names it imported."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "app", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=env,
    )
    names = set()
    for line in out.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip())
    return out, names


def heavy(names: set[str]) -> list[str]:
    return sorted(n for n in names if n.split(".")[0] in HEAVY or n == "importlib.metadata")


@pytest.mark.parametrize(
    "args",
    [
        ["score", "-"],
        ["score", "--format", "text", "-"],
        ["--help"],
        ["score", "--help"],
        ["table", "--help"],
    ],
)
def test_light_commands_import_no_heavy_stack(args):
    out, names = imported(args, json.dumps(HAND))
    assert out.returncode == 0, out.stderr[-2000:]
    assert "app.cli" in names  # the importtime lines were read
    assert heavy(names) == []


def test_score_imports_no_other_command():
    out, names = imported(["score", "-"], json.dumps(HAND))
    assert out.returncode == 0
    assert json.loads(out.stdout)["can_win"] is True
    assert {"app.cmd_detect", "app.cmd_photo", "app.cmd_app", "app.cmd_table"} & names == set()


def test_help_imports_no_command_module():
    out, names = imported(["--help"])
    assert out.stdout.startswith("usage: jxmj")
    assert not any(n.startswith("app.cmd_") or n.split(".")[0] == "scoring" for n in names)


def test_usage_error_of_a_later_command_still_fills_its_parser():
    """`jxmj --format text score`: the command's parser is built on demand for the answer."""
    out, _ = imported(["--format", "text", "score"])
    assert out.returncode == 2
    assert "comes after the command" in out.stdout
