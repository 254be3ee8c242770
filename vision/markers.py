"""Markers: a round or seat marker (a red disc with 北, a wind die) read as a tile is `other`
(a red 北 marker read as 中 at the end of the hand row must not enter the hand).

The classifier knows no marker class (a disc it has never seen becomes its likeliest tile, often
flagged). Two checks on what a marker looks like, each measured to leave real tiles alone:

1. **Red** (`red_markers`): the centre of the box (the middle `INNER` of each side) is mostly a
   saturated red (`RED_SHARE`), far redder than the photo's tiles are (`RED_OVER` over their
   median: a photo taken under red light reddens every tile alike). Measured: no tile of
   `real_photos_rf` (399 table photos, 6,712 labelled boxes; the reddest, under pink light, 0.83,
   its photo's median as high) and none of `tile_crops_mit` (540 single tiles in many styles; the
   reddest, a 6 of dots, 0.43 and 中 at most 0.29) is taken for a marker.
2. **Shape** (`vision.roles`, `MARKER_TILT`): a flagged reading in a hand row whose box is
   neither the row's upright aspect nor sideways by more than `MARKER_TILT` (a disc's box is
   square: 0.29 from a tile's 0.75 either way). Measured on the labelled boxes of
   `real_photos_rf`'s hand rows (316 photos, 5,512 tiles): 0.8 % of true tiles are that far off
   (perspective, label noise) before the flag is asked. With the real reader (models as shipped)
   on `real_rows_public` and the sample photo (29 photos, 922 tiles, 24 flagged): none taken out
   (one was, a 北 cut by the photo's right edge and misread 4p at 9 %, before boxes the photo's
   edge cuts were left to the size rule).

numpy only; the reader calls `red_shares` on the pixels it decoded.
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import median

import numpy as np

INNER = 0.6
"""The centre of a box that is looked at: this share of its width and height."""

RED_SHARE, RED_OVER = 0.55, 0.3
"""A marker's centre is at least `RED_SHARE` red pixels, and `RED_OVER` more than the median of
the photo's tiles."""

MARKER_TILT = 0.25
"""`|log(aspect / upright)|` and `|log(aspect * upright)|` both over this: a box neither standing
nor sideways (`vision.hand_rows.tilted` with a wider margin)."""


def red_share(pixels: np.ndarray) -> float:
    """The share of saturated red pixels (R over 110 and 1.6 x both G and B) in the centre of an
    `(h, w, 3)` uint8 RGB crop (`INNER`).

    >>> disc = np.zeros((40, 40, 3), np.uint8); disc[..., 0] = 200
    >>> face = np.full((40, 30, 3), 235, np.uint8); face[15:25, 10:20] = (200, 30, 30)
    >>> red_share(disc), round(red_share(face), 2)
    (1.0, 0.23)
    """
    h, w = pixels.shape[:2]
    y0, y1 = int(h * (1 - INNER) / 2), max(int(h * (1 + INNER) / 2), int(h * (1 - INNER) / 2) + 1)
    x0, x1 = int(w * (1 - INNER) / 2), max(int(w * (1 + INNER) / 2), int(w * (1 - INNER) / 2) + 1)
    c = pixels[y0:y1, x0:x1].astype(np.int32)
    if c.size == 0:
        return 0.0
    r, g, b = c[..., 0], c[..., 1], c[..., 2]
    return float(((r > 110) & (r * 10 > 16 * g) & (r * 10 > 16 * b)).mean())


def red_shares(pixels: np.ndarray, boxes: np.ndarray) -> list[float]:
    """`red_share` of each `(x0, y0, x1, y1)` box (pixels of `pixels`)."""
    h, w = pixels.shape[:2]
    out = []
    for x0, y0, x1, y1 in np.asarray(boxes, np.float64).reshape(-1, 4):
        xa, ya = max(0, int(x0)), max(0, int(y0))
        xb, yb = min(w, int(np.ceil(x1))), min(h, int(np.ceil(y1)))
        out.append(red_share(pixels[ya:yb, xa:xb]) if xb > xa and yb > ya else 0.0)
    return out


def red_markers(shares: Sequence[float]) -> list[bool]:
    """Which boxes are red markers (`RED_SHARE`, `RED_OVER`), from their `red_share`s.

    >>> red_markers([0.2, 0.25, 0.1, 0.8]), red_markers([0.8, 0.82, 0.79, 0.83])
    ([False, False, False, True], [False, False, False, False])
    """
    if not shares:
        return []
    mid = median(shares)
    return [s >= RED_SHARE and s >= mid + RED_OVER for s in shares]


__all__ = ["INNER", "MARKER_TILT", "RED_OVER", "RED_SHARE", "red_markers", "red_share", "red_shares"]
