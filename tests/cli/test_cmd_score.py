"""`jxmj score`: JSON in, JSON out, exit 2 with {"error": ...} on bad input, --format text."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from app import cli

HAND = {
    "variant": "xingzi",
    "concealed": "234p456p777pCCCPP",
    "winning_tile": "P",
    "self_drawn": True,
    "payers": [{"name": "a", "is_dealer": True}, {"name": "b"}, {"name": "c"}],
}


def run_cli(monkeypatch, capsys, stdin: str, *args: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    rc = cli.main(["score", *args])
    return rc, capsys.readouterr().out


def test_scores_from_stdin(monkeypatch, capsys):
    rc, out = run_cli(monkeypatch, capsys, json.dumps(HAND), "-")
    data = json.loads(out)
    assert rc == 0 and data["own"] == 15 and [p["amount"] for p in data["payments"]] == [30, 15, 15]
    assert {"can_win", "reason", "own", "items", "decomposition", "wait", "payments"} <= set(data)
    assert data["items"][0] == {
        "key": "half_flush",
        "points": 10,
        "name_zh": "混一色",
        "name_en": "Half flush",
        "reason": "one suit (dots 筒) plus the dragons 中/白",
        "reason_zh": "一门筒子加中/白",
        "rule": "DECISIONS §1.3",
    }
    assert data["wait"] == "single" and data["waits"] == "P" and data["winning_tile"] == "P"


def test_scores_from_file(tmp_path, capsys):
    f = tmp_path / "hand.json"
    f.write_text(json.dumps(HAND), encoding="utf-8")
    assert cli.main(["score", str(f)]) == 0
    assert json.loads(capsys.readouterr().out)["own"] == 15


@pytest.mark.parametrize(
    ("stdin", "fragment", "code"),
    [
        ("not json", "not valid JSON", "bad_json"),
        ("[1, 2]", "must be a JSON object", "bad_field"),
        ("{}", "missing required field 'variant'", "bad_field"),
        (json.dumps({**HAND, "variant": "riichi"}), "unknown variant", "unknown_variant"),
        (json.dumps({**HAND, "self_drawn": "yes"}), "self_drawn must be true or false", "bad_field"),
        (json.dumps({**HAND, "self_drawm": True}), "unknown field 'self_drawm'", "bad_field"),
        (json.dumps({**HAND, "concealed": "234p456p777pCCCP5z"}), "ambiguous", "ambiguous_honour"),
        (json.dumps({**HAND, "concealed": "234p456p777pCCCPE"}), "wind E", "tile_not_in_variant"),
        (json.dumps({**HAND, "bonus_tiles": True}), "bonus_tiles", "bad_field"),
        (
            json.dumps({**HAND, "bonus_tiles": -3}),
            "bonus_tiles must be a whole number from 0 to 4 (發 set aside): -3 is out of range",
            "bad_field",
        ),
        (json.dumps({**HAND, "bonus_tiles": 2.5}), "2.5 is not a whole number", "bad_field"),
        (
            json.dumps({**HAND, "melds": [{"kind": "triple", "tiles": "777p"}]}),
            "unknown meld kind",
            "bad_field",
        ),
        (json.dumps({**HAND, "point_value": -1}), "point_value", "bad_point_value"),
    ],
)
def test_bad_input_exit_2_with_error_object(monkeypatch, capsys, stdin, fragment, code):
    rc, out = run_cli(monkeypatch, capsys, stdin, "-")
    assert rc == 2 and json.loads(out)["code"] == code
    err = json.loads(out)
    assert list(err) == ["error", "code"] and fragment in err["error"]


def test_missing_file_is_an_error_object(capsys, tmp_path):
    assert cli.main(["score", str(tmp_path / "nope.json")]) == 2
    assert "cannot read" in json.loads(capsys.readouterr().out)["error"]


def test_text_format(monkeypatch, capsys):
    rc, out = run_cli(monkeypatch, capsys, json.dumps(HAND), "--format", "text", "-")
    assert rc == 0
    assert "混一色" in out and "Half flush" in out and "[PP*]" in out
    assert "Own: 15" in out and "Total to the winner: 60" in out


def test_text_format_error(monkeypatch, capsys):
    rc, out = run_cli(monkeypatch, capsys, "{", "--format", "text", "-")
    assert rc == 2 and out.startswith("error: ")


def _subprocess(stdin: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "app", "score", *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def test_subprocess_round_trip_and_error():
    ok = _subprocess(json.dumps(HAND), "-")
    assert ok.returncode == 0 and json.loads(ok.stdout)["own"] == 15 and ok.stderr == ""
    bad = _subprocess(json.dumps({**HAND, "concealed": 5}), "-")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert "concealed must be a tile string" in json.loads(bad.stdout)["error"]


def test_subprocess_cannot_win_is_exit_0():
    hand = {"variant": "xinyu", "concealed": "123m456p789s345sEE", "winning_tile": "E", "self_drawn": False}
    out = _subprocess(json.dumps(hand), "-")
    assert out.returncode == 0 and json.loads(out.stdout)["can_win"] is False


def test_byte_order_mark_is_accepted(monkeypatch, capsys):
    rc, out = run_cli(monkeypatch, capsys, "\ufeff" + json.dumps(HAND), "-")
    assert rc == 0 and json.loads(out)["own"] == 15


def test_score_takes_a_hand_input_and_score_json_a_dict():
    from scoring import HandError, HandInput, score, score_json

    assert score(HandInput.from_json(HAND)).own == 15 and score_json(HAND)["own"] == 15
    with pytest.raises(HandError) as e:
        score(HAND)  # type: ignore[arg-type]
    assert e.value.code == "bad_field" and "score_json()" in str(e.value)


# ---- adversarial regressions (each was a traceback, an "internal error", Infinity or a hang) ----


def test_integer_beyond_the_digit_limit_is_an_error_not_a_traceback(monkeypatch, capsys):
    # json.loads raises a plain ValueError (not JSONDecodeError) past 4300 digits
    stdin = json.dumps(HAND)[:-1] + ', "bonus_tiles": ' + "9" * 5000 + "}"
    rc, out = run_cli(monkeypatch, capsys, stdin, "-")
    assert rc == 2
    assert "4300 digits" in json.loads(out)["error"]


@pytest.mark.parametrize("pv", ["1" + "0" * 400, "1e308"])
def test_huge_point_value_is_a_clear_error(monkeypatch, capsys, pv):
    # was: "internal error (OverflowError …)" for the integer, "amount": Infinity for 1e308
    stdin = json.dumps(HAND)[:-1] + f', "point_value": {pv}' + "}"
    rc, out = run_cli(monkeypatch, capsys, stdin, "-")
    assert rc == 2
    assert json.loads(out) == {
        "error": "point_value is too large: at most 1,000,000,000,000 points per 炮",
        "code": "bad_point_value",
    }


def test_largest_point_value_still_scores(monkeypatch, capsys):
    rc, out = run_cli(monkeypatch, capsys, json.dumps({**HAND, "point_value": 10**12}), "-")
    data = json.loads(out)
    assert rc == 0 and [p["amount"] for p in data["payments"]] == [30 * 10**12, 15 * 10**12, 15 * 10**12]


def _engine_error(hand) -> tuple[str, str]:
    from scoring import HandError, score_json

    with pytest.raises(HandError) as exc:
        score_json(hand)
    return str(exc.value), exc.value.code


def test_huge_meld_and_payer_lists_are_refused_at_once(monkeypatch, capsys):
    # "at once": refused on the list's length, before a single item is looked at (the engine;
    # the CLI refuses such an input on its size before parsing it, see tests/cli/test_jsonin.py)
    from scoring import model

    looked_at = []
    unknown = model._unknown
    monkeypatch.setattr(model, "_unknown", lambda m, fields, w: (looked_at.append(w), unknown(m, fields, w)))
    melds = {**HAND, "melds": [{"kind": "pung", "tiles": "111m"}] * 200_000}
    assert _engine_error(melds) == ("melds: 200000 given, a hand has at most four", "too_many_melds")
    assert _engine_error({**HAND, "payers": [{}] * 200_000}) == (
        "200000 payers given: the payers are the other players, at most three",
        "bad_payers",
    )
    assert not [w for w in looked_at if w.startswith(("meld", "payer"))]
    rc, out = run_cli(monkeypatch, capsys, json.dumps(melds))
    assert rc == 2 and json.loads(out) == {
        "error": "standard input is larger than 64 KiB: a hand is a small JSON object",
        "code": "input_too_large",
    }


def test_long_pasted_tile_string_is_clipped_in_the_error(monkeypatch, capsys):
    err, _ = _engine_error({**HAND, "concealed": "123m" * 25_000 + "x"})
    assert err == "unknown tile character 'x' in '" + "123m" * 15 + "… (100001 characters)'"
    assert _engine_error({**HAND, "melds": [{"kind": "pung", "tiles": "1m" * 1000}]}) == (
        "meld 1 (pung 11111111m… (1000 tiles)): a pung is three identical tiles",
        "bad_meld",
    )
    # through the CLI, a tile string that long is refused before any tile is parsed
    hand = {**HAND, "melds": [{"kind": "pung", "tiles": "1m" * 60}]}
    rc, out = run_cli(monkeypatch, capsys, json.dumps(hand))
    assert rc == 2 and json.loads(out) == {
        "error": "melds[0].tiles is 120 characters long: a tile string may have at most 100",
        "code": "input_too_large",
    }


def test_endless_input_is_refused_not_read_forever(monkeypatch, capsys):
    # `jxmj score /dev/zero` or `yes | jxmj score -` read until memory ran out
    from app import jsonin

    monkeypatch.setattr(jsonin, "MAX_INPUT_BYTES", 1024)
    rc, out = run_cli(monkeypatch, capsys, "y\n" * 600, "-")
    assert rc == 2
    assert json.loads(out) == {
        "error": "standard input is larger than 1 KiB: a hand is a small JSON object",
        "code": "input_too_large",
    }


def test_dev_zero_is_an_error_within_seconds():
    import os
    import time

    if not os.path.exists("/dev/zero"):  # pragma: no cover - not a POSIX system
        pytest.skip("needs /dev/zero")
    t = time.perf_counter()
    out = _subprocess("", "/dev/zero")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert json.loads(out.stdout) == {
        "error": "/dev/zero is larger than 64 KiB: a hand is a small JSON object",
        "code": "input_too_large",
    }
    assert time.perf_counter() - t < 20


def test_closed_output_pipe_is_not_a_traceback():
    # `jxmj score h.json | head -c 10` when the reader has left: was a BrokenPipeError traceback
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", "score", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    proc.stdout.close()  # the reader is gone before the result is written
    _, err = proc.communicate(json.dumps(HAND).encode(), timeout=60)
    assert proc.returncode == 0
    assert b"Traceback" not in err and b"BrokenPipe" not in err


def test_fractional_point_value_has_no_float_noise(monkeypatch, capsys):
    # 0.4 + 0.4 + 0.4 summed to 1.2000000000000002 in "total" and in the text table
    hand = {"variant": "jiujiang", "concealed": "123m456p789s234mCC", "winning_tile": "C", "self_drawn": True}
    rc, out = run_cli(monkeypatch, capsys, json.dumps({**hand, "point_value": 0.3}))
    data = json.loads(out)
    assert rc == 0 and data["own"] == 4
    assert [p["amount"] for p in data["payments"]] == [1.2, 1.2, 1.2] and data["total"] == 3.6
    rc, out = run_cli(monkeypatch, capsys, json.dumps({**hand, "point_value": 0.1}), "--format", "text")
    assert rc == 0 and out.rstrip().endswith("Total to the winner: 1.2")


def test_default_payer_names_avoid_the_names_given(monkeypatch, capsys):
    # payers [{"name": "player 2"}, {}, {}] was refused: "payer names must differ"
    hand = {"variant": "jiujiang", "concealed": "123m456p789s234mCC", "winning_tile": "C", "self_drawn": True}
    rc, out = run_cli(monkeypatch, capsys, json.dumps({**hand, "payers": [{"name": "player 2"}, {}, {}]}))
    assert rc == 0
    assert [(p["payer"], p["amount"]) for p in json.loads(out)["payments"]] == [
        ("player 2", 4),
        ("player 1", 4),
        ("player 3", 4),
    ]
    rc, out = run_cli(monkeypatch, capsys, json.dumps({**hand, "payers": [{"name": "a"}, {"name": "a"}, {}]}))
    assert rc == 2 and json.loads(out) == {
        "error": "payer names must differ: ['a', 'a', 'player 3']",
        "code": "bad_payers",
    }


def test_the_readme_tour_hand_scores(monkeypatch, capsys):
    """The hand the README's CLI tour pipes into `jxmj score -` scores (exit 0, can_win)."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    hand = re.search(r"echo '(\{\"variant\".*?\})' > hand\.json", readme, re.S).group(1)
    rc, out = run_cli(monkeypatch, capsys, hand, "-")
    assert rc == 0, out
    assert json.loads(out)["can_win"] is True


def test_a_missing_input_file_is_said_missing_not_bad_json(tmp_path, capsys):
    missing = tmp_path / "nonexistent.json"
    assert cli.main(["score", str(missing)]) == 2
    err = json.loads(capsys.readouterr().out)
    assert err["code"] == "input_unreadable"
    assert err["error"].startswith("cannot read ") and err["error"].endswith(": No such file or directory")
