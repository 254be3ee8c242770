"""Score JSON at the CLI edge: size cap, duplicate fields, lone
surrogates, over-long strings refused before parsing, at most ~80 characters echoed; and a
hypothesis property over generated inputs that include surrogates and long strings."""

from __future__ import annotations

import io
import json
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app import cli, jsonin

HAND = {"variant": "jiujiang", "concealed": "123m456p789s234mCC", "winning_tile": "C", "self_drawn": True}


def score_cli(monkeypatch, capsys, stdin: str, *args: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    rc = cli.main(["score", *args, "-"])
    return rc, capsys.readouterr().out


def error_of(monkeypatch, capsys, stdin: str) -> str:
    rc, out = score_cli(monkeypatch, capsys, stdin)
    assert rc == 2, out
    err = json.loads(out)
    assert list(err) == ["error", "code"]
    return err["error"]


def test_the_input_cap_is_well_under_a_mebibyte_and_reads_no_more(monkeypatch, capsys):
    assert jsonin.MAX_INPUT_BYTES == 64 * 1024
    asked = []

    class Endless(io.RawIOBase):
        def readable(self):
            return True

        def readinto(self, b):
            asked.append(len(b))
            b[: len(b)] = b" " * len(b)
            return len(b)

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(Endless())))
    assert cli.main(["score", "-"]) == 2
    assert json.loads(capsys.readouterr().out) == {
        "error": "standard input is larger than 64 KiB: a hand is a small JSON object",
        "code": "input_too_large",
    }
    assert sum(asked) <= 64 * 1024 + 8192  # the cap plus one buffer, never the whole stream


def test_a_hand_padded_with_an_annotation_under_the_cap_still_scores(monkeypatch, capsys):
    rc, out = score_cli(monkeypatch, capsys, json.dumps({**HAND, "_note": "x" * 60_000}))
    assert rc == 0 and json.loads(out)["own"] == 4


def test_over_long_tile_strings_are_refused_before_parsing(monkeypatch, capsys):
    from scoring import model

    parsed = []
    monkeypatch.setattr(model, "parse_tiles", lambda s: parsed.append(s) or [])
    err = error_of(monkeypatch, capsys, json.dumps({**HAND, "concealed": "1m" * 51}))
    assert err == "concealed is 102 characters long: a tile string may have at most 100"
    assert parsed == []


@pytest.mark.parametrize(
    ("field", "fragment"),
    [
        ({"variant": "v" * 81}, "variant is 81 characters long: this text may have at most 80"),
        ({"payers": [{"name": "n" * 500}]}, "payers[0].name is 500 characters long"),
        ({"k" * 90: 1}, "a field name in the input is 90 characters long"),
    ],
)
def test_other_long_strings_are_refused_without_echoing_them(monkeypatch, capsys, field, fragment):
    err = error_of(monkeypatch, capsys, json.dumps({**HAND, **field}))
    assert err.startswith(fragment) and len(err) < 120


def test_a_number_of_thousands_of_digits_is_named_not_python_advice(monkeypatch, capsys):
    rc, out = score_cli(monkeypatch, capsys, json.dumps(HAND)[:-1] + ', "point_value": ' + "9" * 5000 + "}")
    assert rc == 2 and json.loads(out) == {
        "error": f"the input holds a number of more than {jsonin.MAX_INT_DIGITS} digits",
        "code": "input_too_large",
    }  # was "... use sys.set_int_max_str_digits() to increase the limit"


@pytest.mark.parametrize("python_limit", [0, 100_000])
@pytest.mark.parametrize("sign", ["", "-"])
def test_the_digit_limit_is_ours_not_python_wording_or_setting(python_limit, sign):
    """The number is refused by its length, whatever Python's own limit (0 = off, as
    PYTHONINTMAXSTRDIGITS=0 sets it) and however Python words its error (the check matched
    "integer string conversion" in the message before, and let these numbers through)."""
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(python_limit)
    try:
        with pytest.raises(jsonin.InputError) as e:
            jsonin.parse('{"n": ' + sign + "9" * (jsonin.MAX_INT_DIGITS + 1) + "}")
        assert e.value.code == "input_too_large" and "4300 digits" in str(e.value)
        assert jsonin.parse('{"n": ' + sign + "9" * jsonin.MAX_INT_DIGITS + "}")["n"] != 0  # the limit
    finally:
        sys.set_int_max_str_digits(before)


def test_an_echoed_value_is_at_most_80_characters():
    assert jsonin.clip("x" * 80) == "'" + "x" * 80 + "'"
    assert jsonin.clip("y" * 5000) == "'" + "y" * 80 + "…' (5000 characters)"


