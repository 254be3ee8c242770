"""The Learn page: each variant's rules with example hands drawn as tiles and scored live by
the engine (so the page can never disagree with it), and practice: a random winning hand,
guess its value, see the breakdown.
"""

from __future__ import annotations

import html
import random

import streamlit as st

from app.ui import engine as E
from app.ui import hand as H
from app.ui import score_page as S
from app.ui import tiles as T
from app.ui.i18n import t

ss = st.session_state

# Example hands per variant: (catalog key of the caption, score-JSON input).
EXAMPLES: dict[str, list[tuple[str, dict]]] = {
    "jiujiang": [
        (
            "ex.basic_self_drawn",
            {
                "variant": "jiujiang",
                "concealed": "234m567p678s99s",
                "winning_tile": "6s",
                "melds": [{"kind": "pung", "tiles": "777p"}],
                "self_drawn": True,
            },
        ),
        (
            "ex.concealed_closed",
            {
                "variant": "jiujiang",
                "concealed": "123m456p789s345s55p",
                "winning_tile": "2m",
                "self_drawn": False,
            },
        ),
        (
            "ex.half_flush",
            {
                "variant": "jiujiang",
                "concealed": "234p456p777pCCCPP",
                "winning_tile": "P",
                "self_drawn": True,
            },
        ),
        (
            "ex.seven_pairs_run",
            {
                "variant": "jiujiang",
                "concealed": "11m11p99p99m55s66s77s",
                "winning_tile": "7s",
                "self_drawn": False,
            },
        ),
        (
            "ex.below_minimum",
            {
                "variant": "jiujiang",
                "concealed": "234m567p678s99s",
                "winning_tile": "6s",
                "melds": [{"kind": "pung", "tiles": "777p"}],
                "self_drawn": False,
            },
        ),
    ],
    "xingzi": [
        (
            "ex.dealer_pays_double",
            {
                "variant": "xingzi",
                "concealed": "234m567p678s99s",
                "winning_tile": "6s",
                "melds": [{"kind": "pung", "tiles": "777p"}],
                "self_drawn": True,
                "payers": [
                    {"name": "right", "is_dealer": True},
                    {"name": "across", "is_dealer": False},
                    {"name": "left", "is_dealer": False},
                ],
            },
        ),
        (
            "ex.half_flush",
            {
                "variant": "xingzi",
                "concealed": "234p456p777pCCCPP",
                "winning_tile": "P",
                "self_drawn": True,
            },
        ),
        (
            "ex.robbing_kong",
            {
                "variant": "xingzi",
                "concealed": "234m567p678s99s",
                "winning_tile": "6s",
                "melds": [{"kind": "pung", "tiles": "777p"}],
                "self_drawn": False,
                "events": ["robbing_kong"],
                "payers": [{"name": "left", "melds": [{"kind": "pung", "tiles": "666s"}]}],
            },
        ),
        (
            "ex.four_green",
            {
                "variant": "xingzi",
                "concealed": "234m567p678s99s",
                "winning_tile": "6s",
                "melds": [{"kind": "pung", "tiles": "777p"}],
                "bonus_tiles": 4,
                "self_drawn": False,
            },
        ),
    ],
    "xinyu": [
        (
            "ex.xy_concealed",
            {"variant": "xinyu", "concealed": "123m456p789s345sEE", "winning_tile": "E", "self_drawn": True},
        ),
        (
            "ex.xy_luxury",
            {"variant": "xinyu", "concealed": "1111m33p55p77s99sEE", "winning_tile": "E", "self_drawn": True},
        ),
        (
            "ex.xy_all_honours",
            {"variant": "xinyu", "concealed": "EEESSSWWWCCCPP", "winning_tile": "P", "self_drawn": True},
        ),
    ],
}


def render() -> None:
    st.subheader(t("learn.title"))
    st.markdown(t("learn.intro"))
    tabs = st.tabs([t(f"variant.{v}") for v in EXAMPLES] + [t("learn.practice")])
    for tab, variant in zip(tabs, EXAMPLES, strict=False):
        with tab:
            st.markdown(t(f"learn.{variant}.rules"))
            st.markdown(f"#### {t('learn.examples')}")
            for key, data in EXAMPLES[variant]:
                _example(key, data)
    with tabs[-1]:
        practice()


