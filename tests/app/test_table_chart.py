"""The 牌局 chart: each seat's running total after every hand (hand 0: all zero), drawn from a
Vega-Lite spec of our own — the seat names are data (a name like `a.b[0]` is no field path),
the axes and the tooltip in the page language — instead of `st.line_chart`, which built and
validated an Altair chart on every run (~110 ms of the page's run at 2,000 hands)."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from app.ui import i18n
from ledger import Hand, Table
from ledger.store import open_store
from tests.app.conftest import APP
from tests.ledger.util import json_hand

SEATS = ("张三", "a.b[0]", "王五", "赵六")
WIN = {"seat": 1, "discarder": 2, "hand": {"concealed": "123m456p789s234mCC", "winning_tile": "C"}}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_chart_is_each_seats_running_total_in_the_page_language(lang):
    store = open_store()
    code = store.create_table(Table("jiujiang", SEATS)).table.code
    store.append(code, json_hand(store, code, WIN))  # 李四's seat (a.b[0]) +3 from 王五
    store.append(code, json_hand(store, code, {"kind": "drawn"}))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["table"], at.query_params["lang"] = code, lang
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    [chart] = [e.proto for e in at.main if e.type == "vega_lite_chart"]
    spec = json.loads(chart.spec)
    words = i18n.catalog(lang)
    enc = spec["encoding"]
    assert (enc["x"]["title"], enc["y"]["title"]) == (words["table.hand_axis"], words["table.total_axis"])
    assert enc["color"]["scale"]["domain"] == list(SEATS) and enc["color"]["field"] == "seat"
    assert [x["title"] for x in enc["tooltip"]] == [words["table.seat"], words["table.hand_axis"],
                                                    words["table.total_axis"]]  # fmt: skip
    assert not chart.data.data and not chart.datasets  # the rows are in the spec: no Arrow
    alt = pytest.importorskip("altair", reason="needs altair (Streamlit's) for the Vega-Lite schema")
    alt.Chart.from_dict(spec).to_dict(validate=True)  # a spec Vega-Lite takes (sequence, lookups)
    got = _rows(spec)
    assert len(got) == 3 * 4
    assert [got[(h, "a.b[0]")] for h in range(3)] == [0, 3, 3] and [got[(h, "王五")] for h in range(3)] == [
        0,
        -3,
        -3,
    ]
    assert got[(2, "张三")] == got[(2, "赵六")] == 0


def _rows(spec: dict) -> dict[tuple[int, str], float]:
    """(hand, seat) -> total, as Vega-Lite makes the rows from the spec's sequence and lookups."""
    seq = spec["data"]["sequence"]
    calc, mod, by_hand, _, by_seat = spec["transform"]
    assert (calc["calculate"], mod["calculate"]) == ("floor(datum.i / 4)", "datum.i % 4")
    totals = {r["h"]: r["t"] for r in by_hand["from"]["data"]["values"]}
    names = {r["s"]: r["seat"] for r in by_seat["from"]["data"]["values"]}
    return {(i // 4, names[i % 4]): totals[i // 4][i % 4] for i in range(seq["start"], seq["stop"])}


def test_a_new_table_has_no_chart():
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["table"] = open_store().create_table(Table("jiujiang", SEATS)).table.code
    at.run()
    assert not [e for e in at.main if "chart" in e.type]


def test_a_table_of_draws_only_labels_its_zero_axis_0():
    """Only 黄庄 so far: every total 0, Vega's own tick format wrote the one y label "0.000000"
    (seen on a phone); the axis is written "~f" (d3-format: 0 → "0", 1.5 → "1.5", 1200 → "1200")."""
    store = open_store()
    code = store.create_table(Table("jiujiang", SEATS)).table.code
    store.append(code, Hand(kind="drawn"))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["table"] = code
    at.run()
    [chart] = [e.proto for e in at.main if e.type == "vega_lite_chart"]
    assert json.loads(chart.spec)["encoding"]["y"]["axis"] == {"format": "~f"}
