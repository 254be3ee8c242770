"""The app's ledger store (one per server process), the table as stored now, writes, and ledger
errors in the page language.

The store is `ledger.store.open_store()`: `JXMJ_DB`, or the SQLite file in the user's data
directory — the same database as `jxmj table`. Errors are translated by `LedgerError.code`
(`ledger.<code>` in the catalog); the English page shows the ledger's own sentence, which names
the hand and the seat.
"""

from __future__ import annotations

import streamlit as st

from app import photo_gate
from app.safe_text import md
from app.ui.flash import Flash, ledger_flash
from app.ui.hand.session import post
from app.ui.render.html import num
from app.ui.state import keys
from app.ui.state.table_cache import Replay, TableCache
from app.ui.state.table_view import TableView
from ledger import ConflictError, Ledger, LedgerError
from ledger.store import Store, TableRecord, default_url, open_store
from ledger.store.db import in_memory

__all__ = [
    "began",
    "begin_at",
    "begun_at",
    "error_text",
    "forget_begun",
    "is_begun",
    "money_line",
    "remember",
    "showed",
    "shown",
    "store",
    "table_changed",
    "table_now",
    "table_replay",
    "tables",
    "view",
    "write",
]


def view() -> TableView:
    """This session's `TableView`: the table replayed, the revisions shown and begun."""
    got = st.session_state.get(keys.TABLE_VIEW)
    if got is None:
        got = st.session_state[keys.TABLE_VIEW] = TableView()
    return got


@st.cache_resource(show_spinner=False)
def _open(url: str) -> Store:
    got = open_store(url)
    if not in_memory(got.engine.url):  # after a burst: its idle connections closed
        photo_gate.on_reclaim(got.engine.dispose)
    return got


def store() -> Store:
    """The process's store for the current ``JXMJ_DB``; raises :class:`LedgerError` (``StoreError``)."""
    return _open(default_url())


@st.cache_resource(show_spinner=False)
def tables() -> TableCache:
    """The process's tables, replayed once per revision for all its sessions
    (`app.ui.state.table_cache`)."""
    return TableCache()


def table_now(code: str) -> tuple[TableRecord, Ledger]:
    """Table `code` as stored now, and its (lenient) replay (:func:`table_replay`)."""
    got = table_replay(code)
    return got.rec, got.ledger


def table_replay(code: str) -> Replay:
    """Table `code` as stored now and its replay: read and replayed once per revision of the table
    for every session of the process, not on every run of the page nor once per phone — each run
    asks only for the table's revision (`Store.revision`, one row); another phone's write, through
    any process, bumps it, and the next run reads the table again. Raises :class:`LedgerError`
    (``table_not_found``, ``StoreError``)."""
    url, revision, mine = default_url(), store().revision(code), view()
    got = mine.cached(url, code, revision)
    if got is None:
        got = tables().load(url, code, revision, lambda: _read(code))
        mine.keep(got)
    return got


def _read(code: str) -> tuple[TableRecord, Ledger]:
    rec = store().get(code)
    return rec, rec.ledger()


def remember(rec: TableRecord, hands, ledger: Ledger) -> None:
    """After a write claimed at ``rec.revision`` (the store bumps it by one): keep the table's
    `hands` now and `ledger`, the replay the write returned, for :func:`table_now` — the run
    after a record, an undo or an edit does not read and replay the table again, on any phone
    this process serves."""
    now = TableRecord(rec.table, tuple(hands), rec.revision + 1)
    view().keep(tables().put(default_url(), now, ledger))


def showed(rec: TableRecord) -> None:
    """At the end of a run: the page showed the table at ``rec.revision``."""
    view().showed(rec.table.code, rec.revision)


def shown(rec: TableRecord) -> int:
    """The revision this phone showed before the tap that reran the page (a write checks it:
    another phone's write in between is a conflict, not a write on top of a table never seen)."""
    return view().shown_at(rec.table.code, rec.revision)


def began(code: str, action: str, keep: bool = False) -> None:
    """The player began `action` (e.g. ``"edit"``: opened the edit panel, chose the hand) on
    table `code` as this phone shows it now; a widget callback (before the run rereads the table).
    `keep`: an action already begun stays begun where it was (a field of the edit's form: the
    edit began when the panel was opened, not at its last tap)."""
    view().began(code, action, keep)


def begin_at(code: str, action: str, revision: int) -> None:
    """`action` on table `code` was begun at `revision` (an edit's draft read back says where)."""
    view().begin_at(code, action, revision)


def is_begun(code: str, action: str) -> bool:
    return view().is_begun(code, action)


def begun_at(rec: TableRecord, action: str) -> int:
    """The revision `action` checks: the one this phone showed when the player began it
    (:func:`began`), else the one it showed before this tap (:func:`shown`)."""
    return view().begun_at(rec.table.code, action, shown(rec))


def forget_begun(code: str, action: str) -> None:
    """`action` on table `code` was written, refused or dropped: the next one begins on the
    table shown from then on."""
    view().forget(code, action)


def money_line(seats, deltas, name=md) -> str:
    """One hand's money by seat name: "李四 +3 · 王五 -3" (names inert Markdown, unless `name`
    is ``str``: a :class:`Flash` field makes the whole line inert itself)."""
    return " · ".join(f"{name(seats[s])} {'+' if d > 0 else ''}{num(d)}" for s, d in enumerate(deltas) if d)


def table_changed(code: str, where: str, key: str, hand: object = None) -> Flash:
    """The table changed under this phone: the catalog sentence `key` — what was not written
    (`hand`: the hand an edit changed), what the table holds now (read again: its hands and the
    money of its last hand, or for an edit of the hand edited: ``table.changed_edit``, or
    ``table.changed_edit_gone`` when another phone took that hand back) and what the player may do."""
    rec, ledger = table_now(code)
    n = len(rec.hands)
    number = hand if isinstance(hand, int) else 0
    edit = key == "table.changed_edit" and number > 0
    shown_hand = number if edit else n  # an edit: the money of the hand it changes, as it is now
    if edit and number > n:
        key = "table.changed_edit_gone"
    deltas = ledger.outcomes[shown_hand - 1].deltas if 0 < shown_hand <= len(ledger.outcomes) else ()
    money = money_line(rec.table.seats, deltas, str)
    return Flash("warning", key, {"n": n, "money": money or "0", "hand": hand}, where=where)


def error_text(e: LedgerError) -> str:
    """One sentence for a ledger error, in the page language (`app.ui.flash.ledger_flash`): on
    the English page the ledger's own sentence (inert Markdown: it may quote a seat name or typed
    text), else the catalog's by code."""
    return ledger_flash(e).text()


def write(
    action,
    where: str,
    ok: str | None = None,
    code: str | None = None,
    changed: str = "table.changed",
    **fields,
) -> bool:
    """Run a store write; on success post the catalog message `ok` (with `fields`) and rerun, on a
    ledger error post why — both for `where`, beside the button that made them (`app.ui.flash`).
    A conflict on table `code` (another phone wrote since this one showed the table) is the
    sentence `changed`: what was not written, what the table holds now, what the player may do
    (the record's ``table.changed``; ``table.changed_edit`` / ``_undo`` / ``_lock``); what the
    player entered is kept."""
    try:
        action()
    except ConflictError as e:
        post(table_changed(code, where, changed, fields.get("n")) if code else ledger_flash(e, where))
        st.rerun()
    except LedgerError as e:
        post(ledger_flash(e, where))
        st.rerun()
    if ok:
        post(Flash("success", ok, fields, where=where))
    st.rerun()
    return True  # pragma: no cover - st.rerun() does not return
