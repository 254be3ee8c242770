"""The 牌局 page without a table: open a new one (four names, variant, base value) or an
existing one by its code. Creating a table puts its code in the URL (`?table=CODE`)."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import streamlit as st

from app.ui.hand.numbers import BAD_FIELDS, number_field
from app.ui.i18n import labels, t
from app.ui.state import keys
from app.ui.table.db import error_text, store
from app.ui.table.house_rules import RULES_EXAMPLE, RuleProblem, rules_form, typed_rules
from app.ui.table.option_rules import options_form
from ledger import LedgerError, Table
from ledger.codes import normalize_code
from ledger.model import MAX_NAME, MAX_TITLE, parse_money
from ledger.names import unprintable
from scoring.model import VARIANTS

ss = st.session_state
SEAT_WINDS = ("table.seat_wind_1", "table.seat_wind_2", "table.seat_wind_3", "table.seat_wind_4")
"""The seats' names until a player types one: 东南西北 (East, South, West, North)."""
BASE = (0.01, 10000.0)
"""The money per 炮 a table may have, in the currency's units."""
MAX_CODE_TEXT = 20
"""The most characters the 牌局码 field takes: 11 for the code, room for spaces and dashes."""


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
            with col:  # each seat named by its wind until a name is typed
                _text_field(t("table.seat_n", n=i + 1), f"tn_seat{i}", MAX_NAME, t(SEAT_WINDS[i]))
        number_field(t("table.base"), "tn_base", 1.0, *BASE, whole=False)
        with st.expander(t("table.rules_form")):
            ss[keys.NEW_TABLE_CHOSEN] = rules_form(variant or "jiujiang")
            st.caption(t("rule.opt.heading"))
            ss[keys.NEW_TABLE_OPTIONS] = options_form(variant or "jiujiang")
            st.text_area(t("table.rules"), key="tn_rules", placeholder=RULES_EXAMPLE, height=68)
        st.caption(t("table.seats_help", most=MAX_NAME))
        created = st.form_submit_button(t("table.create"), type="primary")
    if created:
        _create()
    st.subheader(t("table.open"))
    with st.form("table_open"):
        typed = _code_field()
        opened = st.form_submit_button(t("table.open_button"))
    if opened and typed is not None:
        try:
            go(normalize_code(typed))
        except LedgerError as e:
            st.error(error_text(e))


LINK_CODE = re.compile(r"[?&]table=([0-9A-Za-z-]+)")
"""A table code in a join link's query, wherever the link stands in the text."""


def _code_field() -> str | None:
    """The 牌局码 field, kept as pasted (no `max_chars`: the browser would cut a long paste without
    a word). A pasted join link (``…/table?table=CODE``, the QR button's address) gives its code;
    what is left over `MAX_CODE_TEXT` characters is said under the field and returns None (the
    table is not opened until it is fixed)."""
    label = t("table.code")
    st.text_input(label, key="to_code", placeholder=t("table.code_hint"))
    text = code_in_link(ss.get(keys.OPEN_CODE) or "")
    if len(text) > MAX_CODE_TEXT:
        st.error(t("table.too_long", field=label, most=MAX_CODE_TEXT, n=len(text)))
        return None
    return text


def code_in_link(text: str) -> str:
    """The table code in a pasted join link — an address whose query holds one ``table=``, as
    the QR button writes it (``http://192.168.1.5:8501/table?table=K7QM9ACXTRE&lang=en``) — else
    `text` itself (a code as typed: `ledger.codes.normalize_code` forgives case, spaces, dashes).

    >>> code_in_link(" http://192.168.1.5:8501/table?table=K7QM9ACXTRE&lang=en ")
    'K7QM9ACXTRE'
    >>> code_in_link("k7qm-9acx-tre")
    'k7qm-9acx-tre'

    A link inside a pasted chat message counts too (one code in it):

    >>> code_in_link("请打开 http://192.168.1.5:8501/table?table=K7QM9ACXTRE 谢谢")
    'K7QM9ACXTRE'
    """
    text = text.strip()
    if "?" not in text:
        return text
    inside = set(LINK_CODE.findall(text))  # also a link among other words: a chat message pasted whole
    if len(inside) == 1:
        return inside.pop()
    found = parse_qs(urlsplit(text).query).get("table", [])
    return found[0].strip() if len(found) == 1 else text


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
    seats = tuple(ss.get(keys.new_table_seat(i), "") for i in range(4))
    variant = ss[keys.NEW_TABLE_VARIANT] or "jiujiang"
    try:
        typed, chosen = ss.get(keys.NEW_TABLE_RULES) or "", ss.get(keys.NEW_TABLE_CHOSEN) or {}
        rules = typed_rules(variant, typed, chosen, ss.get(keys.NEW_TABLE_OPTIONS))
    except RuleProblem as e:
        st.error(e.text)  # names the key, in the page's language
        return
    try:
        table = Table(
            variant,
            seats,
            parse_money(str(round(ss[keys.NEW_TABLE_BASE], 4))),
            rules,
            title=ss[keys.NEW_TABLE_TITLE] or "",
        )
        rec = store().create_table(table)
    except LedgerError as e:
        st.error(error_text(e))
        return
    go(rec.table.code)


def go(code: str) -> None:
    """Show table `code` (its code goes into the URL, so the page can be shared and reloaded)."""
    st.query_params["table"] = code
    st.rerun()
