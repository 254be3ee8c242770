"""The app's ledger store (one per server process) and ledger errors in the page language.

The store is `ledger.store.open_store()`: `JXMJ_DB`, or the SQLite file in the user's data
directory — the same database as `jxmj table`. Errors are translated by `LedgerError.code`
(`ledger.<code>` in the catalog); the English page shows the ledger's own sentence, which names
the hand and the seat.
"""

from __future__ import annotations

import streamlit as st

from app.safe_text import md
from app.ui.i18n import has, lang, t
from app.ui.messages import code_text
from ledger import Ledger, LedgerError
from ledger.store import Store, TableRecord, default_url, open_store

__all__ = ["error_text", "flash", "remember", "show_flashes", "store", "table_now", "write"]
REPLAY = "tbl_replay"  # session state: ((url, code, revision), TableRecord, Ledger) of the table shown


@st.cache_resource(show_spinner=False)
def _open(url: str) -> Store:
    return open_store(url)


def store() -> Store:
    """The process's store for the current ``JXMJ_DB``; raises :class:`LedgerError` (``StoreError``)."""
    return _open(default_url())


def table_now(code: str) -> tuple[TableRecord, Ledger]:
    """Table `code` as stored now, and its (lenient) replay: read and replayed once per revision
    of the table, not on every run of the page — each run asks only for the table's revision
    (`Store.revision`, one row); another phone's write bumps it, and the next run reads the table
    again. Raises :class:`LedgerError` (``table_not_found``, ``StoreError``)."""
    seen = st.session_state.get(REPLAY)
    if seen is not None and seen[0] == (default_url(), code, store().revision(code)):
        return seen[1], seen[2]
    rec = store().get(code)
    ledger = rec.ledger()
    remember(rec, ledger)
    return rec, ledger


def remember(rec: TableRecord, ledger: Ledger) -> None:
    """Keep `ledger`, the replay of `rec`, for :func:`table_now` (a write gives the replay of the
    table it leaves: the run after it does not replay the table again)."""
    st.session_state[REPLAY] = ((default_url(), rec.table.code, rec.revision), rec, ledger)


def error_text(e: LedgerError) -> str:
    """One sentence for a ledger error: the English sentence (inert Markdown: it may quote a seat
    name or typed text, `app.safe_text.md`), or the catalog's by code."""
    if lang() == "en":
        return md(e.message, limit=300)
    key = f"ledger.{e.code}"
    if has(key):
        return t(key)
    return code_text(e.code, e.message)  # a scoring code passed through (not_complete, fifth_copy …)


def flash(level: str, text: str, where: str = "top") -> None:
    """A message for the next run of the page (after a write and its rerun), drawn by
    :func:`show_flashes` at `where`: beside the button that made it, not a page's length away."""
    ss = st.session_state
    ss["tbl_flash"] = [*ss.get("tbl_flash", []), (where, level, text)]


def show_flashes(where: str | None = None) -> None:
    """Draw (and forget) the messages left for `where`; every one left when `where` is None.
    A success is a toast, seen wherever the page is scrolled (after 记这一手 the hand's sections
    empty and the buttons may be above the screen); an error stays beside its button."""
    ss = st.session_state
    keep = []
    for w, level, text in ss.get("tbl_flash", []):
        if where is None or w == where:
            if level == "success":
                st.toast(text, icon=":material/check_circle:")
            else:
                getattr(st, level)(text)
        else:
            keep.append((w, level, text))
    ss["tbl_flash"] = keep


def write(action, ok_text: str | None = None, where: str = "top") -> bool:
    """Run a store write; on success flash `ok_text` and rerun, on a ledger error flash why
    (both at `where`, see :func:`flash`)."""
    try:
        action()
    except LedgerError as e:
        flash("error", error_text(e) + (" " + t("ledger.reloaded") if e.code == "conflict" else ""), where)
        st.rerun()
    if ok_text:
        flash("success", ok_text, where)
    st.rerun()
    return True  # pragma: no cover - st.rerun() does not return
