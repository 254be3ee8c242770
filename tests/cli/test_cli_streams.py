"""Unusable standard streams: a closed standard input, output to a full
device or a closed descriptor, an output encoding without Chinese. Exit 2 with a message, or
output the encoding can carry — never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.app.conftest import ROOT

HAND = {
    "variant": "xingzi",
    "concealed": "234p456p777pCCCPP",
    "winning_tile": "P",
    "self_drawn": True,
    "winner_is_dealer": True,
}

pytestmark = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full and a POSIX shell")


def jxmj(shell_args: str, stdin: str | None = None, **env: str) -> subprocess.CompletedProcess:
    """`python -m app <shell_args>` through bash (for redirections such as `<&-`)."""
    cmd = f"'{sys.executable}' -m app {shell_args}"
    return subprocess.run(
        ["bash", "-c", cmd],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, **env},
    )


@pytest.fixture
def hand_file(tmp_path):
    f = tmp_path / "hand.json"
    f.write_text(json.dumps(HAND), encoding="utf-8")
    return f


@pytest.mark.parametrize("command", ["score -", "detect -"])
def test_closed_standard_input_is_exit_2_with_a_message(command):
    out = jxmj(f"{command} <&-")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert (
        json.loads(out.stdout)["error"] == "standard input is closed: give a file name, or pipe the input in"
    )


def test_output_to_a_full_device_is_exit_2_with_a_message(hand_file):
    out = jxmj(f"score '{hand_file}' > /dev/full")
    assert out.returncode == 2
    assert out.stderr == "jxmj: cannot write the output: No space left on device\n"


def test_closed_standard_output_is_exit_2_with_a_message(hand_file):
    out = jxmj(f"score '{hand_file}' >&-")
    assert out.returncode == 2
    assert out.stderr == "jxmj: standard output is closed: nothing could be written\n"


def test_an_ascii_terminal_gets_the_same_json_as_escapes(hand_file):
    utf8 = jxmj(f"score '{hand_file}'")
    ascii_ = jxmj(f"score '{hand_file}'", PYTHONIOENCODING="ascii")
    assert ascii_.returncode == 0 and ascii_.stderr == ""
    assert ascii_.stdout.isascii() and "\\u6df7" in ascii_.stdout  # 混 of 混一色
    assert json.loads(ascii_.stdout) == json.loads(utf8.stdout)


def test_an_ascii_terminal_gets_readable_text_with_escapes(hand_file):
    out = jxmj(f"score '{hand_file}' --format text", PYTHONIOENCODING="ascii")
    assert out.returncode == 0 and out.stderr == "" and out.stdout.isascii()
    assert "half_flush   \\u6df7\\u4e00\\u8272  Half flush" in out.stdout and "Own: 15" in out.stdout


def test_an_ascii_terminal_gets_error_messages_too(tmp_path):
    f = tmp_path / "h.json"
    f.write_text(json.dumps({**HAND, "variant": "九江"}), encoding="utf-8")
    out = jxmj(f"score '{f}'", PYTHONIOENCODING="ascii")
    assert out.returncode == 2 and out.stdout.isascii()
    assert json.loads(out.stdout)["error"].startswith("unknown variant '九江'")


def test_a_reader_that_leaves_is_still_not_an_error(hand_file):
    out = jxmj(f"score '{hand_file}' | head -c 1")
    assert out.returncode == 0 and out.stdout == "{" and "Traceback" not in out.stderr


def test_jxmj_table_uses_the_same_streams(tmp_path):
    db = {"JXMJ_DB": f"sqlite:///{tmp_path / 'l.sqlite3'}"}
    new = jxmj(
        "table new --variant jiujiang --seats 张三 李四 王五 赵六 --base 1", PYTHONIOENCODING="ascii", **db
    )
    assert new.returncode == 0 and new.stdout.isascii() and json.loads(new.stdout)["code"]
    closed = jxmj("table import - <&-", **db)
    assert closed.returncode == 2
    assert (
        json.loads(closed.stdout)["error"]
        == "standard input is closed: give a file name, or pipe the input in"
    )
    dup = jxmj("table import -", stdin='{"table": 1, "table": 2}', **db)
    assert dup.returncode == 2 and "given twice" in json.loads(dup.stdout)["error"]
    full = jxmj(f"table show {json.loads(new.stdout)['code']} > /dev/full", **db)
    assert full.returncode == 2 and full.stderr == "jxmj: cannot write the output: No space left on device\n"
