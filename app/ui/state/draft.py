"""The hand in progress as JSON, so the database keeps it: a reload or a locked phone loses nothing.

Pure (no Streamlit): :func:`to_json` / :func:`from_json` turn the score editor's typed state
(`EditHand`, `Conditions`) and the table page's own choices (`TableChoices`: winner, discarder,
跟庄 facts, 新余 kongs, winners already entered on the same discard) into a JSON object and back.
The photo itself travels beside it as bytes (the draft's blob). A draft that does not read back
(an older shape, a hand-edited row) gives ``None``: the page starts fresh instead of failing.

>>> from app.ui.state import Conditions, EditHand
>>> data = to_json(EditHand.typed(["1m", "1m"]), Conditions(variant="xingzi"), TableChoices(winner=2))
>>> hand, cond, choices = from_json(data)
>>> [t.code for t in hand.concealed], cond.variant, choices.winner
(['1m', '1m'], 'xingzi', 2)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from app.ui.state import Conditions, EditHand, EditMeld, EditTile, Seat

__all__ = ["VERSION", "TableChoices", "from_json", "to_json"]

VERSION = 1


@dataclass(slots=True)
class TableChoices:
    """What the table page asks besides the hand: ``winner`` seat (0-3, None: not chosen),
    ``discarder`` seat (None: 自摸), 跟庄 facts, 新余 ``kongs`` of the other seats
    (``{seat: [exposed, concealed]}``), and ``pending``: hand JSON of winners already entered on
    this discard (一炮多响); ``seen``: the table's revision this phone showed when the hand was
    begun — a record checks it, so a table changed meanwhile is a conflict, never a double."""

    winner: int | None = None
    discarder: int | None = None
    followed: bool = False
    dragon: bool = False
    second: bool = False
    kongs: dict[str, list[int]] = field(default_factory=dict)
    pending: list[dict[str, Any]] = field(default_factory=list)
    seen: int | None = None

    @property
    def begun(self) -> bool:
        """Anything chosen besides the hand (a winner, 跟庄, kongs, a winner entered before)."""
        return (
            self.winner is not None
            or self.followed
            or bool(self.pending)
            or any(any(v) for v in self.kongs.values())
        )


def to_json(hand: EditHand, cond: Conditions, choices: TableChoices | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"v": VERSION, "hand": asdict(hand), "cond": asdict(cond)}
    if choices is not None:
        out["table"] = asdict(choices)
    return out


def _tile(d: dict[str, Any]) -> EditTile:
    """A tile as written by `asdict`; its `uncertain` flag too (after a reload the reader's
    doubtful tiles keep their red frames and the "check the red tiles" hint)."""
    return EditTile(str(d["code"]), d.get("conf"), d.get("detection"), bool(d.get("uncertain", False)))


def from_json(data: Any) -> tuple[EditHand, Conditions, TableChoices] | None:
    """The state a draft holds, or None when it does not read back."""
    try:
        if not isinstance(data, dict) or data.get("v") != VERSION:
            return None
        h, c = data["hand"], data["cond"]
        hand = EditHand(
            concealed=tuple(_tile(t) for t in h["concealed"]),
            melds=tuple(EditMeld(m["kind"], tuple(_tile(t) for t in m["tiles"])) for m in h["melds"]),
            winning_index=h.get("winning_index"),
            bonus_tiles=int(h.get("bonus_tiles", 0)),
        )
        seats = {k: Seat(**v) for k, v in c["seats"].items()}
        cond = Conditions(**{**c, "seats": seats, "events": list(c["events"])})
        choices = TableChoices(**data["table"]) if isinstance(data.get("table"), dict) else TableChoices()
        return hand, cond, choices
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
