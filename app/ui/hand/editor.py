"""② The hand: tap a tile to rename it, mark it the winning tile, take it out or make a meld
with it; add tiles; regroup melds; 發 set aside; sort; undo. (Typing a hand: `typing.py`.)

Callbacks run before the script body and only touch session state; a refused edit leaves
the hand as it was and says why inside the tile panel (`HandInProgress.panel_msg`), where the player
looks.
"""

from __future__ import annotations

import html

import streamlit as st

from app.ui.flash import Flash, show
from app.ui.hand import session
from app.ui.hand.left_out import over_full, too_many_hint
from app.ui.hand.numbers import COUNT, accept, number_field
from app.ui.hand.onscreen import show_panel
from app.ui.hand.typing import MAX_TYPED_TILES, typed_entry
from app.ui.i18n import labels, lang, t
from app.ui.render.tiles import label, name, name_later, row_html, spoken, tile_flags
from app.ui.state import DISSOLVE, EditRefused, EditTile, Selection, tile_kinds
from app.ui.state.hand import MELD_KINDS
from scoring.rules import load_rules
from scoring.tiles import SUITS, parse_tile

COPIES = 4
"""A set holds four of each tile: the add picker says so when it adds a fifth (and adds it: the
player may be about to fix the misread copy)."""

ss = st.session_state


def _meld_kinds(variant: str) -> list[str]:
    """Meld kinds the variant allows (no chow where its rule table says `never`)."""
    never = load_rules(variant).chow == "never"
    return [k for k in MELD_KINDS if not (never and k == "chow")]


def hand_editor() -> None:
    hip = session.hip()
    h = hip.hand
    st.markdown(f"**{t('hand.standing')}** · {t('hand.tap_hint')}")
    with st.container(horizontal=True, key="handrow", gap=None):
        for i, x in enumerate(h.concealed):
            win, chosen = h.winning_index == i, hip.sel == Selection(i)
            flags = tile_flags(x.needs_check, win=win, selected=chosen)
            st.button(
                label(x.code, spoken(x.code, unsure=x.needs_check, win=win, selected=chosen)),
                key=f"tile_c{i}{flags}",
                on_click=_on_select,
                args=(Selection(i),),
                help=_help(x, win),
            )
        st.button(t("hand.add"), key="btn_add", on_click=_on_add_mode, icon=":material/add:", type="tertiary")
    kinds = [*_meld_kinds(hip.cond.variant), DISSOLVE]
    for j, m in enumerate(h.melds):
        with st.container(key=f"meld_{j}", horizontal=True, gap="small", vertical_alignment="center"):
            with st.container(horizontal=True, gap=None, width="content"):
                for i, x in enumerate(m.tiles):
                    chosen = hip.sel == Selection(i, j)
                    flags = tile_flags(x.needs_check, selected=chosen)
                    st.button(
                        label(x.code, spoken(x.code, unsure=x.needs_check, selected=chosen)),
                        key=f"tile_m{j}_{i}{flags}",
                        on_click=_on_select,
                        args=(Selection(i, j),),
                        help=_help(x, False),
                    )
            st.button(
                "",
                key=f"meldout_{j}",
                on_click=_on_meld_out,
                args=(j,),
                icon=":material/remove_circle:",
                help=t("hand.meld_out"),
                type="tertiary",
            )
            key = f"meldkind_{j}_{m.kind}_{lang()}"  # a new widget per language: it never holds a label
            st.selectbox(
                t("hand.meld_kind"),
                kinds,
                index=kinds.index(m.kind) if m.kind in kinds else 0,
                format_func=labels(kinds, lambda k: f"meld.{k}"),
                key=key,
                on_change=_on_meld_kind,
                args=(j, key),
                label_visibility="collapsed",
                width=190,
                placeholder=t("a11y.choose"),
            )
    with st.container(horizontal=True, vertical_alignment="bottom"):
        if load_rules(hip.cond.variant).bonus_tile is not None:
            key = f"bonus_{h.bonus_tiles}"
            bonus = t("hand.bonus")
            number_field(bonus, key, h.bonus_tiles, *COUNT, on_change=_on_bonus, args=(key,), width=190)
            if h.bonus_tiles:
                st.markdown(
                    row_html(["F"] * h.bonus_tiles, size="sm"), unsafe_allow_html=True, width="content"
                )
        st.button(t("hand.sort"), key="btn_sort", on_click=_on_sort, icon=":material/sort:")
        st.button(
            t("hand.undo"),
            key="btn_undo",
            on_click=session.undo,
            icon=":material/undo:",
            disabled=not hip.undo,
        )
    too_many_hint()
    if not over_full():
        _kong_hint()  # four alike in an over-full hand is no kong question: likely a discard
    if hip.sel is not None:
        _selected_panel()
    elif hip.picker == "add":
        _picker("add")
        _panel_message()
    typed_entry()


def _kong_hint() -> None:
    """Too many tiles and four alike standing: one tap makes them the kong they probably are."""
    h = session.hip().hand
    for i in h.kong_candidates():
        code = h.concealed[i].code
        with st.container(horizontal=True, vertical_alignment="center", key=f"konghint_{code}"):
            st.caption(t("hand.kong_hint", n=h.tile_count, extra=h.tile_count - 14, tile=name(code)))
            for kind in ("kong", "concealed_kong"):
                label_ = t("hand.make_kong", kind=t(f"meld.{kind}"))
                st.button(label_, key=f"mkkong_{kind}_{code}", on_click=_on_kong, args=(i, kind))


