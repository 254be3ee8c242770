"""Drafts in the database: the hand in progress is saved after every change and read back on a
new session, so a reload, a locked phone or a second phone on the same URL loses nothing.

Keys: ``table:CODE`` for a table's hand in progress, ``token:TOKEN`` for the single-hand page
(the token lives in its URL as ``?d=TOKEN``). The photo is kept as its original bytes and read
again on restore (detection is deterministic, so the boxes and every fix line up).
"""

from __future__ import annotations

import logging

import streamlit as st

from app.ui import services
from app.ui.score import session
from app.ui.table import draft
from app.ui.table.db import store
from ledger import LedgerError
from ledger.codes import new_code, normalize_code
from ledger.store.store import KEEP

ss = st.session_state
log = logging.getLogger("jxmj.app")

__all__ = ["after_photos", "before_photos", "restore", "save", "single_hand_key"]


def single_hand_key() -> str:
    """The draft key of the single-hand page: its URL token when the server issued it and its
    draft lives (`ledger.store.drafts`), else a fresh token issued now (put in the URL)."""
    token = st.query_params.get("d", "")
    if ss.get("draft_token") != token:  # checked once per session and token
        try:
            known = store().load_draft(f"token:{normalize_code(token)}") is not None
        except LedgerError:
            known = False
        if known:
            token = normalize_code(token)
        else:
            try:
                token = store().issue_draft_token()
            except LedgerError as e:  # no store: the page works without a draft
                log.warning("no draft token issued: %s", e)
                token = new_code()
            st.query_params["d"] = token
        ss["draft_token"] = token
    return f"token:{token}"


def before_photos() -> None:
    """Call before `take_new_photos`: keep the bytes of a photo about to be read."""
    ss["_photo_in"] = ss.get("pending_photo")


def after_photos() -> None:
    """Call after `take_new_photos`: remember the new photo's bytes for the draft."""
    photo = ss.get("photo")
    if photo is ss.get("_photo_obj"):
        return
    ss["_photo_obj"] = photo
    src = ss.get("photo_src")
    data = ss.pop("_photo_in", None)
    if data is None and src in ("upload", "camera"):
        widget = ss.get("camera" if src == "camera" else "uploader")
        data = widget.getvalue() if widget is not None else None
    ss["_photo_blob"] = bytes(data) if data and src in ("upload", "camera") else None
    ss["_photo_dirty"] = True


def save(key: str, choices: draft.TableChoices | None = None) -> None:
    """Write the draft when it changed (never fails the page: a store error is logged)."""
    if not session.started():
        return
    data = _draft(choices)
    dirty = ss.get("_photo_dirty", False)
    if ss.get(f"_draft:{key}") == data and not dirty:  # the draft as last written or read
        return
    try:
        store().save_draft(key, data, ss.get("_photo_blob") if dirty else KEEP)
    except LedgerError as e:
        log.warning("draft %s not saved: %s", key, e)
        return
    ss[f"_draft:{key}"] = data
    ss["_photo_dirty"] = False


def _draft(choices: draft.TableChoices | None) -> dict:
    """The draft of the hand in progress, as it is written (``draft.to_json`` and the photo's source)."""
    data = draft.to_json(ss.hand, ss.cond, choices)
    data["photo_src"] = ss.get("photo_src", "manual")
    return data


def restore(key: str) -> draft.TableChoices | None:
    """Start the session from the stored draft; its table choices, or None when there is none."""
    try:
        got = store().load_draft(key)
    except LedgerError as e:
        log.warning("draft %s not read: %s", key, e)
        return None
    state = draft.from_json(got[0]) if got else None
    if state is None:
        return None
    data, blob = got
    hand, cond, choices = state
    session.start(hand, cond)
    src = data.get("photo_src", "manual")
    photo_bytes = blob or (services.sample_photo() if src == "sample" else None)
    if photo_bytes:
        try:
            refs = ss.get(services.PHOTO_REFS)  # the table's set (`app.ui.table.refs`)
            ss.photo = services.read_photo(photo_bytes, **({"refs": refs} if refs is not None else {}))
            ss.photo_src = src
        except Exception:  # no vision stack, or the photo no longer reads: the hand is kept
            log.warning("draft %s: photo not read again", key, exc_info=True)
    ss["_photo_obj"], ss["_photo_blob"] = ss.photo, blob
    ss[f"_draft:{key}"] = _draft(choices if "table" in data else None)  # as save() will make it
    return choices


def clear(key: str) -> None:
    """Forget the draft (the hand was recorded)."""
    try:
        store().delete_draft(key)
    except LedgerError as e:
        log.warning("draft %s not deleted: %s", key, e)
    ss.pop(f"_draft:{key}", None)
