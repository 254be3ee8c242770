"""Practice (练习): a random winning hand; the player says what it is worth, then sees why."""

from __future__ import annotations

import random

import streamlit as st

from app.ui import services
from app.ui.hand.numbers import number_field
from app.ui.i18n import labels, t
from app.ui.learn.random_hand import random_hand
from app.ui.learn.show import draw_input, show_hand
from app.ui.render.html import items_table, num, payments_table
from app.ui.state import ME, hand_input, keys
from app.ui.state.practice import LEVELS, Practice, answer
from scoring import HandInput, ScoreResult
from scoring.model import VARIANTS
from scoring.rules import load_rules

ss = st.session_state
TRIES = 200
GUESS = (0, 100000)
__all__ = ["LEVELS", "answer", "new_practice", "practice"]


def _patterns(r: ScoreResult) -> int:
    return sum(1 for i in r.items if i.key in load_rules(r.variant).patterns)


def new_practice(
    variant: str, rng: random.Random, level: str = "one"
) -> tuple[HandInput, ScoreResult] | None:
    """A random hand of `level` that the engine scores as a win, and its result (None: none
    found in `TRIES`). `table` adds a dealer and payers' 發 where the variant has them."""
    rules = load_rules(variant)
    for _ in range(TRIES):
        hand, cond = random_hand(variant, rng)
        if level == "table":
            cond.dealer = rng.choice([ME, *cond.payers])  # a dealer the player sees: winner or a payer
            if rules.bonus_tile is not None:
                for seat in cond.seats.values():
                    seat.bonus_tiles = rng.choice([0, 0, 1, 2])
        data = hand_input(hand, cond)
        r = services.score(data)
        if not isinstance(r, ScoreResult) or not r.can_win:
            continue
        n = _patterns(r)
        if level == "table" or (level == "one" and n == 1) or (level == "several" and n >= 2):
            return data, r
    return None


def _choice(text: str, options: tuple[str, ...], prefix: str, key: str) -> str:
    fmt = labels(options, lambda v: f"{prefix}.{v}")
    return st.segmented_control(text, options, format_func=fmt, key=key, required=True, default=options[0])


def practice() -> None:
    st.markdown(t("learn.practice_intro"))
    variant = _choice(t("cond.variant"), VARIANTS, "variant", "practice_variant")
    level = _choice(t("learn.level"), LEVELS, "learn.level", "practice_level")
    p = _current()
    if not p.matches(variant, level):
        p = _start(variant, level)
    st.caption(t("learn.streak", n=p.streak))
    st.button(
        t("learn.new_hand"),
        on_click=_on_new,
        args=(variant, level),
        icon=":material/casino:",
        key="btn_new_practice",
    )
    hand, r = p.hand, p.result
    if hand is None or r is None:
        st.warning(t("learn.engine_unavailable"))
        return
    draw_input(hand)
    rules = load_rules(variant)
    if level == "table":
        payers = hand.payers or ()  # a table-level hand names its payers (`new_practice`)
        dealer = next((t(f"seat.{x.name}") for x in payers if x.is_dealer), t("seat.me"))
        bonus = " / ".join(f"{t(f'seat.{x.name}')} {x.bonus_tiles}" for x in payers)
        st.caption(t("learn.table_line", dealer=dealer, bonus=bonus if rules.bonus_tile is not None else "—"))
    elif hand.winner_is_dealer and rules.options.dealer_doubles:
        st.caption(t("learn.you_dealer"))
    unit = t("res.unit_fan") if rules.family == "fan" else t("res.unit_pao")
    ask = t("learn.guess_total", unit=unit) if level == "table" else t("learn.guess", unit=unit)
    guess = number_field(ask, keys.PRACTICE_GUESS, 0, *GUESS)  # 2.5 is never 2, 200000 never the last good
    if st.button(t("learn.reveal"), key="btn_reveal", type="primary"):
        p.reveal(guess)  # judged once: a guess changed afterwards is not
    if p.revealed:
        want, said = p.answer, p.guess
        if p.right:
            st.success(t("learn.right", own=num(want)))
        else:
            st.info(t("learn.wrong", own=num(want), guess=num(said)))
        show_hand(hand, r)
        st.markdown(items_table(r), unsafe_allow_html=True)
        if level == "table":
            st.markdown(payments_table(r), unsafe_allow_html=True)


def _current() -> Practice:
    """The practice shown (an empty one, matching nothing, before the first)."""
    got = ss.get(keys.PRACTICE)
    return got if isinstance(got, Practice) else Practice("", "")


def _start(variant: str, level: str) -> Practice:
    """Deal a new hand of `variant` and `level`: a fresh `Practice` keeping the streak."""
    p = ss[keys.PRACTICE] = _current().next(variant, level, new_practice(variant, random.Random(), level))
    return p


def _on_new(variant: str, level: str) -> None:
    _start(variant, level)
    ss[keys.PRACTICE_GUESS] = 0.0
