"""`jxmj table`'s errors: every code it can print has zh and en words in the catalog, `--lang zh|en`
(default: the locale's, as `jxmj score`) says them in that language, before or after the action;
`--db ''` is refused; numbers on the command line are ASCII digits only."""

from __future__ import annotations

import argparse
import ast
import io
import json
import re
import sys
from pathlib import Path

import pytest

from app import cli, table_errors
from app.clilang import decimal_number, lang_of, whole_number
from app.ui import i18n
from ledger.errors import CODES as LEDGER_CODES
from scoring.errors import CODES as SCORING_CODES

ROOT = Path(__file__).resolve().parents[2]
ZH, EN = i18n.catalog("zh"), i18n.catalog("en")
HAND = {"concealed": "123m456p789s234mCC", "winning_tile": "C"}

# The calls that name a code, and where they stand: the exceptions, the parsers' fail helpers,
# ledger.names.check_text, and an exception class's super().__init__(code, ...).
CODE_CALLS = {"LedgerError", "StoreError", "_fail", "fail", "check_text", "__init__"}
WORD = re.compile(r"[a-z]+(?:_[a-z]+)*")  # a code; an English sentence has spaces


def _codes_in_source() -> dict[str, set[str]]:
    """Every code literal the ledger and `jxmj table` raise: code -> the files raising it."""
    files = [
        *sorted((ROOT / "ledger").rglob("*.py")),
        ROOT / "app" / "cmd_table.py",
        ROOT / "app" / "table_settle.py",
        ROOT / "app" / "table_files.py",
        ROOT / "app" / "ledgerin.py",
    ]
    found: dict[str, set[str]] = {}
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            values: list[ast.expr] = []
            if isinstance(node, ast.Call):
                f = node.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
                if name in CODE_CALLS:
                    values = [*node.args, *(k.value for k in node.keywords)]
            elif isinstance(node, ast.FunctionDef) and node.name in CODE_CALLS:  # fail(..., code="bad_hand")
                values = [*node.args.defaults, *node.args.kw_defaults]
            for v in values:
                if isinstance(v, ast.Constant) and isinstance(v.value, str) and WORD.fullmatch(v.value):
                    found.setdefault(v.value, set()).add(path.relative_to(ROOT).as_posix())
    return found


def test_every_code_the_ledger_and_jxmj_table_raise_is_listed():
    found = _codes_in_source()
    assert {"bad_hand", "output_is_store", "table_not_found", "bad_url"} <= set(found)  # the walk reads
    assert sorted(set(found) - set(table_errors.ERROR_CODES)) == []
    assert sorted(set(LEDGER_CODES) - set(found)) == []  # no code listed that nothing raises
    assert cli.USAGE_CODE in table_errors.ERROR_CODES


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("code", sorted({*table_errors.ERROR_CODES, *SCORING_CODES}))
def test_every_code_jxmj_table_can_print_has_words_in_both_languages(code, lang):
    """Its own codes (bad_input, output_not_written, output_is_store had none) and the scoring
    codes a hand passes through (`ledger.<code>`, else `code.<code>`; never `code.unknown`)."""
    key = table_errors.catalog_key(code)
    assert key in (f"ledger.{code}", f"code.{code}")
    assert i18n.catalog(lang).get(key, "").strip()


