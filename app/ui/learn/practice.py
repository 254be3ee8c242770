"""Practice (练习): a random winning hand; the player says what it is worth, then sees why."""

from __future__ import annotations

import random

import streamlit as st

from app.ui import services
from app.ui.i18n import labels, t
from app.ui.learn.random_hand import random_hand
from app.ui.learn.show import draw_input, show_hand
from app.ui.render.html import items_table, num
from app.ui.score.numbers import accept
from app.ui.state import hand_input
from scoring import HandInput, ScoreResult
from scoring.model import VARIANTS
from scoring.rules import load_rules

ss = st.session_state
TRIES = 60
GUESS = (0, 100000)


def new_practice(variant: str, rng: random.Random) -> tuple[HandInput, ScoreResult] | None:
    """A random hand the engine scores as a win, and its result (None: none found in `TRIES`)."""
    for _ in range(TRIES):
        hand, cond = random_hand(variant, rng)
        data = hand_input(hand, cond)
        r = services.score(data)
        if isinstance(r, ScoreResult) and r.can_win:
            return data, r
    return None


def practice() -> None:
    st.markdown(t("learn.practice_intro"))
    variant = st.segmented_control(
        t("cond.variant"),
        VARIANTS,
        format_func=labels(VARIANTS, lambda v: f"variant.{v}"),
        key="practice_variant",
        required=True,
        default=VARIANTS[0],
    )
    p = ss.get("practice")
    if p is None or p["variant"] != variant:
        p = _start(variant)
    st.button(
        t("learn.new_hand"),
        on_click=_on_new,
        args=(variant,),
        icon=":material/casino:",
        key="btn_new_practice",
    )
    if p["hand"] is None:
        st.warning(t("learn.engine_unavailable"))
        return
    hand, r = p["hand"], p["result"]
    draw_input(hand)
    if hand.winner_is_dealer and load_rules(variant).option("dealer_doubles", False):
        st.caption(t("learn.you_dealer"))
    unit = t("res.unit_fan") if load_rules(variant).family == "fan" else t("res.unit_pao")
    if "practice_guess" not in ss:
        ss.practice_guess = 0.0
    typed = st.number_input(t("learn.guess", unit=unit), step=1.0, format="%g", key="practice_guess")
    guess = accept(typed, *GUESS)  # 2.5 is not read as 2, nor 200000 as the last good entry
    if guess is None:
        st.error(t("num.bad", lo=GUESS[0], hi=GUESS[1]))
    if st.button(t("learn.reveal"), key="btn_reveal", type="primary"):
        p["revealed"] = True
    if p["revealed"] and guess is not None:
        if guess == r.own:
            st.success(t("learn.right", own=num(r.own)))
        else:
            st.info(t("learn.wrong", own=num(r.own), guess=num(guess)))
        show_hand(hand, r)
        st.markdown(items_table(r), unsafe_allow_html=True)


def _start(variant: str) -> dict:
    got = new_practice(variant, random.Random())
    hand, result = got if got is not None else (None, None)
    ss.practice = {"variant": variant, "hand": hand, "result": result, "revealed": False}
    return ss.practice


def _on_new(variant: str) -> None:
    _start(variant)
    ss.practice_guess = 0.0
