"""The 牌局 page without a table: open a new one (four names, variant, base value) or an
existing one by its code. Creating a table puts its code in the URL (`?table=CODE`)."""

from __future__ import annotations

import streamlit as st

from app.ui.hand.numbers import BAD_FIELDS, number_field
from app.ui.i18n import labels, t
from app.ui.table.db import error_text, store
from app.ui.table.house_rules import RULES_EXAMPLE, RuleProblem, rules_form, typed_rules
from app.ui.table.option_rules import options_form
from ledger import LedgerError, Table
from ledger.codes import normalize_code
from ledger.model import MAX_NAME, MAX_TITLE
from ledger.names import unprintable
from scoring.model import VARIANTS

ss = st.session_state
DEFAULT_NAMES = ("东", "南", "西", "北")
BASE = (0.01, 10000.0)
"""The money per 炮 a table may have, in the currency's units."""


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
    ss[BAD_FIELDS] = []  # the fields below whose entry is refused, by label (`_create` checks)
    with st.form("table_new"):
        _text_field(t("table.title"), "tn_title", MAX_TITLE)
        cols = st.columns(4)
        for i, col in enumerate(cols):
            with col:
                _text_field(t("table.seat_n", n=i + 1), f"tn_seat{i}", MAX_NAME, DEFAULT_NAMES[i])
        number_field(t("table.base"), "tn_base", 1.0, *BASE, whole=False)
        with st.expander(t("table.rules_form")):
            ss["tn_chosen"] = rules_form(variant or "jiujiang")
            st.caption(t("rule.opt.heading"))
            ss["tn_options"] = options_form(variant or "jiujiang")
            st.text_area(t("table.rules"), key="tn_rules", placeholder=RULES_EXAMPLE, height=68)
        st.caption(t("table.seats_help", most=MAX_NAME))
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


def _text_field(label: str, key: str, most: int, value: str = "") -> None:
    """A text field kept as typed or pasted (no `max_chars`: the browser would drop a paste over
    it without a word); under it, once submitted, what is wrong with it — over `most`
    characters, or a control or format character (`ledger.names`) — naming the field."""
    st.text_input(label, value=value, key=key, placeholder=t("table.at_most", most=most))
    text = ss.get(key) or ""
    bad = unprintable(text)
    if len(text) > most:
        st.error(t("table.too_long", field=label, most=most, n=len(text)))
    elif bad:
        st.error(t("table.bad_char", field=label, char=bad))
    else:
        return
    ss[BAD_FIELDS].append(label)


def _create() -> None:
    if ss.get(BAD_FIELDS):  # each says what is wrong under it
        st.error(t("table.fix_fields", fields=t("list.sep").join(ss[BAD_FIELDS])))
        return
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
