"""The 修改某一把 / Change a hand panel under the table's history: choose a recorded hand, change
its seats, 跟庄, 新余 kongs or note, turn it into a drawn hand, or put the hand in the editor in
its place; the ledger checks the new list and recomputes every later hand.

Every choice reaches the server as it is made (no `st.form`: a form's fields stay in the
browser until it is submitted, so a reload lost them) and is kept as a draft
(`app.ui.table.edit_draft`): a reload opens the panel again on the same hand with the same
choices and says so. The save checks the table's revision the edit began on: another phone's
write since is a conflict, said in the panel, and the choices stay to save again or drop.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypedDict

import streamlit as st

from app.safe_text import md
from app.ui.hand.numbers import number_field
from app.ui.hand.session import hip, show_posted, started
from app.ui.i18n import t
from app.ui.state import keys
from app.ui.state.edit_form import EDIT_KINDS, SELF, EditForm, kong_name
from app.ui.table import edit_draft
from app.ui.table.db import began, begun_at, forget_begun, is_begun, remember, store, write
from app.ui.table.seats import winner_entry
from ledger import Follow, Hand, Winner
from ledger.model import MAX_NOTE_CHARS

ss = st.session_state

__all__ = ["EDIT_KINDS", "drop_edit", "edit_key", "edit_panel", "restore"]


def restore(rec) -> None:
    """A reload: the edit entered before it put back (`edit_draft.restore`), or, when its hand
    is no longer on the table, said here until the player begins another edit."""
    if rec.table.locked:
        return
    code = rec.table.code
    gone = edit_draft.restore(code, len(rec.hands), edit_key)
    c = edit_draft.choices()
    if gone is not None:
        c.gone[code] = gone
    if is_begun(code, "edit"):
        c.gone.pop(code, None)
    if code in c.gone:
        st.warning(t("table.edit_gone", n=c.gone[code]))


class OnChange(TypedDict):
    """The callback keywords an edit's widgets take: the edit begun (`db.began`) at a change."""

    on_change: Callable[..., None]
    args: tuple[Any, ...]


def edit_panel(rec, ledger) -> None:
    """The panel (closed until opened; open while the page reruns, a refused save included)."""
    code, n = rec.table.code, len(ledger.outcomes)
    # opening the panel or choosing the hand begins the edit on the table shown then
    begin: OnChange = {"on_change": began, "args": (code, "edit")}
    with st.expander(t("table.edit"), key=keys.EDIT_OPEN, **begin):
        number = number_field(t("table.edit_which"), keys.EDIT_N, n, 1, n, **begin)
        if number is not None:  # else the field says the range
            if edit_draft.choices().restored.get(code) == number:
                st.info(t("table.edit_restored", n=number))
            _edit_form(rec, ledger.outcomes[number - 1])
        show_posted("edit")  # the edit's outcome under its form
        st.button(t("table.edit_drop"), key="tb_edit_drop", on_click=drop_edit, args=(code, n))


def drop_edit(code: str, last: int) -> None:
    """A callback: the edit entered on table `code` dropped — the panel closed, the hand chosen
    back to the `last`, every edit form drawn anew (keys of a new generation: a widget's value
    stays in the browser while its key does), its draft deleted."""
    ss[keys.EDIT_OPEN] = False
    ss[keys.EDIT_N] = float(last)  # as `number_field` keeps it
    edit_draft.choices().renew()
    forget_begun(code, "edit")
    edit_draft.clear(code)


def edit_key(name: str, n: int) -> str:
    """The key of edit form widget `name` of hand `n` in this generation (`drop_edit`)."""
    return edit_draft.choices().key(name, n)


def _kong_fields(table, key, field: OnChange) -> None:
    """新余 kongs of each seat (the winner's are not counted: its own hand shows them)."""
    with st.expander(t("table.kongs")):
        for seat in range(4):
            name = md(table.seats[seat])
            cols = st.columns(2)
            for col, x in zip(cols, ("exposed", "concealed"), strict=True):
                col.number_input(
                    t(f"table.kongs_{x}", name=name), 0, 4, key=key(kong_name(x[0], seat)), **field
                )


