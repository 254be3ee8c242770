"""Drafts in the database (`app.drafts`): the hand in progress is saved after every change and
read back on a new session, so a reload or a locked phone loses nothing.

Each phone has a token, issued by the server on its first visit (only issued tokens open a
draft; drafts expire, are capped per phone and in all, idle ones go first: `app.drafts.policy`;
at most `app.drafts.ratelimit.MOST` new tokens per client address, past it no draft) and kept
by its browser, never in its address: a cookie (:data:`COOKIE`, :func:`keep_cookie`; a reload
sends it back; nothing a player copies or shares carries it, so each phone gets its own).
Keys: ``table:CODE:TOKEN`` for this phone's hand on a table — another phone's taps never
overwrite it — and ``token:TOKEN`` for the single-hand page. The photo is kept as its
original bytes (one over 8 MiB re-encoded smaller first: `app.drafts.photo`), stored once per photo
(`app.drafts.table.photos`), with the boxes the player saw in the draft (`app.ui.state.draft_boxes`):
a restored draft shows its photo with those boxes, never read again (the bytes kept may be a smaller
copy, and the reader or the set's learned tiles may have changed: other boxes, in another order, and
a fixed tile's box number would name another tile).

A save the database refuses (busy: another writer, every pooled connection in use) is tried again
(`RETRY_S`); still refused, the page says so (``draft.not_saved``: a reload would lose the hand),
and the next run tries again: the hand in progress is never dropped and never lost silently.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from typing import TypeVar

import streamlit as st

from app import photo_gate
from app.drafts import KEEP, DraftStore, open_drafts
from app.drafts.ratelimit import Limiter, client_of, most
from app.ui import restored_photo, services
from app.ui.flash import Flash, ledger_flash, show
from app.ui.hand import session
from app.ui.state import draft, keys
from ledger import LedgerError
from ledger.codes import new_code, normalize_code
from ledger.store import default_url
from ledger.store.db import in_memory

ss = st.session_state
log = logging.getLogger("jxmj.app")
R = TypeVar("R")
RETRY_S = (0.15, 0.5)
"""The pauses before the second and third try of a draft write the database refused."""
COOKIE = "jxmj_d"
"""The cookie that keeps a phone's token in its browser (never in the address)."""
COOKIE_DAYS = 30
REFUSED = ("draft_too_large", "drafts_full")
"""A draft refused by its quotas (`app.drafts.policy`), not by a busy database: not tried again."""

__all__ = [
    "begun",
    "clear",
    "keep_cookie",
    "phone_token",
    "photo_data",
    "restore",
    "save",
    "single_hand_key",
    "table_key",
]


def _tried(write: Callable[[], R]) -> R:
    """`write()`, tried again after each pause of :data:`RETRY_S` while the database refuses it
    (a :class:`LedgerError` other than ``draft_too_large``, ``drafts_full``); the last refusal is
    raised."""
    for pause in RETRY_S:
        try:
            return write()
        except LedgerError as e:
            if e.code in REFUSED:
                raise
            time.sleep(pause)
    return write()


@st.cache_resource(show_spinner=False)
def _limiter() -> Limiter:
    return Limiter(most())


def _client() -> str | None:
    """The client's address (`app.drafts.ratelimit.client_of`; None: the box's own user, not
    limited)."""
    headers = st.context.headers
    forwarded = headers.get("X-Forwarded-For") if headers else None
    return client_of(getattr(st.context, "ip_address", None), forwarded)


def _issue() -> str:
    """A fresh token, issued and stored, unless this client had too many new ones lately
    (`app.drafts.ratelimit`): then an unstored one, and this session keeps no draft."""
    client = _client()
    if client is not None and not _limiter().allow(client):
        log.warning("no draft token issued: too many new ones from %s", client)
        ss[keys.DRAFTS_OFF] = True
        show(Flash("warning", "draft.too_many_tokens"), toast=True)
        return new_code()
    return _tried(lambda: store().issue())


@st.cache_resource(show_spinner=False)
def _open(url: str) -> DraftStore:
    got = open_drafts(url)
    if not in_memory(got.engine.url):  # after a burst: its idle connections closed
        photo_gate.on_reclaim(got.engine.dispose)
    return got


def store() -> DraftStore:
    """The process's draft store for the current ``JXMJ_DB``; raises :class:`LedgerError`."""
    return _open(default_url())


def _cookie_token() -> str:
    """The token this browser keeps (the cookie :data:`COOKIE`, sent with the page's connection),
    "" for none."""
    return st.context.cookies.get(COOKIE, "") or ""


def phone_token() -> str:
    """This phone's token: the one its browser keeps (the cookie :data:`COOKIE`, written by
    :func:`keep_cookie`) when the server issued it and a draft of it lives (`app.drafts.policy`),
    else a fresh one issued now; kept in the session (checked once per session and token), so a
    page switch carries it. Never in the address: a ``?d=`` (an older release's, or an address
    copied from another phone) is dropped unread, so a copied address opens a fresh draft of its
    own; a token nobody issued never opens another phone's draft."""
    if "d" in st.query_params:
        del st.query_params["d"]
    token = ss.get(keys.DRAFT_TOKEN) or _cookie_token()
    if ss.get(keys.DRAFT_TOKEN) != token:
        try:
            token = normalize_code(token)
            known = store().known(token)
        except LedgerError:
            known = False
        if not known:
            try:
                token = _issue()
            except LedgerError as e:  # no store: the page works without a draft
                log.warning("no draft token issued: %s", e)
                token = new_code()
        ss[keys.DRAFT_TOKEN] = token
    return token


