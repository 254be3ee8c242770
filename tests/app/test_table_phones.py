"""Four phones, one table (issue 23): a hand is never recorded twice, each phone keeps its own
hand in progress, the QR opens the table. Two AppTest sessions are two phones on one store."""

from __future__ import annotations

import html
import os

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from app.ui import i18n
from ledger.store import open_store
from tests.app.conftest import APP
from tests.app.test_table_page import HAND_A, _click, _codes, _enter, _table, _totals
from tests.app.test_table_page import _open as _phone
from tests.ledger.conftest import PG_ENV
from tests.ledger.util import json_hand

ZH = i18n.catalog("zh")


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, monkeypatch):
    """Both phones' server on SQLite (the test's own file), and on PostgreSQL when
    ``JXMJ_TEST_PG`` is set (tables and tokens are fresh codes: nothing to empty)."""
    if request.param == "postgresql":
        url = os.environ.get(PG_ENV)
        if not url:
            pytest.skip(f"needs PostgreSQL: set {PG_ENV} to a database URL (.ci/run does)")
        monkeypatch.setenv("JXMJ_DB", url)
    st.cache_resource.clear()  # the stores opened again: another test may have emptied the database
    yield
    st.cache_resource.clear()


def _warnings(at) -> list[str]:
    return [html.unescape(w.value) for w in at.warning]  # as the browser shows the Markdown


def test_two_phones_recording_the_same_hand_record_it_once(db):
    code = _table()
    a, b = _phone(code), _phone(code)
    _enter(a, HAND_A, winner=1, discarder=2)
    _enter(b, HAND_A, winner=1, discarder=2)
    _click(a, "tb_record")
    _click(b, "tb_record")  # B's page showed the table before A's hand: told, nothing recorded
    assert len(open_store().get(code).hands) == 1
    assert _totals(b) == ["0", "3", "-3", "0"]  # B now shows A's hand
    said = " ".join(_warnings(b))
    assert ZH["table.changed"].split("{")[0] in said and "李四 +3" in said
    assert [t.code for t in b.session_state.hip.hand.concealed] == _codes(HAND_A)  # B's hand is kept
    _click(b, "tb_drop")  # ... to drop (or record again, as the next hand)
    assert b.session_state.hip.hand.is_empty
    assert len(open_store().get(code).hands) == 1


def test_an_out_of_date_page_is_told_the_table_changed(db):
    code = _table()
    a, b = _phone(code), _phone(code)
    _click(a, "tb_drawn")
    _click(b, "tb_drawn")  # B still showed the empty table
    assert [h.kind for h in open_store().get(code).hands] == ["drawn"]
    assert _warnings(b)
    _click(b, "tb_drawn")  # now B has seen hand 1: this 黄庄 is hand 2, on purpose
    assert len(open_store().get(code).hands) == 2


def test_undo_and_edit_of_an_out_of_date_page_change_nothing():
    code = _table()
    a, b = _phone(code), _phone(code)
    _click(a, "tb_drawn")
    b.run()  # B sees hand 1
    _click(a, "tb_drawn")  # A records hand 2
    _click(b, "tb_undo")  # B would take back hand 2, which it never showed
    assert len(open_store().get(code).hands) == 2
    assert _warnings(b)


def test_each_phone_keeps_its_own_hand_in_progress(db):
    code = _table()
    a, b = _phone(code), _phone(code)
    assert a.session_state["draft_token"] != b.session_state["draft_token"]  # a token per phone
    _enter(a, HAND_A, winner=3, discarder=1)
    _enter(b, "123m456p789s234mPP", winner=0, discarder=None)
    a.run()  # A taps again: B's hand did not overwrite A's
    assert [t.code for t in a.session_state.hip.hand.concealed] == _codes(HAND_A)
    again = _phone(code, a.session_state["draft_token"])  # A reloads: A's own hand comes back
    assert [t.code for t in again.session_state.hip.hand.concealed] == _codes(HAND_A)
    assert again.segmented_control(key="tw_winner").value == 3
    other = _phone(code, b.session_state["draft_token"])
    assert [t.code for t in other.session_state.hip.hand.concealed] == _codes("123m456p789s234mPP")


