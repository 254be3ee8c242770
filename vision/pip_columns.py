"""Count the sticks of a bamboo tile whose sticks touch end to end (`vision.pip_sticks`).

Some sets draw 6條 and 9條 as columns of two or three sticks that touch: each column is one long
bar pinched (or swollen) at the joins, each stick with a waist (or a node) of its own, and the face is often
slanted in the photo. Neither separate blobs nor empty rows between bands find them. Here:

1. the ink (`column_ink`: a slanted column may reach the top or bottom of the face) is deskewed:
   the shear (up to `MAX_SHEAR`) whose column profile is sharpest;
2. the columns are the runs of that profile; in each, the ink's width row by row, split at empty
   rows (sticks apart);
3. the sticks in each part of a column: of 3 and 2, the one whose sticks repeat one another best
   (the width profile's correlation with itself a stick on: sticks wide at their ends and node,
   narrow between), if they are long enough; else the most of 3, 2 whose joins (at 1/k, 2/k of
   its length) are all pinches of the width (a stick's own waist is at its middle, never at a
   join of the count it stands for except 1/2 for three, so three is tried first); else 1;
4. the sticks' centres are fitted to `STICK_LAYOUTS`; the pinches' depth and the columns'
   agreement (length, width) make the confidence.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.pip_ink import runs
from vision.pip_layouts import STICK_LAYOUTS, PipCount, fit_layout

MAX_SHEAR = 0.36
"""The largest horizontal shear tried (tan 20°), in `SHEAR_STEPS` steps either way."""
SHEAR_STEPS = 9
PERIODIC = 0.5
"""Sticks repeat one another: the width profile's correlation with itself a stick on, at least."""
PERIODIC_ASPECT = 1.8
"""Sticks found by their repeats are at least this many times as long as wide (a lone stick's
halves repeat too)."""
PINCH = 0.75
"""A join is a pinch: the column's width there at most this share of its full width (the 90th
percentile of its width profile)."""


def deskew(ink: np.ndarray) -> np.ndarray:
    """`ink` (0/1 float32) sheared horizontally so its columns stand upright: of the shears tried,
    the one whose column profile has the most energy (sharp columns, deep gaps between)."""
    h = ink.shape[0]
    pad = int(np.ceil(MAX_SHEAR * h / 2)) + 1
    src = cv2.copyMakeBorder(ink, 0, 0, pad, pad, cv2.BORDER_CONSTANT, value=0)
    best, out = -1.0, src
    for s in np.linspace(-MAX_SHEAR, MAX_SHEAR, 2 * SHEAR_STEPS + 1):
        m = np.array([[1, s, -s * h / 2], [0, 1, 0]], np.float32)
        got = cv2.warpAffine(src, m, (src.shape[1], h), flags=cv2.INTER_NEAREST)
        score = float((got.sum(axis=0) ** 2).sum())
        if score > best + 1e-6:
            best, out = score, got
    return out


def _period(prof: np.ndarray, k: int) -> float:
    """How much `prof` repeats itself every 1/k of its length (Pearson's r at that lag)."""
    lag = round(len(prof) / k)
    a, b = prof[:-lag], prof[lag:]
    if a.std() < 1e-6 or b.std() < 1e-6:
        return 0.0
    return float(np.corrcoef(a, b)[0, 1])


def _segment_sticks(width: np.ndarray) -> tuple[int, float] | None:
    """`(sticks, how sure)` of one unbroken run of a column's width profile, or None: of 3, 2,
    the one whose sticks repeat one another best (`PERIODIC`: e.g. sticks wide at their ends and
    node, narrow between), at least `PERIODIC_ASPECT` times as long as wide; else the most whose
    joins are all pinches (`PINCH`); else 1."""
    n = len(width)
    prof = np.convolve(width, np.ones(3) / 3, mode="same")
    full = float(np.percentile(prof, 90))  # the sticks' full width, away from pinches and waists
    if full <= 0 or n < 1.4 * full:  # a stick is longer than wide
        return None
    periods = {k: _period(prof, k) for k in (3, 2) if n / k >= PERIODIC_ASPECT * full}
    if periods:
        k = max(periods, key=lambda q: periods[q])
        if periods[k] >= PERIODIC:
            return k, periods[k]
    for k in (3, 2):
        if n / k < 1.4 * full:
            continue
        r = max(1, round(n / (8 * k)))
        joins = [round(i * n / k) for i in range(1, k)]
        depths = [1.0 - float(prof[max(j - r, 0) : j + r + 1].min()) / full for j in joins]
        if min(depths) >= 1.0 - PINCH:
            return k, min(1.0, float(np.mean(depths)) / 0.5)
    return 1, 1.0


def _column(width: np.ndarray) -> list[tuple[float, float, float]] | None:
    """The sticks of one column, `(centre row, length, how sure)` each: its ink split at empty
    rows (sticks apart), each part counted by its pinches (sticks that touch); None when a part
    is no stick."""
    out = []
    for a, b in runs(width > 0, 4):
        got = _segment_sticks(width[a:b])
        if got is None:
            return None
        k, depth = got
        step = (b - a) / k
        out += [(a + (i + 0.5) * step, step, depth) for i in range(k)]
    return out or None


def column_ink(mask: np.ndarray) -> np.ndarray:
    """`mask`'s ink, 0/1 float32, less the blobs that touch its left or right border (the tile's
    side, a neighbour) or touch its top or bottom and are wide (the table): a slanted column of
    sticks that reaches the top or bottom is kept."""
    _n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = mask.shape
    x, y, bw, bh = stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3]
    side = (x == 0) | (x + bw >= w)
    end = ((y == 0) | (y + bh >= h)) & (bw > 0.35 * w)
    drop = side | end
    drop[0] = True
    return np.where(drop[labels], 0, 1).astype(np.float32)


def sticks_in_columns(mask: np.ndarray) -> PipCount | None:
    """Sticks counted along columns of touching sticks (module docstring), or None."""
    ink = column_ink(mask)
    if ink.sum() < 0.02 * ink.size:
        return None
    ink = deskew(ink)
    cols = ink.sum(axis=0)
    found = runs(cols > 0.15 * cols.max(), 2)
    if not 1 <= len(found) <= 4:
        return None
    centres, depths, lengths, widths = [], [], [], []
    for c0, c1 in found:
        col = _column(ink[:, c0:c1].sum(axis=1))
        if col is None:
            return None
        centres += [((c0 + c1) / 2, y) for y, _, _ in col]
        lengths += [length for _, length, _ in col]
        depths += [depth for _, _, depth in col]
        widths.append(c1 - c0)
    if len(centres) < 2:
        return None
    ln, wd = np.array(lengths), np.array(widths, float)
    agree = max(0.0, 1 - 2 * float(ln.std() / ln.mean())) * max(0.0, 1 - 2 * float(wd.std() / wd.mean()))
    pinch = float(np.mean(depths))
    return fit_layout(np.array(centres, np.float64), STICK_LAYOUTS, agree * pinch)


__all__ = ["PINCH", "column_ink", "deskew", "sticks_in_columns"]
