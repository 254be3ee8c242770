"""The tables this server process shows, replayed once per revision for every session (issue 37).

Eight phones opening a 2,000-hand table each read and replayed it in their own session; now the
first one reads and replays it (`TableCache.load`: the others wait for that one, not doing the
same work beside it) and every session of the process shares the result, with what is derived
from it (the chart's rows: `Replay.derived`).

Never stale: an entry is taken only for the exact ``(database, code, revision)`` the page has just
read from the database (`ledger.store.Store.revision`, one row, every run), and the store bumps a
table's revision in the same transaction as every write — whichever process or `jxmj table`
made it. A write through this process puts its own result in (`put`); one through another
process moves the revision, and the next run here reads the table again. Bounded: the
:data:`TABLES` most recently shown. Pure: no Streamlit (`app.ui.table.db` holds the process's one).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ledger import Ledger
from ledger.store import TableRecord

__all__ = ["TABLES", "Replay", "TableCache"]

TABLES = 16
"""Tables kept per process (a 2,000-hand table's replay is a few MB)."""


@dataclass(frozen=True, slots=True)
class Replay:
    """Table ``rec`` of database `url` at ``rec.revision``, and its (lenient) replay; `derived`:
    views made from it once for every session (`derive`)."""

    url: str
    rec: TableRecord
    ledger: Ledger
    derived: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def is_for(self, url: str, code: str, revision: int) -> bool:
        return (self.url, self.rec.table.code, self.rec.revision) == (url, code, revision)

    def derive(self, name: str, make: Callable[[], Any]) -> Any:
        """The view `name` of this replay: made by `make` the first time, then kept (a race makes
        it twice, harmlessly: the same value)."""
        got = self.derived.get(name)
        if got is None:
            got = self.derived[name] = make()
        return got


@dataclass(slots=True)
class TableCache:
    size: int = TABLES
    calls: int = 0  # replays made (`load` that read the table): for tests and the benchmark
    _kept: OrderedDict[tuple[str, str], Replay] = field(default_factory=OrderedDict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _loading: dict[tuple[str, str], threading.Lock] = field(default_factory=dict)

    def get(self, url: str, code: str, revision: int) -> Replay | None:
        """The replay of table `code` at `revision`, or None (not kept, or kept at another)."""
        with self._lock:
            got = self._kept.get((url, code))
            if got is None or not got.is_for(url, code, revision):
                return None
            self._kept.move_to_end((url, code))
            return got

    def put(self, url: str, rec: TableRecord, ledger: Ledger) -> Replay:
        """Keep `ledger`, the replay of `rec`, for every session (unless a later revision of that
        table is kept already: revisions only grow)."""
        new = Replay(url, rec, ledger)
        key = (url, rec.table.code)
        with self._lock:
            old = self._kept.get(key)
            if old is not None and old.rec.revision > rec.revision:
                return new
            if old is not None and old.rec.revision == rec.revision:
                return old  # the same table: keep the one whose views are made
            self._kept[key] = new
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                gone, _ = self._kept.popitem(last=False)
                self._loading.pop(gone, None)  # one still waiting on it reads the table itself
        return new

    def load(
        self, url: str, code: str, revision: int, read: Callable[[], tuple[TableRecord, Ledger]]
    ) -> Replay:
        """The replay of table `code` at `revision`: kept, else `read()` (the table as stored now
        and its replay) by one session while the others asking for the same table wait for it.
        `read` may return a later revision (written meanwhile): that one is kept and returned."""
        got = self.get(url, code, revision)
        if got is not None:
            return got
        with self._lock:
            gate = self._loading.setdefault((url, code), threading.Lock())
        with gate:
            got = self.get(url, code, revision)
            if got is not None:  # another session read it while this one waited
                return got
            rec, ledger = read()
            self.calls += 1
            return self.put(url, rec, ledger)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
