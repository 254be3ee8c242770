"""The pieces of a wide box (`vision.wide_boxes`): which boxes of a closer look lie inside it, which
are a tile another box holds, which stand side by side as a row's tiles do. Geometry only."""

from __future__ import annotations

import numpy as np

PIECE_AREA = 0.6
"""A piece has at most this share of the wide box's area."""

SAME_TILE = 0.5
"""A piece with this share of it (or of the other box) covered by another box of the photo is
that box's tile again: dropped."""

SAME_HEIGHT = 0.75
"""Pieces side by side: the shorter at least this share of the taller one's height, ..."""

SAME_ROW = 0.6
"""... their heights sharing at least this share of the shorter one's (a row at a slant rises a
few per cent a tile), ..."""

TOUCH = 0.25
"""... and the space between them (or their overlap) at most this share of the narrower one's
width: the tiles of a row touch; two boxes on one tile overlap by more, two tiles of a heap
lie apart."""


def iou(box: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Float `(N,)`: intersection over union of `box` with each of `boxes` `(N, 4)`.

    >>> boxes = np.array([[0, 0, 10, 10], [5, 0, 15, 10], [20, 0, 30, 10]])
    >>> iou(np.array([0, 0, 10, 10]), boxes).round(3).tolist()
    [1.0, 0.333, 0.0]
    """
    b = np.asarray(boxes, np.float64).reshape(-1, 4)
    iw = np.clip(np.minimum(box[2], b[:, 2]) - np.maximum(box[0], b[:, 0]), 0, None)
    ih = np.clip(np.minimum(box[3], b[:, 3]) - np.maximum(box[1], b[:, 1]), 0, None)
    inter = iw * ih
    union = (box[2] - box[0]) * (box[3] - box[1]) + (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1]) - inter
    return inter / np.maximum(union, 1e-9)


def inside(box: np.ndarray, found: np.ndarray) -> np.ndarray:
    """Bool `(N,)`: which `found` boxes (float `(N, 4)`) may be pieces of the wide `box`: the
    centre inside it, the area at most `PIECE_AREA` of its (a box as large is the box again).

    >>> box = np.array([0, 0, 90, 40], np.float32)
    >>> inside(box, np.array([[0, 0, 30, 40], [0, 0, 90, 40], [95, 0, 125, 40]], np.float32)).tolist()
    [True, False, False]
    """
    f = np.asarray(found, np.float32).reshape(-1, 4)
    cx, cy = (f[:, 0] + f[:, 2]) / 2, (f[:, 1] + f[:, 3]) / 2
    area = (f[:, 2] - f[:, 0]) * (f[:, 3] - f[:, 1])
    centre = (box[0] <= cx) & (cx <= box[2]) & (box[1] <= cy) & (cy <= box[3])
    return centre & (area <= PIECE_AREA * (box[2] - box[0]) * (box[3] - box[1]))


def boxed(found: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Bool `(N,)`: which `found` boxes are a tile `others` (`(M, 4)`, the photo's boxes that are
    not wide) box already: `SAME_TILE` of the smaller of the two covered.

    >>> found = np.array([[0, 0, 30, 40], [60, 0, 90, 40]], np.float32)
    >>> boxed(found, np.array([[58, 0, 88, 40]], np.float32)).tolist()
    [False, True]
    """
    f = np.asarray(found, np.float32).reshape(-1, 4)
    o = np.asarray(others, np.float32).reshape(-1, 4)
    if not len(o) or not len(f):
        return np.zeros(len(f), bool)
    iw = np.minimum(f[:, None, 2], o[None, :, 2]) - np.maximum(f[:, None, 0], o[None, :, 0])
    ih = np.minimum(f[:, None, 3], o[None, :, 3]) - np.maximum(f[:, None, 1], o[None, :, 1])
    inter = np.clip(iw, 0, None) * np.clip(ih, 0, None)
    f_area = (f[:, 2] - f[:, 0]) * (f[:, 3] - f[:, 1])
    o_area = (o[:, 2] - o[:, 0]) * (o[:, 3] - o[:, 1])
    smaller = np.maximum(np.minimum(f_area[:, None], o_area[None, :]), 1e-6)
    return (inter / smaller >= SAME_TILE).any(axis=1)


def side_by_side(xyxy: np.ndarray) -> np.ndarray:
    """Bool `(N,)`: which boxes stand beside another of them as the tiles of a row do: heights
    within `SAME_HEIGHT`, sharing `SAME_ROW` of the shorter one's height, and the space between
    them (or their overlap) at most `TOUCH` of the narrower one's width.

    >>> row = np.array([[0, 0, 30, 40], [31, 1, 61, 41], [90, 0, 120, 40], [95, 2, 125, 42]], np.float32)
    >>> side_by_side(row).tolist()  # two touching; a tile apart; two boxes on one tile
    [True, True, False, False]
    """
    b = np.asarray(xyxy, np.float32).reshape(-1, 4)
    w, h = b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]
    lo, hi = np.minimum(h[:, None], h[None, :]), np.maximum(h[:, None], h[None, :])
    share = np.minimum(b[:, None, 3], b[None, :, 3]) - np.maximum(b[:, None, 1], b[None, :, 1])
    space = np.maximum(b[:, None, 0], b[None, :, 0]) - np.minimum(b[:, None, 2], b[None, :, 2])
    near = np.abs(space) <= TOUCH * np.minimum(w[:, None], w[None, :])
    pair = (lo >= SAME_HEIGHT * hi) & (share >= SAME_ROW * lo) & near
    np.fill_diagonal(pair, False)
    return pair.any(axis=1)


__all__ = [
    "PIECE_AREA",
    "SAME_HEIGHT",
    "SAME_ROW",
    "SAME_TILE",
    "TOUCH",
    "boxed",
    "inside",
    "iou",
    "side_by_side",
]
