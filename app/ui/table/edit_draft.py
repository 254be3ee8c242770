"""The edit panel's choices (修改某一把) as a draft, so a reload loses nothing entered to correct
a recorded hand.

One draft per phone and table, ``edit:CODE:TOKEN`` in the drafts' store (`app.drafts`; apart from
the hand in progress, ``table:CODE:TOKEN``, which the other phones read as "entering a hand"):
``{"v": 1, "n": hand number, "begun": revision, "form": {field: value}}`` — the hand being
changed, the table's revision the edit began on (a save after a reload still checks it: another
phone's write since is a conflict, never overwritten) and the form's fields that differ from the
recorded hand (:data:`FIELDS`). Written on the run after each change, deleted when the edit is
saved or dropped, or when the form is back to the recorded hand. A new session (a reload) reads
it once: the panel opens on that hand with those choices and says so.
"""

from __future__ import annotations

import logging
from typing import Any

import streamlit as st

from app.ui import drafting
from app.ui.state import keys
from app.ui.state.edit_choices import EditChoices
from app.ui.state.edit_form import EDIT_KINDS, FIELDS, SELF
from app.ui.table.db import begin_at, view
from ledger import LedgerError
from ledger.model import MAX_NOTE_CHARS

ss = st.session_state
log = logging.getLogger("jxmj.app")

__all__ = [
    "EDIT_KINDS",
    "FIELDS",
    "SELF",
    "VERSION",
    "choices",
    "clear",
    "form_of",
    "restore",
    "save",
    "valid",
]

VERSION = 1


def choices() -> EditChoices:
    """This session's `EditChoices` (made on first use)."""
    if keys.EDIT not in ss:
        ss[keys.EDIT] = EditChoices()
    return ss[keys.EDIT]


def _key(code: str) -> str:
    return f"edit:{code}:{drafting.phone_token()}"


def valid(name: str, value: Any) -> bool:
    """Whether `value` is one field `name` can hold (a draft is read back only when every
    field is)."""
    if name == "ed_kind":
        return value in EDIT_KINDS
    if name in ("ed_w", "ed_d"):
        return type(value) is int and (SELF if name == "ed_d" else 0) <= value <= 3
    if name == "ed_note":
        return type(value) is str and len(value) <= MAX_NOTE_CHARS
    if name.startswith(("ed_ke", "ed_kc")):
        return type(value) is int and 0 <= value <= 4
    return type(value) is bool


def form_of(data: Any) -> tuple[int, int | None, dict[str, Any]] | None:
    """``(hand number, begun revision, fields)`` of a stored draft, or None when it does not
    read back (another version, an unknown field, a value out of range).

    >>> form_of({"v": 1, "n": 2, "begun": 5, "form": {"ed_w": 3, "ed_f": True}})
    (2, 5, {'ed_w': 3, 'ed_f': True})
    >>> form_of({"v": 1, "n": 2, "begun": 5, "form": {"ed_w": 4}}) is None
    True
    """
    if not isinstance(data, dict) or data.get("v") != VERSION:
        return None
    n, begun, form = data.get("n"), data.get("begun"), data.get("form")
    if type(n) is not int or n < 1 or not isinstance(form, dict):
        return None
    if begun is not None and type(begun) is not int:
        return None
    if set(form) - set(FIELDS) or not all(valid(k, v) for k, v in form.items()):
        return None
    return n, begun, form


def restore(code: str, hands: int, widget_key) -> int | None:
    """Once per session and table: the stored draft's edit put back — the panel open
    (``tw_edit_open``) on its hand (``tw_edit_n``), its fields in the widgets' keys
    (``widget_key(field, n)``), the edit begun on the draft's revision, the hand noted in
    `EditChoices.restored` — or, when its hand is no longer on the table (`hands` now: another phone
    took it back), the draft deleted and that hand's number returned, to be said."""
    c = choices()
    if not c.note_read(code):
        return None
    try:
        got = drafting.store().load(_key(code))
    except LedgerError as e:
        log.warning("edit draft of %s not read: %s", code, e)
        return None
    back = form_of(got[0]) if got else None
    if got is None or back is None:
        return None
    n, begun, form = back
    if n > hands:
        clear(code)
        return n
    ss[keys.EDIT_OPEN], ss[keys.EDIT_N] = True, float(n)
    for name, value in form.items():
        ss[widget_key(name, n)] = value
    if begun is not None:
        begin_at(code, "edit", begun)
    c.restored[code] = n
    c.saved[code] = got[0]
    return None


def save(code: str, n: int, form: dict[str, Any], defaults: dict[str, Any], revision: int) -> None:
    """Write the edit of hand `n` when it changed since last written: the fields of `form` that
    differ from `defaults` (the recorded hand), begun on the revision the edit checks
    (`db.begun_at`, else `revision`: the table this run shows). None differs: no draft."""
    changed = {k: v for k, v in form.items() if k in defaults and v != defaults[k]}
    c = choices()
    if not changed:
        if c.saved.get(code) is not None:
            clear(code)
        return
    begun = view().begun_at(code, "edit", revision)
    data = {"v": VERSION, "n": n, "begun": begun, "form": changed}
    if c.saved.get(code) == data:
        return
    try:
        drafting.store().save(_key(code), data)
    except LedgerError as e:  # never fails the page
        log.warning("edit draft of %s not saved: %s", code, e)
        return
    c.saved[code] = data


def clear(code: str) -> None:
    """Forget the edit's draft (saved, dropped, or its hand gone) and the "brought back" note."""
    choices().forget(code)
    try:
        drafting.store().delete(_key(code))
    except LedgerError as e:
        log.warning("edit draft of %s not deleted: %s", code, e)