@pytest.fixture
def jx(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("JXMJ_DB", f"sqlite:///{tmp_path / 'l.sqlite3'}")
    monkeypatch.setenv("LC_ALL", "C.UTF-8")  # an English locale: the default language

    def run(*args: str, stdin: str = "") -> tuple[int, dict]:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        rc = cli.main(["table", *args])
        return rc, json.loads(capsys.readouterr().out)

    return run


def _new(jx) -> str:
    rc, out = jx("new", "--variant", "jiujiang", "--seats", *"abcd")
    assert rc == 0
    return out["code"]


ERRORS = [  # the arguments after the code (None: no table), the code, the English sentence's start
    ((None, "show", "0000"), "bad_code", "'0000' is not a table code"),
    ((None, "show", "K7QM9ACXTRE"), "table_not_found", "no table has the code K7QM9ACXTRE"),
    (("record", "-"), "bad_input", "the input is not valid JSON"),
    (("export", "-o", "/nonexistent/t.json"), "output_not_written", "cannot write /nonexistent/t.json"),
    (("export", "-o", ""), "output_not_written", "cannot write a file with an empty name"),  # was stdout
    (("settle", "--png", ""), "output_not_written", "cannot write a file with an empty name"),  # was none
    (("edit", "1"), "no_such_hand", "no hand 1"),
    (("settle", "--hands"), "bad_usage", "jxmj table settle: --hands lists the hands in the picture"),
    ((None, "show"), "bad_usage", "jxmj table show: the following arguments are required: code"),
    (("edit", "١"), "bad_usage", "jxmj table edit: argument number: not a whole number in ASCII digits"),
]  # fmt: skip


@pytest.mark.parametrize("where", ["before", "after"])
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize(("args", "code", "english"), ERRORS, ids=[c for _, c, _ in ERRORS])
def test_lang_says_the_error_in_that_language_before_or_after_the_action(
    jx, args, code, english, lang, where
):
    if args[0] is None:
        action, *rest = args[1:]
    else:
        action, *rest = (args[0], _new(jx), *args[1:])
    argv = ["--lang", lang, action, *rest] if where == "before" else [action, *rest, "--lang", lang]
    rc, out = jx(*argv, stdin="{x" if code == "bad_input" else json.dumps({"seat": 1, "hand": HAND}))
    assert rc == 2 and out["code"] == code
    if lang == "en":
        assert set(out) == {"error", "code"} and out["error"].startswith(english)
    else:  # the app's sentence for the code; the English one, naming the problem, beside it
        assert out == {"error": ZH[f"ledger.{code}"], "code": code, "detail": out["detail"]}
        assert out["detail"].startswith(english)


def test_the_language_follows_the_locale_unless_given(jx, monkeypatch):
    monkeypatch.setenv("LC_ALL", "zh_CN.UTF-8")
    assert jx("show", "0000")[1]["error"] == ZH["ledger.bad_code"]
    assert jx("show", "0000", "--lang", "en")[1]["error"].startswith("'0000' is not a table code")
    monkeypatch.setenv("LC_ALL", "en_GB.UTF-8")
    assert jx("show", "0000")[1]["error"].startswith("'0000' is not a table code")


def test_export_lang_is_the_csv_language_and_the_errors(jx, capsys):
    code = _new(jx)
    for argv, head in (
        ([], '"把","类型"'),
        (["--lang", "en"], '"hand","kind"'),
        (["--lang", "zh"], '"把","类型"'),
    ):
        assert cli.main(["table", "export", code, "--format", "csv", *argv]) == 0  # default: zh, as the app
        assert capsys.readouterr().out.lstrip("\ufeff").startswith(head)
    rc, out = jx("export", "0000", "--lang", "zh")
    assert rc == 2 and out["error"] == ZH["ledger.bad_code"]


@pytest.mark.parametrize(
    ("given", "locale", "lang"),
    [("en", "zh_CN.UTF-8", "en"), ("zh", "C", "zh"), (None, "zh_TW.UTF-8", "zh"), (None, "C", "en"),
     ("fr", "C", "en")],
)  # fmt: skip
def test_lang_of_takes_only_zh_or_en(given, locale, lang, monkeypatch):
    """`--lang fr` reaches it only in a usage error's lenient reading: the locale's then."""
    monkeypatch.setenv("LC_ALL", locale)
    assert lang_of(argparse.Namespace(lang=given)) == lang


@pytest.mark.parametrize("db", ["", " "])
def test_an_empty_db_is_bad_url_never_the_default_ledger(jx, tmp_path, monkeypatch, db):
    code = _new(jx)  # in the ledger JXMJ_DB names, which --db '' showed and wrote to instead
    for argv in (("--db", db, "show", code), ("--db", db, "new", "--variant", "xinyu", "--seats", *"abcd")):
        rc, out = jx(*argv)
        assert rc == 2 and out["code"] == "bad_url"
        assert out["error"].startswith(f"the ledger URL is empty ({db!r}): give a database URL")
    monkeypatch.delenv("JXMJ_DB")  # nor the one in the user's data folder
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert jx("--db", db, "new", "--variant", "xinyu", "--seats", *"abcd")[1]["code"] == "bad_url"
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize(
    "name", ["\u0301", "\u0301\u0302", "\u3164", "\u115f\u1160", "\u2800", "\u3000\u0301"]
)
def test_a_seat_name_that_shows_nothing_is_refused_as_an_empty_one(jx, name):
    rc, out = jx("new", "--variant", "xinyu", "--seats", name, "b", "c", "d")
    assert rc == 2 and out["code"] == "bad_seats"
    assert "seat 0's name (U+" in out["error"] and "shows nothing" in out["error"]
    assert jx("new", "--variant", "xinyu", "--seats", "", "b", "c", "d")[1]["code"] == "bad_seats"  # as empty


def test_a_name_with_a_combining_mark_on_a_letter_is_a_name(jx):
    rc, out = jx("new", "--variant", "xinyu", "--seats", "e\u0301", "张三", "b", "c")
    assert rc == 0 and out["table"]["seats"] == ["\u00e9", "张三", "b", "c"]


@pytest.mark.parametrize("number", ["١", "۱", "１", "¹", "-1", "+1", "1.0", " 1", "1_0", "", "1" * 10])
def test_a_hand_number_is_ascii_digits_only(jx, number):
    code = _new(jx)
    hand = json.dumps({"seat": 1, "hand": HAND})
    assert jx("record", code, stdin=hand)[0] == 0
    rc, out = jx("edit", code, number, stdin=json.dumps({"seat": 2, "hand": HAND}))
    assert rc == 2 and out["code"] == "bad_usage"
    assert out["error"].endswith(
        f"argument number: not a whole number in ASCII digits 0-9 (at most 9): {number!r}"
    )
    assert jx("show", code)[1]["hands"][0]["winners"][0]["seat"] == 1  # hand 1 unchanged (not seat 2)
    rc, out = jx("drawn", code, "--expect", number)
    assert rc == 2 and out["code"] == "bad_usage" and "argument --expect" in out["error"]
    assert jx("show", code)[1]["next"]["hand"] == 2


@pytest.mark.parametrize("text", ["12", "0", "007", "999999999"])
def test_whole_number_reads_ascii_digits(text):
    assert whole_number(text) == int(text)


@pytest.mark.parametrize("base", ["٢", "２", "²"])
def test_a_base_in_other_digits_is_bad_money_naming_it(jx, base):
    rc, out = jx("new", "--variant", "xinyu", "--seats", *"abcd", "--base", base)
    assert rc == 2 and out == {
        "error": f"the base point value must be a number in ASCII digits 0-9, not {base!r}",
        "code": "bad_money",
    }


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["detect", "x.png", "--conf", "٠.٥"], "argument --conf: not a number in ASCII digits 0-9: '٠.٥'"),
        (
            ["photo", "x.jpg", "--json", "--variant", "xinyu", "--point-value", "٢"],
            "argument --point-value: not a",
        ),
    ],
)
def test_the_other_commands_numbers_are_ascii_too(argv, fragment, capsys):
    assert cli.main(argv) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["code"] == "bad_usage" and fragment in out["error"]
    assert decimal_number("0.5") == 0.5


