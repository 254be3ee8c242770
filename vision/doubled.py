"""One tile boxed twice: two boxes that share most of one tile and read the same face are one.

The localizer sometimes puts two boxes on one tile, each shifted along the row by a third to a
half of the tile (issue 35, a riichi set on real photos never trained on): a sideways 4s boxed
as its left two thirds and its right two thirds (IoU 0.34), a standing 4s boxed twice, one box
narrower (IoU 0.36). NMS keeps both (IoU under its 0.45, neither box 0.8 inside the other),
`vision.row_pitch` leaves neighbours overlapping by more than its `MAX_OVERLAP` alone, and
`vision.splits` does not merge two boxes that both read the union's tile (two 9s side by side
are a pung). Each box reads the tile, so the hand gets an extra copy of it.

Two whole tiles are never boxed like that: the tiles of a row touch, so their boxes overlap by a
few pixels, at most `vision.row_pitch.MIN_OVERLAP` (0.15) of the narrower box along the row, and
a tile in front of another in a heap of discards shows its own face, rarely the same one. So
(`doubled`): two boxes, neither a back nor `none`, that read the same tile, lie side by side
(they overlap across the row by at least `ACROSS` of the shorter extent; not a flower: one
class for eight faces) and overlap along the
row by at least `ALONG` of the narrower box's extent are one tile. The pair becomes one box: their
union (the tile both halves cover), with the likelier box's reading, localizer score and views.
The row runs along x or y: whichever axis the two boxes overlap less on.

No photo's numbers: `ALONG` is what a box shifted by half a tile shares with another, far
above what touching tiles overlap (<= 0.15 after `vision.row_pitch`; two loosely boxed
neighbours of a low-angle riichi row, 0.36, read different tiles); `ACROSS` is
the overlap of boxes of one row (a row's boxes share most of their height; tiles stacked in a
riichi added kong lie a tile's short side apart across the row).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.detection import BACK, FLOWER
from vision.modelfiles import NONE_CLASS
from vision.reading import Readings

ALONG = 0.5
"""Two boxes are one tile when they overlap along the row by at least this share of the
narrower one's extent there (touching tiles: <= 0.15)..."""

ACROSS = 0.75
"""... and across it by at least this share of the shorter one's extent (one row's boxes)..."""

HALF_PITCH = 0.6
"""... and their centres lie at most this share of the row's pitch apart (`local_pitch`: the
distance between neighbouring tiles around them): a box shifted by a third to a half of a tile,
not the next tile of a row seen steeply, whose boxes overlap as much (a row running across a
640 px photo at a slant: two 9p side by side, overlapping 0.84 x 0.70)."""

NEIGHBOURS = 6
"""The local pitch is measured on this many boxes nearest the pair..."""

MIN_OTHERS = 3
"""... and at least this many (else the pair is left alone)."""


@dataclass(frozen=True, slots=True)
class Joined:
    """The boxes after the stage: `xyxy`, `scores`, `class_ids`, `readings`; `keep` int: the input
    box each output box was (the likelier of a pair); `pairs`: the `(kept, dropped)` indices."""

    xyxy: np.ndarray
    scores: np.ndarray
    class_ids: np.ndarray
    readings: Readings
    keep: np.ndarray
    pairs: list[tuple[int, int]]


