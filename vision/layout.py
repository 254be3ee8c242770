"""Layout analysis: how the player laid the hand out, guessed from the tile boxes.

`group_tiles` puts detections into rows (top to bottom) and, within a row, into sets split
by visible gaps (left to right), and guesses what each set is:

| `kind_guess` | when |
|---|---|
| `bonus` | only 發 (`F`) — set aside by the winner (jiujiang, xingzi) |
| `flowers` | only flower tiles |
| `concealed_kong` | 4 tiles, 1-4 of them backs, the faces alike (back-face-face-back; 4 backs: unknown) |
| `kong` | 4 alike faces (claimed when one lies sideways) |
| `pung` | 3 alike |
| `chow` | 3 in sequence of one suit (claimed: only laid out when exposed) |
| `winning_tile` | a lone face-up tile set apart (the one nearest the right end of the hand) |
| `hand` | the standing concealed tiles (any other set of 2+ tiles) |
| `unknown` | anything else (a lone tile when the winning tile is already chosen, ...) |

Every kind is a guess (`Group.guess` is always true): the photo alone cannot tell an exposed
pung from a concealed triplet pulled aside. Geometry only: which tiles a variant knows, and
how the groups become a hand to score, is `app.photo_hand.hand_from_photo`'s job.

All geometry is relative to the median tile size, so it works at any image resolution.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import pairwise
from statistics import median

from scoring.tiles import SUITS
from vision.detection import BACK, FLOWER, KINDS, Detection, Group

GAP_FACTOR = 0.4
"""A gap wider than this x the median tile width (short side), over the row's own spacing (the
median gap between its neighbours, when it has 4 or more tiles), splits a row into sets: in a
loosely spaced row three equal tiles are a pung only when set apart by more than the others."""

ROW_OVERLAP = 0.4
"""Two neighbouring tiles share a row when their vertical extents overlap by at least this
fraction of the shorter one."""

ROW_NEAR = 2.5
"""A row whose rightmost tile is at most this many tile widths (its short side) left of a tile is
near it and comes first (`rows_of`); the reach at which `vision.hand_rows` cuts a row into runs."""

OFF_ROW_SIZE = (0.4, 2.2)
"""A tile of a hand row whose long side is outside these multiples of its run's median long
side is `other` (`vision.roles`). Chosen on synthetic scenes only (60 validation scenes, their
true boxes: 1 of 946 tiles flagged; (0.5, 1.8) with distance 3 flagged 2; models/MODEL.md
"0.6.0")."""

OFF_ROW_MIN = 3
"""Runs with at least this many tiles side by side are candidate hand rows (`vision.roles`);
with none, every tile that is not a wall is `hand`. Side by side: centres at least
`OFF_ROW_STEP` median tile widths apart along the row (tiles of a steep diagonal that `rows_of`
puts in one "row" overlap almost wholly along x)."""

OFF_ROW_STEP = 0.5
"""See `OFF_ROW_MIN`. A hand laid at a steep angle can put a few tiles that overlap almost wholly
along x into one "row"; such a row must not make the rest of the hand `off_row`."""


# -- geometry --------------------------------------------------------------------------------


def _vertical_overlap(a: Detection, b: Detection) -> float:
    """Overlap of the vertical extents of `a` and `b`, as a fraction of the shorter one."""
    top = max(a.xyxy[1], b.xyxy[1])
    bottom = min(a.xyxy[3], b.xyxy[3])
    shorter = min(a.height, b.height)
    return max(0.0, bottom - top) / shorter if shorter > 0 else 0.0


def _centre_inside(a: Detection, b: Detection) -> bool:
    """`a`'s vertical centre lies within `b`'s vertical extent."""
    return b.xyxy[1] <= a.center[1] <= b.xyxy[3]


def rows_of(detections: Sequence[Detection], row_overlap: float = ROW_OVERLAP) -> list[list[int]]:
    """Split detections into rows: lists of indices, rows top to bottom, tiles left to right.

    Tiles are taken left to right; each joins the row whose rightmost tile overlaps it most
    vertically (at least `row_overlap` of the shorter box, and each one's centre within the
    other's height), else starts a new row. Comparing with the neighbour rather than with a
    fixed band lets a slanted row stay one row. A row whose rightmost tile lies within `ROW_NEAR`
    tile widths comes before one further away, however they overlap: a slanted row goes on from
    its neighbour, not from a row across the photo that happens to be as high.

    >>> far = [Detection((x, 100, x + 30, 140), "1m", 0.9) for x in (0, 32)]
    >>> slant = [Detection((400 + 32 * k, 140 - 12 * k, 430 + 32 * k, 180 - 12 * k), "2p", 0.9)
    ...          for k in range(4)]
    >>> rows_of([*far, *slant])
    [[0, 1], [2, 3, 4, 5]]
    """
    order = sorted(range(len(detections)), key=lambda i: (detections[i].center[0], detections[i].center[1]))
    rows: list[list[int]] = []
    for i in order:
        d = detections[i]
        best, best_key = None, (False, row_overlap)
        for r, row in enumerate(rows):
            last = detections[row[-1]]
            if not (_centre_inside(d, last) and _centre_inside(last, d)):
                continue  # each centre must lie within the other's height: no bridging of rows
            ov = _vertical_overlap(last, d)
            unit = min(last.width, last.height)
            key = (-OFF_ROW_STEP * unit <= d.xyxy[0] - last.xyxy[2] <= ROW_NEAR * unit, ov)
            if ov >= row_overlap and (best is None or key > best_key):
                best, best_key = r, key
        if best is None:
            rows.append([i])
        else:
            rows[best].append(i)
    rows.sort(key=lambda row: median(detections[i].center[1] for i in row))
    return rows


def _tile_short_side(detections: Sequence[Detection]) -> float:
    return median(min(d.width, d.height) for d in detections)


def row_spacing(detections: Sequence[Detection], row: Sequence[int]) -> float:
    """The row's own spacing in pixels: the median gap between neighbours (indices left to
    right; 0 for overlapping boxes or rows of under 4 tiles).

    >>> row_spacing([Detection((x, 0, x + 30, 40), "1m", 0.9) for x in (0, 40, 80, 150)], [0, 1, 2, 3])
    10.0
    """
    if len(row) < 4:
        return 0.0
    return max(0.0, float(median(detections[b].xyxy[0] - detections[a].xyxy[2] for a, b in pairwise(row))))


def split_by_gaps(
    detections: Sequence[Detection],
    row: Sequence[int],
    unit: float,
    gap_factor: float = GAP_FACTOR,
    spacing: float = 0.0,
) -> list[list[int]]:
    """Split one row (indices, left to right) where the gap between neighbours is over
    `gap_factor * unit + spacing` pixels (`spacing`: the row's own, `row_spacing`)."""
    sets: list[list[int]] = []
    for i in row:
        if sets and detections[i].xyxy[0] - detections[sets[-1][-1]].xyxy[2] <= gap_factor * unit + spacing:
            sets[-1].append(i)
        else:
            sets.append([i])
    return sets


# -- set kinds -------------------------------------------------------------------------------


def is_sequence(tiles: Sequence[str]) -> bool:
    """Three suited tiles of one suit in sequence, in any order (a chow's faces).

    >>> is_sequence(["3m", "1m", "2m"]), is_sequence(["1m", "2m", "4m"]), is_sequence(["1m", "2p", "3m"])
    (True, False, False)
    """
    if len(tiles) != 3 or any(len(t) != 2 or t[1] not in SUITS for t in tiles):
        return False
    if len({t[1] for t in tiles}) != 1:
        return False
    nums = sorted(int(t[0]) for t in tiles)
    return nums[1] == nums[0] + 1 and nums[2] == nums[1] + 1


def guess_kind(tiles: Sequence[str], any_sideways: bool, fa_is_bonus: bool = True) -> str:
    """Guess a set's kind from its tile codes (left to right) — the table of the module docstring.

    The one rule of a set's shape: `app.photo_hand` asks it too, for a set laid apart and for
    three or four tiles inside the standing hand. A lone tile comes back as `unknown`;
    `group_tiles` decides which lone tile is the winning tile. With `fa_is_bonus=False`
    (xinyu) 發 is an ordinary tile.

    >>> guess_kind(["back", "5s", "5s", "back"], False), guess_kind(["5s", "5s", "5s", "back"], False)
    ('concealed_kong', 'concealed_kong')
    >>> guess_kind(["back", "5s", "6s", "back"], False), guess_kind(["3m", "4m", "5m"], True)
    ('hand', 'chow')
    """
    faces = [t for t in tiles if t != BACK]
    backs = len(tiles) - len(faces)
    if fa_is_bonus and faces and all(t == "F" for t in faces) and not backs:
        return "bonus"
    if faces and all(t == FLOWER for t in faces) and not backs:
        return "flowers"
    if len(tiles) == 4:
        if backs and len(set(faces)) <= 1:  # one face up or two (or three): a kong turned down
            return "concealed_kong"
        if backs == 0 and len(set(faces)) == 1:
            return "kong"
    if len(tiles) == 3 and backs == 0:
        if len(set(faces)) == 1:
            return "pung"
        if is_sequence(faces):
            return "chow"
    if len(tiles) == 1:
        return "unknown"
    if any_sideways:
        return "unknown"
    return "hand"


def group_tiles(
    detections: Sequence[Detection],
    *,
    gap_factor: float = GAP_FACTOR,
    row_overlap: float = ROW_OVERLAP,
) -> list[Group]:
    """Group detections into rows and gap-separated sets and guess each set's kind.

    Args:
        detections: tiles in any order (pixels of one image).
        gap_factor: see `GAP_FACTOR`.
        row_overlap: see `ROW_OVERLAP`.

    Returns:
        Groups in reading order (rows top to bottom, sets left to right); each detection is
        in exactly one group. Indices refer to `detections`.
    """
    if not detections:
        return []
    unit = _tile_short_side(detections)
    groups: list[Group] = []
    for r, row in enumerate(rows_of(detections, row_overlap)):
        for s in split_by_gaps(detections, row, unit, gap_factor, row_spacing(detections, row)):
            tiles = [detections[i].tile for i in s]
            sideways = any(detections[i].rotated for i in s)
            kind = guess_kind(tiles, sideways)
            groups.append(Group(tiles=tuple(s), kind_guess=kind, row=r, claimed=sideways))
    _choose_winning_tile(detections, groups)
    return groups


def _choose_winning_tile(detections: Sequence[Detection], groups: list[Group]) -> None:
    """Mark one lone face-up tile as `winning_tile`: the one nearest the right end of the hand."""
    lone = [
        k
        for k, g in enumerate(groups)
        if len(g.tiles) == 1
        and g.kind_guess == "unknown"
        and not detections[g.tiles[0]].face_down
        and detections[g.tiles[0]].tile != FLOWER
        and not detections[g.tiles[0]].rotated
    ]
    if not lone:
        return
    hands = [g for g in groups if g.kind_guess == "hand"]
    if hands:
        main = max(hands, key=lambda g: len(g.tiles))
        right = detections[main.tiles[-1]]
        rx, ry = right.xyxy[2], right.center[1]

        def distance(k: int) -> float:
            cx, cy = detections[groups[k].tiles[0]].center
            return abs(cx - rx) + abs(cy - ry)

        pick = min(lone, key=distance)
    else:
        pick = lone[-1]
    groups[pick] = replace(groups[pick], kind_guess="winning_tile")


__all__ = [
    "GAP_FACTOR",
    "KINDS",
    "OFF_ROW_MIN",
    "OFF_ROW_SIZE",
    "ROW_NEAR",
    "ROW_OVERLAP",
    "Group",
    "group_tiles",
    "guess_kind",
    "is_sequence",
    "row_spacing",
    "rows_of",
    "split_by_gaps",
]
