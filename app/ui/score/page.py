"""The score page (计分): ① photo -> ② hand -> ③ how it was won -> ④ itemised result.

Every section is its own module in `app/ui/hand/` (the 牌局 page draws them too); this one
only lays them out, inside the protocol every hand page runs (`app.ui.hand.protocol.hand_page`).
The result is computed once per run, up front (`session.outcome`), after this run's widget values
and photo are taken in.
"""

from __future__ import annotations

import html
import logging
import time

import streamlit as st

from app.ui import drafting
from app.ui.hand import session
from app.ui.hand.conditions import conditions
from app.ui.hand.editor import hand_editor
from app.ui.hand.photo import detection_view, open_on_sample, photo_inputs
from app.ui.hand.protocol import hand_page
from app.ui.hand.result import mini_summary, result_view, total_banner, what_ifs
from app.ui.hand.session import show_posted
from app.ui.i18n import t
from app.ui.score import learn
from scoring import ScoreResult

log = logging.getLogger("jxmj.app")


def render() -> None:
    draft_key = drafting.single_hand_key()  # the hand in progress: under the phone's token
    with hand_page(
        "score",
        draft_key,
        begin=open_on_sample,
        reading=learn.reading,
        before_photo=learn.before_next_photo,
        save_begun=False,  # the sample, untouched: a reload opens on it again
    ):
        _draw()


def _draw() -> None:
    messages = st.container()
    outcome = session.outcome()
    with st.empty():  # one slot with or without a total: the columns below keep their place in the page
        mini_summary(outcome)
    wide = st.columns([5, 7], gap="large")
    bottom = st.columns([5, 7], gap="large")
    with bottom[1]:  # drawn first: no total of the last run stays beside this run's tiles
        st.subheader(t("sec.result"), anchor="jx-result")  # the mini bar's link; no empty block above
        total_banner(outcome)
        result_view(outcome)
        if isinstance(outcome, ScoreResult):
            what_ifs()
    with wide[0]:
        st.subheader(t("sec.photo"))
        photo_inputs()
        detection_view()
        learn.learned_line()  # the tiles the last photo hand taught, with 忘掉
        timing_slot = st.empty()
    with wide[1]:
        st.subheader(t("sec.hand"))
        hand_editor()
        unsure = [x for x in session.hip().hand.tiles if x.needs_check]
        if unsure and isinstance(outcome, ScoreResult):
            st.caption(t("msg.low_check", n=len(unsure)))
    with bottom[0]:
        st.subheader(t("sec.how"))
        conditions()
    _timing(timing_slot)
    with messages:
        show_posted()  # a photo that could not be read, the sample's true tiles: above ①


def _timing(slot) -> None:
    hip = session.hip()
    timing = hip.timing
    if timing and timing.get("total") is None:
        timing["total"] = time.perf_counter() - timing["start"]
        log.info("photo -> scored result in %.3f s", timing["total"])
    if timing and hip.photo is not None:
        text = html.escape(t("photo.timing", s=f"{timing['total']:.2f}"))
        slot.markdown(f'<span class="jx-timing">{text}</span>', unsafe_allow_html=True)
