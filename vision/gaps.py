"""Gaps in a row: a tile the localiser missed between two of its neighbours, cut and read.

Tiles standing in a row are evenly spaced: one tile's pitch from centre to centre. When two
neighbours in a row of found tiles stand `n + 1` pitches apart (`n` = 1..`MAX_GAP`, within
`PITCH_TOLERANCE`), the space between them is `n` tiles the localiser did not box (issue 35: a
blank 白 has nothing on its face to find; a box cut too wide is read `none`). This stage
(`fill_gaps`) runs after the first classifier pass and the split merge:

1. **Rows** (`rows`, geometry only): each box read as a tile (or a back) is chained to its
   nearest neighbour on the right of the same height (`SAME_SIZE`) overlapping it in height by
   half, when it is also that one's nearest on the left. A chain of `MIN_ROW` or more is a row;
   its pitch is the median distance between centres of neighbours that touch (closer than
   `TOUCH` x their width), from `MIN_PITCHES` such pairs.
2. **Gaps** (`gap_boxes`): two neighbours of a row `n + 1` pitches apart give `n` boxes spaced
   evenly between them, of their size (width, top and bottom interpolated), unless a tile box
   already covers the box's centre (a sideways claimed tile is not in the chain, but it is there).
3. **Face:** a gap box is read only when its median colour is its neighbours' face colour
   (`face_like`): the table or the rack seen between two groups is not (a blank 白 is); nor is a
   box plain at its top or bottom edge where both neighbours show a rim there (their outline,
   body, a shadow: `rimless`): a light table between two groups, one tile wide, read 白.
4. **Reading:** the gap boxes are cut and classified like any box (one extra classifier batch,
   only when there are gaps). A gap box is kept when it reads a face (not `none`, not `back`:
   the rack or the table seen between two groups is no tile) with `p >= GAP_MIN_P`; the others
   are dropped (they were never boxes).

The rule uses no photo's numbers: sizes in units of the row's own tiles, colours against the
row's own faces. The constants were set from tile geometry and checked on synthetic rows and the
validation split of our real photos, never fitted on `real_sets_dev` (evaluation only): on the 71
val photos the rows give 27 gap boxes, 7 of them face-coloured; 6 read `none`, one is a labelled
tile the localiser missed (read 2p right, at p 0.25: below `GAP_MIN_P`), so nothing changes there.
Boxes past a row's end on the pitch alone read 白 on any white table (80 of 182 on the val split,
no tile among them): `vision.row_ends` reads them only where the localiser's own weak box points.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from itertools import pairwise
from typing import Any

import numpy as np

from vision.detection import BACK
from vision.modelfiles import NONE_CLASS
from vision.reading import Readings

MAX_GAP = 3
"""At most this many tiles missed in one gap (a wider space is two groups apart)."""

PITCH_TOLERANCE = 0.2
"""The distance between the two neighbours, in pitches, must lie this close to a whole number."""

SAME_SIZE = 1.3
"""Neighbours in a row: heights within this ratio, and widths within `SAME_SIZE ** 2`."""

TOUCH = 1.3
"""Two neighbours touch when their centres are closer than this x their mean width."""

MIN_ROW = 3
"""A chain of at least this many boxes is a row (its pitch needs touching pairs)."""

MIN_PITCHES = 2
"""... and at least this many touching pairs measure its pitch."""

FACE_DIFF = 48.0
"""A gap box continues its neighbours' face when its median colour lies this close (0..255, every
channel) to one of theirs."""

RIM_BAND = 0.12
"""Share of a box's height at its top and bottom edges where `rimless` looks for a tile's rim."""

RIM_STEP = 24.0
"""A row of a box whose median colour differs from the box's by more (any channel) is a rim."""

GAP_MIN_P = 0.5
"""A gap box is a tile when its reading is at least this likely (the model's calibrated `p`)."""


@dataclass(frozen=True, slots=True)
class Filled:
    """The boxes after the stage: the input boxes then the `G` gap boxes kept, `xyxy` (K + G, 4),
    `scores`, `class_ids`, `readings`, and `kept` int (G,): the index of each kept box among the
    gap boxes that were classified."""

    xyxy: np.ndarray
    scores: np.ndarray
    class_ids: np.ndarray
    readings: Readings
    kept: np.ndarray


