"""The 牌局 page's facts of a hand besides its tiles and its winner: 九江 跟庄, 新余 kongs of the
other players (DECISIONS §1.6, §2), the hand's note — drawn bound to the hand's `TableChoices`
(`session.bind_choice`; a seat's kongs `bound`), and the typed `ledger.Hand` they record
(`hand_of`, the one place the page builds one)."""

from __future__ import annotations

import streamlit as st

from app.safe_text import md
from app.ui.hand import session
from app.ui.i18n import t
from app.ui.state import keys
from app.ui.state.progress import TableChoices
from ledger.model import MAX_NOTE_CHARS, Follow, Hand, Winner

__all__ = ["bound", "facts", "hand_of"]

ss = st.session_state


def bound(key: str, value):
    """Widget `key` drawn from a value of the hand's choices that is no field of its own (a
    seat's kongs; a field is drawn with `session.bind_choice`): its key set to `value` when
    missing (the browser takes that as the widget's value, so a fresh hand's widget never shows,
    nor sends back, the last hand's)."""
    if key not in ss:
        ss[key] = value
    return key


def facts(table, choices: TableChoices) -> None:
    """九江 跟庄 facts; 新余 kongs of the other players (DECISIONS §1.6, §2); the hand's note."""
    lr = table.ledger_rules
    if lr["follow.enabled"]:
        if session.bind_choice("followed", st.checkbox, t("table.followed"), help=t("table.followed_help")):
            session.bind_choice("dragon", st.checkbox, t("table.follow_dragon"))
            session.bind_choice("second", st.checkbox, t("table.follow_second"))
        else:
            choices.dragon = choices.second = False  # facts of a follow only
    if lr["kong_money.enabled"]:
        with st.expander(t("table.kongs")):
            for s in range(4):
                if s == choices.winner:
                    continue
                e, c = choices.kongs.get(s, (0, 0))
                cols = st.columns(2)
                e = cols[0].number_input(
                    t("table.kongs_exposed", name=md(table.seats[s])),
                    0,
                    4,
                    key=bound(keys.table_widget(f"ke{s}"), e),
                )
                c = cols[1].number_input(
                    t("table.kongs_concealed", name=md(table.seats[s])),
                    0,
                    4,
                    key=bound(keys.table_widget(f"kc{s}"), c),
                )
                choices.kongs[s] = (int(e), int(c))
    session.bind_choice(
        "note", st.text_input, t("table.note"), max_chars=MAX_NOTE_CHARS, placeholder=t("table.note_hint"),
        taken=lambda v: v or "",
    )  # fmt: skip


def hand_of(table, choices: TableChoices, kind: str, winners: tuple[Winner, ...] = ()) -> Hand:
    """The hand these choices record: a ``win`` by ``winners`` on ``choices.discarder``, a
    ``drawn`` hand (黄庄), or a ``false_win`` (炸糊) by ``choices.declarer``; with the 跟庄 and
    新余 kong facts where the table plays them (not on a 炸糊) and the note (none when nothing
    but spaces was entered)."""
    note = choices.note.strip()
    if kind == "false_win":
        return Hand("false_win", declarer=choices.declarer, note=note)
    lr = table.ledger_rules
    followed = lr["follow.enabled"] and choices.followed
    follow = Follow(True, choices.dragon, choices.second) if followed else Follow()
    kongs = {
        s: (e, c)
        for s, (e, c) in sorted(choices.kongs.items())
        if lr["kong_money.enabled"] and (e or c) and s != choices.winner
    }
    if kind == "drawn":
        return Hand("drawn", follow=follow, kongs=kongs, note=note)
    return Hand("win", winners, choices.discarder, follow=follow, kongs=kongs, note=note)
