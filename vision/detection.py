"""Result types of tile reading: one `Detection` per tile, a `Group` per set of tiles laid
together, a `DetectResult` per photo (leaf module: `vision.layout` and `vision.reader` build
these, nothing here imports them)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, get_args

BACK = "back"
"""`Detection.tile` of a face-down tile (the localizer's class `back`, unless the classifier says
`FLOWER`)."""

FLOWER = "flower"
"""`Detection.tile` of a flower / season tile (a classifier class): never part of a hand, set aside
(the group kind `flowers`)."""

KINDS = ("hand", "winning_tile", "bonus", "flowers", "pung", "kong", "concealed_kong", "chow", "unknown")
"""`Group.kind_guess` values (docs/detect-json.md); `vision.layout` says when each is guessed."""

Role = Literal["hand", "meld", "discard", "wall", "other"]
"""A `Detection.role` (docs/detect-json.md); `vision.arrange.arrange` gives them (`table_roles`, then
`meld_roles`, geometry in `vision.roles`)."""

ROLES: tuple[Role, ...] = get_args(Role)
"""Every `Role`, in the order docs/detect-json.md lists them. Only `HAND_ROLES` tiles enter the groups
and the hand guess."""

HAND_ROLES: tuple[Role, ...] = ("hand", "meld")
"""The player's roles: the standing tiles and the sets laid apart beside them."""

NOT_PLAYERS: tuple[Role, ...] = tuple(r for r in ROLES if r not in HAND_ROLES)
"""The roles of tiles that are not the player's (`Detection.off_row`): discards, the wall, other."""


@dataclass(frozen=True, slots=True)
class Detection:
    """One tile found in a photo.

    Attributes:
        xyxy: `(x0, y0, x1, y1)` float pixels of the full-resolution *upright* image
            (EXIF orientation applied); origin top-left, x to the right, y down;
            `x0 < x1`, `y0 < y1`.
        tile: tile code — `1m`..`9m`, `1p`..`9p`, `1s`..`9s`, `E S W N C F P`
            (东 南 西 北 中 發 白), `BACK` (`back`) for a face-down tile, `FLOWER` (`flower`) for a
            flower/season tile.
        conf: confidence in 0..1 (localizer score x classifier probability).
        face_down: the tile shows its back (then `tile == BACK`).
        rotated: the tile lies sideways (box width > 1.15 x height): a claimed tile in a meld.
        uncertain: the reading may be wrong (`vision.reading.uncertain`): the app draws it red.
        role: a `Role` (given by `vision.arrange.arrange`): `hand` (the player's standing
            tiles), `meld` (a set laid apart beside them), `discard`, `wall`, `other`.
            A detection made by hand defaults to `hand`.
        second: the classifier's runner-up reading of the tile (a tile code, never `tile`), or
            None (a face-down tile, a runner-up that is no tile, a detection made by hand).

    `off_row` (a property, not a field: one truth) is true exactly when `role` is one of
    `NOT_PLAYERS`; such a tile is kept out of the groups and the hand guess.
    """

    xyxy: tuple[float, float, float, float]
    tile: str
    conf: float
    face_down: bool = False
    rotated: bool = False
    uncertain: bool = False
    role: Role = "hand"
    second: str | None = None

    def __post_init__(self) -> None:
        """Raises ValueError: `role` is not one of `ROLES`."""
        if self.role not in ROLES:
            raise ValueError(f"role {self.role!r} is not one of {ROLES}")

    @property
    def off_row(self) -> bool:
        """The tile is not the player's (`role` neither `hand` nor `meld`)."""
        return self.role not in HAND_ROLES

    @property
    def center(self) -> tuple[float, float]:
        """`(cx, cy)` in pixels."""
        x0, y0, x1, y1 = self.xyxy
        return (x0 + x1) / 2.0, (y0 + y1) / 2.0

    @property
    def width(self) -> float:
        return self.xyxy[2] - self.xyxy[0]

    @property
    def height(self) -> float:
        return self.xyxy[3] - self.xyxy[1]

    def to_json(self) -> dict[str, Any]:
        """The detection as in `docs/detect-json.md` (coordinates rounded to 0.1 px)."""
        return {
            "xyxy": [round(float(v), 1) for v in self.xyxy],
            "tile": self.tile,
            "conf": round(float(self.conf), 4),
            "face_down": bool(self.face_down),
            "rotated": bool(self.rotated),
            "uncertain": bool(self.uncertain),
            "off_row": bool(self.off_row),
            "role": self.role,
            "second": self.second,
        }


@dataclass(frozen=True, slots=True)
class Rejected:
    """A box the localizer found that the reader judged not to be a tile (never a `Detection`).

    Attributes:
        xyxy: as `Detection.xyxy`.
        conf: localizer score x the classifier's probability for `none`, 0..1.
        why: `"not_a_tile"` (the classifier's `none` class won, or a lone back among standing
            faces: the rack seen between two groups, `vision.walls.rack_gaps`; a die against
            the hand row, `vision.dice`).
    """

    xyxy: tuple[float, float, float, float]
    conf: float
    why: str = "not_a_tile"

    def to_json(self) -> dict[str, Any]:
        """`{"xyxy": [...], "conf": ..., "why": ...}` (docs/detect-json.md)."""
        return {
            "xyxy": [round(float(v), 1) for v in self.xyxy],
            "conf": round(float(self.conf), 4),
            "why": self.why,
        }


@dataclass(frozen=True, slots=True)
class Group:
    """A set of tiles laid together, and a guess at what it is.

    Attributes:
        tiles: indices into the detection list, left to right.
        kind_guess: one of `KINDS` (the table in `vision.layout`).
        row: row number, 0 = top row.
        claimed: the set has a sideways tile (a meld claimed from a discard).
        guess: always true — the kind is read from the layout, not known.
    """

    tiles: tuple[int, ...]
    kind_guess: str
    row: int = 0
    claimed: bool = False
    guess: bool = True

    def reindexed(self, remap: Mapping[int, int]) -> Group:
        """The same group with detection indices renumbered by `remap` (old -> new)."""
        return replace(self, tiles=tuple(remap[i] for i in self.tiles))

    def to_json(self) -> dict[str, Any]:
        """`{"tiles": [...], "kind_guess": ..., "row": ..., "claimed": ..., "guess": true}`."""
        return {
            "tiles": list(self.tiles),
            "kind_guess": self.kind_guess,
            "row": self.row,
            "claimed": self.claimed,
            "guess": self.guess,
        }


@dataclass(slots=True)
class DetectResult:
    """Everything read from one photo.

    Attributes:
        width: width in pixels of the full-resolution upright image.
        height: height in pixels of the full-resolution upright image.
        detections: tiles, sorted top row first, left to right within a row
            (the order of `vision.layout.group_tiles`), then the `off_row` ones.
        groups: the layout guess (`Group`), indices into `detections` (never an `off_row` one).
        rejected: boxes judged not to be tiles (`Rejected`), strongest first.
        timing_ms: wall time per stage in milliseconds: `decode`, `detect`, `classify`.
    """

    width: int
    height: int
    detections: list[Detection] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    timing_ms: dict[str, float] = field(default_factory=dict)
    rejected: list[Rejected] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The `jxmj detect` JSON object of `docs/detect-json.md`."""
        return {
            "image": {"width": int(self.width), "height": int(self.height)},
            "detections": [d.to_json() for d in self.detections],
            "groups": [g.to_json() for g in self.groups],
            "rejected": [r.to_json() for r in self.rejected],
            "timing_ms": {k: round(float(v), 1) for k, v in self.timing_ms.items()},
        }
