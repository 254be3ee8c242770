"""The table's CSV: `jxmj table export --format csv` writes the very bytes of the app's download
(`app.table_csv`): a UTF-8 byte-order mark, every cell quoted, the chosen language's headers and
kinds of hand (zh unless asked), Chinese names that come back whole through `csv` reading."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.table_csv import csv_bytes
from app.ui import i18n
from ledger import Table
from ledger.store import open_store
from tests.ledger.util import json_hand, read_hand

ROOT = Path(__file__).resolve().parents[2]
SEATS = ("张三", "李四", "王五", "赵六")
WIN = {"seat": 1, "discarder": 2, "hand": {"concealed": "123m456p789s234mCC", "winning_tile": "C"}}


@pytest.fixture
def table(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'l.sqlite3'}"
    monkeypatch.setenv("JXMJ_DB", url)
    store = open_store(url)
    code = store.create_table(Table("jiujiang", SEATS)).table.code
    store.append(code, json_hand(store, code, WIN))  # 李四 +3 from 王五
    store.append(code, json_hand(store, code, {"kind": "drawn"}))
    yield url, code, store.get(code).ledger()
    store.close()


def _cli(url: str, *args: str, out: Path | None = None) -> bytes:
    """`jxmj table export` as a process: its standard output (or the file `out`) as bytes."""
    more = ("-o", str(out)) if out else ()
    done = subprocess.run(
        [sys.executable, "-m", "app", "table", "export", *args, *more],
        capture_output=True, timeout=120, cwd=ROOT,
        env={**os.environ, "JXMJ_DB": url, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")[-2000:]
    return out.read_bytes() if out else done.stdout


def _rows(raw: bytes) -> list[list[str]]:
    assert raw.startswith(b"\xef\xbb\xbf")  # the BOM: Excel reads the file as UTF-8
    text = raw.decode("utf-8")[1:]
    assert text.endswith("\n") and "\r" not in text
    for line in text.splitlines():  # every cell quoted, the numbers too
        assert line.startswith('"') and line.endswith('"') and '","' in line
    return list(csv.reader(io.StringIO(text)))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_app_and_the_cli_write_the_same_bytes(table, lang, tmp_path):
    url, code, ledger = table
    app = csv_bytes(ledger, lang)
    assert _cli(url, code, "--format", "csv", "--lang", lang) == app
    assert _cli(url, code, "--format", "csv", "--lang", lang, out=tmp_path / "t.csv") == app
    words = i18n.catalog(lang)
    head, win, drawn = _rows(app)
    assert head[:8] == [words[f"csv.{k}"] for k in ("hand", "kind", "dealer", "raise", "point_value",
                                                     "winners", "discarder", "declarer")]  # fmt: skip
    assert head[8:16] == [words["csv.delta"].format(seat=s) for s in SEATS] + [
        words["csv.total"].format(seat=s) for s in SEATS
    ]
    assert head[16:] == [words[f"csv.{k}"] for k in ("follow", "kongs", "note")]
    assert win[:7] == ["1", words["csv.win"], "张三", "1", "1", "李四", "王五"]  # the names intact
    assert win[8:12] == ["0", "3", "-3", "0"] and drawn[1] == words["csv.drawn"]


def test_the_cli_writes_chinese_unless_asked(table):
    url, code, ledger = table
    raw = _cli(url, code, "--format", "csv")
    assert raw == csv_bytes(ledger, "zh") != csv_bytes(ledger, "en")
    assert _rows(raw)[0][:3] == ["把", "类型", "庄家"]


def test_the_download_button_is_built_by_the_shared_module():
    from app.ui.table import settle_view

    assert settle_view.csv_bytes is csv_bytes  # one builder: the app's file is the CLI's


def test_the_download_is_in_the_page_language_though_streamlit_builds_it_after_the_run(table, monkeypatch):
    """Streamlit calls a download button's callable on the tap, outside the page's run (another
    context: `i18n.lang()` is the default there, zh). An English page downloaded Chinese headers
    ("把", "类型" …); the page's language is taken when the page is drawn."""
    import contextvars
    from types import SimpleNamespace

    from app.ui.table import settle_view

    _, code, ledger = table
    buttons: dict[str, object] = {}

    class Column:
        def download_button(self, label, data, file_name, mime, key):
            buttons[key] = data

    fake = SimpleNamespace(subheader=lambda *a: None, columns=lambda n: [Column() for _ in range(n)])
    monkeypatch.setattr(settle_view, "st", fake)
    monkeypatch.setattr(settle_view, "import_view", lambda here: None)
    i18n.set_lang("en")
    try:
        settle_view.exchange(SimpleNamespace(table=SimpleNamespace(code=code)), ledger)
    finally:
        i18n.set_lang("zh")
    tap = contextvars.Context().run(buttons["tb_csv"])  # the tap: a fresh context, as Streamlit's
    assert tap == csv_bytes(ledger, "en")
    assert _rows(tap)[0][:3] == ["hand", "kind", "dealer"]


