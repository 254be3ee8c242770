"""The photo's tiles not in the hand, and the one-tap moves between the photo and the hand.

Under the photo: every tile left out (`state.photo_tiles.left_out`: the reader's `off_row`
tiles and the ones the player took out), greyed there and listed here — one tap puts one back;
each row of the photo takes out or puts back whole with one tap. Beside the hand: an over-full
hand (`state.too_many`) is said so, with its likeliest hand one tap away (never a kong question
about a discard).

Callbacks only touch session state (`session.set_hand`: undoable, saved with the draft).
"""

from __future__ import annotations

import streamlit as st

from app.ui.hand import session
from app.ui.i18n import t
from app.ui.render.tiles import label, name, spoken
from app.ui.state.photo_tiles import in_hand, left_out, photo_tile, rows, set_aside_codes
from app.ui.state.too_many import (
    MOST_TILES,
    kong_first,
    likeliest,
    over_hand,
    over_hand_words,
    physical,
    too_many,
)

__all__ = ["left_out_view", "over_full", "too_many_hint"]


def _result():
    """The photo's `DetectResult` when the hand is edited over it, else None: typed over it, or
    (the sample's true tiles) a hand none of whose tiles comes from it."""
    photo = session.hip().photo
    if photo is None or session.hip().photo_src == "typed":
        return None
    if not in_hand(session.hip().hand) and not session.hip().hand.is_empty:
        return None
    return photo.result


def left_out_view() -> None:
    """The left-out tiles to tap back in, and a button per photo row (take out / put back)."""
    result = _result()
    if result is None:
        return
    dets = result.detections
    out = left_out(dets, session.hip().hand, set_aside_codes(session.hip().cond.variant))
    if out:
        st.caption(t("photo.left_out", n=len(out)))
        with st.container(horizontal=True, gap=None, key="leftout"):
            for k in out:
                st.button(
                    label(photo_tile(dets[k], k).code, spoken(photo_tile(dets[k], k).code, out=True)),
                    key=f"tile_out{k}",
                    on_click=_on_put_back,
                    args=((k,),),
                    help=t("photo.put_back", tile=name(photo_tile(dets[k], k).code)),
                )
    used = in_hand(session.hip().hand)
    all_rows = rows(dets, result.groups)
    if len(all_rows) < 2 and not (all_rows and not used & set(all_rows[0])):
        return  # one row, in the hand: taking it out is the tiles' own buttons
    with st.container(horizontal=True, key="photorows"):
        for r, ks in enumerate(all_rows, start=1):
            mine = used & set(ks)
            if mine:
                st.button(
                    t("photo.row_out", row=r, n=len(mine)),
                    key=f"rowout_{r}",
                    on_click=_on_take_out,
                    args=(tuple(ks),),
                    icon=":material/remove:",
                )
            else:
                st.button(
                    t("photo.row_in", row=r, n=len(ks)),
                    key=f"rowin_{r}",
                    on_click=_on_put_back,
                    args=(tuple(ks),),
                    icon=":material/add:",
                )


def over_full() -> bool:
    """The hand holds more tiles than any winning hand (a photo's hand, `state.too_many`)."""
    return _result() is not None and too_many(session.hip().hand)


def too_many_hint() -> None:
    """Said when a photo's hand holds more tiles than a winning hand with its kongs laid apart
    (`state.too_many.over_hand`): how many, and the likeliest hand one tap away. Over 18 it is
    more than any winning hand. When four alike standing explain the extra tiles (`kong_first`),
    the kong question comes first (the editor's) and this waits."""
    result, hand = _result(), session.hip().hand
    if result is None or not over_hand(hand) or kong_first(hand):
        return
    best = likeliest(hand, result.detections, result.groups, session.hip().cond.variant)
    n = physical(hand)
    with st.container(horizontal=True, vertical_alignment="center", key="toomany"):
        if n > MOST_TILES:
            st.warning(t("hand.too_many", n=n, most=MOST_TILES))
        else:
            key, fields = over_hand_words(hand)
            st.warning(t(key, **fields))
        if best is not None:
            st.button(
                t("hand.keep_likely", n=physical(best)),
                key="btn_keep_likely",
                on_click=_on_keep,
                args=(best,),
                type="primary",
            )


def _on_put_back(ks: tuple[int, ...]) -> None:
    result = _result()
    if result is None:
        return
    h = session.hip()
    used, aside, dets = in_hand(h.hand), set_aside_codes(h.cond.variant), result.detections
    tiles = [
        photo_tile(dets[k], k) for k in ks if k not in used and k < len(dets) and dets[k].tile not in aside
    ]
    if tiles:
        session.set_hand(session.hip().hand.with_photo_tiles(tiles))
    session.deselect()


def _on_take_out(ks: tuple[int, ...]) -> None:
    session.set_hand(session.hip().hand.without_detections(ks))
    session.deselect()


def _on_keep(best) -> None:
    session.set_hand(best)
    session.deselect()