_COOKIE_JS = """<span class="jx-script"></span><script>
(() => {
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = "%(name)s=%(token)s; Path=/; Max-Age=%(age)d; SameSite=Strict" + secure;
})();
</script>"""


def keep_cookie() -> None:
    """Have the browser keep this session's token (the cookie :data:`COOKIE`, for
    :data:`COOKIE_DAYS`; a reload sends it back): a script drawn once per run, taking no room."""
    token = ss.get(keys.DRAFT_TOKEN)
    if not token or not token.isalnum() or ss.get(keys.DRAFTS_OFF):  # a code: letters and digits
        return
    age = int(COOKIE_DAYS * 86400)
    st.html(_COOKIE_JS % {"name": COOKIE, "token": token, "age": age}, unsafe_allow_javascript=True)


def single_hand_key() -> str:
    """The draft key of the single-hand page."""
    return f"token:{phone_token()}"


def table_key(code: str) -> str:
    """This phone's draft key on table `code`. The one draft a table had before phones had their
    own (``table:CODE``) becomes the first phone's that opens the table."""
    key = f"table:{code}:{phone_token()}"
    if not ss.get(keys.took(key)):
        ss[keys.took(key)] = True
        try:
            store().take(f"table:{code}", key)
        except LedgerError as e:
            log.warning("draft table:%s not moved: %s", code, e)
    return key


def save(key: str) -> None:
    """Write the hand in progress as its draft when it changed since it was last written or
    read: the object as a whole (`draft.to_json`), its photo's bytes when the photo is new. A
    refused write is tried again (`_tried`); still refused, it is logged and the page says the
    draft was not saved (``draft.not_saved``, or the draft's own error), the hand kept for the
    next run to save."""
    h = session.hip()
    if not h.started or ss.get(keys.DRAFTS_OFF):
        return
    data = draft.to_json(h)
    if h.is_saved(key, data):
        return
    try:
        blob = h.photo_bytes if h.photo_unsaved else KEEP
        _tried(lambda: store().save(key, data, blob, digest=h.photo_digest if blob is not KEEP else None))
    except LedgerError as e:
        log.warning("draft %s not saved: %s", key, e)
        said = ledger_flash(e) if e.code in REFUSED else Flash("warning", "draft.not_saved")
        show(said, toast=True)
        return
    h.mark_saved(key, data)


def begun(key: str) -> None:
    """The hand in progress, just begun, counts as written under `key`: the next change is (a page
    whose begin a reload repeats, the score page's sample; issue 37: no write on a phone's first run)."""
    h = session.hip()
    h.mark_saved(key, draft.to_json(h))


def restore(key: str) -> bool:
    """Start the hand in progress from the stored draft (its photo, from the bytes kept or the
    sample's, shown with the boxes kept; read again for a draft without them); False when there is
    none, or it does not read back."""
    try:
        got = _tried(lambda: store().load(key))
    except LedgerError as e:
        log.warning("draft %s not read: %s", key, e)
        return False
    back = draft.from_json(got[0]) if got else None
    if got is None or back is None:
        return False
    blob = got[1]
    h = session.hip()
    h.start(back.hand, back.cond, back.table)
    src = back.photo_src
    boxes = draft.photo_boxes(got[0])
    photo_bytes = blob or _sample_bytes(src, boxes)
    photo = None
    if photo_bytes:
        try:  # the boxes the player saw; a draft without them (an older release's): read again
            photo = (
                restored_photo.shown(photo_bytes, *boxes)
                if boxes is not None
                else services.read_photo(photo_bytes, **services.photo_refs())  # the table's set, if any
            )
        except Exception:  # no vision stack, or the photo no longer reads: the hand is kept
            log.warning("draft %s: photo not read again", key, exc_info=True)
    kept = {"photo_src": src, **({"boxes": got[0]["boxes"]} if "boxes" in got[0] else {})}
    h.photo_restored(photo, src, blob, kept if photo_bytes else None)  # not shown: kept for the next save
    h.learned = back.learned  # the score page's learning of this hand, done or forgotten
    h.mark_saved(key, draft.to_json(h))  # as save() will make it
    return True


def _sample_bytes(src: str, boxes) -> bytes | None:
    """The bundled sample's bytes for a draft of it (the store keeps none): read as the sample, or a
    hand typed over it (`photo_src` "typed", its boxes the sample's digest); else None."""
    if src not in ("sample", "typed"):
        return None
    data = services.sample_photo()
    if src == "sample" or data is None:
        return data
    return data if boxes is not None and boxes[2] == hashlib.sha256(data).hexdigest() else None


def photo_data() -> bytes | None:
    """The bytes the photo of the hand in progress was read from (an upload or a camera shot),
    or None: kept in the session until its draft holds them, then read back from the store
    (`HandInProgress.photo_stored`; issue 37: a session no longer holds its phone's photos
    for the 2 minutes Streamlit keeps it after the phone left)."""
    h = session.hip()
    if h.photo_bytes is not None or not h.photo_stored or h.saved is None:
        return h.photo_bytes
    key = h.saved[0]
    try:
        got = _tried(lambda: store().load(key))
    except LedgerError as e:
        log.warning("draft %s: photo not read back: %s", key, e)
        return None
    return got[1] if got else None


def clear(key: str) -> None:
    """Forget the draft (the hand was recorded)."""
    try:
        store().delete(key)
    except LedgerError as e:
        log.warning("draft %s not deleted: %s", key, e)
    session.hip().forget_saved(key)
