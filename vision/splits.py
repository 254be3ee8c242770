"""Split boxes: one tile boxed as two halves by the localizer, put back together.

The localizer sometimes boxes a tile as two halves: a sideways 4p (a claimed tile) as two
upright-looking halves that each read 2p, a large 9p as two halves that each read 6p. Each
half is a confident reading of the wrong tile, so neither NMS (the halves hardly overlap) nor
the flag catches it. This stage (`merge_splits`) runs after the first classifier pass:

1. **Candidates** (`candidates`, geometry only): two boxes that fill their union (`UNION_FILL`:
   neighbours along a row or stacked across it), each clearly smaller than the tiles around them
   (area at most `HALF_AREA` x the median tile's), while the union has a tile's size, upright or
   sideways (area within `UNION_AREA` x, long side at most `UNION_LONG` x the median tile's).
   The median tile: the median over the `NEIGHBOURS` boxes nearest the pair, the pair left out.
   Two whole tiles side by side are never candidates: each is a whole tile, their union two.
   In a close-up where every box is a half there is no whole tile to compare with; there, two
   boxes whose readings are both beyond the set (`vision.reading.beyond_the_set`: eight 2p in
   one hand) are candidates when their union has a tile's shape (`TILE_ASPECT`).
2. **Reading:** the unions are cut and classified like any box, both ways (one extra
   classifier batch, only when there are candidates).
3. **Merge** (`accept`): a union replaces its two boxes when its reading is a tile (not `none`),
   confident by the model's own calibration (`vision.reading.uncertain` says no), likelier than
   the two halves together (`p_union > q_i * q_j`, where `q` is a box's `p`, or `1 - p` for a
   box read `none`: the chance that it is the tile read), and new: the halves do not both read
   the union's tile (two 9s side by side whose union also reads 9s are two 9s: a pung or a kong
   keeps its tiles). Each box joins at most one union, the likeliest first.

Constants are fractions of the median tile, chosen on synthetic scenes (no whole tile of 630
merged, 1,562 true boxes give 11 candidate pairs at `HALF_AREA` 0.72 and 27 at 0.8) and on the
validation split of our real photos; never on a judge photo (models/MODEL.md, 0.6.1).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields

import numpy as np

from vision.modelfiles import NONE_CLASS
from vision.reading import Readings, beyond_the_set, uncertain

HALF_AREA = 0.72
"""A box is a possible half when its area is at most this x the median tile's (a half: ~0.5)."""

UNION_AREA = (0.7, 1.45)
"""The union's area must lie within these multiples of the median tile's (two whole tiles: 2)."""

UNION_LONG = 1.5
"""... and its long side be at most this x the median tile's long side. Not both sides: seen at
a slant, a sideways tile is up to 1.5 x longer and 0.7 x shorter than the upright ones beside it
(synthetic scenes), while its area stays a tile's."""

UNION_FILL = 0.85
"""The two boxes must cover at least this fraction of their union's area."""

NEIGHBOURS = 8
"""The median tile of a pair: over this many boxes nearest the pair's centre (the pair left out);
a pair with fewer than `MIN_NEIGHBOURS` other boxes in the photo is left alone."""

MIN_NEIGHBOURS = 3

TILE_ASPECT = (1.1, 1.8)
"""Long side over short side of a tile's box, upright or sideways (a tile: ~1.33; perspective
and the tile's thickness move it)."""


@dataclass(frozen=True, slots=True)
class Merged:
    """The boxes after the stage: `xyxy` (K', 4), `scores` (K',), `class_ids` (K',), `readings`
    (K' each), `pairs`: the `(i, j)` input indices merged (the union takes `i`'s place, `j`
    goes), and `origin` int (K',): where each box comes from, `k >= 0` the input box `k`,
    `-(n + 1)` the `n`-th box given to `classify` (a union); None when nothing merged."""

    xyxy: np.ndarray
    scores: np.ndarray
    class_ids: np.ndarray
    readings: Readings
    pairs: list[tuple[int, int]]
    origin: np.ndarray | None = None


