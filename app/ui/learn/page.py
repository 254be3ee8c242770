"""The Learn page (学习): each variant's rules with example hands drawn as tiles and scored
live by the engine (so the page can never disagree with it), and practice."""

from __future__ import annotations

import html

import streamlit as st

from app.ui import i18n, services
from app.ui.hand.why_not import why_not
from app.ui.i18n import t
from app.ui.learn.examples import EXAMPLES
from app.ui.learn.practice import practice
from app.ui.learn.rules import follow_anchor, rules_view
from app.ui.learn.show import draw_input, editable, show_hand
from app.ui.messages import cannot_win_text
from app.ui.render.html import items_table, num, payer_label
from app.ui.state import keys
from scoring import HandInput, ScoreResult

ss = st.session_state
PRACTICE = "practice"
TAB = keys.LEARN_TAB
"""The tabs' key: the label of the tab the player chose, in the language it was drawn in."""
TAB_ID = keys.LEARN_TAB_ID
"""The tab chosen, as a variant or `PRACTICE`: a language switch gives the tabs new labels (and
Streamlit would open the first), the tab chosen stays."""
TAB_ASKED = keys.LEARN_TAB_ASKED
"""The ``?variant=`` the tabs last followed (a rule link opens its variant once, not on every run)."""


def render() -> None:
    st.subheader(t("learn.title"))
    st.markdown(t("learn.intro"))
    chosen = st.query_params.get("variant")  # a rule link (app.ui.rule_links.href) names its variant
    keys = tab_keys()
    labels = {tab: t(key) for tab, key in keys.items()}
    ss[TAB] = labels[chosen_tab(chosen)]
    tabs = st.tabs(list(labels.values()), key=TAB, on_change="rerun")
    for tab, variant in zip(tabs, EXAMPLES, strict=False):
        with tab:
            rules_view(variant)
            st.subheader(t("learn.examples"), anchor=f"examples-{variant}")
            for key, hand in EXAMPLES[variant]:
                _example(key, hand)
    with tabs[-1]:
        practice()
    if chosen in EXAMPLES:
        follow_anchor()


def tab_keys() -> dict[str, str]:
    """The Learn page's tabs in order, each with the catalog key of its label."""
    return {**{v: f"variant.{v}" for v in EXAMPLES}, PRACTICE: "learn.practice"}


def chosen_tab(asked: str | None = None) -> str:
    """The tab to show: the one the player chose last (its label in either language), else the
    variant `asked` by the address when it is new to this session, else the first."""
    shown = ss.get(TAB)
    if shown is not None:
        ss[TAB_ID] = i18n.label_id(shown, tab_keys())
    if asked in EXAMPLES and ss.get(TAB_ASKED) != asked:
        ss[TAB_ASKED] = ss[TAB_ID] = asked
    return ss.get(TAB_ID) or next(iter(EXAMPLES))


def pays_line(r: ScoreResult) -> str:
    """Who pays the winner what, in the page language: "3 家各付 2" when every payer pays the
    same, else each payer by name ("付钱：放炮者 3", "付钱：下家 4 · 对家 2 · 上家 2")."""
    amounts = {p.amount for p in r.payments}
    if len(r.payments) > 1 and len(amounts) == 1:
        return t("learn.pays_each", n=len(r.payments), amount=num(r.payments[0].amount))
    return t("learn.pays", pays=" · ".join(f"{payer_label(p)} {num(p.amount)}" for p in r.payments))


def _example(key: str, hand: HandInput) -> None:
    with st.container(border=True):
        st.markdown(f"**{t(key)}**")
        r = services.score(hand)
        if not isinstance(r, ScoreResult):
            draw_input(hand)
            st.caption(t("learn.engine_unavailable"))
            return
        show_hand(hand, r)
        if not r.can_win:
            st.markdown(f"→ **{html.escape(t('res.cannot_win'))}**: {html.escape(cannot_win_text(r))}")
            return
        st.markdown(items_table(r), unsafe_allow_html=True)
        st.caption(pays_line(r))
        why_not(*editable(hand), r, f"{hand.variant}.{key}")
