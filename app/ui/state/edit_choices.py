"""The edit panel's own state (修改某一把) on this phone, as one object: `EditChoices`.

No Streamlit here: `app.ui.table.edit` keeps one `EditChoices` in the session (`of`) and the
panel and its draft (`app.ui.table.edit_draft`) go through it, instead of five loose session keys.

>>> c = EditChoices()
>>> c.key("ed_f", 2), c.renew(), c.key("ed_f", 2)
('ed_f_2', None, 'ed_f_2_1')
>>> c.note_read("K7QM"), c.note_read("K7QM")
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["EditChoices"]


@dataclass(slots=True, eq=False)
class EditChoices:
    """What the edit panel keeps between runs, besides its widgets' values.

    Attributes:
        gen: the forms drawn anew so far (an edit dropped or saved): the widgets' keys of a new
            generation (`key`), since a widget's value stays in the browser while its key does.
        saved: ``{code: draft}``, each table's edit draft as last written or read.
        restored: ``{code: hand}``, the hand whose choices a reload brought back (said once).
        gone: ``{code: hand}``, the hand a reload's draft named, no longer on the table.
        read: the tables whose stored draft this session has read (once each).
    """

    gen: int = 0
    saved: dict[str, dict[str, Any]] = field(default_factory=dict)
    restored: dict[str, int] = field(default_factory=dict)
    gone: dict[str, int] = field(default_factory=dict)
    read: set[str] = field(default_factory=set)

    def key(self, name: str, n: int) -> str:
        """The session key of form widget `name` of hand `n` in this generation."""
        return f"{name}_{n}" if not self.gen else f"{name}_{n}_{self.gen}"

    def renew(self) -> None:
        """Every edit form drawn anew (a dropped or saved edit)."""
        self.gen += 1

    def forget(self, code: str) -> None:
        """Table `code`'s draft gone (saved, dropped, its hand gone): nothing saved or restored."""
        self.saved.pop(code, None)
        self.restored.pop(code, None)

    def note_read(self, code: str) -> bool:
        """True the first time table `code`'s stored draft is read this session."""
        first = code not in self.read
        self.read.add(code)
        return first