def _edit_form(rec, o) -> None:
    """The fields of hand `o`'s edit (each in the session under `edit_key`, starting at the
    recorded hand's value), its draft written, and its save."""
    table, h, n = rec.table, o.hand, o.number
    kongs = bool(table.ledger_rules["kong_money.enabled"])
    recorded = EditForm.of(h, kongs)  # the form as the recorded hand has it
    defaults = recorded.values()
    for name, value in defaults.items():  # each widget drawn bound: its key set when missing
        if edit_key(name, n) not in ss:
            ss[edit_key(name, n)] = value
    field: OnChange = {
        "on_change": began,
        "args": (table.code, "edit", True),
    }  # begun once: at its first change

    def key(name: str) -> str:
        return edit_key(name, n)

    with st.container(border=True, key=key("edit")):
        st.caption(t("table.edit_help"))
        st.segmented_control(
            t("table.edit_kind"), EDIT_KINDS, format_func=lambda k: t(f"table.edit_{k}"), key=key("ed_kind"),
            **field,
        )  # fmt: skip
        if recorded.single:
            st.selectbox(
                t("table.winner"), range(4), format_func=lambda s: table.seats[s], key=key("ed_w"),
                placeholder=t("a11y.choose"), **field,
            )  # fmt: skip

            def how(s):
                return t("cond.self_drawn") if s == SELF else table.seats[s]

            st.selectbox(
                t("table.how"), [SELF, 0, 1, 2, 3], format_func=how, key=key("ed_d"),
                placeholder=t("a11y.choose"), **field,
            )  # fmt: skip
            st.checkbox(t("table.edit_use_editor"), key=key("ed_use"), disabled=not started(), **field)
        st.checkbox(t("table.followed"), key=key("ed_f"), help=t("table.followed_help"), **field)
        st.checkbox(t("table.follow_dragon"), key=key("ed_fd"), **field)
        st.checkbox(t("table.follow_second"), key=key("ed_fs"), **field)
        st.text_input(t("table.note"), key=key("ed_note"), max_chars=MAX_NOTE_CHARS, **field)
        if kongs:
            _kong_fields(table, key, field)
        go = st.button(t("table.edit_save"), key=key("tb_edit"))
    form = recorded.with_values({name: ss.get(key(name)) for name in defaults})  # the widgets' values
    edit_draft.save(table.code, n, form.values(), defaults, rec.revision)
    if go:
        _save(rec, o, form)


def _new_hand(table, h: Hand, form: EditForm) -> Hand:
    """The hand `form` makes of the recorded hand `h`."""
    follow = Follow(form.followed, form.dragon and form.followed, form.second and form.followed)
    new = replace(h, follow=follow, note=form.note.strip(), recorded="")  # stamped again when saved
    discarder = None if form.discarder == SELF else form.discarder
    if form.kongs is not None:
        won = set() if form.kind == "drawn" else {form.winner} if form.single else {w.seat for w in h.winners}
        counts = {s: c for s, c in form.kongs.items() if s not in won}
        new = replace(new, kongs={s: c for s, c in counts.items() if any(c)})
    if form.kind == "drawn":
        return Hand("drawn", follow=new.follow, kongs=new.kongs, note=new.note)
    if form.single:
        winner = form.winner
        if form.use_editor:
            assert winner is not None  # the field starts at the recorded winner's seat
            entry = winner_entry(table, hip().hand, hip().cond, winner)
        else:  # 吃炮 facts belong to the old payers: kept only for the same winner and discarder
            entry = _moved(h.winners[0], winner, winner == h.winners[0].seat and discarder == h.discarder)
        new = replace(new, winners=(entry,), discarder=discarder)
    return new


def _save(rec, o, form: EditForm) -> None:
    """Save hand `o` as `form` makes it."""
    table, n = rec.table, o.number
    new = _new_hand(table, o.hand, form)

    def save() -> None:  # against the table shown when the edit began: another phone's write since
        # is a conflict; the form keeps what was entered, to save again on the table shown now
        try:
            hand, after = store().edit(
                table.code, n, new, expected=len(rec.hands), revision=begun_at(rec, "edit")
            )
        finally:
            forget_begun(table.code, "edit")
        remember(rec, (*rec.hands[: n - 1], hand, *rec.hands[n:]), after)  # the edit's own replay
        edit_draft.choices().renew()  # saved: the form drawn anew, from the hand as it is now
        edit_draft.clear(table.code)

    write(save, "edit", "table.edited", code=table.code, changed="table.changed_edit", n=n)


def _moved(w: Winner, seat: int | None, keep_eaten: bool) -> Winner:
    """Winner `w` at `seat`, its 吃炮 facts kept or dropped (also in the JSON it was read from,
    which `Winner.to_json` writes back as it was)."""
    assert seat is not None  # the field starts at the recorded winner's seat
    if keep_eaten:
        return replace(w, seat=seat)
    recorded = None if w.recorded is None else {**w.recorded, "eaten": {}}
    return replace(w, seat=seat, eaten={}, recorded=recorded)