def _on_kong(index: int, kind: str) -> None:
    h = session.hip()
    h.set_hand(h.hand.with_meld(index, kind))
    h.deselect()


def _help(x: EditTile, win: bool) -> str:
    parts = [name(x.code)]
    if x.conf is not None:
        parts.append(t("hand.conf", conf=round(100 * x.conf)))
    if win:
        parts.append(t("hand.is_win"))
    return " · ".join(parts)


def _panel_message() -> None:
    msg = session.hip().panel_msg
    if msg is not None:
        show(msg)


def _selected_panel() -> None:
    h = session.hip()
    sel = h.sel
    if sel is None:  # nothing tapped
        return
    try:
        x = h.hand.at(sel)
    except IndexError:
        h.sel = None
        return
    with st.container(border=True, key="selpanel"):
        head = row_html([x.code], size="lg") + f" &nbsp;**{html.escape(_help(x, False))}**"
        st.markdown(head, unsafe_allow_html=True)
        _picker("change")
        with st.container(horizontal=True):
            if sel.standing:
                st.button(t("hand.set_win"), key="btn_setwin", on_click=_on_set_win, icon=":material/star:")
            out = x.detection is not None  # a tile of the photo goes back among its greyed tiles
            st.button(
                t("hand.take_out" if out else "hand.delete"),
                key="btn_del",
                on_click=_on_delete,
                icon=":material/remove:" if out else ":material/delete:",
            )
            st.button(t("hand.done"), key="btn_done", on_click=session.deselect, icon=":material/check:")
        if sel.standing:
            st.caption(t("hand.make_meld"))
            with st.container(horizontal=True):
                for k in _meld_kinds(h.cond.variant):
                    if k != "added_kong":
                        st.button(t(f"meld.{k}"), key=f"mk_{k}", on_click=_on_make_meld, args=(k,))
        _panel_message()  # under the meld buttons that refused: on a phone the panel's top is off screen
        show_panel(f"{sel.meld}-{sel.index}")


def _picker(mode: str) -> None:
    st.caption(t("hand.pick_change") if mode == "change" else t("hand.pick_add"))
    kinds = tile_kinds(session.hip().cond.variant)
    rows = [[k for k in kinds if parse_tile(k).suit == s] for s in (*SUITS, "z")]  # z: the honours
    with st.container(key=f"picker_{mode}"):
        for row in rows:
            with st.container(horizontal=True, gap=None):
                for code in row:
                    st.button(
                        label(code),
                        key=f"pick_{mode}_{code}",
                        on_click=_on_pick,
                        args=(mode, code),
                        help=name(code),
                    )
    if mode == "add":
        st.button(t("hand.done"), key="btn_add_done", on_click=session.deselect, icon=":material/check:")


# -- callbacks -------------------------------------------------------------------------------


def _on_select(where: Selection) -> None:
    session.hip().select(where)


def _on_add_mode() -> None:
    session.hip().open_picker()


def _on_pick(mode: str, code: str) -> None:
    h = session.hip()
    if mode == "add":
        if len(h.hand.tiles) >= MAX_TYPED_TILES:  # as typed: more is never a hand and only slows the page
            h.panel_msg = Flash("warning", "msg.typed_too_long", {"n": MAX_TYPED_TILES})
            return
        h.set_hand(h.hand.plus(code))  # a fifth copy too: the player may fix the misread one next
        n = sum(x.code == code for x in h.hand.tiles)
        if n > COPIES:
            h.panel_msg = Flash("warning", "hand.fifth_copy", {"tile": name_later(code), "n": n})
    elif h.sel is not None:
        h.set_hand(h.hand.with_tile(h.sel, code))
        h.sel = None


def _on_delete() -> None:
    h = session.hip()
    if h.sel is not None:
        h.set_hand(h.hand.without(h.sel))
    h.sel = None


def _on_set_win() -> None:
    h = session.hip()
    if h.sel is not None and h.sel.standing:
        h.set_hand(h.hand.with_winning(h.sel.index))
    h.sel = None


def _on_make_meld(kind: str) -> None:
    h = session.hip()
    if h.sel is None or not h.sel.standing:
        return
    try:
        hand = h.hand.with_meld(h.sel.index, kind)
    except EditRefused as refused:
        fields = {k: Flash("info", f"meld.{v}") if k == "kind" else v for k, v in refused.fields.items()}
        h.panel_msg = Flash("warning", refused.key, fields)  # a meld kind worded when drawn
        return
    h.set_hand(hand)
    h.sel = None


def _on_meld_kind(j: int, key: str) -> None:
    h = session.hip()
    h.set_hand(h.hand.with_meld_kind(j, ss[key]))
    h.sel = None


def _on_meld_out(j: int) -> None:
    """⊖ on a meld: its tiles back among the standing ones (the obvious action, issue 36 item 6);
    taking a photo's tiles out of the hand is each tile's own button, or its photo row's."""
    h = session.hip()
    if j < len(h.hand.melds):
        h.set_hand(h.hand.with_meld_kind(j, DISSOLVE))
    h.sel = None


def _on_bonus(key: str) -> None:
    h = session.hip()
    n = accept(ss[key], *COUNT)
    if n is not None:  # else the field says what is wrong, and the hand keeps its count
        h.set_hand(h.hand.with_bonus(n))


def _on_sort() -> None:
    h = session.hip()
    h.set_hand(h.hand.sorted())
    h.sel = None
