""" "Why not" (为什么不是…): every shape pattern of the variant with its status, on demand
(the one-tile search scores a few hundred trial hands), for the score page and Learn."""

from __future__ import annotations

import streamlit as st

from app.ui.i18n import t
from app.ui.render.html import num, patterns_html
from app.ui.render.tiles import name
from app.ui.state import Conditions, EditHand
from app.ui.teach import statuses
from scoring import ScoreResult


def why_not(hand: EditHand, cond: Conditions, result: ScoreResult, key: str) -> None:
    if not st.toggle(t("teach.show"), key=f"whynot_{key}"):
        return
    rows = []
    for s in statuses(hand, cond, result):
        if s.holds:
            rows.append((s.name, True, t("teach.holds", value=s.value), ""))
            continue
        text = t("teach.not", name=s.name) + (t("punct.colon") + s.why_not if s.why_not else "")
        change = ""
        if s.change is not None:
            c = s.change
            change = t("teach.change", old=name(c.old.code), new=name(c.new.code), total=num(c.total))
        rows.append((s.name, False, text, change))
    st.markdown(patterns_html(rows), unsafe_allow_html=True)
