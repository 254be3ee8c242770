"""The table's history: a line chart of each player's running total, and every hand — dealer,
raise and why, each winner's decomposition drawn as tiles and item table, the money — with an
edit form (seats, 跟庄, or the hand in the editor) that recomputes every later hand."""

from __future__ import annotations

import streamlit as st

from app.safe_text import md
from app.ui.flash import show_posted
from app.ui.hand.numbers import number_field
from app.ui.hand.session import hip, started
from app.ui.i18n import t
from app.ui.render.html import decomposition_html, items_table, num
from app.ui.table.db import began, begun_at, forget_begun, remember, store, write
from app.ui.table.seats import winner_entry

ss = st.session_state
EDIT_KINDS = ("keep", "drawn")
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
    return f"{o.number}. {how} · {t('table.dealer_short', name=seats[o.dealer])}{raise_}" + (
        f" · {money}" if money else ""
    )


def history(rec, ledger) -> None:
    """The hands, newest first, `PAGE` at a time (a 2,000-hand table draws as fast as a short one),
    then one edit form for the hand chosen."""
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
        code = rec.table.code
        # opening the panel or choosing the hand begins the edit on the table shown then; the panel
        # keeps its open state (its key) while the page reruns, a refused save included
        begin = {"on_change": began, "args": (code, "edit")}
        with st.expander(t("table.edit"), key="tw_edit_open", **begin):
            number = number_field(t("table.edit_which"), "tw_edit_n", n, 1, n, **begin)
            if number is not None:  # else the field says the range
                _edit_form(rec, ledger.outcomes[number - 1])
            show_posted("edit")  # the edit's outcome under its form
            st.button(t("table.edit_drop"), key="tb_edit_drop", on_click=drop_edit, args=(code, n))


EDIT_GEN = "tbl_edit_gen"  # session state: edits dropped so far (the forms' keys, fresh after each)


def drop_edit(code: str, last: int) -> None:
    """A callback: the edit entered on table `code` dropped — the panel closed, the hand chosen
    back to the `last`, every edit form drawn anew (keys of a new generation: a widget's value
    stays in the browser while its key does)."""
    ss["tw_edit_open"] = False
    ss["tw_edit_n"] = float(last)  # as `number_field` keeps it
    ss[EDIT_GEN] = ss.get(EDIT_GEN, 0) + 1
    forget_begun(code, "edit")


def _edit_key(name: str, n: int) -> str:
    """The key of edit form widget `name` of hand `n` in this generation (`drop_edit`)."""
    gen = ss.get(EDIT_GEN, 0)
    return f"{name}_{n}" if not gen else f"{name}_{n}_{gen}"


def _edit_form(rec, o) -> None:
    """Change the seats or 跟庄 of hand `o`, turn it into a drawn hand, or put the hand in the
    editor in its place; the ledger checks the new list and recomputes everything after it."""
    table, h, n = rec.table, o.hand, o.number

    def key(name: str) -> str:
        return _edit_key(name, n)

    with st.form(key("edit")):
        st.caption(t("table.edit_help"))
        kind = st.segmented_control(
            t("table.edit_kind"), EDIT_KINDS, format_func=lambda k: t(f"table.edit_{k}"), default="keep",
            key=key("ed_kind"),
        )  # fmt: skip
        single = h.kind == "win" and len(h.winners) == 1
        winner = discarder = None
        if single:
            winner = st.selectbox(
                t("table.winner"), range(4), index=h.winners[0].seat, format_func=lambda s: table.seats[s],
                key=key("ed_w"), placeholder=t("a11y.choose"),
            )  # fmt: skip
            options = [None, 0, 1, 2, 3]

            def how(s):
                return t("cond.self_drawn") if s is None else table.seats[s]

            discarder = st.selectbox(
                t("table.how"),
                options,
                index=options.index(h.discarder),
                format_func=how,
                key=key("ed_d"),
                placeholder=t("a11y.choose"),
            )
            use_editor = st.checkbox(t("table.edit_use_editor"), key=key("ed_use"), disabled=not started())
        followed = st.checkbox(t("table.followed"), value=h.follow.followed, key=key("ed_f"))
        dragon = st.checkbox(t("table.follow_dragon"), value=h.follow.dragon, key=key("ed_fd"))
        second = st.checkbox(t("table.follow_second"), value=h.follow.second, key=key("ed_fs"))
        go = st.form_submit_button(t("table.edit_save"))
    if not go:
        return
    data = h.to_json()
    data.pop("recorded", None)
    data["follow"] = {"followed": followed, "dragon": dragon and followed, "second": second and followed}
    if kind == "drawn":
        data = {"kind": "drawn", "follow": data["follow"], "kongs": data.get("kongs")}
    elif single:
        entry = (
            winner_entry(table, hip().hand, hip().cond, winner)
            if use_editor
            else {**data["winners"][0], "seat": winner}
        )
        if not use_editor:
            entry.pop("eaten", None)  # 吃炮 facts belong to the old payers; the edit names new seats
            if winner == h.winners[0].seat and discarder == h.discarder:
                entry["eaten"] = data["winners"][0].get("eaten", {})
        data.update(winners=[entry], discarder=discarder)

    def save() -> None:  # against the table shown when the edit began: another phone's write since
        # is a conflict; the form keeps what was entered, to save again on the table shown now
        try:
            hand, after = store().edit(
                table.code, n, data, expected=len(rec.hands), revision=begun_at(rec, "edit")
            )
        finally:
            forget_begun(table.code, "edit")
        remember(rec, (*rec.hands[: n - 1], hand, *rec.hands[n:]), after)  # the edit's own replay

    write(save, "edit", "table.edited", code=table.code, changed="table.changed_edit", n=n)
