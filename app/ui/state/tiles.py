"""The pieces of the hand being edited: one tile (`EditTile`, with when it is shown unsure), a
meld (`EditMeld`), the tapped tile (`Selection`), a refused edit (`EditRefused`), tile order.

No Streamlit; `app.ui.state.hand.EditHand` is made of these (and re-exports them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.photo_hand import UNKNOWN
from app.photo_melds import SURE_CONF
from scoring.tiles import ALL_TILES

_ORDER = {t.code: int(t) for t in ALL_TILES}
DISSOLVE = "concealed"
"""The meld-kind choice that puts a meld's tiles back into the standing hand."""


def sort_key(code: str) -> int:
    """Suits m p s by rank, then E S W N C F P; an unknown tile last."""
    return _ORDER.get(code, len(_ORDER))


@dataclass(frozen=True, slots=True)
class EditTile:
    """One tile on screen. `code`: tile code or `UNKNOWN`; `conf`: the detector's confidence
    (None once the player typed or picked it); `detection`: index into the photo's detections;
    `uncertain`: the reader flagged its reading (`vision.Detection.uncertain`).

    >>> [EditTile("5p", c, 0, u).needs_check for c, u in ((0.44, False), (0.9, False), (0.9, True))]
    [True, False, True]
    """

    code: str
    conf: float | None = None
    detection: int | None = None
    uncertain: bool = False

    @property
    def needs_check(self) -> bool:
        """Unknown, or a reading the player has not named since that the reader flagged or, for a
        tile seen on the photo, read below `SURE_CONF` (a kong's fourth tile the photo did not
        show is not a reading)."""
        if self.code == UNKNOWN:
            return True
        if self.conf is None:
            return False
        return self.uncertain or (self.detection is not None and self.conf < SURE_CONF)

    def named(self, code: str) -> EditTile:
        """The same tile (same place on the photo), named by the player."""
        return EditTile(code, None, self.detection)


@dataclass(frozen=True, slots=True)
class EditMeld:
    """A meld laid apart: `kind` one of `scoring.model.MELD_KINDS`."""

    kind: str
    tiles: tuple[EditTile, ...]

    @property
    def codes(self) -> list[str]:
        return [t.code for t in self.tiles]


@dataclass(frozen=True, slots=True)
class Selection:
    """The tile the player tapped: `index` in the standing tiles, or in meld `meld`."""

    index: int
    meld: int | None = None

    @property
    def standing(self) -> bool:
        return self.meld is None


class EditRefused(ValueError):
    """An edit that cannot be made. `key`: the catalog message; `fields` fill it in."""

    def __init__(self, key: str, **fields: Any) -> None:
        super().__init__(key, fields)

    @property
    def key(self) -> str:
        return self.args[0]

    @property
    def fields(self) -> dict[str, Any]:
        return self.args[1]


__all__ = ["DISSOLVE", "SURE_CONF", "EditMeld", "EditRefused", "EditTile", "Selection", "sort_key"]
