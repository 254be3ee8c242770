"""Ledger input at the CLI and the app's import: the score path's limits for every hand and field,
imports bounded by hands x the per-hand limit, strict JSON (no NaN, bounded nesting)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from app import cli, ledgerin
from app.jsonin import short
from ledger import LedgerError
from tests.ledger.util import json_hand

ROOT = Path(__file__).resolve().parents[2]
HAND = {"concealed": "123m456p789s234mCC", "winning_tile": "C"}
WIN = {"seat": "李四", "discarder": "王五", "hand": HAND}


@pytest.fixture
def jx(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("JXMJ_DB", f"sqlite:///{tmp_path / 'l.sqlite3'}")
    monkeypatch.setenv("LC_ALL", "C.UTF-8")  # errors in English whatever the developer's locale (--lang)

    def run(*args: str, stdin: str = "") -> tuple[int, dict]:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        rc = cli.main(["table", *args])
        return rc, json.loads(capsys.readouterr().out)

    return run


@pytest.fixture
def code(jx) -> str:
    rc, out = jx("new", "--variant", "jiujiang", "--seats", "张三", "李四", "王五", "赵六")
    assert rc == 0
    return out["code"]


@pytest.mark.parametrize(
    ("hand", "want", "fragment"),
    [
        ({**WIN, "recorded": "x" * 1000}, "input_too_large", "recorded is 1000 characters long"),
        (
            {**WIN, "seat": "李" * 100},
            "input_too_large",
            "seat is 100 characters long: this text may have at most 80",
        ),
        (
            {**WIN, "hand": {**HAND, "concealed": "1m" * 60}},
            "input_too_large",
            "hand.concealed is 120 characters long: a tile string may have at most 100",
        ),
        (
            {**WIN, "note": "n" * 201},
            "input_too_large",
            "note is 201 characters long: this text may have at most 200",
        ),
        (
            {**WIN, "hand": {**HAND, "point_value": float("nan")}},
            "bad_input",
            "NaN, which is not a JSON number",
        ),
        (
            {**WIN, "hand": {**HAND, "point_value": float("inf")}},
            "bad_input",
            "Infinity, which is not a JSON number",
        ),
    ],
)
@pytest.mark.parametrize("action", ["record", "edit"])
def test_every_field_of_a_hand_has_the_score_paths_limit(jx, code, action, hand, want, fragment):
    assert jx("record", code, "-", stdin=json.dumps(WIN))[0] == 0
    args = [action, code, *(["1"] if action == "edit" else []), "-"]
    rc, out = jx(*args, stdin=json.dumps(hand, ensure_ascii=False))
    assert rc == 2 and out["code"] == want and fragment in out["error"], out
    rc, shown = jx("show", code)
    assert rc == 0 and len(shown["hands"]) == 1 and len(json.dumps(shown)) < 8000  # hand 1 as it was


def test_a_hand_over_64_kib_is_refused_before_it_is_parsed(jx, code):
    rc, out = jx("record", code, "-", stdin=json.dumps(WIN) + " " * 70_000)
    assert rc == 2 and out == {
        "error": "standard input is larger than 64 KiB: a hand is a small JSON object",
        "code": "input_too_large",
    }
    assert jx("show", code)[1]["hands"] == []


def test_a_note_within_its_limit_is_kept(jx, code):
    assert jx("record", code, "-", stdin=json.dumps({**WIN, "note": "n" * 200}))[0] == 0
    assert jx("show", code)[1]["hands"][0]["note"] == "n" * 200


def test_nesting_is_bounded_with_a_code(jx, code):
    rc, out = jx("record", code, "-", stdin="[" * 30_000 + "]" * 30_000)
    assert rc == 2 and out["code"] == "bad_input" and "nested more than 32 levels" in out["error"]
    rc, out = jx(
        "record",
        code,
        "-",
        stdin=json.dumps(
            {
                **WIN,
                "note": None,
                "kongs": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],
            }
        ),
    )
    assert rc == 2 and out["code"] == "bad_input"


def _export(jx, code, **change) -> dict:
    assert jx("record", code, "-", stdin=json.dumps(WIN))[0] == 0
    out = jx("export", code)[1]
    out["hands"][0].update(change)
    return out


def test_an_import_applies_the_hand_limits_to_every_hand(jx, code, tmp_path):
    export = _export(jx, code, recorded="r" * 100_000)
    path = tmp_path / "e.json"
    path.write_text(json.dumps(export))
    rc, out = jx("import", str(path))
    assert rc == 2 and out["code"] == "bad_import"
    assert (
        out["error"] == "not a jxmj table export: hand 1: recorded is 100000 characters long: "
        "this text may have at most 40"
    )
    export["hands"][0]["recorded"] = "2026-12-02T01:00:00+00:00"
    export["hands"][0]["outcome"]["results"][0]["items"][0]["reason"] = (
        "derived text, dropped on import " * 10
    )
    path.write_text(json.dumps(export))
    rc, out = jx("import", str(path))
    assert rc == 0 and out["hands"] == 1


def test_an_import_is_capped_by_hands_times_the_per_hand_limit(tmp_path):
    assert ledgerin.MAX_IMPORT_BYTES == 2000 * 4096 + 65536
    with pytest.raises(LedgerError) as e:
        ledgerin.parse_export(b" " * (ledgerin.MAX_IMPORT_BYTES + 1))
    assert e.value.code == "input_too_large" and "at most 2000 hands" in e.value.message
    with pytest.raises(LedgerError) as e:
        ledgerin.parse_export(
            json.dumps({"format": "jxmj-table", "hands": [{"kind": "drawn"}] * 2001}).encode()
        )
    assert e.value.code == "input_too_large"
    assert e.value.message == "the export holds 2001 hands: a table may have at most 2000"
    with pytest.raises(LedgerError) as e:  # [[],[],...]: 22 bytes of memory per byte, refused unread
        ledgerin.parse_export(b"[" + b"[]," * 500_000 + b"[]]")
    assert e.value.code == "input_too_large" and e.value.message.startswith(
        "the file holds 500,001 JSON values"
    )


def test_the_import_limit_is_said_as_the_code_has_it_in_every_doc(jx, tmp_path):
    """The README said 8 MiB, docs/ledger-json.md 16 MiB, the error "larger than 7 MiB" (rounded
    down): it is MAX_IMPORT_BYTES, 8,257,536 bytes (7.9 MiB), and a file of 7.5 MiB is read."""
    said = f"{ledgerin.MAX_IMPORT_BYTES:,} bytes (7.9 MiB"
    assert said == "8,257,536 bytes (7.9 MiB"
    for doc in ("README.md", "docs/ledger-json.md"):
        text = " ".join((ROOT / doc).read_text(encoding="utf-8").split())
        assert re.search(rf"\bimports?\b[^|]{{0,80}}{re.escape(said)}", text), doc
        assert not re.search(r"\bimports?\b[^|.]{0,80}\b(?:8|16) MiB", text), doc
    with pytest.raises(LedgerError) as e:
        ledgerin.parse_export(b" " * (ledgerin.MAX_IMPORT_BYTES + 1))
    assert e.value.message.startswith(f"the file is larger than {said})")
    path = tmp_path / "big.json"
    path.write_bytes(b" " * (ledgerin.MAX_IMPORT_BYTES + 1))
    rc, out = jx("import", str(path))
    assert rc == 2 and out == {
        "error": f"{short(str(path))} is larger than {said}): an export holds at most 2000 hands",
        "code": "input_too_large",
    }
    path.write_bytes(b"[" + b" " * (15 * 2**19) + b"]")  # 7.5 MiB: within the limit, read
    rc, out = jx("import", str(path))
    assert rc == 2 and out["code"] == "bad_import"


def test_reading_an_import_holds_no_more_than_its_cost(tmp_path):
    raw = b"[" + b"[]," * (ledgerin.MAX_IMPORT_VALUES - 2) + b"[]]"  # the costliest export within limits
    path = tmp_path / "hostile.json"
    path.write_bytes(raw)
    code = (
        "import resource, sys; from app import ledgerin; raw = open(sys.argv[1], 'rb').read();"
        "b = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss; ledgerin.parse_export(raw);"
        "print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - b) * 1024)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert int(proc.stdout) <= ledgerin.import_cost(raw) <= 64 * 2**20


def test_a_deep_rules_toml_is_a_bad_rule_table_not_an_internal_error(tmp_path, capsys):
    rules = tmp_path / "deep.toml"
    rules.write_text("a = " + "[" * 600 + "]" * 600)
    hand = tmp_path / "h.json"
    hand.write_text(json.dumps({**HAND, "variant": "xingzi", "self_drawn": True}))
    assert cli.main(["score", str(hand), "--rules", str(rules)]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["code"] == "bad_rule_table" and "nested more than 16 levels deep" in out["error"]


def test_score_json_with_nan_is_bad_json(tmp_path, capsys):
    hand = tmp_path / "h.json"
    hand.write_text(
        '{"concealed": "123m456p789s234mCC", "winning_tile": "C", "variant": "xingzi", "point_value": NaN}'
    )
    assert cli.main(["score", str(hand)]) == 2
    assert json.loads(capsys.readouterr().out) == {
        "error": "the input holds NaN, which is not a JSON number: give a number",
        "code": "bad_json",
    }


def test_a_stored_hand_of_deep_arrays_is_corrupt_store(tmp_path, capsys, monkeypatch):
    import sqlite3

    db = tmp_path / "l.sqlite3"
    monkeypatch.setenv("JXMJ_DB", f"sqlite:///{db}")
    assert cli.main(["table", "new", "--variant", "xingzi", "--seats", "a", "b", "c", "d"]) == 0
    code = json.loads(capsys.readouterr().out)["code"]
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"kind": "drawn"}'))
    assert cli.main(["table", "record", code, "-"]) == 0
    capsys.readouterr()
    with sqlite3.connect(db) as c:
        c.execute("UPDATE jxmj_hands SET data = ?", ("[" * 100_000 + "]" * 100_000,))
    assert cli.main(["table", "show", code]) == 2
    assert json.loads(capsys.readouterr().out)["code"] == "corrupt_store"


TOO_LARGE = ["1e999", "-1e999", "1E400", "1e+309", "-0.5e310", "1" + "0" * 400 + ".0"]
"""Spellings of a number that reads as infinity (a float past 1.8e308): none may be stored."""


@pytest.mark.parametrize("spelled", TOO_LARGE)
def test_a_number_too_large_is_refused_however_spelled(jx, code, tmp_path, spelled):
    hand = json.dumps({**WIN, "hand": {**HAND, "_seen": "__N__"}}).replace('"__N__"', spelled)
    rc, out = jx("record", code, "-", stdin=hand)
    assert rc == 2 and out["code"] == "bad_input", out
    assert f"the input holds {spelled[:40]}" in out["error"] and "not a finite number" in out["error"]
    export = json.dumps(_export(jx, code))
    for where in ('"base": 1', '"_x": 1'):  # the table's base; an annotation kept as given
        text = export.replace('"winning_tile": "C"', '"winning_tile": "C", "_x": 1', 1)
        path = tmp_path / "e.json"
        path.write_text(text.replace(where, where[:-1] + spelled, 1))
        rc, out = jx("import", str(path))
        assert rc == 2 and out["code"] == "bad_import" and "not a finite number" in out["error"], out
    rc, out = jx("show", code)
    assert rc == 0 and "Infinity" not in json.dumps(out)


def test_score_json_with_a_number_too_large_is_bad_json(tmp_path, capsys):
    hand = tmp_path / "h.json"
    hand.write_text(json.dumps({**HAND, "variant": "xingzi", "_n": 0}).replace("0}", "1e999}"))
    assert cli.main(["score", str(hand)]) == 2
    assert json.loads(capsys.readouterr().out) == {
        "error": "the input holds 1e999, which is not a finite number (it is too large): give a number",
        "code": "bad_json",
    }


def test_a_hand_given_infinity_from_python_is_refused_not_stored(tmp_path):
    from ledger import Table
    from ledger.store import open_store

    store = open_store(f"sqlite:///{tmp_path / 'l.sqlite3'}")
    code = store.create_table(Table("jiujiang", ("张三", "李四", "王五", "赵六"))).table.code
    for bad in (float("inf"), float("-inf"), float("nan")):
        annotated = {**WIN, "hand": {**HAND, "_x": [1, {"y": bad}]}}
        for hand in (annotated, {**WIN, "kongs": {"张三": bad}}):
            with pytest.raises(LedgerError) as e:
                store.append(code, json_hand(store, code, hand))
            assert e.value.code == "bad_hand" and "not a finite number" in e.value.message, e.value.message
    assert store.get(code).hands == ()