@pytest.mark.parametrize(
    "name",
    [
        "＝HYPERLINK(1)",  # full-width = + - @: a spreadsheet may read them as their ASCII forms
        "＋1",
        "－1",
        "＠a",
        "﹦1",  # SMALL EQUALS SIGN (NFKC: =)
        "\u034f=1+1",  # COMBINING GRAPHEME JOINER: shows nothing, the = stands first
        "\u034f\u034f＋1",
        "\ufe0f-1",  # VARIATION SELECTOR-16
        "\u3164@a",  # HANGUL FILLER
        "\u2800=1",  # BRAILLE PATTERN BLANK
        "\u200b=1",  # ZERO WIDTH SPACE (stored before names refused it: shown as U+FFFD)
        "\ufeff+1",  # a byte-order mark
        "\u00a0\u034f=1",  # NO-BREAK SPACE, then a mark
    ],
)
def test_a_formula_behind_an_invisible_or_full_width_character_is_guarded(name):
    from ledger import add_hand
    from ledger.names import visible

    table = Table("xingzi", (name, "b", "c", "d"), stored=True)  # as stored: typed before a check
    _, ledger = add_hand(table, [], read_hand(table, [], {"kind": "false_win", "declarer": 0}))
    rows = _rows(csv_bytes(ledger, "en"))
    shown = visible(table.seats[0])  # as stored, a control or format character shown as U+FFFD
    assert rows[0][8] == f"'{shown} +/-" and rows[1][2] == f"'{shown}"
    assert rows[1][8:12] == ["-30", "10", "10", "10"]


@pytest.mark.parametrize("name", ["张三", "a=b", "1+1", "\u034fa", "甲-", "\u034f"])
def test_a_name_that_starts_with_no_formula_is_left_as_it_is(name):
    from ledger import replay

    rows = _rows(csv_bytes(replay(Table("xingzi", (name, "b", "c", "d"), stored=True), []), "en"))
    assert rows[0][8] == name + " +/-"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_csv_shows_every_fact_that_moves_money_and_the_note(tmp_path, monkeypatch, lang):
    """跟庄 (with 中/白, the second discard), 新余 kongs of the others and the hand's note have
    their columns (main wrote none of them: a 跟庄 黄庄 read as a plain 黄庄)."""
    store = open_store(f"sqlite:///{tmp_path / 'facts.sqlite3'}")
    jj = store.create_table(Table("jiujiang", SEATS)).table.code
    store.append(
        jj,
        json_hand(
            store, jj, {"kind": "drawn", "follow": {"followed": True, "dragon": True, "second": False}}
        ),
    )
    store.append(jj, json_hand(store, jj, {**WIN, "note": "=老王换了座位"}))
    xy = store.create_table(Table("xinyu", SEATS)).table.code
    kongs = [{"seat": 2, "exposed": 1, "concealed": 0}, {"seat": 3, "exposed": 0, "concealed": 2}]
    store.append(xy, json_hand(store, xy, {"kind": "drawn", "kongs": kongs}))
    w = i18n.catalog(lang)
    _, drawn, win = _rows(csv_bytes(store.get(jj).ledger(), lang))
    assert drawn[16:] == [f"{w['csv.followed']} · {w['csv.follow_dragon']}", "", ""]
    assert win[16:] == ["", "", "'=老王换了座位"]  # a note is text: never a formula
    _, drawn = _rows(csv_bytes(store.get(xy).ledger(), lang))
    cell = w["csv.kong_cell"]
    assert drawn[17] == f"{cell.format(seat='王五', exposed=1, concealed=0)}; " + cell.format(
        seat="赵六", exposed=0, concealed=2
    )
    store.close()


def test_every_csv_column_is_declared_once_with_its_word():
    """A column is one `COLUMNS` line (header word and cell side by side) plus `csv.<key>` in both
    catalogs: the header is exactly the columns', in their order, the seat columns one a seat."""
    from ledger import add_hand
    from ledger.exchange import COLUMNS, CSV_WORDS, export_csv
    from tests.ledger.util import read_hands

    table = Table("jiujiang", SEATS)
    ledger = add_hand(table, [], read_hands(table, [{"kind": "drawn", "note": "n"}])[0])[1]
    header = next(csv.reader(io.StringIO(export_csv(ledger))))
    want = [w for c in COLUMNS for w in ([c.en.format(seat=s) for s in SEATS] if c.per_seat else [c.en])]
    assert header == want and len(header) == 11 + 2 * 4
    assert (
        header[:2] == ["hand", "kind"] and header[8:10] == ["张三 +/-", "李四 +/-"] and header[-1] == "note"
    )
    assert {c.key for c in COLUMNS} <= set(CSV_WORDS)  # its word: csv.<key> (app/table_csv.py needs both)
