"""`jxmj table`: JSON in and out on the same database, exit 2 + {"error", "code"} on bad input."""

from __future__ import annotations

import csv
import io
import json
import sys

import pytest

from app import cli
from app.jsonin import short


@pytest.fixture
def jx(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("JXMJ_DB", f"sqlite:///{tmp_path / 'l.sqlite3'}")
    monkeypatch.setenv("LC_ALL", "C.UTF-8")  # errors in English whatever the developer's locale (--lang)

    def run(*args: str, stdin: str = "") -> tuple[int, object]:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        rc = cli.main(["table", *args])
        out = capsys.readouterr().out
        try:
            return rc, json.loads(out)
        except json.JSONDecodeError:
            return rc, out

    return run


HAND = {"concealed": "123m456p789s234mCC", "winning_tile": "C"}  # 3 炮 on a discard, 4 self-drawn


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_show_as_text_says_the_evening_as_the_page(jx, lang):
    """The README's `jxmj table show CODE` printed the whole ledger as one line of JSON (3 KB for
    two hands); `--format text` says it as the 牌局 page: each hand's line with its 跟庄 and note,
    the totals, the transfers, the next hand with its raise — in --lang."""
    code = jx("new", "--variant", "jiujiang", "--seats", "张三", "李四", "王五", "赵六", "--title", "周五")[
        1
    ]["code"]
    assert jx("record", code, stdin=json.dumps({"seat": "李四", "discarder": "王五", "hand": HAND}))[0] == 0
    drawn = {"kind": "drawn", "follow": {"followed": True}, "note": "第二圈"}
    assert jx("record", code, stdin=json.dumps(drawn))[0] == 0
    rc, out = jx("show", code, "--format", "text", "--lang", lang)
    assert rc == 0 and isinstance(out, str)
    want = {
        "en": [f"周五 · Jiujiang 九江 · 1 per 炮 (pào, points) · code {code}", "", "Hands",
               "1. 李四 won off 王五 · dealer 张三 · 李四 +3 · 王五 -3",
               "2. drawn (黄庄) · followed (跟庄) · dealer 李四", "   Note: 第二圈", "", "Settlement",
               "张三 0 · 李四 +3 · 王五 -3 · 赵六 0", "王五 → 李四 3", "",
               "Hand 3: 李四 deals. Raised ×2 (followed 跟庄, hand 2, drawn 黄庄, hand 2)."],
        "zh": [f"周五 · 九江 · 每炮 1 · 牌局码 {code}", "", "每一把",
               "1. 李四 胡 王五 的炮 · 张三 坐庄 · 李四 +3 · 王五 -3", "2. 黄庄 · 跟庄 · 李四 坐庄",
               "   备注：第二圈", "", "结算", "张三 0 · 李四 +3 · 王五 -3 · 赵六 0", "王五 → 李四 3", "",
               "第 3 把：李四 坐庄。升级 ×2（第 2 把跟庄、第 2 把黄庄）。"],
    }[lang]  # fmt: skip
    assert out.splitlines() == want
    assert jx("show", code)[1]["hands"][1]["note"] == "第二圈"  # JSON stays the default


def test_an_evening_from_the_command_line(jx, tmp_path):
    rc, out = jx("new", "--variant", "jiujiang", "--seats", "张三", "李四", "王五", "赵六", "--base", "2")
    assert rc == 0
    code = out["code"]
    rc, out = jx("record", code, "-", stdin=json.dumps({"seat": "李四", "discarder": "王五", "hand": HAND}))
    assert rc == 0 and out["outcome"]["deltas"] == {"张三": 0, "李四": 6, "王五": -6, "赵六": 0}
    assert out["next"] == {"hand": 2, "dealer": "李四", "raise": 1, "reasons": [], "point_value": 2}
    rc, out = jx("drawn", code, "--follow", "--expect", "1")
    assert rc == 0 and out["next"]["raise"] == 2 and out["next"]["point_value"] == 4
    rc, out = jx("record", code, stdin=json.dumps({"seat": 1, "hand": HAND}))  # dealer 李四 self-draws at x2
    assert out["outcome"]["deltas"] == {"张三": -16, "李四": 48, "王五": -16, "赵六": -16}
    rc, out = jx("settle", code)
    assert rc == 0 and out["nets"] == {"张三": -16, "李四": 54, "王五": -22, "赵六": -16}
    assert out["lines"] == ["王五 → 李四 22", "张三 → 李四 16", "赵六 → 李四 16"]
    rc, out = jx("export", code, "--format", "csv", "--lang", "en")
    assert (
        out.splitlines()[3]
        == '"3","win","李四","2","4","李四","","","-16","48","-16","-16","-16","54","-22","-16","","",""'
    )
    assert out.splitlines()[2].endswith('"followed","",""')  # the 黄庄's 跟庄, in its column
    f = tmp_path / "t.json"
    assert jx("export", code, "-o", str(f))[0] == 0
    rc, out = jx("import", str(f))
    assert rc == 0 and out["hands"] == 3 and out["code"] != code
    rc, out = jx("show", out["code"])
    assert out["totals"] == {"张三": -16, "李四": 54, "王五": -22, "赵六": -16}
    assert jx("undo", code)[1]["hands"] == 2
    rc, out = jx("settle", code, "--lock")
    assert out["locked"] is True
    rc, out = jx("drawn", code)
    assert rc == 2 and out["code"] == "table_locked"


@pytest.mark.parametrize(
    ("args", "stdin", "code", "fragment"),
    [
        (("show", "K7QM9ACXTRE"), "", "table_not_found", "no table has the code K7QM9ACXTRE"),
        (("show", "0000"), "", "bad_code", "is not a table code"),
        (("new", "--variant", "xingzi", "--seats", "a", "a", "b", "c"), "", "bad_seats", "must differ"),
        (
            ("new", "--variant", "xingzi", "--seats", "a", "b", "c", "d", "--base", "-1"),
            "",
            "bad_money",
            "above 0",
        ),
        (
            ("new", "--variant", "xingzi", "--seats", "a", "b", "c", "d", "--rules", "{x"),
            "",
            "bad_input",
            "not valid",
        ),
        (
            ("new", "--variant", "xingzi", "--seats", *"abcd", "--rules", '{"ledger": {}, "ledger": {}}'),
            "",
            "bad_input",
            "--rules: the field 'ledger' is given twice",
        ),
        (("import", "-"), "[1]", "bad_import", "not a jxmj table export"),
        (
            ("import", "-"),
            '{"format": "jxmj-table", "format": 1}',
            "bad_import",
            "the field 'format' is given twice in one object",
        ),  # app.jsonin.parse's object_pairs_hook, as jxmj score's: never "the last one wins"
        *(
            (
                ("new", "--variant", "xingzi", "--seats", *"abcd", "--rules", r),
                "",
                "bad_rule",
                "house rules are",
            )
            for r in ("[]", "0")
        ),  # not taken as no house rules
    ],
)
def test_bad_input_exits_2_with_a_code(jx, args, stdin, code, fragment):
    rc, out = jx(*args, stdin=stdin)
    assert rc == 2 and out["code"] == code and fragment in out["error"]


def test_a_bad_hand_changes_nothing(jx):
    code = jx("new", "--variant", "xingzi", "--seats", "a", "b", "c", "d")[1]["code"]
    rc, out = jx("record", code, stdin=json.dumps({"seat": "e", "hand": HAND}))
    assert rc == 2 and out == {
        "error": "hand 1: unknown seat 'e': the seats are 0-3 or a, b, c, d",
        "code": "unknown_seat",
    }
    rc, out = jx("record", code, stdin="{")
    assert rc == 2 and "not valid JSON" in out["error"]
    assert jx("show", code)[1]["hands"] == []
    rc, out = jx("false-win", code, "d", "--expect", "3")
    assert rc == 2 and out["code"] == "conflict"
    assert jx("false-win", code, "d")[1]["totals"] == {"a": 10, "b": 10, "c": 10, "d": -30}


@pytest.mark.parametrize(
    ("seats", "given", "declarer"),
    [("abcd", "2", "c"), ("abcd", " d ", "d"), ("4321", "1", "1"), ("4321", "0", "4")],
)
def test_false_win_takes_a_seat_name_before_an_index(jx, seats, given, declarer):
    code = jx("new", "--variant", "xingzi", "--seats", *seats)[1]["code"]
    rc, out = jx("false-win", code, given)
    assert rc == 0 and out["totals"][declarer] == -30


@pytest.mark.parametrize("given", ["²", "١", "4", "99999999999999999999999"])
def test_false_win_by_a_seat_that_is_no_index_is_named(jx, given):
    code = jx("new", "--variant", "xingzi", "--seats", *"abcd")[1]["code"]
    rc, out = jx("false-win", code, given)  # "²" was an internal ValueError, "١" (Arabic 1) seat b
    assert rc == 2 and out["code"] == "unknown_seat" and given in out["error"]
    assert jx("show", code)[1]["hands"] == []


@pytest.mark.parametrize("where", ["", "missing/t.json", "/dev/full"])
def test_an_export_that_cannot_be_written_is_named(jx, tmp_path, where):
    code = jx("new", "--variant", "xingzi", "--seats", *"abcd")[1]["code"]
    path = where if where.startswith("/") else str(tmp_path / where)
    rc, out = jx("export", code, "-o", path)
    assert rc == 2 and out["code"] == "output_not_written"
    assert out["error"].startswith(f"cannot write {short(path)}: ")  # a long path is cut (jsonin.short)


def test_a_csv_export_never_holds_a_formula(jx):
    seats = ("=HYPERLINK(1)", "+1", "@a", "-b")
    code = jx("new", "--variant", "xingzi", "--seats", *seats[:3], " -b")[1]["code"]  # not an option
    jx("false-win", code, "0")
    text = jx("export", code, "--format", "csv", "--lang", "en")[1].removeprefix("\ufeff")
    head, row = csv.reader(io.StringIO(text))
    assert head[8:12] == ["'=HYPERLINK(1) +/-", "'+1 +/-", "'@a +/-", "'-b +/-"]
    assert row[2] == "'=HYPERLINK(1)" and row[8:12] == ["-30", "10", "10", "10"]
    assert text.splitlines()[1].startswith('"1","false win","\'=HYPERLINK(1)"')  # every cell quoted
    assert jx("show", code)[1]["table"]["seats"] == list(seats)  # the names themselves are kept


@pytest.mark.parametrize("action", ["import", "record", "edit"])
@pytest.mark.parametrize("where", ["missing.json", "."])  # no such file; a folder
def test_a_file_that_cannot_be_read_is_input_unreadable_naming_it(jx, tmp_path, action, where):
    """As `jxmj score /nonexistent.json` answers (`input_unreadable`); `jxmj table` said `bad_input`."""
    code = jx("new", "--variant", "xingzi", "--seats", *"abcd")[1]["code"]
    jx("record", code, stdin=json.dumps({"seat": "a", "discarder": "b", "hand": HAND}))
    path = str(tmp_path / where)
    args = {"import": (path,), "record": (code, path), "edit": (code, "1", path)}[action]
    rc, out = jx(action, *args)
    why = "No such file or directory" if where == "missing.json" else "Is a directory"
    assert rc == 2 and out == {"error": f"cannot read {short(path)}: {why}", "code": "input_unreadable"}
    assert len(jx("show", code)[1]["hands"]) == 1  # nothing changed


@pytest.mark.parametrize(
    "text, error, code",
    [
        ("", "the input is empty: give one JSON object", "bad_input"),  # was "... not NoneType"
        (" \n", "the input is empty: give one JSON object", "bad_input"),
        ("null", "hand 1: a hand is a JSON object, not null", "bad_hand"),
        ("[1]", "hand 1: a hand is a JSON object, not a list", "bad_hand"),  # was "not list"
    ],
)
def test_an_empty_or_non_object_hand_is_said_in_json_words(jx, text, error, code):
    table = jx("new", "--variant", "xingzi", "--seats", *"abcd")[1]["code"]
    assert jx("record", table, stdin=text) == (2, {"error": error, "code": code})
    assert jx("import", stdin=text)[1]["code"] == "bad_import"


@pytest.mark.parametrize(
    "args", [("show",), ("export",), ("settle",), ("settle", "--lock"), ("undo",), ("lock",), ("drawn",)]
)
def test_a_code_on_a_ledger_file_that_is_not_there_makes_no_file(jx, tmp_path, monkeypatch, args):
    """A read (or a write to a table) on a missing SQLite file answered `table_not_found` only after
    creating the file and its folders; now the file is not made and the message says so."""
    db = tmp_path / "no" / "such" / "ledger.sqlite3"
    monkeypatch.setenv("JXMJ_DB", f"sqlite:///{db}")
    rc, out = jx(args[0], "346789acdef", *args[1:])
    assert rc == 2 and out == {
        "error": f"no table has the code 346789ACDEF: there is no ledger database at {db}",
        "code": "table_not_found",
    }
    assert not (tmp_path / "no").exists()
    assert jx("show", "ABC")[1]["code"] == "bad_code"  # a code of the wrong form is said first
    assert jx("new", "--variant", "xingzi", "--seats", *"abcd")[0] == 0 and db.exists()  # new makes it


def test_a_hand_file_that_is_not_utf8_is_named(jx, tmp_path):
    code = jx("new", "--variant", "xingzi", "--seats", "a", "b", "c", "d")[1]["code"]
    f = tmp_path / "hand.json"
    f.write_bytes(b'{"seat": "\xff"}')
    rc, out = jx("record", code, str(f))
    assert rc == 2 and out == {"error": "the input is not UTF-8 text (byte 11 is not)", "code": "bad_input"}
    assert jx("show", code)[1]["hands"] == []


def test_a_seat_name_that_starts_with_a_dash_is_typed_as_seat_equals_or_after_two_dashes(jx):
    seats = ["-阿三", "李四", "--x", "-1"]
    rc, out = jx("new", "--variant", "xingzi", "--seat=-阿三", "--seat", "李四", "--seat=--x", "--seat=-1")
    assert rc == 0 and out["table"]["seats"] == seats
    code = out["code"]
    assert jx("false-win", code, "--", "-阿三")[1]["totals"] == {
        "-阿三": -30,
        "李四": 10,
        "--x": 10,
        "-1": 10,
    }
    rc, out = jx("false-win", code, "--expect", "1", "--", "--x")  # options before '--' still count
    assert rc == 0 and out["totals"] == {"-阿三": -20, "李四": 20, "--x": -20, "-1": 20}
    assert jx("false-win", code, "--expect", "1", "--", "-1")[1]["code"] == "conflict"  # it saw 2 hands
    assert jx("false-win", code, "--", "-1")[1]["totals"]["-1"] == -10


@pytest.mark.parametrize(
    ("args", "code", "fragment"),
    [
        (("--seat", "a", "--seat", "b", "--seat", "c"), "bad_seats", "a table has 4 seats"),
        (
            ("--seats", *"abcd", "--seat", "e"),
            "bad_usage",
            "argument --seat: not allowed with argument --seats",
        ),
        (("--seats", "-a", *"bcd"), "bad_usage", "argument --seats: expected 4 arguments"),
    ],
)
def test_seats_given_wrong_are_named(jx, args, code, fragment):
    rc, out = jx("new", "--variant", "xingzi", *args)
    assert rc == 2 and out["code"] == code and fragment in out["error"]


def test_the_help_says_how_to_type_a_name_that_starts_with_a_dash(capsys):
    for args, says in ((["new"], "--seat=NAME also takes a name that starts with '-'"), ([], "--seat=-阿三"),
                       (["false-win"], "after '--' a name may start with '-'")):  # fmt: skip
        with pytest.raises(SystemExit):
            cli.main(["table", *args, "--help"])
        assert says in " ".join(capsys.readouterr().out.split())


def test_a_bad_db_url_is_named_as_typed_by_db_not_blamed_on_jxmj_db(jx):
    # `--db garbage` was "JXMJ_DB is not a database URL: 'garbage'", with JXMJ_DB set to a good URL
    rc, out = jx("--db", "garbage", "new", "--variant", "xingzi", "--seats", *"abcd")
    assert rc == 2 and out["code"] == "bad_url"
    assert (
        out["error"] == "'garbage' is not a database URL (--db, else JXMJ_DB; e.g. sqlite:///ledger.sqlite3)"
    )


def test_an_export_onto_the_ledger_itself_is_refused(jx, tmp_path):
    code = jx("new", "--variant", "xingzi", "--seats", *"abcd")[1]["code"]
    db = tmp_path / "l.sqlite3"
    for target in (str(db), str(tmp_path / "." / "l.sqlite3")):
        rc, out = jx("export", code, "--format", "csv", "-o", target)
        assert rc == 2 and out == {
            "error": f"{short(target)} is a file of the ledger database itself: export to another file",
            "code": "output_is_store",
        }
    assert db.read_bytes().startswith(b"SQLite format 3\0") and jx("show", code)[1]["table"]["code"] == code


def test_an_export_on_a_full_disk_leaves_the_previous_file_whole(jx, tmp_path, monkeypatch):
    import builtins
    import errno

    code = jx("new", "--variant", "xingzi", "--seats", *"abcd")[1]["code"]
    target = tmp_path / "t.json"
    target.write_text("the previous export")
    real = io.open

    class Full:
        def __init__(self, fh):
            self.fh = fh

        def write(self, text):
            raise OSError(errno.ENOSPC, "No space left on device")

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

    def full_open(file, mode="r", *args, **kwargs):
        fh = real(file, mode, *args, **kwargs)
        return Full(fh) if "w" in mode and str(file) != "/dev/null" else fh

    monkeypatch.setattr(io, "open", full_open)
    monkeypatch.setattr(builtins, "open", full_open)
    rc, out = jx("export", code, "-o", str(target))
    monkeypatch.undo()
    assert rc == 2 and out == {
        "error": f"cannot write {short(str(target))}: No space left on device",
        "code": "output_not_written",
    }
    assert target.read_text() == "the previous export"
    assert [p.name for p in tmp_path.iterdir() if not p.name.startswith("l.sqlite3")] == ["t.json"]


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("张三\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("a\rb", "U+000D CARRIAGE RETURN"),
        ("\x1b[31mred", "U+001B CONTROL CHARACTER"),
        ("zero\u200bwidth", "U+200B ZERO WIDTH SPACE"),
    ],
)
def test_a_seat_name_or_title_with_a_control_character_is_refused(jx, name, said):
    rc, out = jx("new", "--variant", "xingzi", "--seats", name, "b", "c", "d")
    assert rc == 2 and out["code"] == "bad_seats" and said in out["error"]
    assert out["error"].startswith(f"the seat name {name!r} holds ")  # escaped once: '张三\u202e'
    assert "\\\\" not in out["error"]  # never a doubled backslash
    rc, out = jx("new", "--variant", "xingzi", "--seats", "a", "b", "c", "d", "--title", f"t{name}")
    assert rc == 2 and out["code"] == "bad_title" and said in out["error"]


def test_an_import_with_a_control_character_in_a_name_is_refused(jx, tmp_path):
    code = jx("new", "--variant", "xingzi", "--seats", "a", "b", "c", "d")[1]["code"]
    export = jx("export", code)[1]
    export["table"]["seats"][0] = "a\u202e"
    path = tmp_path / "e.json"
    path.write_text(json.dumps(export))
    rc, out = jx("import", str(path))
    assert rc == 2 and out["code"] == "bad_import" and "U+202E RIGHT-TO-LEFT OVERRIDE" in out["error"]


def test_a_stored_name_with_an_escape_is_never_written_raw_to_csv(jx, tmp_path):
    import sqlite3

    code = jx("new", "--variant", "xingzi", "--seats", "a", "b", "c", "d")[1]["code"]
    with sqlite3.connect(tmp_path / "l.sqlite3") as c:  # stored before names were checked
        c.execute("UPDATE jxmj_tables SET seats = ?", (json.dumps(["\x1b[2Ja", "b\rx", "c", "d"]),))
    jx("false-win", code, "c")
    text = jx("export", code, "--format", "csv", "--lang", "en")[1]
    assert "\x1b" not in text and "\r" not in text and "\ufffd[2Ja +/-" in text
