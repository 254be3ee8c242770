"""The table's history: a line chart of each player's running total, and every hand — dealer,
raise and why, each winner's decomposition drawn as tiles and item table, the money — with the
edit panel (`app.ui.table.edit`: seats, 跟庄, or the hand in the editor) that recomputes every
later hand."""

from __future__ import annotations

import streamlit as st

from app.safe_text import md
from app.ui.hand.numbers import number_field
from app.ui.i18n import t
from app.ui.render.html import decomposition_html, items_table, num
from app.ui.render.seat_lines import SEAT_COLOURS, SEAT_DASHES, hand_line
from app.ui.table.db import view
from app.ui.table.edit import edit_panel, restore

PAGE = 10  # hands drawn per page of the history


def chart(ledger) -> None:
    """Cumulative totals per seat over the hands (hand 0 = the start, all zero): a Vega-Lite line
    chart from a spec of our own, its rows in the spec itself (`chart_data`) — `st.line_chart`
    builds an Altair chart on every run, and rows given as data go to the browser through pandas
    / Arrow, which the page's first run in a process would import for this chart alone."""
    if not ledger.outcomes:
        return
    seats = list(ledger.table.seats)
    hand, total = t("table.hand_axis"), t("table.total_axis")
    spec = {
        **_data(ledger),
        "mark": {"type": "line", "tooltip": True, "strokeWidth": 2.5},
        "encoding": {
            "x": {"field": "hand", "type": "quantitative", "title": hand, "axis": {"tickMinStep": 1}},
            # "~f": a number as written on the page (0, 1.5, 1200); with every total 0 (黄庄 only)
            # Vega's own format wrote the one tick "0.000000"
            "y": {"field": "total", "type": "quantitative", "title": total, "axis": {"format": "~f"}},
            "color": {"field": "seat", "type": "nominal", "title": None, "sort": seats,
                      "scale": {"domain": seats, "range": list(SEAT_COLOURS)},
                      "legend": {"orient": "bottom"}},
            "strokeDash": {"field": "seat", "type": "nominal", "title": None, "sort": seats,
                           "scale": {"domain": seats, "range": [list(d) for d in SEAT_DASHES]}},
            "tooltip": [{"field": "seat", "title": t("table.seat")}, {"field": "hand", "title": hand},
                        {"field": "total", "title": total}],
        },
    }  # fmt: skip
    st.subheader(t("table.chart"))
    st.vega_lite_chart(spec, width="stretch")


def _data(ledger) -> dict:
    """The chart's `chart_data`, built once per replay for every session of the process
    (`app.ui.table.db.table_replay` shares the same `ledger` until the table changes)."""
    make = lambda: chart_data(list(ledger.table.seats), ledger.outcomes)  # noqa: E731
    shown = view().replay
    return shown.derive("chart", make) if shown is not None and shown.ledger is ledger else make()


def chart_data(seats: list[str], outcomes) -> dict:
    """``{"data", "transform"}`` of a Vega-Lite spec whose rows are (hand, seat, total), one per
    seat and hand (hand 0: all 0), with no top-level rows (Streamlit would send those as Arrow):
    a sequence of row numbers ``i``, hand ``i // n``, seat ``i % n``, the totals looked up from
    one inline row per hand ``{"h": hand, "t": [total per seat]}``, the names from one row per
    seat (names are data, never field paths)."""
    n = len(seats)
    rows = [{"h": 0, "t": [0] * n}]
    rows += [{"h": o.number, "t": [_plain(x) for x in o.totals]} for o in outcomes]
    return {
        "data": {"sequence": {"start": 0, "stop": n * len(rows), "as": "i"}},
        "transform": [
            {"calculate": f"floor(datum.i / {n})", "as": "hand"},
            {"calculate": f"datum.i % {n}", "as": "s"},
            {"lookup": "hand", "from": {"data": {"values": rows}, "key": "h", "fields": ["t"]}},
            {"calculate": "datum.t[datum.s]", "as": "total"},
            {"lookup": "s", "as": ["seat"], "from": {
                "data": {"values": [{"s": k, "seat": name} for k, name in enumerate(seats)]},
                "key": "s", "fields": ["seat"]}},
        ],
    }  # fmt: skip


def _plain(x) -> int | float:
    """A total as a JSON number: an int when whole (shorter), else a float."""
    return int(x) if x == int(x) else float(x)


def hand_title(ledger, o) -> str:
    """The hand's expander label (Markdown: the seat names are made inert, `app.safe_text.md`)."""
    return hand_line(ledger, o, t, md, num)


def history(rec, ledger) -> None:
    """The hands, newest first, `PAGE` at a time (a 2,000-hand table draws as fast as a short one),
    then the edit panel (`app.ui.table.edit`; after a reload, with the edit entered before it)."""
    restore(rec)
    if not ledger.outcomes:
        return
    st.subheader(t("table.history"))
    n = len(ledger.outcomes)
    pages = (n + PAGE - 1) // PAGE
    page = 1
    if pages > 1:
        page = int(number_field(t("table.history_page", pages=pages), "tw_hist_page", 1, 1, pages) or 1)
    newest = n - (page - 1) * PAGE
    for o in reversed(ledger.outcomes[max(0, newest - PAGE) : newest]):
        with st.expander(hand_title(ledger, o)):
            if o.hand.note:
                st.caption(t("table.note_is", note=md(o.hand.note)))
            if o.error:
                st.warning(o.error)
            if o.reasons:
                why = (t(f"raise.{r.code}", n=r.source, x=r.factor) for r in o.reasons)
                st.caption(t("list.sep").join(why))
            for w, r in zip(o.hand.winners, o.results, strict=False):
                st.markdown(f"**{md(ledger.table.seats[w.seat])}**")
                win = w.hand.winning_tile.code if w.hand is not None else None
                st.markdown(decomposition_html(r.decomposition, win, size="sm"), unsafe_allow_html=True)
                st.markdown(items_table(r), unsafe_allow_html=True)
    if not rec.table.locked:
        edit_panel(rec, ledger)