def _example(key: str, data: dict) -> None:
    with st.container(border=True):
        st.markdown(f"**{t(key)}**")
        res = E.score(data)
        r = res.get("ok")
        if r and r.get("decomposition"):  # the hand as the engine reads it: sets, pair, melds
            st.markdown(
                S.decomposition_html(r["decomposition"], data["winning_tile"], size="sm"),
                unsafe_allow_html=True,
            )
            _conditions_line(data)
        else:
            _draw_input(data)
        if r is None:
            st.caption(t("learn.engine_unavailable"))
            return
        if not r.get("can_win", True):
            st.markdown(f"→ **{html.escape(t('res.cannot_win'))}**: {html.escape(S._reason(r))}")
            return
        st.markdown(S.items_table(r, data["variant"]), unsafe_allow_html=True)
        pays = " / ".join(S._num(p.get("amount", 0)) for p in r.get("payments", []))
        st.caption(t("learn.pays", pays=pays))


def _draw_input(data: dict) -> None:
    groups = [(t("hand.standing_short"), T.parse(data["concealed"]))]
    groups += [(t(f"meld.{m['kind']}"), T.parse(m["tiles"])) for m in data.get("melds", [])]
    st.markdown(T.groups_html(groups, win_tile=data["winning_tile"], size="sm"), unsafe_allow_html=True)
    _conditions_line(data)


def _conditions_line(data: dict) -> None:
    how = t("cond.self_drawn") if data.get("self_drawn") else t("cond.discard")
    events = [t(f"event.{e}") for e in data.get("events", [])]
    bonus = [t("learn.bonus", n=data["bonus_tiles"])] if data.get("bonus_tiles") else []
    st.caption(" · ".join([how, t("learn.win_tile", tile=T.name(data["winning_tile"])), *events, *bonus]))


def practice() -> None:
    st.markdown(t("learn.practice_intro"))
    variant = st.segmented_control(
        t("cond.variant"),
        list(EXAMPLES),
        format_func=lambda v: t(f"variant.{v}"),
        key="practice_variant",
        required=True,
        default="jiujiang",
    )
    p = ss.get("practice")
    if p is None or p["variant"] != variant:
        p = _new_practice(variant)
    st.button(
        t("learn.new_hand"),
        on_click=_on_new,
        args=(variant,),
        icon=":material/casino:",
        key="btn_new_practice",
    )
    if p is None or p.get("hand") is None:
        st.warning(t("learn.engine_unavailable"))
        return
    data = p["data"]
    _draw_input(data)
    dealer = t("learn.you_dealer") if data.get("winner_is_dealer") else ""
    if dealer:
        st.caption(dealer)
    unit = t("res.unit_fan") if variant == "xinyu" else t("res.unit_pao")
    guess = st.number_input(
        t("learn.guess", unit=unit), min_value=0, max_value=100000, step=1, key="practice_guess"
    )
    if st.button(t("learn.reveal"), key="btn_reveal", type="primary"):
        p["revealed"] = True
    if p.get("revealed"):
        r = p["result"]
        own = r.get("own", 0)
        if guess == own:
            st.success(t("learn.right", own=S._num(own)))
        else:
            st.info(t("learn.wrong", own=S._num(own), guess=S._num(guess)))
        if r.get("decomposition"):
            st.markdown(
                S.decomposition_html(r["decomposition"], data["winning_tile"], size="sm"),
                unsafe_allow_html=True,
            )
        st.markdown(S.items_table(r, variant), unsafe_allow_html=True)


def _new_practice(variant: str) -> dict | None:
    rng = random.Random()
    got = E.random_hand(variant, rng)
    if got is None:
        p = {"variant": variant, "hand": None}
    else:
        h, cond, result = got
        p = {
            "variant": variant,
            "hand": h,
            "data": H.to_score_json(h, cond) | {"payers": []},
            "result": result,
            "revealed": False,
        }
    ss.practice = p
    return p


def _on_new(variant: str) -> None:
    _new_practice(variant)
    ss.practice_guess = 0
