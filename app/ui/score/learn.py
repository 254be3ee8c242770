"""The score page learns the phone's set (`app.ui.refsets`; a table learns its own:
`app.ui.table.refs`).

- **When.** A hand read from a photo (upload or camera; never the bundled sample) that scores —
  a whole hand the player left as it is — and that the player **fixed** (a tile renamed) or whose
  reading was in doubt (a tile framed red, left or put right) is confirmed when the phone takes
  its next photo (a hand read right and sure teaches nothing new, and learning costs a decode and
  the classifier again on the server: `fixed_or_doubted`): just
  before that photo is read, the hand's photo tiles become references under the phone's token
  (`app.drafts.refs`), each with the code the player left it (`before_next_photo`). The next
  photo, and every later one of that phone, is read with them (`reading`). Each hand is learned
  once.
- **Said.** One line under the photo: how many tiles were just learned, with 忘掉 / Forget, which
  drops that hand's references (`learned_line`).
- A phone without a draft (its address had too many new tokens: `keys.DRAFTS_OFF`) learns
  nothing; learning never fails the page (a reference that cannot be made or kept is logged).
"""

from __future__ import annotations

import hashlib
import logging

import streamlit as st

from app.drafts import refs as P
from app.ui import drafting, refsets, services
from app.ui.hand.session import hip
from app.ui.i18n import t
from app.ui.state import keys
from ledger import LedgerError
from ledger.store.refs import MAX_REFS_PER_HAND
from scoring import ScoreResult

ss = st.session_state
log = logging.getLogger("jxmj.app")

__all__ = ["before_next_photo", "current", "forget", "learned_line", "reading"]


def _token() -> str | None:
    return None if ss.get(keys.DRAFTS_OFF) else drafting.phone_token()


def current():
    """`(RefSet | None, count)`: this phone's references for the reader in use."""
    token = _token()
    if token is None:
        return None, 0
    return refsets.current(
        keys.PHONE_REFSET,
        f"phone {token}",
        lambda: P.state(drafting.store(), token),
        lambda m: P.refs_of(drafting.store(), token, m),
    )


def reading():
    """Inside: photos are read with this phone's references."""
    return refsets.reading(lambda: current()[0])


def _identity(h) -> tuple[str, tuple[str, ...]]:
    """The photo (its preview's digest, not the photo: the session keeps no old photo) and the
    codes of the hand on it: a hand is learned once."""
    digest = hashlib.sha256(bytes(h.photo.preview_jpeg)).hexdigest()
    return digest, tuple(x.code for x in h.hand.tiles)


def fixed_or_doubted(hand, result) -> bool:
    """Whether `hand` (an `EditHand`) holds a tile of a box of `result` (a `DetectResult`) that
    the player renamed, or that the reader read in doubt (`Detection.uncertain`)."""
    dets = result.detections
    for tile in hand.tiles:
        k = tile.detection
        if isinstance(k, int) and 0 <= k < len(dets) and (dets[k].uncertain or dets[k].tile != tile.code):
            return True
    return False


def before_next_photo() -> None:
    """A new photo is about to be read: the hand on the page, read from a photo of the phone's
    set and scoring, is confirmed; its photo tiles are kept as the phone's references."""
    h = hip()
    token = _token()
    if token is None or h.photo is None or h.photo_src not in refsets.LEARNED_SOURCES:
        return
    seen = _identity(h)
    if ss.get(keys.PHONE_LEARNED_OF) == seen:
        return
    if not fixed_or_doubted(h.hand, h.photo.result):
        return
    if not isinstance(services.score_hand(h.hand, h.cond), ScoreResult):
        return
    refs = refsets.of_this_hand()[:MAX_REFS_PER_HAND]
    ss[keys.PHONE_LEARNED_OF] = seen
    if not refs:
        return
    try:
        batch = P.add(drafting.store(), token, refs)
    except LedgerError as e:
        log.warning("references of phone %s not kept: %s", token, e)
        return
    if not batch:  # taught already (a reload, another tab): nothing to forget
        return
    ss[keys.PHONE_LEARNED] = (token, batch, refsets.tiles(refs))


def forget() -> None:
    """Drop the references learned last (the player tapped 忘掉)."""
    got = ss.pop(keys.PHONE_LEARNED, None)
    if got is None:
        return
    token, batch, _n = got
    try:
        P.drop(drafting.store(), token, batch)
    except LedgerError as e:
        log.warning("references of phone %s not dropped: %s", token, e)


def learned_line() -> None:
    """One line: how many tiles of the phone's set the last hand taught, with 忘掉 beside it."""
    got = ss.get(keys.PHONE_LEARNED)
    if got is None or got[0] != _token():
        return
    with st.container(horizontal=True, vertical_alignment="center"):
        st.caption(t("photo.refs_learned", n=got[2]))
        st.button(t("photo.refs_forget"), key="btn_forget_refs", on_click=forget, type="tertiary")
