"""The reader learns the table's set: the tiles of every photo hand recorded at a table become
references of that set (`ledger.store.refs`), and the table's later photos are read with them
(`vision.refs`). What is learned and how it is read: `app.ui.refsets`, shared with the score
page (which learns the phone's set: `app.ui.score.learn`).

- **When.** A win read from a photo (upload or camera) is recorded: its photo tiles are kept with
  the table. Winners entered before on the same discard (一炮多响) are learned with the hand (`hold`);
  past `MAX_REFS_PER_HAND` the tiles that help most are kept, every winner's fixed ones first
  (`refsets.capped`).
- **Reading with them.** `reading(code)` puts the table's `RefSet` under
  `services.PHOTO_REFS` while the page takes photos; it is read from the store once per change
  of the table's references (`ref_state`: one indexed read per run).
- Learning never fails a record: a reference that cannot be made or kept is logged.
"""

from __future__ import annotations

import streamlit as st

from app.ui import refsets, services
from app.ui.i18n import t
from app.ui.refsets import LEARNED_SOURCES, embed, model_key, of_this_hand, photo_boxes, to_refset
from app.ui.state import keys
from app.ui.table.db import store
from ledger import LedgerError
from ledger.store import refs as R

ss = st.session_state
log = refsets.log
CACHE = keys.REFSET  # session: ((url, code, model, state), RefSet | None, count)

__all__ = [
    "LEARNED_SOURCES",
    "current",
    "embed",
    "forget",
    "hold",
    "learn",
    "learned_line",
    "model_key",
    "of_this_hand",
    "photo_boxes",
    "reading",
    "to_refset",
]


def current(code: str):
    """`(RefSet | None, count)`: table `code`'s references for the reader in use
    (`refsets.current`)."""
    return refsets.current(
        CACHE, f"table {code}", lambda: R.ref_state(store(), code), lambda m: R.table_refs(store(), code, m)
    )


def reading(code: str):
    """Inside: photos are read with table `code`'s references (`refsets.reading`)."""
    return refsets.reading(lambda: current(code)[0])


def learned_line(code: str) -> None:
    """One line: how many tiles of this table's set the reader has learned; shown once the reader
    is built in this process (by a photo: the page's first run builds no ONNX session for it)."""
    if services.reader_built() and refsets.reader() is not None:
        st.caption(t("table.refs_learned", n=current(code)[1]))


def _held_key(code: str) -> str:
    return f"tbl_refs_held:{code}"


def hold(code: str) -> None:
    """Keep this winner's tiles (`refsets.taught_by_this_hand`) until the hand with every winner
    is recorded (一炮多响)."""
    ss[_held_key(code)] = [*ss.get(_held_key(code), []), refsets.taught_by_this_hand()]


def learn(code: str, position: int, photo: bool = True) -> None:
    """After hand `position` was recorded: keep the references of its winners (`photo`: the hand
    in progress is its last winner; False for a drawn hand or a false win) with the table, within
    `MAX_REFS_PER_HAND` (`refsets.capped`: every winner's fixed tiles first); what an undone hand
    at that position left is dropped."""
    held = ss.pop(_held_key(code), [])
    winners = (
        [*held, refsets.taught_by_this_hand()] if photo else []
    )  # a drawn hand: the winners entered were not
    try:
        R.add_refs(store(), code, position, refsets.capped(winners, R.MAX_REFS_PER_HAND))
    except LedgerError as e:
        log.warning("references of table %s hand %s not kept: %s", code, position, e)


def forget(code: str, position: int) -> None:
    """Hand `position` was undone: its references go with it."""
    ss.pop(_held_key(code), None)
    try:
        R.drop_refs(store(), code, position)
    except LedgerError as e:
        log.warning("references of table %s hand %s not dropped: %s", code, position, e)