def rows(xyxy: np.ndarray) -> list[list[int]]:
    """Chains of boxes standing side by side, left to right (see the module docstring, step 1).

    >>> row = np.array([[x, 0, x + 30, 40] for x in (0, 32, 64, 160)], np.float32)
    >>> rows(row)
    [[0, 1, 2, 3]]
    >>> rows(np.array([[0, 0, 30, 40], [32, 100, 62, 140], [64, 0, 94, 80]], np.float32))
    []
    """
    xyxy = np.asarray(xyxy, np.float32).reshape(-1, 4)
    k = len(xyxy)
    w, h = xyxy[:, 2] - xyxy[:, 0], xyxy[:, 3] - xyxy[:, 1]
    cx = (xyxy[:, 0] + xyxy[:, 2]) / 2
    over = np.minimum(xyxy[:, None, 3], xyxy[None, :, 3]) - np.maximum(xyxy[:, None, 1], xyxy[None, :, 1])
    hr = h[:, None] / np.maximum(h[None, :], 1e-6)
    wr = w[:, None] / np.maximum(w[None, :], 1e-6)
    ok = (
        (over >= 0.5 * np.minimum(h[:, None], h[None, :]))
        & (hr <= SAME_SIZE)
        & (hr >= 1 / SAME_SIZE)
        & (wr <= SAME_SIZE**2)
        & (wr >= SAME_SIZE**-2)
    )
    dx = cx[None, :] - cx[:, None]  # dx[i, j] > 0: j right of i
    right = np.where(ok & (dx > 0), dx, np.inf)
    nxt = [int(np.argmin(right[i])) if k and np.isfinite(right[i]).any() else -1 for i in range(k)]
    left = np.where(ok & (dx < 0), -dx, np.inf)
    prv = [int(np.argmin(left[i])) if k and np.isfinite(left[i]).any() else -1 for i in range(k)]
    link = [j if j >= 0 and prv[j] == i else -1 for i, j in enumerate(nxt)]
    starts = set(range(k)) - {j for j in link if j >= 0}
    chains = []
    for s in sorted(starts, key=lambda i: float(cx[i])):
        chain = [s]
        while link[chain[-1]] >= 0:
            chain.append(link[chain[-1]])
        if len(chain) >= MIN_ROW:
            chains.append(chain)
    return chains