def test_a_token_the_server_never_issued_opens_no_phones_hand(db):
    """A ``?d=`` chosen by someone (a well-formed code, sent round as a link) is replaced by an
    issued one: it never opens a phone's hand on the table (`app.drafts.policy`)."""
    code = _table()
    a = _phone(code, "K7QM9ACXTRE")  # never issued
    mine = a.session_state["draft_token"]
    assert mine != "K7QM9ACXTRE"
    _enter(a, HAND_A, winner=3, discarder=1)
    b = _phone(code, "K7QM9ACXTRE")
    assert b.session_state["draft_token"] not in ("K7QM9ACXTRE", mine) and b.session_state.hip.hand.is_empty
    again = _phone(code, mine)  # A's issued token opens A's hand
    assert [t.code for t in again.session_state.hip.hand.concealed] == _codes(HAND_A)


def _join_url(at) -> str:
    return at.code[0].value  # the QR popover's address, drawn in the header before any page


def test_the_qr_on_the_table_page_opens_the_table_and_on_the_score_page_the_app(monkeypatch):
    monkeypatch.setenv("JXMJ_JOIN_URL", "https://192.168.1.5:8501")
    code = _table()
    at = _phone(code)
    assert _join_url(at) == f"https://192.168.1.5:8501/table?table={code}"  # no ?d=: each phone its own
    assert ZH["join.title_table"].format(code=code) in [m.value.strip("*") for m in at.markdown]
    score = AppTest.from_file(str(APP), default_timeout=60)
    score.run()
    assert _join_url(score) == "https://192.168.1.5:8501"


def test_the_chosen_language_survives_a_reload_and_a_shared_link():
    code = _table()
    at = _phone(code)
    at.segmented_control(key="lang").set_value("en")
    at.run()
    assert at.query_params["lang"] == "en"
    again = AppTest.from_file(str(APP), default_timeout=60)  # a reload: the address as the browser keeps it
    for k in ("table", "lang"):
        again.query_params[k] = at.query_params[k]
    again.session_state["test_cookie"] = at.session_state["draft_token"]
    again.run()
    assert again.session_state.lang == "en"
    assert i18n.catalog("en")["table.record"] in [b.label for b in again.button]
    assert again.query_params["table"] == code and again.query_params["lang"] == "en"


def test_an_import_says_it_made_a_new_table_and_the_old_one_is_unchanged():
    import json

    from ledger.exchange import export_json

    code = _table()
    open_store().append(code, json_hand(open_store(), code, {"kind": "drawn"}))
    export = json.dumps(export_json(open_store().get(code).ledger()), ensure_ascii=False).encode()
    at = _phone(code)
    at.file_uploader(key="tb_import").set_value(("evening.json", export, "application/json"))
    at.run()
    new = at.query_params["table"]
    assert new != code and len(open_store().get(code).hands) == 1  # the old table is as it was
    said = ZH["table.imported_new"].format(old=code, new=new, here=code)
    assert [i.value for i in at.info] == [said]
    at.run()  # said once
    assert said not in [i.value for i in at.info]


def test_an_export_imported_on_another_tables_page_says_the_phones_are_on_that_page():
    """Break-it, session 23: the note said the other phones were on the file's table."""
    import json

    from ledger.exchange import export_json

    code, other = _table(), _table()
    export = json.dumps(export_json(open_store().get(code).ledger()), ensure_ascii=False).encode()
    at = _phone(other)
    at.file_uploader(key="tb_import").set_value(("evening.json", export, "application/json"))
    at.run()
    new = at.query_params["table"]
    assert ZH["table.imported_new"].format(old=code, new=new, here=other) in [i.value for i in at.info]