def candidates(xyxy: np.ndarray, over: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Pairs of boxes that may be the two halves of one tile, and their unions.

    Args:
        xyxy: float `(K, 4)` boxes in pixels.
        over: bool `(K,)`, optional: the box's reading is beyond the set
            (`vision.reading.beyond_the_set`). A pair of such boxes needs no size reference, only
            a union of a tile's shape (`TILE_ASPECT`): in a close-up of split tiles every box is
            a half, so the median tile is a half too.

    Returns:
        `(pairs, unions)`: int `(P, 2)` with `i < j`, float32 `(P, 4)`.

    >>> row = [[x, 0, x + 30, 40] for x in (0, 32, 64, 96, 128)]  # upright tiles 30 x 40
    >>> halves = [[160, 5, 180, 35], [180, 5, 200, 35]]  # a sideways tile 40 x 30, in halves
    >>> pairs, unions = candidates(np.array(row + halves, np.float32))
    >>> pairs.tolist(), unions.tolist()
    ([[5, 6]], [[160.0, 5.0, 200.0, 35.0]])
    >>> len(candidates(np.array(row, np.float32))[0])  # whole tiles side by side: none
    0
    >>> len(candidates(np.array(halves, np.float32))[0])  # no tiles around: no size to compare
    0
    >>> candidates(np.array(halves, np.float32), np.array([True, True]))[0].tolist()  # but 2p x 5
    [[0, 1]]
    """
    xyxy = np.asarray(xyxy, np.float32).reshape(-1, 4)
    k = len(xyxy)
    over = np.zeros(k, bool) if over is None else np.asarray(over, bool)
    none = np.zeros((0, 2), np.int64), np.zeros((0, 4), np.float32)
    if k < 2:
        return none
    w, h = xyxy[:, 2] - xyxy[:, 0], xyxy[:, 3] - xyxy[:, 1]
    area = w * h
    long_ = np.maximum(w, h)
    ii, jj = np.triu_indices(k, 1)
    unions = np.concatenate(
        [np.minimum(xyxy[ii, :2], xyxy[jj, :2]), np.maximum(xyxy[ii, 2:], xyxy[jj, 2:])], 1
    )
    uw, uh = unions[:, 2] - unions[:, 0], unions[:, 3] - unions[:, 1]
    iw = np.clip(np.minimum(xyxy[ii, 2], xyxy[jj, 2]) - np.maximum(xyxy[ii, 0], xyxy[jj, 0]), 0, None)
    ih = np.clip(np.minimum(xyxy[ii, 3], xyxy[jj, 3]) - np.maximum(xyxy[ii, 1], xyxy[jj, 1]), 0, None)
    fill = (area[ii] + area[jj] - iw * ih) / np.maximum(uw * uh, 1e-6)
    near = np.flatnonzero(fill >= UNION_FILL)  # neighbours only
    ii, jj, unions, uw, uh = ii[near], jj[near], unions[near], uw[near], uh[near]
    ul, us = np.maximum(uw, uh), np.minimum(uw, uh)
    by_set = over[ii] & over[jj] & (ul >= TILE_ASPECT[0] * us) & (ul <= TILE_ASPECT[1] * us)
    by_size = np.zeros(len(near), bool)
    n_ref = min(NEIGHBOURS, k - 2)
    if n_ref >= MIN_NEIGHBOURS and len(near):
        # the median tile of each pair: the n_ref boxes nearest the union's centre, the pair left out
        cx, cy = (xyxy[:, 0] + xyxy[:, 2]) / 2, (xyxy[:, 1] + xyxy[:, 3]) / 2
        ux, uy = (unions[:, 0] + unions[:, 2]) / 2, (unions[:, 1] + unions[:, 3]) / 2
        d = np.hypot(cx[None, :] - ux[:, None], cy[None, :] - uy[:, None])
        rows = np.arange(len(near))
        d[rows, ii], d[rows, jj] = np.inf, np.inf
        ref = np.argpartition(d, n_ref - 1, axis=1)[:, :n_ref]
        m_area, m_long = np.median(area[ref], axis=1), np.median(long_[ref], axis=1)
        lo, hi = UNION_AREA
        by_size = (
            (np.maximum(area[ii], area[jj]) <= HALF_AREA * m_area)
            & (uw * uh >= lo * m_area)
            & (uw * uh <= hi * m_area)
            & (ul <= UNION_LONG * m_long)
        )
    keep = np.flatnonzero(by_set | (~(over[ii] & over[jj]) & by_size))
    if not len(keep):
        return none
    return np.stack([ii[keep], jj[keep]], 1).astype(np.int64), unions[keep].astype(np.float32)


def accept(
    halves: Readings, pairs: np.ndarray, union: Readings, calibration: Mapping[str, float], none: int
) -> np.ndarray:
    """Bool `(P,)`: which unions replace their halves (see the module docstring, step 3).

    Args:
        halves: the readings of all boxes (indexed by `pairs`).
        union: the readings of the `P` union boxes.
        none: index of the `none` class (-1: the model has none).
    """
    confident = ~uncertain(union, union.p, calibration)
    i, j = pairs[:, 0], pairs[:, 1]
    tile_p = np.where(halves.cls == none, 1.0 - halves.p, halves.p)  # P(the box is the tile read)
    likelier = union.p > tile_p[i] * tile_p[j]
    news = (halves.cls[i] != union.cls) | (halves.cls[j] != union.cls)
    return confident & likelier & news & (union.cls != none)


def merge_splits(
    xyxy: np.ndarray,
    scores: np.ndarray,
    class_ids: np.ndarray,
    readings: Readings,
    classify: Callable[[np.ndarray], Readings],
    calibration: Mapping[str, float],
    classes: Sequence[str],
) -> Merged:
    """Find split pairs, classify their unions, merge the accepted ones.

    Args:
        xyxy: float32 `(K, 4)` boxes (pixels); scores `(K,)` localizer scores; class_ids `(K,)`.
        readings: the classifier's readings of the `K` boxes.
        classify: reads a float32 `(P, 4)` array of boxes (the same pixels) as `Readings`.
        calibration: the classifier's `calibration` metadata (`vision.reading`).
        classes: the classifier's class names (`none` among them, or not).

    Returns:
        `Merged`; the same arrays (and no pairs) when nothing merges. The union's localizer score
        and class are those of the stronger half.
    """
    none = list(classes).index(NONE_CLASS) if NONE_CLASS in classes else -1
    tiles = np.flatnonzero(readings.cls != none)
    over = np.zeros(len(xyxy), bool)
    over[tiles] = beyond_the_set([classes[c] for c in readings.cls[tiles]])
    pairs, unions = candidates(xyxy, over)
    if len(pairs) == 0:
        return Merged(xyxy, scores, class_ids, readings, [])
    union = classify(unions)
    ok = accept(readings, pairs, union, calibration, none)
    used: set[int] = set()
    chosen: list[tuple[int, int, int]] = []
    for n in np.argsort(-union.p, kind="stable"):
        i, j = (int(v) for v in pairs[n])
        if ok[n] and i not in used and j not in used:
            used.update((i, j))
            chosen.append((i, j, int(n)))
    if not chosen:
        return Merged(xyxy, scores, class_ids, readings, [])
    xyxy, scores, class_ids = xyxy.copy(), scores.copy(), class_ids.copy()
    fields = {f.name: getattr(readings, f.name) for f in dataclass_fields(Readings)}
    fields = {k: v.copy() for k, v in fields.items() if v is not None}  # (logit_margin may be None)
    for i, j, n in chosen:
        strong = i if scores[i] >= scores[j] else j
        xyxy[i], scores[i], class_ids[i] = unions[n], scores[strong], class_ids[strong]
        for k, v in fields.items():
            v[i] = getattr(union, k)[n]
    keep = np.setdiff1d(np.arange(len(xyxy)), [j for _, j, _ in chosen])
    merged = Readings(**{k: v[keep] for k, v in fields.items()})
    origin = np.arange(len(xyxy))
    for i, _j, n in chosen:
        origin[i] = -(n + 1)
    merged_pairs = [(i, j) for i, j, _ in chosen]
    return Merged(xyxy[keep], scores[keep], class_ids[keep], merged, merged_pairs, origin[keep])


__all__ = [
    "HALF_AREA",
    "MIN_NEIGHBOURS",
    "NEIGHBOURS",
    "TILE_ASPECT",
    "UNION_AREA",
    "UNION_FILL",
    "UNION_LONG",
    "Merged",
    "accept",
    "candidates",
    "merge_splits",
]
