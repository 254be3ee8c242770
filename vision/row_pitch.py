"""Boxes that reach into their neighbours, trimmed back to the row's pitch (issue 35).

The tiles of a standing hand touch: along the row, a tile is as wide as the distance between
its neighbours' centres, and the edge between two tiles is where one ends and the next begins.
On tight crops of a riichi rack the localizer's boxes come out a third to a half wider than
that pitch (a 4p boxed 118 px wide on a row of 80 px tiles), so each box holds a column of its
neighbour's face: the 4p's box shows a column of dots beside its own and reads 4s, a 4p read
as 2p holds one column of two dots. The box centres are right (the same on the strip input and
on a 1024² square one, so no coordinate is lost between input and photo); only their widths are
not.

`trim_overlaps` moves the shared edge of two neighbouring boxes of one row that overlap by more
than `MIN_OVERLAP` of the narrower one to the middle of their overlap: both boxes were widened
alike, so the middle is the boundary between the two tiles. Boxes that overlap by more than
`MAX_OVERLAP` are two boxes on one tile (NMS and `vision.splits` choose between them), and
boxes of different heights or rows are not neighbours; they are left as they are.
"""

from __future__ import annotations

import numpy as np

from vision.splits import candidates

MIN_OVERLAP = 0.15
"""Neighbours overlapping by less than this share of the narrower box's width are left alone
(touching tiles' boxes overlap by a few pixels on any photo)."""

MAX_OVERLAP = 0.6
"""Neighbours overlapping by more than this share of the narrower box's width are one tile boxed
twice, not two tiles: left to NMS / `vision.splits`."""

STANDING = 1.5
"""Only boxes at most this many times wider than high are cut: an upright tile (~0.75) or a
standing sideways one (~1.33), even widened. A wider box holds a tile lying flat, seen at a low
angle (a face-up row on the table): its neighbours are not a standing row's."""

MIN_RUN = 4
"""Only a run of at least this many standing boxes side by side (touching, overlapping or at
most `MIN_OVERLAP` of a tile apart) is a rack: a hand holds 13 or 14 tiles, still 4 after three
melds laid apart. Two or three boxes reaching into each other are a heap on the table."""

SAME_HEIGHT = 0.75
"""Neighbours of one row: the shorter box at least this share of the taller one's height, ..."""

SAME_ROW = 0.85
"""... and their heights overlapping by at least this share of the shorter one: neighbours of a
standing row share nearly their whole height (a slanted rack moves a few per cent a tile); the
tiles of a column seen obliquely, each beside and below the last, share about half."""


def neighbours(xyxy: np.ndarray) -> list[tuple[int, int]]:
    """Pairs `(i, j)` of boxes of one row with `j` the right neighbour of `i`: similar height
    (`SAME_HEIGHT`), overlapping in height (`SAME_ROW`), `j`'s centre right of `i`'s, and no
    box of the row between their centres. Each box has at most one right neighbour (the
    nearest by centre).

    >>> row = np.array([[0, 0, 12, 14], [8, 0, 20, 14], [16, 1, 28, 15], [0, 30, 12, 44]], float)
    >>> neighbours(row)
    [(0, 1), (1, 2)]
    """
    b = np.asarray(xyxy, np.float64).reshape(-1, 4)
    h = b[:, 3] - b[:, 1]
    cx = (b[:, 0] + b[:, 2]) / 2
    pairs: list[tuple[int, int]] = []
    for i in range(len(b)):
        lo, hi = np.minimum(h[i], h), np.maximum(h[i], h)
        inter = np.minimum(b[i, 3], b[:, 3]) - np.maximum(b[i, 1], b[:, 1])
        row = (lo >= SAME_HEIGHT * hi) & (inter >= SAME_ROW * lo) & (cx > cx[i])
        row[i] = False
        if row.any():
            pairs.append((i, int(np.flatnonzero(row)[np.argmin(cx[row])])))
    return pairs


def trim_overlaps(xyxy: np.ndarray) -> np.ndarray:
    """`xyxy` (float `(K, 4)`, pixels) with each pair of `neighbours` that overlap by between
    `MIN_OVERLAP` and `MAX_OVERLAP` of the narrower box's width, both `STANDING` and neither
    possibly half of a tile (`vision.splits.candidates`: left to `merge_splits`), cut at the middle of their
    overlap; the other boxes, and every y, unchanged. A new array; the order is kept.

    Four tiles 80 px wide, boxed 116 px wide around the right centres (±18 px into each
    neighbour): the shared edges go back to 120, 200 and 280, where the tiles meet; three such
    boxes are no rack (`MIN_RUN`).

    >>> row = np.array([[22 + 80 * k, 0, 138 + 80 * k, 110] for k in range(4)], np.float32)
    >>> trim_overlaps(row)[:, [0, 2]].tolist()
    [[22.0, 120.0], [120.0, 200.0], [200.0, 280.0], [280.0, 378.0]]
    >>> bool((trim_overlaps(row[:3]) == row[:3]).all())
    True
    >>> touching = np.array([[0, 0, 84, 110], [80, 0, 160, 110]], np.float32)  # 4 px: left alone
    >>> bool((trim_overlaps(touching) == touching).all())
    True
    """
    b = np.asarray(xyxy, np.float32).reshape(-1, 4)
    out = b.copy()
    w = b[:, 2] - b[:, 0]
    standing = w <= STANDING * (b[:, 3] - b[:, 1])
    standing[np.unique(candidates(b)[0])] = False  # maybe half a tile: `vision.splits` decides
    pairs = [(i, j) for i, j in neighbours(b) if standing[i] and standing[j]]
    pairs = [(i, j) for i, j in pairs if b[i, 2] - b[j, 0] >= -MIN_OVERLAP * min(w[i], w[j])]
    run = _runs(len(b), pairs)
    for i, j in pairs:
        if run[i] < MIN_RUN:
            continue
        overlap = b[i, 2] - b[j, 0]
        narrower = min(w[i], w[j])
        if MIN_OVERLAP * narrower < overlap <= MAX_OVERLAP * narrower:
            mid = (b[i, 2] + b[j, 0]) / 2
            out[i, 2] = min(out[i, 2], mid)
            out[j, 0] = max(out[j, 0], mid)
    return out


def _runs(n: int, pairs: list[tuple[int, int]]) -> np.ndarray:
    """Int `(n,)`: the number of boxes in each box's run (the boxes joined by `pairs`)."""
    root = list(range(n))

    def find(a: int) -> int:
        while root[a] != a:
            root[a] = root[root[a]]
            a = root[a]
        return a

    for i, j in pairs:
        root[find(i)] = find(j)
    tops = np.array([find(a) for a in range(n)], np.int64)
    return np.bincount(tops, minlength=n)[tops] if n else np.zeros(0, np.int64)


__all__ = ["MAX_OVERLAP", "MIN_OVERLAP", "MIN_RUN", "STANDING", "neighbours", "trim_overlaps"]