# Machado et al. 2009, severity 1, on linear RGB
CVD = {
    "none": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protan": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deutan": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritan": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def _lab(hex_colour: str, m) -> tuple[float, float, float]:
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    c = [lin(int(hex_colour[i : i + 2], 16) / 255) for i in (1, 3, 5)]
    r, g, b = (min(1.0, max(0.0, sum(m[i][j] * c[j] for j in range(3)))) for i in range(3))
    x, y, z = (
        0.4124 * r + 0.3576 * g + 0.1805 * b,
        0.2126 * r + 0.7152 * g + 0.0722 * b,
        0.0193 * r + 0.1192 * g + 0.9505 * b,
    )

    def f(v: float) -> float:
        return v ** (1 / 3) if v > 0.008856 else 7.787 * v + 16 / 116

    fx, fy, fz = f(x / 0.9505), f(y), f(z / 1.089)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def test_the_chart_tells_four_players_apart_also_colour_blind():
    import itertools
    import json

    from app.ui.table.history import SEAT_COLOURS, SEAT_DASHES

    for m in CVD.values():  # every pair at least 15 CIELAB units apart, seen with each deficiency
        labs = [_lab(c, m) for c in SEAT_COLOURS]
        assert (
            min(
                sum((p - q) ** 2 for p, q in zip(a, b, strict=True)) ** 0.5
                for a, b in itertools.combinations(labs, 2)
            )
            > 15
        )
    assert len({tuple(d) for d in SEAT_DASHES}) == 4  # and a dash each, whatever the colours
    code = _table()
    open_store().append(code, json_hand(open_store(), code, {"kind": "drawn"}))
    at = _phone(code)
    [chart] = [e.proto for e in at.main if e.type == "vega_lite_chart"]
    enc = json.loads(chart.spec)["encoding"]
    assert enc["color"]["scale"]["range"] == list(SEAT_COLOURS)
    assert enc["strokeDash"]["scale"]["range"] == [list(d) for d in SEAT_DASHES]


def test_payers_by_name_and_reasons_with_chinese_punctuation():
    code = _table()
    at = _phone(code)
    at.checkbox(key="tw_followed").check()
    at.run()
    _click(at, "tb_drawn")  # 黄庄 + 跟庄: two reasons for the next hand's raise
    nxt = next(m.value for m in at.markdown if 'id="jx-next"' in m.value)
    assert "、" in nxt and ", " not in nxt
    _enter(at, HAND_A, winner=1, discarder=0)  # 李四 wins on the dealer 张三's discard
    pays = next(m.value for m in at.markdown if ZH["res.col_payer"] in m.value and "jx-badge" in m.value)
    assert "张三 <span class='jx-badge'>" + ZH["res.dealer"] in pays  # the name, 庄 a mark of its own
    assert not any(ZH[f"seat.{s}"] in pays for s in ("left", "right", "across"))


def test_the_csv_download_is_in_the_page_language_with_a_bom_and_every_cell_quoted():
    import csv
    import io

    from app.table_csv import csv_bytes

    code = _table()
    open_store().append(
        code,
        json_hand(
            open_store(),
            code,
            {"seat": 1, "discarder": 2, "hand": {"concealed": HAND_A, "winning_tile": "C"}},
        ),
    )
    open_store().append(code, json_hand(open_store(), code, {"kind": "drawn"}))
    ledger = open_store().get(code).ledger()
    raw = csv_bytes(ledger, "zh")
    assert raw.startswith(b"\xef\xbb\xbf")  # Excel reads it as UTF-8
    text = raw.decode("utf-8-sig")
    assert all(line.startswith('"') and line.endswith('"') for line in text.splitlines())  # every cell quoted
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:3] == [ZH["csv.hand"], ZH["csv.kind"], ZH["csv.dealer"]]
    assert rows[0][8] == ZH["csv.delta"].format(seat="张三")
    assert [r[1] for r in rows[1:]] == [ZH["csv.win"], ZH["csv.drawn"]]
    assert rows[1][5] == "李四" and rows[1][6] == "王五"  # the names intact
    assert list(csv.reader(io.StringIO(csv_bytes(ledger, "en").decode("utf-8-sig"))))[2][1] == "drawn"


