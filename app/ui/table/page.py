"""The 牌局 / Table page: a shared multi-hand ledger behind `?table=CODE`.

Every run reads the table from the database, so every phone on that URL sees the same ledger
on reload. Sections: the table and its running totals (`page`), the hand in progress and the
record buttons (`record`), the chart, history and edits (`history`), settlement, export and
import (`settle_view`). Without a code: `start`.
"""

from __future__ import annotations

import html

import streamlit as st

from app.safe_text import md
from app.table_text import base_words
from app.ui.hand import session
from app.ui.hand.session import show_posted
from app.ui.i18n import has, t
from app.ui.render.html import num
from app.ui.state import keys
from app.ui.table.db import error_text, showed, table_now
from app.ui.table.history import chart, history
from app.ui.table.record import record_section
from app.ui.table.settle_view import exchange, imported_note, settlement
from app.ui.table.start import start_view
from ledger import LedgerError
from ledger.codes import normalize_code

ss = st.session_state


def render() -> None:
    raw = st.query_params.get("table", "")
    if not raw:
        start_view()
        return
    ss[keys.TABLE_CODE] = raw
    try:
        code = normalize_code(raw)
        rec, ledger = table_now(code)  # replayed once per change of the table, not once per run
    except LedgerError as e:
        st.error(error_text(e))
        _leave()
        return
    session.use(f"table:{code}")
    top = st.container()  # messages whose own place is not on the page this run (e.g. locked meanwhile)
    header(rec, ledger)
    imported_note(code)
    if not rec.table.locked:
        record_section(rec, ledger)
    else:
        st.info(t("table.locked"))
        _unrecorded(len(rec.hands) + 1)
    chart(ledger)
    history(rec, ledger)
    settlement(rec, ledger)
    exchange(rec, ledger)
    with top:
        show_posted()
    showed(rec)  # the next tap's writes check this revision
    _leave()


def _unrecorded(n: int) -> None:
    """On a locked table: the hand `n` this phone was entering (tiles, or winners already entered
    on one discard) was not recorded — said, where main dropped it without a word when another
    phone locked the table before 记这一手 was tapped."""
    h = session.hip()
    pending = h.table is not None and bool(h.table.pending)
    if h.started and (not h.hand.is_empty or pending):
        st.warning(t("table.locked_unrecorded", n=n))


def _leave() -> None:
    """Back to the start (a new table, another code); the table itself stays in the database."""
    if st.button(t("table.back"), key="tbl_back"):
        del st.query_params["table"]
        ss.pop(keys.TABLE_CODE, None)
        st.rerun()


def rules_text(house_rules: dict) -> str:
    """A table's house rules (``{"ledger" | "scoring": {key: value}}``) in one line of Markdown,
    ``name: value`` joined by " · ": the catalog's name and words where it has them (`rule.<key>`,
    `rule.choice.<value>`, yes / no), else the key and value as the house rules box spells them."""
    words = []
    for rules in house_rules.values():
        for key, value in rules.items():
            opt = f"rule.opt.{key.removeprefix('options.')}"
            name = t(f"rule.{key}") if has(f"rule.{key}") else t(opt) if has(opt) else md(key, None)
            if isinstance(value, bool):
                shown = t("rule.yes" if value else "rule.no")
            elif isinstance(value, str) and has(f"rule.choice.{value}"):
                shown = t(f"rule.choice.{value}")
            elif isinstance(value, list | tuple):
                shown = md(", ".join(map(str, value)), None)
            else:
                shown = md(value, None)
            words.append(f"{name}: {shown}")
    return " · ".join(words)


def header(rec, ledger) -> None:
    """The table's title, rules, running totals and, while it is open, the next hand: its number,
    dealer (also marked 庄 on the totals) and raise. A locked table has no next hand: none shown."""
    table = rec.table
    title = md(table.title) if table.title else html.escape(t("table.untitled"))
    st.markdown(
        f'<div class="jx-table-head" id="jx-table" data-code="{table.code}" data-hands="{len(rec.hands)}">'
        f"<b>{title}</b> · {t(f'variant.{table.variant}')} · {base_words(table, t)}"
        f" · {t('table.code_is')} <code>{table.code}</code></div>",
        unsafe_allow_html=True,
    )
    st.caption(t("table.share", code=table.code))
    if table.house_rules:
        st.caption(t("table.house_rules", rules=rules_text(table.house_rules)))
    cols = st.container(key="jx_totals").columns(4)  # a phone: 2 x 2, not four rows (app/ui/style.py)
    last = ledger.outcomes[-1].deltas if ledger.outcomes else None
    for i, col in enumerate(cols):
        with col:
            dealer = " · " + t("table.dealer_mark") if i == ledger.next_dealer and not table.locked else ""
            delta = num(last[i]) if last is not None and last[i] else None
            st.metric(md(table.seats[i]) + dealer, num(ledger.totals[i]), delta)  # a label is Markdown
    if table.locked:  # settled: no next hand, so no next dealer and no raise pending for it
        return
    raise_ = ledger.next_raise
    why = t("list.sep").join(t(f"raise.{r.code}", n=r.source, x=r.factor) for r in ledger.next_reasons)
    st.markdown(
        f'<div id="jx-next" data-dealer="{ledger.next_dealer}" data-raise="{raise_}">'
        + t("table.next", n=len(rec.hands) + 1, dealer=md(table.seats[ledger.next_dealer]))
        + (html.escape(t("table.raised", x=raise_, why=why)) if raise_ > 1 else "")
        + "</div>",
        unsafe_allow_html=True,
    )
