"""The 牌局 page without a table: open a new one (four names, variant, base value) or an
existing one by its code. Creating a table puts its code in the URL (`?table=CODE`)."""

from __future__ import annotations

import streamlit as st

from app.ui.i18n import labels, t
from app.ui.table.db import error_text, store
from app.ui.table.house_rules import RULES_EXAMPLE, RuleProblem, rules_form, typed_rules
from app.ui.table.option_rules import options_form
from ledger import LedgerError, Table
from ledger.codes import normalize_code
from scoring.model import VARIANTS

ss = st.session_state
DEFAULT_NAMES = ("东", "南", "西", "北")


def start_view() -> None:
    st.subheader(t("table.new"))
    variant = st.segmented_control(
        t("cond.variant"),
        VARIANTS,
        format_func=labels(VARIANTS, lambda v: f"variant.{v}"),
        key="tn_variant",
        default="jiujiang",
        required=True,
    )  # fmt: skip  (outside the form: the house rules below are the variant's)
    with st.form("table_new"):
        st.text_input(t("table.title"), key="tn_title", max_chars=80)
        cols = st.columns(4)
        for i, col in enumerate(cols):
            with col:
                st.text_input(
                    t("table.seat_n", n=i + 1), value=DEFAULT_NAMES[i], key=f"tn_seat{i}", max_chars=24
                )
        st.number_input(
            t("table.base"), min_value=0.01, max_value=10000.0, value=1.0, step=0.5, key="tn_base"
        )
        with st.expander(t("table.rules_form")):
            ss["tn_chosen"] = rules_form(variant or "jiujiang")
            st.caption(t("rule.opt.heading"))
            ss["tn_options"] = options_form(variant or "jiujiang")
            st.text_area(t("table.rules"), key="tn_rules", placeholder=RULES_EXAMPLE, height=68)
        st.caption(t("table.seats_help"))
        created = st.form_submit_button(t("table.create"), type="primary")
    if created:
        _create()
    st.subheader(t("table.open"))
    with st.form("table_open"):
        st.text_input(t("table.code"), key="to_code", max_chars=20)
        opened = st.form_submit_button(t("table.open_button"))
    if opened:
        try:
            go(normalize_code(ss.to_code or ""))
        except LedgerError as e:
            st.error(error_text(e))


def _create() -> None:
    seats = tuple(ss.get(f"tn_seat{i}", "") for i in range(4))
    variant = ss.tn_variant or "jiujiang"
    try:
        typed, chosen = ss.get("tn_rules") or "", ss.get("tn_chosen") or {}
        rules = typed_rules(variant, typed, chosen, ss.get("tn_options"))
    except RuleProblem as e:
        st.error(e.text)  # names the key, in the page's language
        return
    try:
        table = Table(variant, seats, str(round(ss.tn_base, 4)), rules, title=ss.tn_title or "")
        rec = store().create_table(table)
    except LedgerError as e:
        st.error(error_text(e))
        return
    go(rec.table.code)


def go(code: str) -> None:
    """Show table `code` (its code goes into the URL, so the page can be shared and reloaded)."""
    st.query_params["table"] = code
    st.rerun()
