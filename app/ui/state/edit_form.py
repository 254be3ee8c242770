"""The edit panel's form (修改某一把) as one typed value: `EditForm`. No Streamlit here.

The panel (`app.ui.table.edit`) draws each field bound to a widget named by the field's widget
name (`WIDGET_NAMES`: ``ed_kind``, ``ed_w`` …, each seat's kongs ``ed_ke{seat}`` / ``ed_kc{seat}``),
keyed per hand and generation (`EditChoices.key`); its draft (`app.ui.table.edit_draft`) stores the
widget values that differ from the recorded hand's form (`EditForm.of`).

>>> from ledger import Follow, Hand, Winner
>>> f = EditForm.of(Hand("drawn", follow=Follow(True)), kongs=False)
>>> f.values()
{'ed_kind': 'keep', 'ed_f': True, 'ed_fd': False, 'ed_fs': False, 'ed_note': ''}
>>> g = f.with_values({"ed_kind": "drawn", "ed_f": False, "ed_note": None})
>>> g.kind, g.followed, g.note, g.single
('drawn', False, '', False)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

__all__ = ["EDIT_KINDS", "FIELDS", "SELF", "WIDGET_NAMES", "EditForm"]

EDIT_KINDS = ("keep", "drawn")
SELF = -1  # the discarder 自摸 (a selectbox's None reads as "nothing chosen")
WIDGET_NAMES = {
    "kind": "ed_kind",
    "winner": "ed_w",
    "discarder": "ed_d",
    "use_editor": "ed_use",
    "followed": "ed_f",
    "dragon": "ed_fd",
    "second": "ed_fs",
    "note": "ed_note",
}
"""Each field's widget name (the draft's field name too); a seat's kongs: `kong_name`."""
SINGLE = ("winner", "discarder", "use_editor")
"""The fields of a hand with one winner only (a recorded 一炮多响 or drawn hand has none)."""
FIELDS: tuple[str, ...] = tuple(WIDGET_NAMES.values())
FIELDS += tuple(f"ed_k{x}{seat}" for seat in range(4) for x in "ec")
"""The form's widget names: kind (`EDIT_KINDS`), winner seat 0-3, discarder (`SELF`: 自摸, or 0-3),
put the editor's hand here, 跟庄, 跟庄 with a dragon, 跟庄 a second time (booleans), the hand's
note, 新余 exposed / concealed kongs of each seat (0-4)."""


def kong_name(x: str, seat: int) -> str:
    """The widget name of `seat`'s exposed (``x="e"``) or concealed (``"c"``) kongs."""
    return f"ed_k{x}{seat}"


@dataclass(frozen=True, slots=True)
class EditForm:
    """The values of one edit form. `single`: the hand has one winner (`winner`, `discarder`
    (`SELF`: 自摸), `use_editor` are fields); `kongs`: ``{seat: (exposed, concealed)}`` of every
    seat where the table pays kong money (新余), else None (no such fields)."""

    kind: str = "keep"
    followed: bool = False
    dragon: bool = False
    second: bool = False
    note: str = ""
    single: bool = False
    winner: int | None = None
    discarder: int | None = None
    use_editor: bool = False
    kongs: dict[int, tuple[int, int]] | None = field(default=None)

    @classmethod
    def of(cls, hand: Any, kongs: bool) -> EditForm:
        """The form as the recorded `ledger.Hand` `hand` has it; `kongs`: each seat's a field."""
        single = hand.kind == "win" and len(hand.winners) == 1
        return cls(
            followed=hand.follow.followed,
            dragon=hand.follow.dragon,
            second=hand.follow.second,
            note=hand.note,
            single=single,
            winner=hand.winners[0].seat if single else None,
            discarder=(SELF if hand.discarder is None else hand.discarder) if single else None,
            kongs={s: hand.kongs.get(s, (0, 0)) for s in range(4)} if kongs else None,
        )

    def values(self) -> dict[str, Any]:
        """Widget name → value, the fields this form has (`FIELDS`' order)."""
        out = {
            w: getattr(self, name) for name, w in WIDGET_NAMES.items() if self.single or name not in SINGLE
        }
        for seat, (e, c) in (self.kongs or {}).items():
            out[kong_name("e", seat)], out[kong_name("c", seat)] = e, c
        return out

    def with_values(self, values: Mapping[str, Any]) -> EditForm:
        """This form with the widgets' `values` (by widget name) taken in; a field no value is
        given for stays; a cleared note is empty."""
        changes = {name: values[w] for name, w in WIDGET_NAMES.items() if w in values}
        if "note" in changes:
            changes["note"] = changes["note"] or ""
        if self.kongs is not None:
            changes["kongs"] = {
                s: (
                    values.get(kong_name("e", s), self.kongs[s][0]),
                    values.get(kong_name("c", s), self.kongs[s][1]),
                )
                for s in range(4)
            }
        return replace(self, **changes)