def gap_boxes(xyxy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A box for every tile missing between two neighbours of a row (steps 1-2): float32 `(G, 4)`,
    and int `(G, 2)` the two neighbours of each.

    >>> row = np.array([[x, 0, x + 30, 40] for x in (0, 32, 64, 160, 192)], np.float32)
    >>> boxes, beside = gap_boxes(row)  # 64 -> 160: three pitches, two tiles missed
    >>> boxes.tolist(), beside.tolist()
    ([[96.0, 0.0, 126.0, 40.0], [128.0, 0.0, 158.0, 40.0]], [[2, 3], [2, 3]])
    >>> len(gap_boxes(np.array([[x, 0, x + 30, 40] for x in (0, 32, 64, 140)], np.float32))[0])  # 2.4 pitches
    0
    """
    xyxy = np.asarray(xyxy, np.float32).reshape(-1, 4)
    cx = (xyxy[:, 0] + xyxy[:, 2]) / 2
    cy = (xyxy[:, 1] + xyxy[:, 3]) / 2
    out: list[list[float]] = []
    beside: list[tuple[int, int]] = []
    for chain in rows(xyxy):
        pairs = list(pairwise(chain))
        d = np.array([cx[j] - cx[i] for i, j in pairs], np.float32)
        space = np.array([xyxy[j, 0] - xyxy[i, 2] for i, j in pairs], np.float32)
        w = np.median(xyxy[chain, 2] - xyxy[chain, 0])
        h = np.median(xyxy[chain, 3] - xyxy[chain, 1])
        touch = d < TOUCH * w
        if touch.sum() < MIN_PITCHES:
            continue
        pitch, snug = float(np.median(d[touch])), float(np.median(space[touch]))
        for (i, j), dist, free in zip(pairs, d, space, strict=True):
            by_centre, by_edge = float(dist) / pitch - 1, (float(free) - snug) / pitch
            miss = min((by_centre, by_edge), key=lambda v: abs(v - round(v)))
            n = round(miss)
            if not 1 <= n <= MAX_GAP or abs(miss - n) > PITCH_TOLERANCE:
                continue
            for m in range(1, n + 1):
                t = m / (n + 1)
                if miss == by_centre:
                    x = cx[i] + t * (cx[j] - cx[i])
                else:  # a wider neighbour (a sideways tile): from the left one's edge
                    x = xyxy[i, 2] + snug / 2 + (m - 0.5) * pitch
                y = cy[i] * (1 - t) + cy[j] * t
                if ((xyxy[:, 0] <= x) & (x <= xyxy[:, 2]) & (xyxy[:, 1] <= y) & (y <= xyxy[:, 3])).any():
                    continue  # a box is there already (a sideways tile, say)
                out.append([float(x - w / 2), float(y - h / 2), float(x + w / 2), float(y + h / 2)])
                beside.append((i, j))
    return np.array(out, np.float32).reshape(-1, 4), np.array(beside, np.int64).reshape(-1, 2)


def face_like(colours: np.ndarray, beside: np.ndarray, gap_colours: np.ndarray) -> np.ndarray:
    """Bool `(G,)`: the gap box's median colour lies within `FACE_DIFF` (every channel) of one of
    its two neighbours' (`colours` `(K, 3)` of the row's boxes, `gap_colours` `(G, 3)`): the tiles'
    face goes on there, the table between two groups does not.

    >>> faces = np.array([[230, 225, 210], [60, 120, 60]], np.float32)
    >>> face_like(faces, np.array([[0, 1], [0, 1]]), np.array([[215, 210, 200], [120, 90, 70]], np.float32))
    array([ True, False])
    """
    diff = np.abs(colours[beside] - gap_colours[:, None, :]).max(axis=2)  # (G, 2)
    return (diff <= FACE_DIFF).any(axis=1)


def rimless(pixels: np.ndarray, xyxy: np.ndarray, beside: np.ndarray, gaps: np.ndarray) -> np.ndarray:
    """Bool `(G,)`: the gap box shows no rim where both its neighbours do. In the `RIM_BAND` at its
    top or bottom edge, a row of each neighbour (its median colour) differs from its whole box's
    by over `RIM_STEP` (the tile's outline, body or shadow), every row of the gap box's by at most
    half that (the table goes on there). Boxes in pixels of `pixels`: the row's `xyxy` `(K, 4)`,
    `beside` `(G, 2)`, the gap boxes `(G, 4)`."""

    near = (rim_steps(pixels, xyxy)[beside] > RIM_STEP).all(axis=1)  # (G, 2): both neighbours show a rim
    return (near & (rim_steps(pixels, gaps) <= RIM_STEP / 2)).any(axis=1)


def rim_steps(pixels: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Float32 `(n, 2)`: for each box `(x0, y0, x1, y1)` of `pixels`, the largest step at its top
    and at its bottom: how far a row's median colour lies from the whole box's (any channel), over
    the rows of the `RIM_BAND` at that edge. Only those rows' medians are taken (issue 37: every
    row's was, ~5 ms of a photo's CPU for the 76 % of rows never looked at); the values are the same.

    >>> px = np.full((10, 4, 3), 200, np.uint8); px[0] = 100
    >>> rim_steps(px, np.array([[0, 0, 4, 10]], np.float32))
    array([[100.,   0.]], dtype=float32)
    """
    h, w = pixels.shape[:2]
    out = np.zeros((len(boxes), 2), np.float32)
    for k, (x0, y0, x1, y1) in enumerate(np.asarray(boxes, np.float64).reshape(-1, 4)):
        xa, xb = min(max(int(x0), 0), w - 1), max(min(int(np.ceil(x1)), w), int(x0) + 1)
        ya, yb = min(max(int(y0), 0), h - 1), max(min(int(np.ceil(y1)), h), int(y0) + 1)
        part = pixels[ya:yb, xa:xb]
        whole = colour_median(part)
        n = max(1, round(RIM_BAND * len(part)))
        band = (part if 2 * n >= len(part) else np.concatenate([part[:n], part[-n:]])).astype(np.float32)
        rows = np.abs(np.median(band, axis=1) - whole).max(axis=1)
        out[k] = rows[:n].max(), rows[-n:].max()
    return out


def median_colours(pixels: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
    """Float32 `(K, 3)`: the median colour of each box's pixels (a tile's: its face's, which covers
    most of it whatever is printed on it)."""
    h, w = pixels.shape[:2]
    out = np.zeros((len(xyxy), 3), np.float32)
    for k, (x0, y0, x1, y1) in enumerate(np.asarray(xyxy, np.float64)):
        xa, ya = min(max(int(x0), 0), w - 1), min(max(int(y0), 0), h - 1)
        part = pixels[ya : max(min(int(np.ceil(y1)), h), ya + 1), xa : max(min(int(np.ceil(x1)), w), xa + 1)]
        out[k] = colour_median(part[::2, ::2])
    return out


def colour_median(part: np.ndarray) -> np.ndarray:
    """Float32 `(3,)`: `np.median(part.reshape(-1, 3), axis=0)`, the same values; of uint8 pixels
    counted (`np.bincount`: ~10x cheaper than sorting a tile's pixels, issue 37).

    >>> colour_median(np.array([[[1, 9, 0], [4, 9, 255]], [[2, 0, 255], [250, 8, 255]]], np.uint8))
    array([  3. ,   8.5, 255. ], dtype=float32)
    """
    flat = part.reshape(-1, 3)
    if part.dtype != np.uint8 or not len(flat):
        return np.median(flat, axis=0).astype(np.float32)
    n = len(flat)
    out = np.empty(3, np.float32)
    for c in range(3):
        below = np.cumsum(np.bincount(flat[:, c], minlength=256))
        lo, hi = np.searchsorted(below, [(n - 1) // 2, n // 2], side="right")
        out[c] = (np.float32(lo) + np.float32(hi)) / 2
    return out


def append_views(old: tuple | None, new: tuple) -> tuple:
    """Views `(logits, embedding or None, owner)` of more boxes after `old`'s (None: `new`): the
    owners of `new` follow `old`'s boxes (gap boxes read after the split unions share their key)."""
    if old is None:
        return new
    n = max(old[2], default=-1) + 1
    emb = None if old[1] is None or new[1] is None else np.concatenate([old[1], new[1]])
    return np.concatenate([old[0], new[0]]), emb, [*old[2], *(o + n for o in new[2])]


def appended(found: Filled, boxes: np.ndarray, got: Readings, kept: np.ndarray, score: float) -> Filled:
    """`found` with `boxes[kept]` and their readings `got` (of every box in `boxes`) after its own:
    localizer score `score`, class 0 (a face); `kept` as given."""
    parts: dict[str, Any] = {}
    for f in dataclass_fields(Readings):
        a, b = getattr(found.readings, f.name), getattr(got, f.name)
        parts[f.name] = None if a is None or b is None else np.concatenate([a, b[kept]])
    return Filled(
        np.concatenate([found.xyxy, boxes[kept]]).astype(np.float32),
        np.concatenate([found.scores, np.full(len(kept), score, found.scores.dtype)]),
        np.concatenate([found.class_ids, np.zeros(len(kept), found.class_ids.dtype)]),
        Readings(**parts),
        kept,
    )


def fill_gaps(
    xyxy: np.ndarray,
    scores: np.ndarray,
    class_ids: np.ndarray,
    readings: Readings,
    classify: Callable[[np.ndarray], Readings],
    classes: Sequence[str],
    pixels: tuple[np.ndarray, float] | None,
    score: float,
    weak: np.ndarray | None = None,
) -> Filled:
    """Find the gaps among the boxes read as tiles, read them, keep the tiles found there.

    Args:
        xyxy: float32 `(K, 4)` boxes (pixels); `scores` `(K,)` localizer scores; `class_ids` `(K,)`.
        readings: the classifier's readings of the `K` boxes.
        classify: reads a float32 `(G, 4)` array of boxes (the same pixels) as `Readings`.
        classes: the classifier's class names: a box read `none` is no row member, a gap box read
            `none` or `back` no tile.
        pixels: `(image, k)`: the photo, where a box's pixels are `xyxy * k`: a gap box is read only
            where it continues its neighbours' face (`face_like`); None reads them all.
        score: the localizer score given to a gap box (it saw none there).
        weak: not used (the localiser's weak boxes, for `vision.row_ends.fill_ends`).

    Returns:
        `Filled`; the same arrays (and `kept` empty) when no gap box is kept.
    """
    drop = [list(classes).index(c) if c in classes else -1 for c in (NONE_CLASS, BACK)]
    member = readings.cls != drop[0]
    idx = np.flatnonzero(member)
    empty = np.zeros((0, 4), np.float32), np.zeros((0, 2), np.int64)
    gaps, beside = gap_boxes(xyxy[idx]) if len(idx) >= MIN_ROW else empty
    none = Filled(xyxy, scores, class_ids, readings, np.zeros(0, np.int64))
    if len(gaps) and pixels is not None:
        near, k = np.unique(beside), np.float32(pixels[1])
        faces = np.zeros((len(idx), 3), np.float32)
        faces[near] = median_colours(pixels[0], xyxy[idx][near] * k)
        face = face_like(faces, beside, median_colours(pixels[0], gaps * k))
        gaps = gaps[face & ~rimless(pixels[0], xyxy[idx] * k, beside, gaps * k)]
    if not len(gaps):
        return none
    got = classify(gaps)
    kept = np.flatnonzero(~np.isin(got.cls, drop) & (got.p >= GAP_MIN_P))
    if not len(kept):
        return none
    return appended(none, gaps, got, kept, score)


__all__ = [
    "FACE_DIFF",
    "GAP_MIN_P",
    "MAX_GAP",
    "MIN_PITCHES",
    "MIN_ROW",
    "PITCH_TOLERANCE",
    "RIM_BAND",
    "RIM_STEP",
    "SAME_SIZE",
    "TOUCH",
    "Filled",
    "append_views",
    "appended",
    "colour_median",
    "face_like",
    "fill_gaps",
    "gap_boxes",
    "median_colours",
    "rim_steps",
    "rimless",
    "rows",
]