@pytest.mark.parametrize("base", ["1_0", " 1", "1 ", "1e2", "+1", "0x10", "1,5", "1.2.3"])
def test_a_base_spelled_unlike_a_number_a_person_types_is_bad_money(jx, base):
    rc, out = jx("new", "--variant", "xinyu", "--seats", *"abcd", "--base", base)
    assert rc == 2 and out["code"] == "bad_money"
    assert out["error"] == f"the base point value must be a number such as 1 or 0.5, not {base!r}"


@pytest.mark.parametrize(("base", "shown"), [("2", "2"), ("0.5", "0.5"), ("1.", "1"), (".25", "0.25")])
def test_a_base_in_plain_digits_is_kept(jx, base, shown):
    rc, out = jx("new", "--variant", "xinyu", "--seats", *"abcd", "--base", base)
    assert rc == 0 and str(out["table"]["base"]) == shown


@pytest.mark.parametrize("text", ["1_0", " 0.5", "0.5 ", "0x1", "1,5", "", "."])
def test_conf_and_point_value_refuse_separators_and_spaces(text, capsys):
    assert cli.main(["detect", "x.png", "--conf", text]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["code"] == "bad_usage" and "argument --conf: not a number" in out["error"]
    assert cli.main(["photo", "x.jpg", "--json", "--variant", "xinyu", "--point-value", text]) == 2
    assert "argument --point-value: not a number" in json.loads(capsys.readouterr().out)["error"]


@pytest.mark.parametrize(
    ("text", "value"), [("0.5", 0.5), ("1e-3", 0.001), ("-2", -2.0), (".5", 0.5), ("5.", 5.0)]
)
def test_decimal_number_reads_what_a_person_types(text, value):
    assert decimal_number(text) == value
