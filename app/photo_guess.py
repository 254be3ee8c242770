"""The hand a photo gives, as values: `HandGuess` (standing tiles, winning tile, melds, bonus 發,
notes), its `PhotoTile`s and `PhotoMeld`s, and the `Note`s that say what was guessed or left out.

A leaf: `app.photo_hand.hand_from_photo` builds these, `app.photo_check` and `app.photo_melds` read
them, the web app's state (`app.ui.state.hand.EditHand.from_guess`) and the CLI (`jxmj photo`,
`HandGuess.to_score_json`) take them; nothing here imports those.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.tiles import format_tiles, parse_tiles

UNKNOWN = "?"
"""The code of a tile the photo could not name (a face-down tile outside a kong)."""

MAX_BONUS = 4
"""The most bonus 發 a set holds, and so the most `HandGuess.bonus_tiles` counts."""


@dataclass(frozen=True, slots=True)
class PhotoTile:
    """One tile of the guess. `code`: a tile code or `UNKNOWN`; `detection`: index into
    `DetectResult.detections` (None for a tile added to complete a kong); `conf`: 0..1;
    `uncertain`: the reader flags the reading (`Detection.uncertain`), or the tile is unknown."""

    code: str
    detection: int | None
    conf: float
    uncertain: bool = False


@dataclass(frozen=True, slots=True)
class PhotoMeld:
    """A meld guessed from a set laid apart. `kind`: one of `scoring.model.MELD_KINDS`;
    `claimed`: the set has a sideways tile."""

    kind: str
    tiles: tuple[PhotoTile, ...]
    claimed: bool = False

    @property
    def codes(self) -> list[str]:
        return [t.code for t in self.tiles]


_NOTE_TEXT = {
    "bonus_set_apart": "{count} 發 set apart: bonus tiles",
    "fa_in_hand": "a 發 among the standing tiles counted as a bonus tile",
    "flowers_left_out": "{count} flower tile(s) left out",
    "meld_guessed": "{kind} {tiles} guessed from {count} tiles {how}",
    "hidden_kong": "a face-down kong whose tile cannot be seen: unknown (left out of the score JSON)",
    "face_down_in_hand": "a face-down tile in the hand: unknown (left out of the score JSON)",
    "winning_set_apart": "winning tile {tiles} guessed: the lone tile set apart",
    "winning_rightmost": "no tile set apart: winning tile guessed as the rightmost one, {tiles}",
    "too_many_bonus": "{count} 發 read, more than the 4 a set has: 4 counted",
    "too_many_tiles": "more tiles in the hand rows than the 18 a winning hand holds ({count}): "
    "the main row and the sets laid apart kept, the rest left out",
}
NOTE_CODES = tuple(_NOTE_TEXT)


@dataclass(frozen=True, slots=True)
class Note:
    """One guess or one tile left out. `code`: one of `NOTE_CODES`; `tiles`, `count`, `kind`
    and `claimed` fill in its sentence."""

    code: str
    tiles: str = ""
    count: int = 0
    kind: str = ""
    claimed: bool = False

    @property
    def text(self) -> str:
        """The English sentence (the CLI's words)."""
        how = "with a sideways tile" if self.claimed else "set apart"
        return _NOTE_TEXT[self.code].format(tiles=self.tiles, count=self.count, kind=self.kind, how=how)


@dataclass(slots=True)
class HandGuess:
    """A hand read from a photo — every field a guess.

    Attributes:
        concealed: the standing tiles, winning tile included, in the order they lie.
        winning_index: index into `concealed` of the winning tile (None: no face-up tile).
        melds: melds laid apart.
        bonus: 發 set aside (九江/星子; at most 4 counted, `bonus_tiles`).
        notes: what was guessed and what was left out.
    """

    concealed: list[PhotoTile] = field(default_factory=list)
    winning_index: int | None = None
    melds: list[PhotoMeld] = field(default_factory=list)
    bonus: list[PhotoTile] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)

    @property
    def winning_tile(self) -> str | None:
        return None if self.winning_index is None else self.concealed[self.winning_index].code

    @property
    def bonus_tiles(self) -> int:
        return min(len(self.bonus), MAX_BONUS)

    def to_score_json(self, **fields: Any) -> dict[str, Any]:
        """The hand fields of docs/score-json.md (`concealed`, `winning_tile`, `melds`,
        `bonus_tiles`) plus `fields` (e.g. `variant=`, `self_drawn=`). Unknown tiles are left
        out (score JSON has no notation for them): a meld with one is left out whole."""
        data: dict[str, Any] = {
            "concealed": tile_string([t.code for t in self.concealed]),
            "winning_tile": self.winning_tile,
            "melds": [
                {"kind": m.kind, "tiles": tile_string(m.codes)} for m in self.melds if UNKNOWN not in m.codes
            ],
            "bonus_tiles": self.bonus_tiles,
        }
        data.update(fields)
        return data


def tile_string(codes: Sequence[str]) -> str:
    """Known codes as a sorted tile string (`["2m", "?", "1m", "C"]` -> `"12mC"`)."""
    return format_tiles(parse_tiles([c for c in codes if c != UNKNOWN]), sort=True)


__all__ = ["MAX_BONUS", "NOTE_CODES", "UNKNOWN", "HandGuess", "Note", "PhotoMeld", "PhotoTile", "tile_string"]
