"""What this session keeps of the tables it shows (`app.ui.table.db`): one typed cache instead
of three raw tuples in the session.

- `replay`: the table shown, replayed — read and replayed once per revision, not per run;
- `shown`: per table, the revision the page showed at the end of its last run (a write checks
  it: another phone's write in between is a conflict);
- `begun`: per table and action (``"edit"``), the revision shown when the player began it.

Pure: no Streamlit (the session holds one under `keys.TABLE_VIEW`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ledger import Ledger
from ledger.store import TableRecord

__all__ = ["Replay", "TableView"]


@dataclass(frozen=True, slots=True)
class Replay:
    """Table ``rec`` of database `url` at ``rec.revision``, and its (lenient) replay."""

    url: str
    rec: TableRecord
    ledger: Ledger

    def is_for(self, url: str, code: str, revision: int) -> bool:
        return (self.url, self.rec.table.code, self.rec.revision) == (url, code, revision)


@dataclass(slots=True)
class TableView:
    replay: Replay | None = None
    shown: dict[str, int] = field(default_factory=dict)
    begun: dict[tuple[str, str], int] = field(default_factory=dict)

    def cached(self, url: str, code: str, revision: int) -> tuple[TableRecord, Ledger] | None:
        """The replay kept of table `code` at `revision`, or None (read it again)."""
        r = self.replay
        return (r.rec, r.ledger) if r is not None and r.is_for(url, code, revision) else None

    def keep(self, url: str, rec: TableRecord, ledger: Ledger) -> None:
        self.replay = Replay(url, rec, ledger)

    def showed(self, code: str, revision: int) -> None:
        self.shown[code] = revision

    def shown_at(self, code: str, default: int) -> int:
        return self.shown.get(code, default)

    def began(self, code: str, action: str, keep: bool = False) -> None:
        """`action` begun on table `code` as shown now (`keep`: one begun already stays where it
        began). Nothing shown yet: nothing to begin on."""
        seen = self.shown.get(code)
        if keep and (code, action) in self.begun:
            return
        if seen is not None:
            self.begun[(code, action)] = seen

    def begin_at(self, code: str, action: str, revision: int) -> None:
        """`action` on table `code` begun at `revision` (a draft read back says where)."""
        self.begun[(code, action)] = revision

    def is_begun(self, code: str, action: str) -> bool:
        return (code, action) in self.begun

    def begun_at(self, code: str, action: str, default: int) -> int:
        return self.begun.get((code, action), default)

    def forget(self, code: str, action: str) -> None:
        self.begun.pop((code, action), None)
