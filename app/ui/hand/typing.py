"""Typing a hand as a tile string (`123m456p789s345s55p`, Chinese names and full-width digits too)."""

from __future__ import annotations

import streamlit as st

from app.ui.flash import Flash, code_flash, show
from app.ui.hand import session
from app.ui.i18n import t
from app.ui.state import EditHand, keys
from scoring import HandError, parse_tiles
from scoring.rules import load_rules
from scoring.tiles import ALL_TILES

ss = st.session_state
MAX_TYPED_TILES = 22  # 14 + four kongs; more is never a hand and only slows the page
MAX_TYPED_CHARS = 200


def typed_entry() -> None:
    """The expander with the tile-string box; a string that cannot be read is said under its
    button (`HandInProgress.typed_msg`), where the player looks, not at the top of the page (on a phone that
    is far above the box), and the expander stays open around it."""
    msg = session.hip().typed_msg
    with st.expander(t("hand.type_title"), expanded=msg is not None):
        if keys.TYPED not in ss:  # bound: a new hand's box is empty in the browser too (`session.new_hand`)
            ss[keys.TYPED] = ""
        st.text_input(t("hand.type_label"), key="typed", placeholder="123m456p789s345s55p")
        st.button(t("hand.type_apply"), key="btn_typed", on_click=_on_typed)
        if msg is not None:
            show(msg)  # worded now, in this run's language: a callback runs before the page sets it


def parse_typed(text: str, variant: str) -> EditHand:
    """The typed string as the whole hand, the last tile the winning tile. In 九江/星子 its 發
    are the bonus tiles set aside (they replace the count, never add to it).

    Raises:
        HandError: the engine's parser could not read it (its `code` names why).
        ValueError: more than `MAX_TYPED_TILES` tiles.
    """
    if len(text) > MAX_TYPED_CHARS:
        raise ValueError(len(text))
    codes = [tile.code for tile in parse_tiles(text)]
    if len(codes) > MAX_TYPED_TILES:
        raise ValueError(len(codes))
    bonus = load_rules(variant).bonus_tile
    bonus_code = ALL_TILES[bonus].code if bonus is not None else None
    return EditHand.typed(
        [c for c in codes if c != bonus_code], bonus=min(4, codes.count(bonus_code) if bonus_code else 0)
    )


def _on_typed() -> None:
    text = (ss.get(keys.TYPED) or "").strip()
    session.hip().typed_msg = None
    try:
        hand = parse_typed(text, session.hip().cond.variant)
    except HandError as exc:
        fields = {"text": text[:40], "why": code_flash(exc.code, str(exc))}  # the text: inert Markdown
        session.hip().typed_msg = Flash("error", "msg.typed_bad", fields)
        return  # the current hand stays as it was
    except ValueError:
        session.hip().typed_msg = Flash("error", "msg.typed_too_long", {"n": MAX_TYPED_TILES})
        return
    h = session.hip()
    h.set_hand(hand)
    h.typed_over()  # the photo's boxes no longer show this hand: drawn grey
    h.deselect()
