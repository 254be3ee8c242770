"""One line on the 牌局 page while another phone enters a hand on this table: "Another phone is
entering 张三's win" — the winner that phone has chosen (a phone belongs to no seat: the line never
names its owner), else "another phone is entering a hand" — read from the other
phones' drafts (`app.drafts`) saved in the last few minutes; this phone's own draft never counts,
nor a draft with nothing entered (a phone that only opened the table)."""

from __future__ import annotations

import logging

import streamlit as st

from app.safe_text import md
from app.ui import drafting
from app.ui.i18n import t
from app.ui.state import draft
from ledger import LedgerError

__all__ = ["RECENT_SECONDS", "entering", "others_line"]

log = logging.getLogger("jxmj.app")
RECENT_SECONDS = 5 * 60  # a draft saved longer ago is a phone put away, not one entering a hand


def entering(code: str, own_key: str, seats) -> list[str | None]:
    """For each other phone entering a hand on table `code` (newest first): the name of the
    winner its draft has chosen (a seat of `seats`), or None when it has chosen none."""
    try:
        found = drafting.store().recent(f"table:{code}:", own_key, RECENT_SECONDS)
    except LedgerError as e:  # the page works without the line
        log.warning("other phones' drafts of table %s not read: %s", code, e)
        return []
    out: list[str | None] = []
    for data in found:
        h = draft.from_json(data)
        if h is None:
            continue
        choices = h.table
        if h.hand.is_empty and (choices is None or not choices.begun):
            continue  # opened the table, entered nothing
        winner = None if choices is None else choices.winner
        out.append(seats[winner] if isinstance(winner, int) and 0 <= winner < len(seats) else None)
    return out


def others_line(code: str, own_key: str, seats) -> None:
    """The line, in the page's language (nothing when no other phone is entering a hand)."""
    found = entering(code, own_key, seats)
    if not found:
        return
    names = list(dict.fromkeys(md(n) for n in found if n is not None))  # names inert in Markdown
    if len(found) == 1:
        text = t("table.other_phone", who=names[0]) if names else t("table.other_phone_anon")
    else:
        who = t("list.sep").join(names) if names else t("table.other_phone_who_anon")
        text = t("table.other_phones", n=len(found), who=who)
    st.caption(f'<span id="jx-others">{text}</span>', unsafe_allow_html=True)
