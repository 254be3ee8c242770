"""Every error of the `jxmj` CLI answers like the rest of its command: usage errors (argparse)
are `{"error", "code": "bad_usage"}` on standard output where the output is JSON, the command's
own text where it is text, exit 2 (app/cli.py); `jxmj detect` errors carry codes, documented in
docs/detect-json.md; point values are bounded (scoring.model.MIN_POINT_VALUE..MAX_POINT_VALUE)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from app import cli, cmd_detect
from vision.image import ERROR_CODES as IMAGE_CODES

ROOT = Path(__file__).resolve().parents[2]
JSON_USAGE = [  # argv, the start of the sentence, a fragment of it
    (["score", "--bogus"], "jxmj score: ", "unrecognized arguments: --bogus"),
    (["score", "-", "--format", "xml"], "jxmj score: ", "argument --format: invalid choice: 'xml'"),
    (["score", "-", "--lang"], "jxmj score: ", "argument --lang: expected one argument"),
    (["detect"], "jxmj detect: ", "the following arguments are required: image"),
    (["detect", "x.png", "--conf", "2"], "jxmj detect: ", "argument --conf: must lie in 0.01..0.99, got 2"),
    (["detect", "x.png", "--colour"], "jxmj detect: ", "unrecognized arguments: --colour"),
    (["photo", "x.jpg", "--json"], "jxmj photo: ", "required: --variant"),
    (["photo", "x.jpg", "--js", "--variant", "x"], "jxmj photo: ", "argument --variant: invalid choice"),
    (["photo", "x.jpg", "--json", "--variant", "xinyu", "--point-value", "1e-320"], "jxmj photo: ", "0.0001"),
    (["table"], "jxmj table: ", "the following arguments are required: ACTION"),
    (["table", "show"], "jxmj table show: ", "the following arguments are required: code"),
    (["table", "new", "--variant", "xinyu"], "jxmj table new: ", "arguments --seats --seat is required"),
    # an option before its command (was "invalid choice: 'zh'", or a prog of the wrong command)
    (["--lang", "zh", "score", "-"], "jxmj: ", "--lang comes after the command: jxmj score --lang ..."),
    (["--", "score", "-"], "jxmj: ", "-- comes after the command: jxmj score -- ..."),
    (["--bogus", "table", "show", "X"], "jxmj: ", "--bogus comes after the command: jxmj table --bogus"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("argv", "prog", "fragment"), JSON_USAGE, ids=[" ".join(a) for a, _, _ in JSON_USAGE]
)
def test_usage_errors_are_a_json_error_with_a_code(argv, prog, fragment, capsys):
    assert cli.main(argv) == 2
    out = capsys.readouterr()
    j = json.loads(out.out)
    assert set(j) == {"error", "code"} and j["code"] == "bad_usage"
    assert j["error"].startswith(prog) and fragment in j["error"]
    assert out.err.startswith(f"usage: {prog[:-2]}")  # the usage line for the person at the terminal


SCORE_TEXT = "error: jxmj score: "
TEXT_USAGE = [  # argv, the start of standard output, a fragment of standard error
    (
        ["score", "-", "--format", "text", "--bogus"],
        SCORE_TEXT + "unrecognized arguments: --bogus\n",
        "usage: jxmj score",
    ),
    (
        ["score", "--format=text", "-", "--lang", "fr"],
        SCORE_TEXT + "argument --lang: invalid choice",
        "usage: jxmj",
    ),
    (["photo", "x.jpg"], "", "jxmj photo: the following arguments are required: --variant"),
    (
        ["--format", "text", "score", "-"],
        "error: jxmj: --format comes after the command: jxmj score --format ...\n",
        "usage: jxmj score",
    ),
    (["score", "-", "--form", "text", "--bogus"], SCORE_TEXT + "unrecognized", "usage: jxmj score"),
]
TEXT_USAGE += [  # read as argparse reads the command line: after --, --format is no option
    (["score", "-", "--", "--format", "text"], '{"error": "jxmj score: unrecognized', "usage: jxmj score"),
    (["photo", "x.jpg", "--variant", "x", "--", "--json"], "", "jxmj photo: argument --variant"),
]


@pytest.mark.parametrize(("argv", "stdout", "stderr"), TEXT_USAGE)
def test_usage_errors_of_text_output_are_text_like_the_commands_other_errors(argv, stdout, stderr, capsys):
    assert cli.main(argv) == 2
    out = capsys.readouterr()
    assert out.out.startswith(stdout) and (stdout or out.out == "")
    assert stderr in out.err


@pytest.mark.parametrize(
    "argv", [["tabel"], ["--bogus"], ["--bogus", "tabel"]], ids=["unknown", "option", "both"]
)
def test_before_a_command_is_known_the_error_goes_to_standard_error_as_argparse_writes_it(argv, capsys):
    """No command, no command's way of answering: usage and error on standard error, exit 2
    (`jxmj tabel` printed a JSON error on standard output, unlike `jxmj` alone)."""
    assert cli.main(argv) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.startswith("usage: jxmj [-h] [--version] COMMAND ...\njxmj: error: ")


@pytest.mark.parametrize("style", ["json", "text", "stderr"])
def test_a_usage_error_is_answered_as_the_command_module_says(style, monkeypatch, capsys):
    """One source of truth: the module's `error_format(args)` (which its own errors follow),
    not a table of commands in app.cli."""
    monkeypatch.setattr(cmd_detect, "error_format", lambda args: style, raising=False)
    assert cli.main(["detect"]) == 2
    out = capsys.readouterr()
    message = "jxmj detect: the following arguments are required: image"
    want = {"json": json.dumps({"error": message, "code": "bad_usage"}), "text": f"error: {message}"}
    assert out.out == (want[style] + "\n" if style in want else "")
    assert out.err.startswith("usage: jxmj detect") and (style != "stderr" or message in out.err)


def test_a_folder_given_as_house_rules_is_named_without_python_noise(tmp_path, capsys):
    hand = tmp_path / "hand.json"
    hand.write_text(json.dumps({"variant": "jiujiang", "concealed": "123m456p789s234mCC", "winning_tile": "C",
                                "self_drawn": True}))  # fmt: skip
    assert cli.main(["score", "--rules", str(tmp_path), str(hand)]) == 2
    assert json.loads(capsys.readouterr().out) == {
        "error": f"cannot read the house rules {tmp_path}: Is a directory",  # was "[Errno 21] Is a ..."
        "code": "bad_rule_table",
    }


def test_help_and_version_are_not_errors(capsys):
    for argv in (["--version"], ["detect", "--help"]):
        with pytest.raises(SystemExit) as exc:
            cli.main(argv)
        assert exc.value.code == 0
    assert "usage: jxmj detect" in capsys.readouterr().out


def test_a_usage_error_from_the_installed_command_is_json_and_no_traceback():
    out = subprocess.run(
        [sys.executable, "-m", "app", "detect", "--conf", "x"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert json.loads(out.stdout)["code"] == "bad_usage"


DETECT_DOC = (ROOT / "docs" / "detect-json.md").read_text("utf-8").split("- **Errors.**", 1)[1]


def test_every_detect_error_code_is_documented():
    documented = set(re.findall(r"`([a-z_]+)`", DETECT_DOC.split("- **Images.**", 1)[0]))
    cli_codes = {*IMAGE_CODES, *cmd_detect.ERROR_CODES, "bad_usage"} - {
        "bad_array"
    }  # bad_array: Python API only
    assert cli_codes <= documented


def test_detect_on_a_closed_standard_input_has_a_code(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", None)
    assert cli.main(["detect", "-"]) == 2
    assert json.loads(capsys.readouterr().out) == {
        "error": "standard input is closed: give a file name, or pipe the input in",
        "code": "unreadable",
    }


@pytest.mark.parametrize(
    ("argv", "code", "status"),
    [
        (["--annotate", "out.txt"], "bad_annotate_path", 2),
        (["--annotate", "{photo}"], "annotate_onto_input", 2),
        (["--models", "{empty}"], "models_unavailable", 1),
    ],
)
def test_detect_errors_carry_their_code(argv, code, status, tmp_path, capsys):
    photo = tmp_path / "hand.png"
    photo.write_bytes(b"\x89PNG\r\n\x1a\n")
    (tmp_path / "empty").mkdir()
    argv = [a.format(photo=photo, empty=tmp_path / "empty") for a in argv]
    assert cli.main(["detect", str(photo), *argv]) == status
    assert json.loads(capsys.readouterr().out)["code"] == code


def test_a_reader_bug_is_an_internal_error_not_a_traceback(monkeypatch, capsys):
    def broken(args):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(cmd_detect, "detect", broken)
    assert cli.main(["detect", "x.png"]) == 2
    j = json.loads(capsys.readouterr().out)
    assert j["code"] == "internal_error" and "ZeroDivisionError" in j["error"]


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        (1e-320, "too small"),
        (5e-324, "too small"),
        (0.00009, "too small"),
        (1e13, "too large"),
        (10**400, "too large"),
    ],
)
def test_score_bounds_the_point_value_and_names_it(value, fragment, monkeypatch, capsys):
    hand = {"variant": "jiujiang", "concealed": "123m456p789s234mCC", "winning_tile": "C", "self_drawn": True}
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps({**hand, "point_value": value})))
    assert cli.main(["score", "-"]) == 2
    j = json.loads(capsys.readouterr().out)
    assert j["code"] == "bad_point_value" and j["error"].startswith(f"point_value is {fragment}")


@pytest.mark.parametrize("value", [0.0001, 1e12])
def test_the_bounds_themselves_are_accepted(value, monkeypatch, capsys):
    hand = {"variant": "jiujiang", "concealed": "123m456p789s234mCC", "winning_tile": "C", "self_drawn": True}
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps({**hand, "point_value": value})))
    assert cli.main(["score", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["point_value"] == value
