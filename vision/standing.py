"""A standing tile boxed loose: wider than a sideways box's ratio, but as tall as its row's tiles.

A box wider than `vision.boxes.SIDEWAYS_RATIO` x its height is read turned 90° (a tile lying
sideways: a claimed tile, a winning tile laid across). On a low-angle photo of a standing row
(issue 35, a riichi thirteen-orphans hand: tiles ~80 px, their boxes about square) the localizer
sometimes boxes a standing tile with a third of its neighbour (123 x 80 px): the box is "sideways"
by its ratio, is read turned, and a 9p's dots turned 90° read 9s (p 0.75). Read upright, the same
box says 9p (0.98).

A tile lying sideways in a row is not as tall as the standing tiles beside it: its height on the
photo is a tile's width (about 0.75 of a standing tile's height; the riichi winning tile on a real
photo: 0.67). So (`loose`): a sideways box at least `TALL` x as tall as the upright boxes of its
row (`MIN_ROW` or more boxes beside it, each sharing `SAME_ROW` of the shorter height, within
`NEAR` of its heights along the row) is a standing tile boxed loose. It is cut to the row's
median upright width about its centre (an upright box) and read again (one extra classifier
batch, only where there are such boxes); the cut box replaces it when it reads a face (not a back,
not `none`) likelier than the loose box read (`stand_loose`). A tile truly lying sideways, cut so,
shows half a face and reads less surely: it stays as it was.

No photo's numbers: `TALL` lies between a sideways tile's height (<= 0.75 of a standing one) and
a standing one's (1); the row and the width are the photo's own boxes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from typing import Any

import numpy as np

from vision.boxes import SIDEWAYS_RATIO
from vision.detection import BACK
from vision.modelfiles import NONE_CLASS
from vision.reading import Readings

TALL = 0.9
"""A sideways box at least this many times the height of its row's upright boxes stands."""

SAME_ROW = 0.5
"""A box is of the row when it shares at least this share of the shorter height with the box."""

NEAR = 4.0
"""... and its centre lies within this many of the box's heights of the box's centre, along x."""

MIN_ROW = 2
"""At least this many upright boxes of the row to measure it by."""


@dataclass(frozen=True, slots=True)
class Stood:
    """The boxes after the stage: `xyxy`, `scores`, `class_ids`, `readings` (same length as the
    input); `at` int: the boxes replaced by their cut; `kept` int: the index of each among the
    cut boxes classified (`at[n]` took the `kept[n]`-th)."""

    xyxy: np.ndarray
    scores: np.ndarray
    class_ids: np.ndarray
    readings: Readings
    at: np.ndarray
    kept: np.ndarray


def loose(xyxy: np.ndarray, skip: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """`(index, cut)`: the sideways boxes that stand as tall as their row's upright boxes, and
    each cut to the row's median upright width about its centre (float32 `(L, 4)`); `skip` bool:
    boxes neither measured nor measured by (backs, `none`).

    >>> row = [[x, 0, x + 80, 80] for x in (0, 82, 164, 410)]  # upright ~ square, low angle
    >>> i, cut = loose(np.array(row + [[246, 0, 369, 80], [500, 20, 600, 80]], np.float32))
    >>> i.tolist(), cut.tolist()  # the 123 x 80 box stands; the 100 x 60 one lies sideways
    ([4], [[267.5, 0.0, 347.5, 80.0]])
    """
    b = np.asarray(xyxy, np.float32).reshape(-1, 4)
    skip = np.zeros(len(b), bool) if skip is None else np.asarray(skip, bool)
    w, h = b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]
    cx = (b[:, 0] + b[:, 2]) / 2
    upright = (w <= SIDEWAYS_RATIO * h) & ~skip
    index, cuts = [], []
    for i in np.flatnonzero((w > SIDEWAYS_RATIO * h) & ~skip):
        shared = np.minimum(b[:, 3], b[i, 3]) - np.maximum(b[:, 1], b[i, 1])
        row = upright & (shared >= SAME_ROW * np.minimum(h, h[i])) & (np.abs(cx - cx[i]) <= NEAR * h[i])
        row[i] = False
        if row.sum() < MIN_ROW or h[i] < TALL * float(np.median(h[row])):
            continue
        half = min(float(np.median(w[row])), SIDEWAYS_RATIO * float(h[i])) / 2
        index.append(i)
        cuts.append([cx[i] - half, b[i, 1], cx[i] + half, b[i, 3]])
    return np.array(index, np.int64), np.array(cuts, np.float32).reshape(-1, 4)


def stand_loose(
    xyxy: np.ndarray,
    scores: np.ndarray,
    class_ids: np.ndarray,
    readings: Readings,
    classify: Callable[[np.ndarray], Readings],
    classes: Sequence[str],
    back_id: int = -1,
) -> Stood:
    """Read the loose standing boxes cut upright; keep a cut that reads a face likelier (the
    module docstring). `classify` reads a float32 `(P, 4)` array of boxes as `Readings`."""
    names = list(classes)
    drop = [names.index(c) for c in (NONE_CLASS, BACK) if c in names]
    skip = np.isin(readings.cls, drop) | (np.asarray(class_ids) == back_id)
    index, cuts = loose(xyxy, skip)
    nothing = Stood(xyxy, scores, class_ids, readings, np.zeros(0, np.int64), np.zeros(0, np.int64))
    if not len(index):
        return nothing
    got = classify(cuts)
    better = ~np.isin(got.cls, drop) & (got.p > readings.p[index])
    if not better.any():
        return nothing
    at, kept = index[better], np.flatnonzero(better)
    box = np.asarray(xyxy, np.float32).copy()
    box[at] = cuts[kept]
    parts: dict[str, Any] = {}
    for f in dataclass_fields(Readings):
        a, g = getattr(readings, f.name), getattr(got, f.name)
        if a is not None and g is not None:
            a = a.copy()
            a[at] = g[kept]
        parts[f.name] = a if g is not None else None
    return Stood(box, scores, class_ids, Readings(**parts), at, kept)


__all__ = ["MIN_ROW", "NEAR", "SAME_ROW", "TALL", "Stood", "loose", "stand_loose"]