def _new_table_page() -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.segmented_control(key="page").set_value("table")
    at.run()
    return at


def _create(at) -> None:
    next(b for b in at.button if b.label == ZH["table.create"]).click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def test_house_rules_as_a_form_of_the_variants_options():
    at = _new_table_page()
    label = at.number_input(key="tr_jiujiang_drawn.window").label
    assert ZH["rule.drawn.window"] in label and "4" in label  # its name and its default
    assert at.number_input(key="tr_jiujiang_drawn.window").help == ZH["rule.ref"].format(ref="§1.6")
    at.number_input(key="tr_jiujiang_drawn.window").set_value(3)
    at.selectbox(key="tr_jiujiang_raises.combine").set_value("multiply")
    _create(at)
    rec = open_store().get(at.query_params["table"])
    assert rec.table.house_rules == {"ledger": {"drawn.window": 3, "raises.combine": "multiply"}}
    xinyu = _new_table_page()
    xinyu.segmented_control(key="tn_variant").set_value("xinyu")
    xinyu.run()
    assert xinyu.checkbox(key="tr_xinyu_kong_money.enabled").value is True  # the variant's own defaults
    _create(xinyu)
    assert open_store().get(xinyu.query_params["table"]).table.house_rules == {}  # untouched: none


def test_house_rules_json_errors_name_the_place_and_the_key():
    at = _new_table_page()
    at.text_area(key="tn_rules").input("{bad json")
    _create(at)
    assert [e.value for e in at.error] == [ZH["rule.bad_json_at"].format(line=1, col=2)]
    at.text_area(key="tn_rules").input('{"ledger": {"drawn.window": "three"}}')
    _create(at)
    [said] = [e.value for e in at.error]
    assert "drawn.window" in said and "three" in said and "0 到 1000" in said
    assert "table" not in at.query_params


SECOND_SERVER = """
import os, sys, time
from pathlib import Path
from streamlit.testing.v1 import AppTest
from tests.app.test_table_page import _enter, HAND_A
code, go = sys.argv[1], Path(sys.argv[2])
at = AppTest.from_file("app/streamlit_app.py", default_timeout=60)
at.query_params["table"] = code
at.run()
_enter(at, HAND_A, winner=1, discarder=2)
Path(str(go) + ".ready").write_text("ready")
while not go.exists():
    time.sleep(0.005)
at.button(key="tb_record").click()
at.run()
print("TOLD" if at.warning else "RECORDED", flush=True)
"""


def test_two_servers_on_one_postgresql_record_a_raced_hand_once(tmp_path, monkeypatch):
    """Two app processes on one PostgreSQL (a parlour's servers): a table made on one, the same
    hand entered on a phone of each and tapped at once: one hand, the other phone told."""
    import subprocess
    import sys
    import time
    from pathlib import Path

    url = os.environ.get(PG_ENV)
    if not url:
        pytest.skip(f"needs PostgreSQL: set {PG_ENV} to a database URL (.ci/run does)")
    monkeypatch.setenv("JXMJ_DB", url)
    st.cache_resource.clear()
    code = _table()
    go = tmp_path / "go"
    root = Path(__file__).resolve().parents[2]
    other = subprocess.Popen(
        [sys.executable, "-c", SECOND_SERVER, code, str(go)], cwd=root, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "JXMJ_DB": url, "PYTHONPATH": str(root)},
    )  # fmt: skip
    here = _phone(code)
    _enter(here, HAND_A, winner=1, discarder=2)
    deadline = time.monotonic() + 120
    while not Path(str(go) + ".ready").exists():
        assert other.poll() is None and time.monotonic() < deadline, "the second server did not start"
        time.sleep(0.05)
    go.write_text("go")  # both tap now
    here.button(key="tb_record").click()
    here.run()
    out, _ = other.communicate(timeout=120)
    results = sorted([("TOLD" if here.warning else "RECORDED"), out.strip().splitlines()[-1]])
    assert results == ["RECORDED", "TOLD"]
    assert len(open_store().get(code).hands) == 1
    st.cache_resource.clear()
