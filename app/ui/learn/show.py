"""A hand of the Learn page drawn as tiles, with how it was won underneath."""

from __future__ import annotations

import streamlit as st

from app.ui.i18n import t
from app.ui.render.html import decomposition_html
from app.ui.render.tiles import groups_html, name
from app.ui.state import ME, Conditions, EditHand
from scoring import HandInput, ScoreResult, parse_tiles


def editable(hand: HandInput) -> tuple[EditHand, Conditions]:
    """An example's hand as the score page holds it (for the "why not" search)."""
    codes = [x.code for x in hand.concealed]
    codes.remove(hand.winning_tile.code)
    melds = [(m.kind, [x.code for x in m.tiles]) for m in hand.melds]
    edit = EditHand.typed([*codes, hand.winning_tile.code], melds, bonus=hand.bonus_tiles)
    cond = Conditions(variant=hand.variant, self_drawn=hand.self_drawn, events=list(hand.events))
    cond.dealer = (
        ME if hand.winner_is_dealer else next((p.name for p in hand.payers or () if p.is_dealer), None)
    )
    return edit, cond


def show_hand(hand: HandInput, r: ScoreResult) -> None:
    """The hand as the engine reads it (sets, pair, melds), or as given when it has no reading."""
    if r.decomposition:
        st.markdown(
            decomposition_html(r.decomposition, str(hand.winning_tile), size="sm"), unsafe_allow_html=True
        )
        conditions_line(hand)
    else:
        draw_input(hand)


def draw_input(hand: HandInput) -> None:
    groups = [(t("hand.standing_short"), [x.code for x in parse_tiles(hand.concealed)])]
    groups += [(t(f"meld.{m.kind}"), [x.code for x in m.tiles]) for m in hand.melds]
    st.markdown(groups_html(groups, win_tile=str(hand.winning_tile), size="sm"), unsafe_allow_html=True)
    conditions_line(hand)


def conditions_line(hand: HandInput) -> None:
    how = t("cond.self_drawn") if hand.self_drawn else t("cond.discard")
    events = [t(f"event.{e}") for e in hand.events]
    bonus = [t("learn.bonus", n=hand.bonus_tiles)] if hand.bonus_tiles else []
    st.caption(" · ".join([how, t("learn.win_tile", tile=name(str(hand.winning_tile))), *events, *bonus]))