def overlaps(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """`(along, across)`: the two boxes' overlap along their row and across it, each a share of
    the smaller box's extent on that axis; the row's axis is the one they overlap less on.

    >>> overlaps(np.array([0, 0, 90, 105.0]), np.array([42, 0, 116, 105.0]))  # 48 px of 74
    (0.6486486486486487, 1.0)
    >>> overlaps(np.array([0, 0, 30, 40.0]), np.array([29, 0, 59, 40.0]))  # touching tiles
    (0.03333333333333333, 1.0)
    """
    ox = min(a[2], b[2]) - max(a[0], b[0])
    oy = min(a[3], b[3]) - max(a[1], b[1])
    fx = max(ox, 0.0) / max(min(a[2] - a[0], b[2] - b[0]), 1e-6)
    fy = max(oy, 0.0) / max(min(a[3] - a[1], b[3] - b[1]), 1e-6)
    return (float(fx), float(fy)) if fx <= fy else (float(fy), float(fx))


def doubled(xyxy: np.ndarray, cls: np.ndarray, faces: np.ndarray) -> list[tuple[int, int]]:
    """Pairs `(i, j)`, `i < j`, of boxes that are one tile boxed twice (the module docstring).

    Args:
        xyxy: float `(K, 4)` boxes; `cls` int `(K,)` their readings; `faces` bool `(K,)`: the
            box reads a face (not a back, not `none`).

    >>> b = np.array([[x, 0, x + 30, 40] for x in (0, 32, 64, 96)] + [[111, 0, 136, 40]], np.float32)
    >>> doubled(b, np.array([3, 3, 3, 3, 3]), np.ones(5, bool))  # 3 and 4 share 15 of 25 px
    [(3, 4)]
    >>> doubled(b, np.array([3, 3, 3, 3, 4]), np.ones(5, bool))  # not the same tile read
    []
    """
    b = np.asarray(xyxy, np.float64).reshape(-1, 4)
    centre = (b[:, :2] + b[:, 2:]) / 2
    apart = np.hypot(*(centre[:, None, :] - centre[None, :, :]).transpose(2, 0, 1))
    out = []
    for i in np.flatnonzero(faces):
        for j in np.flatnonzero(faces):
            if j <= i or cls[i] != cls[j]:
                continue
            along, across = overlaps(b[i], b[j])
            if along < ALONG or across < ACROSS:
                continue
            pitch = local_pitch(apart, centre, int(i), int(j))
            if pitch is not None and apart[i, j] <= HALF_PITCH * pitch:
                out.append((int(i), int(j)))
    return out


def local_pitch(apart: np.ndarray, centre: np.ndarray, i: int, j: int) -> float | None:
    """The distance between neighbouring tiles around the pair `(i, j)`: the median, over the
    `NEIGHBOURS` other boxes nearest the pair, of each one's distance to its nearest box (the pair
    left out); None with fewer than `MIN_OTHERS` other boxes. `apart`: the centres' distances."""
    others = np.setdiff1d(np.arange(len(centre)), [i, j])
    if len(others) < MIN_OTHERS:
        return None
    mid = (centre[i] + centre[j]) / 2
    near = others[np.argsort(np.hypot(*(centre[others] - mid).T), kind="stable")[:NEIGHBOURS]]
    d = apart[np.ix_(near, others)]
    d[d == 0] = np.inf  # a box and itself
    return float(np.median(d.min(axis=1)))


def join_doubled(
    xyxy: np.ndarray,
    scores: np.ndarray,
    class_ids: np.ndarray,
    readings: Readings,
    classes: Sequence[str],
    back_id: int = -1,
) -> Joined:
    """Each pair of `doubled` boxes as one box: their union, with the likelier box's reading,
    score and class (each box joins one pair at most, the likeliest pair first).

    Args:
        xyxy: float32 `(K, 4)` boxes; `scores`, `class_ids` `(K,)`; `readings` of the `K` boxes.
        classes: the classifier's class names; `back_id`: the localizer's class of a back.
    """
    k = len(xyxy)
    none = [n for n, c in enumerate(classes) if c in (NONE_CLASS, BACK, FLOWER)]  # a class of many faces
    faces = ~np.isin(readings.cls, none) & (np.asarray(class_ids) != back_id)
    pairs = doubled(np.asarray(xyxy, np.float64), readings.cls, faces) if k > 1 else []
    pairs.sort(key=lambda ij: -max(readings.p[ij[0]], readings.p[ij[1]]))
    used: set[int] = set()
    chosen: list[tuple[int, int]] = []
    box = np.asarray(xyxy, np.float32).copy()
    for i, j in pairs:
        if i in used or j in used:
            continue
        used.update((i, j))
        a, b = (i, j) if readings.p[i] >= readings.p[j] else (j, i)
        box[a] = np.concatenate([np.minimum(box[a, :2], box[b, :2]), np.maximum(box[a, 2:], box[b, 2:])])
        chosen.append((a, b))
    if not chosen:
        return Joined(xyxy, scores, class_ids, readings, np.arange(k), [])
    keep = np.setdiff1d(np.arange(k), [b for _, b in chosen])
    kept = readings.rows(keep)
    return Joined(box[keep], scores[keep], class_ids[keep], kept, keep, chosen)


__all__ = [
    "ACROSS",
    "ALONG",
    "HALF_PITCH",
    "MIN_OTHERS",
    "NEIGHBOURS",
    "Joined",
    "doubled",
    "join_doubled",
    "local_pitch",
    "overlaps",
]
