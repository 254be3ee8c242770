"""`--annotate` never overwrites the photo that came on standard input (`annotate_onto_input`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PHOTO = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4  # the check comes before any decoding


def _jxmj(args: list[str], cwd: Path, **kw) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "app", *args], cwd=cwd, env=env, capture_output=True, timeout=120, **kw
    )


@pytest.mark.parametrize("command", [["detect", "-"], ["photo", "-", "--variant", "jiujiang", "--json"]])
def test_the_photo_on_standard_input_is_not_overwritten(command, tmp_path):
    photo = tmp_path / "p.png"
    photo.write_bytes(PHOTO)
    with photo.open("rb") as fh:  # jxmj detect - --annotate p.png < p.png
        proc = _jxmj([*command, "--annotate", "p.png"], tmp_path, stdin=fh)
    assert proc.returncode == 2 and json.loads(proc.stdout)["code"] == "annotate_onto_input"
    assert photo.read_bytes() == PHOTO


def test_a_link_to_the_photo_on_standard_input_is_not_written_through(tmp_path):
    photo = tmp_path / "p.png"
    photo.write_bytes(PHOTO)
    (tmp_path / "sub").mkdir()
    os.link(photo, tmp_path / "sub" / "same.png")
    with photo.open("rb") as fh:
        proc = _jxmj(["detect", "-", "--annotate", "sub/same.png"], tmp_path, stdin=fh)
    assert json.loads(proc.stdout)["code"] == "annotate_onto_input" and photo.read_bytes() == PHOTO


@pytest.mark.parametrize("command", [["detect", "-"], ["photo", "-", "--variant", "jiujiang", "--json"]])
def test_the_photo_piped_in_is_not_overwritten(command, tmp_path):
    photo = tmp_path / "p.png"
    photo.write_bytes(PHOTO)
    proc = _jxmj([*command, "--annotate", str(photo)], tmp_path, input=PHOTO)  # cat p.png | jxmj ...
    assert proc.returncode == 2 and json.loads(proc.stdout) == {
        "error": f"--annotate {photo} is the input photo: choose another file name (or add --force)",
        "code": "annotate_onto_input",
    }
    assert photo.read_bytes() == PHOTO


def test_another_existing_file_may_still_be_annotated_from_standard_input(tmp_path):
    (tmp_path / "old.png").write_bytes(b"an older annotation")
    proc = _jxmj(["detect", "-", "--annotate", "old.png"], tmp_path, input=PHOTO)
    assert json.loads(proc.stdout)["code"] == "not_image"  # it got past the check, to the decoder
