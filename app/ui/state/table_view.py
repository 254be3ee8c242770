"""What this session keeps of the tables it shows (`app.ui.table.db`): one typed cache instead
of three raw tuples in the session.

- `replay`: the table shown, replayed — read and replayed once per revision, not per run, and
  shared with the other sessions of the process (`app.ui.state.table_cache`);
- `shown`: per table, the revision the page showed at the end of its last run (a write checks
  it: another phone's write in between is a conflict);
- `begun`: per table and action (``"edit"``), the revision shown when the player began it.

Pure: no Streamlit (the session holds one under `keys.TABLE_VIEW`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.ui.state.table_cache import Replay

__all__ = ["TableView"]


@dataclass(slots=True)
class TableView:
    replay: Replay | None = None
    shown: dict[str, int] = field(default_factory=dict)
    begun: dict[tuple[str, str], int] = field(default_factory=dict)

    def cached(self, url: str, code: str, revision: int) -> Replay | None:
        """The replay kept of table `code` at `revision`, or None (ask the process's cache)."""
        r = self.replay
        return r if r is not None and r.is_for(url, code, revision) else None

    def keep(self, replay: Replay) -> None:
        self.replay = replay

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
