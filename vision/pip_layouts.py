"""The standard layouts of the suit tiles' pips and the fit of found centres to them
(`vision.pips`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True)
class PipCount:
    """A count and how sure of it the counter is.

    Attributes:
        count: 1..9.
        conf: 0..1, the product of the layout fit, roundness (dots) or straightness (sticks) and
            size agreement.
        err: the layout fit's RMS error (unit spread per axis), for reports.
    """

    count: int
    conf: float
    err: float


def _grid(cols: int, rows: int) -> list[tuple[float, float]]:
    return [(c / max(cols - 1, 1), r / max(rows - 1, 1)) for r in range(rows) for c in range(cols)]


_SLANT = [(0.0, 0.0), (0.5, 0.15), (1.0, 0.3)]
LAYOUTS: dict[int, list[tuple[float, float]]] = {
    2: [(0.5, 0.0), (0.5, 1.0)],
    3: [(0.0, 0.0), (0.5, 0.5), (1.0, 1.0)],
    4: _grid(2, 2),
    5: [*_grid(2, 2), (0.5, 0.5)],
    6: _grid(2, 3),
    7: [*_SLANT, (0.0, 0.65), (1.0, 0.65), (0.0, 1.0), (1.0, 1.0)],
    8: _grid(2, 4),
    9: _grid(3, 3),
}
"""Standard dot layouts (x right, y down, unit box); bamboo uses `STICK_LAYOUTS`."""
STICK_LAYOUTS: dict[int, list[tuple[float, float]]] = {
    2: [(0.5, 0.0), (0.5, 1.0)],
    3: [(0.5, 0.0), (0.0, 1.0), (1.0, 1.0)],
    4: _grid(2, 2),
    5: [*_grid(2, 2), (0.5, 0.5)],
    6: _grid(3, 2),
    7: [(0.5, 0.0), *[(x, y) for y in (0.5, 1.0) for x in (0.0, 0.5, 1.0)]],
    8: [(x, y) for y in (0.0, 1.0) for x in (0.0, 0.33, 0.67, 1.0)],
    9: _grid(3, 3),
}
"""Standard stick layouts: sticks stand in columns and rows of 1–3 (8 two rows of four)."""


def _variants(pts: list[tuple[float, float]]) -> list[np.ndarray]:
    """A layout as drawn, turned 180° and mirrored: `(n, 2)` arrays."""
    a = np.array(pts, np.float64)
    return [a, 1.0 - a, np.c_[1.0 - a[:, 0], a[:, 1]], np.c_[a[:, 0], 1.0 - a[:, 1]]]


def _unit(pts: np.ndarray) -> np.ndarray:
    """`(n, 2)` points centred, each axis scaled to unit spread; an axis with almost no spread
    (a column of dots) is scaled as the other axis is."""
    c = pts - pts.mean(axis=0)
    sd = c.std(axis=0)
    big = float(sd.max()) or 1.0
    return c / np.where(sd < 0.2 * big, big, sd)


def layout_error(centres: np.ndarray, layout: list[tuple[float, float]]) -> float:
    """RMS distance between `centres` `(n, 2)` and the best variant of `layout` (n points),
    both on unit spread, points paired greedily nearest first; inf when the counts differ."""
    if len(centres) != len(layout):
        return float("inf")
    if len(centres) == 1:
        return 0.0
    got, best = _unit(centres), float("inf")
    for var in _variants(layout):
        want = _unit(var)
        d = np.linalg.norm(got[:, None] - want[None], axis=2)
        total, used_a, used_b = 0.0, set(), set()
        for flat in np.argsort(d, axis=None):
            i, j = divmod(int(flat), len(want))
            if i not in used_a and j not in used_b:
                used_a.add(i)
                used_b.add(j)
                total += float(d[i, j]) ** 2
        best = min(best, (total / len(centres)) ** 0.5)
    return best


def fit_layout(
    centres: np.ndarray, layouts: dict[int, list[tuple[float, float]]], quality: float
) -> PipCount | None:
    """The count `len(centres)` if it has a layout in `layouts`, its confidence `quality` x the
    fit (1 at no error, 0 at `err` 0.6 and beyond); None when that is 0.

    Args:
        centres: `(n, 2)` float centres of the pips found, pixels.
    """
    n = len(centres)
    if n not in layouts:
        return None
    err = layout_error(centres, layouts[n])
    conf = quality * max(0.0, 1.0 - err / 0.6)
    return PipCount(n, round(conf, 4), round(err, 4)) if conf > 0 else None


MIN_VOTE = 0.05
"""The least voted confidence that is a count: below it, None (real crops of 一條: 36 of 39 None,
the other three at most 0.08, far below `vision.pips_check.PIPS_MIN_CONF`; with the columns of
touching sticks, `vision.pip_columns`, some are counted, at most 0.28: `models/MODEL.md`)."""


def vote(counts: list[PipCount | None]) -> PipCount | None:
    """The count with the most confidence summed over the mask variants; its confidence that
    sum over all the variants (variants that disagree or find nothing lower it); None below
    `MIN_VOTE` (no structure the variants agree on: 一條's bird, a blank or scribbled face)."""
    score: dict[int, float] = {}
    for c in counts:
        if c is not None:
            score[c.count] = score.get(c.count, 0.0) + c.conf
    if not score:
        return None
    best = max(score, key=lambda n: score[n])
    err = min(c.err for c in counts if c is not None and c.count == best)
    conf = score[best] / len(counts)
    return PipCount(best, round(conf, 4), err) if conf >= MIN_VOTE else None


__all__ = ["LAYOUTS", "STICK_LAYOUTS", "PipCount", "fit_layout", "layout_error", "vote"]