def test_an_unknown_value_is_quoted_in_full_when_short(monkeypatch, capsys):
    err = error_of(monkeypatch, capsys, json.dumps({**HAND, "variant": "v" * 40}))
    assert err == f"unknown variant {'v' * 40!r}: choose one of jiujiang, xingzi, xinyu"


@pytest.mark.parametrize("escape", ["\\ud800", "\\udc80", "\\udcff", "\\udfff"])
@pytest.mark.parametrize("fmt", ["json", "text"])
def test_a_lone_surrogate_is_refused_in_both_formats(monkeypatch, capsys, escape, fmt):
    stdin = json.dumps({**HAND, "payers": [{"name": "x"}, {}, {}]}).replace('"x"', f'"a{escape}b"')
    rc, out = score_cli(monkeypatch, capsys, stdin, "--format", fmt)
    assert rc == 2
    message = json.loads(out)["error"] if fmt == "json" else out.removeprefix("error: ").rstrip("\n")
    assert message == (
        f"payers[0].name holds a lone surrogate ({escape}), which is not text: "
        "check the program that wrote the JSON"
    )
    out.encode("utf-8")  # what was written is valid UTF-8


def test_raw_surrogate_bytes_are_not_utf8(tmp_path, capsys):
    f = tmp_path / "hand.json"
    head = json.dumps(HAND).encode()[:-1] + b', "_n": "'
    f.write_bytes(head + b'\xed\xa0\x80"}')  # \ud800 as CESU-8 / Python's "surrogatepass" writes it
    assert cli.main(["score", str(f)]) == 2
    want = f"the input is not UTF-8 text (byte {len(head) + 1} is not)"
    assert json.loads(capsys.readouterr().out) == {"error": want, "code": "bad_json"}


@pytest.mark.parametrize(
    "text",
    [
        '{"variant": "jiujiang", "variant": "xinyu"}',
        '{"variant": "jiujiang", "concealed": "", "melds": [{"kind": "pung", "kind": "kong"}]}',
    ],
)
def test_duplicate_fields_are_an_error_not_last_one_wins(monkeypatch, capsys, text):
    err = error_of(monkeypatch, capsys, text)
    assert err.startswith("the field ") and err.endswith(
        " is given twice in one object: give each field once"
    )


# -- hypothesis: whatever the JSON, exit 0 or 2, one JSON object out, valid UTF-8, short echo --

surrogates = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
any_text = st.text(st.characters(codec=None) | surrogates, max_size=12) | st.text(max_size=400)
names = st.sampled_from(["a", "东", "player 2"]) | any_text
values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.floats() | any_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(any_text, inner, max_size=4),
    max_leaves=12,
)
VALID = [
    HAND,
    {"variant": "xingzi", "concealed": "234p456p777pCCCPP", "winning_tile": "P", "self_drawn": True},
    {"variant": "xinyu", "concealed": "123m456p789s345sEE", "winning_tile": "E", "self_drawn": True},
    {
        "variant": "jiujiang",
        "concealed": "123m456p789sCC",
        "winning_tile": "C",
        "self_drawn": False,
        "melds": [{"kind": "pung", "tiles": "777p"}],
    },
]
FIELDS = ["variant", "concealed", "winning_tile", "self_drawn", "melds", "events", "point_value", "_note"]


@st.composite
def hands(draw):
    """A valid hand with payers named by hypothesis, often with one field made hostile."""
    hand = json.loads(json.dumps(draw(st.sampled_from(VALID))))
    if draw(st.booleans()):
        hand["payers"] = [{"name": draw(names)} for _ in range(draw(st.integers(0, 3)))]
    if draw(st.integers(0, 3)):
        field = draw(st.sampled_from(FIELDS))
        hand[field] = (
            draw(values | any_text) if field != "melds" else [{"kind": "pung", "tiles": draw(any_text)}]
        )
    return hand


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hand=hands(), fmt=st.sampled_from(["json", "text"]))
def test_generated_score_json_is_scored_or_refused_cleanly(monkeypatch, capsys, hand, fmt):
    stdin = json.dumps(hand, ensure_ascii=True)  # surrogates travel as \\uXXXX escapes
    rc, out = score_cli(monkeypatch, capsys, stdin, "--format", fmt)
    assert rc in (0, 2)
    out.encode("utf-8")  # never a lone surrogate written
    if fmt == "json":
        data = json.loads(out)
        assert ("error" in data) == (rc == 2)
    message = (json.loads(out)["error"] if fmt == "json" else out[7:]) if rc == 2 else ""
    assert len(message) <= 301 + 1
    for s in _strings(hand):  # no user value is echoed beyond ~80 characters
        if len(s) > jsonin.ECHO_CHARS:
            assert s not in message


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
