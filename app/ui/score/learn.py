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
  once (`identity`; done — taught, found taught or forgotten — it is `HandInProgress.learned`,
  kept in the draft: a reload neither teaches again a hand taught nor one the player forgot).
- **Said.** One line under the photo: how many tiles were just learned, with 忘掉 / Forget, which
  drops that hand's references (`learned_line`).
- **Refused.** A hand is learned only once the store holds its references: a write the database
  refuses (busy, an error) is tried again on each of the next runs (`learned_line`), said on the
  page from its second refusal (``photo.refs_not_kept``), and given up after :data:`MOST_TRIES`
  (``photo.refs_given_up``).
- A phone without a draft (its address had too many new tokens: `keys.DRAFTS_OFF`) learns
  nothing; learning never fails the page (a reference that cannot be made or kept is logged).
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass

import streamlit as st

from app.drafts import refs as P
from app.ui import drafting, refsets, services
from app.ui.hand.session import hip
from app.ui.i18n import t
from app.ui.state import keys
from ledger import LedgerError
from ledger.store.refs import MAX_REFS_PER_HAND, TableRef
from scoring import ScoreResult

ss = st.session_state
log = logging.getLogger("jxmj.app")

__all__ = [
    "MOST_TRIES",
    "Unkept",
    "before_next_photo",
    "current",
    "forget",
    "identity",
    "learned_line",
    "reading",
]

MAX_UNKEPT = 3
"""Hands whose references a refused write left, kept to write again (the oldest dropped)."""
SAY_AFTER = 2
"""Refused writes of a hand before the page says its tiles are not kept (the first may be a moment's)."""
MOST_TRIES = 5
"""Refused writes of a hand before it is given up."""


@dataclass(slots=True, eq=False)
class Unkept:
    """A hand's references the store refused (busy, an error), written again on the next runs:
    `token` the phone's, `seen` the hand's `identity`, `failures` refused writes so far, `fresh`
    refused in this run (tried again from the next)."""

    token: str
    seen: str
    refs: tuple[TableRef, ...]
    failures: int = 0
    fresh: bool = False


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


def identity(h) -> str:
    """The photo hand on the page (`h`, a `HandInProgress` with a photo) as a digest: its photo
    (`Photo.digest`, the bytes first read), its boxes as the draft keeps them (to 0.1 px:
    `app.ui.state.draft_boxes`) and each tile's code and box number — the same after a reload,
    whatever bytes the draft keeps. A hand is learned once: `HandInProgress.learned`, kept in the
    draft."""
    photo = h.photo
    boxes = tuple((tuple(round(float(v), 1) for v in d.xyxy), d.tile) for d in photo.result.detections)
    tiles = tuple((x.code, x.detection) for x in h.hand.tiles)
    return hashlib.sha256(repr((photo.digest, boxes, tiles)).encode()).hexdigest()[:32]


def fixed_or_doubted(hand, result) -> bool:
    """Whether `hand` (an `EditHand`) holds a tile of a box of `result` (a `DetectResult`) that
    the player renamed, or that the reader read in doubt (`Detection.uncertain`)."""
    dets = result.detections
    for tile in hand.tiles:
        k = tile.detection
        if isinstance(k, int) and 0 <= k < len(dets) and (dets[k].uncertain or dets[k].tile != tile.code):
            return True
    return False


def _unkept() -> list[Unkept]:
    return ss.get(keys.PHONE_UNKEPT, [])


def before_next_photo() -> None:
    """A new photo is about to be read: the hand on the page, read from a photo of the phone's
    set and scoring, is confirmed; its photo tiles are kept as the phone's references."""
    h = hip()
    token = _token()
    if token is None or h.photo is None or h.photo_src not in refsets.LEARNED_SOURCES:
        return
    seen = identity(h)
    if h.learned == seen or any(u.seen == seen for u in _unkept()):
        return  # learned, forgotten, or its write tried again on each run
    if not fixed_or_doubted(h.hand, h.photo.result):
        return
    if not isinstance(services.score_hand(h.hand, h.cond), ScoreResult):
        return
    refs = refsets.capped([refsets.taught_by_this_hand()], MAX_REFS_PER_HAND)
    if not refs:  # none made (no reader that embeds, the photo busy): tried with the next photo
        return
    u = Unkept(token, seen, tuple(refs))
    if not _keep(u):
        u.fresh = True  # tried again from the next run on
        ss[keys.PHONE_UNKEPT] = [*_unkept()[1 - MAX_UNKEPT :], u]


def _keep(u: Unkept) -> bool:
    """Write the references of `u` (its write tried again while the database is busy:
    `drafting._tried`); True once the store holds them (or held them already), the hand then
    learned. A refusal is counted in `u.failures` and logged."""
    try:
        batch = drafting._tried(lambda: P.add(drafting.store(), u.token, u.refs))
    except LedgerError as e:
        u.failures += 1
        log.warning("references of phone %s not kept (try %d): %s", u.token, u.failures, e)
        return False
    h = hip()
    if h.photo is not None and identity(h) == u.seen:  # still on the page (the next photo refused)
        h.learned = u.seen
    if batch:  # else taught already (a reload, another tab): nothing to forget
        ss[keys.PHONE_LEARNED] = (u.token, batch, refsets.tiles(u.refs))
    return True


def _retry() -> None:
    """Write again, once a run, the references a refused write left (`before_next_photo`); one
    refused :data:`MOST_TRIES` times is given up (logged, and said once)."""
    left = []
    for u in _unkept():
        if u.fresh:  # refused in this very run: tried again with the next
            u.fresh = False
        elif _keep(u):
            continue
        elif u.failures >= MOST_TRIES:
            log.warning("references of phone %s given up after %d tries", u.token, u.failures)
            ss[keys.PHONE_GAVE_UP] = True
            continue
        left.append(u)
    ss[keys.PHONE_UNKEPT] = left


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
    """One line: how many tiles of the phone's set the last hand taught, with 忘掉 beside it; a
    hand whose tiles the database refused is written again here, once a run, and said while it is
    not kept (``photo.refs_not_kept``; given up: ``photo.refs_given_up``)."""
    _retry()
    if any(u.failures >= SAY_AFTER for u in _unkept()):
        st.caption(t("photo.refs_not_kept"))
    if ss.pop(keys.PHONE_GAVE_UP, False):
        st.caption(t("photo.refs_given_up"))
    got = ss.get(keys.PHONE_LEARNED)
    if got is None or got[0] != _token():
        return
    with st.container(horizontal=True, vertical_alignment="center"):
        st.caption(t("photo.refs_learned", n=got[2]))
        st.button(t("photo.refs_forget"), key="btn_forget_refs", on_click=forget, type="tertiary")
