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
from app.ui.table.edit import edit_panel, restore

ss = st.session_state
PAGE = 10  # hands drawn per page of the history
CHART = "tbl_chart"  # session state: (Ledger, its chart rows) of the table shown
#: the four seats' lines: Okabe-Ito colours that stay apart under every colour blindness (blue,
#: orange, black, reddish purple; tests/app/test_table_phones.py simulates them), and a dash each
SEAT_COLOURS = ("#0072B2", "#E69F00", "#000000", "#CC79A7")
SEAT_DASHES = ([1, 0], [8, 4], [2, 3], [10, 3, 2, 3])


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
            "y": {"field": "total", "type": "quantitative", "title": total},
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
    """The chart's `chart_data`, built once per replay (`app.ui.table.db.table_now` keeps the
    same `ledger` until the table changes)."""
    seen = ss.get(CHART)
    if seen is not None and seen[0] is ledger:
        return seen[1]
    data = chart_data(list(ledger.table.seats), ledger.outcomes)
    ss[CHART] = (ledger, data)
    return data


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
    seats, h = tuple(md(n) for n in ledger.table.seats), o.hand
    if h.kind == "win":
        who = t("list.sep").join(seats[w.seat] for w in h.winners)
        how = (
            t("table.self_drawn_by", who=who)
            if h.discarder is None
            else t("table.won_off", who=who, off=seats[h.discarder])
        )
    elif h.kind == "drawn":
        how = t("table.kind_drawn")
    else:
        how = t("table.kind_false_win", who=seats[h.declarer])
    raise_ = f" · ×{o.raise_}" if o.raise_ > 1 else ""
    money = " · ".join(f"{seats[s]} {'+' if d > 0 else ''}{num(d)}" for s, d in enumerate(o.deltas) if d)
    facts = "".join(f" · {f}" for f in hand_facts(seats, h))
    return f"{o.number}. {how}{facts} · {t('table.dealer_short', name=seats[o.dealer])}{raise_}" + (
        f" · {money}" if money else ""
    )


def hand_facts(seats, h) -> list[str]:
    """The facts of hand `h` besides who won that move money: 跟庄 (with 中/白, the second
    discard followed too) and 新余 kongs of the other players, by name (`seats` as shown)."""
    out = []
    if h.follow.followed:
        out.append(t("table.fact_follow_dragon" if h.follow.dragon else "table.fact_follow"))
        if h.follow.second:
            out.append(t("table.fact_follow_second"))
    for s, (e, c) in sorted(h.kongs.items()):
        out.append(t("table.fact_kongs", name=seats[s], exposed=e, concealed=c))
    return out


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
        page = number_field(t("table.history_page", pages=pages), "tw_hist_page", 1, 1, pages) or 1
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
