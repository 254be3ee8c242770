"""Hand rows from the layout (`vision.roles` rules 2 and 3): rows cut into runs of tiles side by
side, the best run the hand row (the anchor; never a heap of boxes while a row is a candidate:
`vision.row_shapes.PILE`), and the runs that join it. The shapes of pairs and runs are
`vision.row_shapes`.

Boxes only, pixels of one image; all lengths relative to tile sizes (any resolution). Constants
chosen on synthetic table scenes (`vision.testing_table.table_scene`) and the `real_photos_rf` validation
split; the judge photos were only evaluated on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from math import log
from statistics import median

from vision.detection import Detection
from vision.layout import OFF_ROW_MIN, rows_of
from vision.row_shapes import (
    LEVEL,
    MELD_GROUP_KINDS,
    PILE,
    TILT,
    TOUCH,
    all_sets,
    long_side,
    overlap,
    short_side,
    side_by_side,
    standing,
    tilted,
)
from vision.walls import Box, box_gap, span

RUN_GAP = 2.5
"""A row is cut into runs where neighbours are more than this many tile widths apart."""

HAND_SIZE, SET_SIZE = (0.75, 1.33), (0.85, 1.2)
"""A run joins the hand when its median long side is within these multiples of the nearest
hand run's: a full row (`ROW_LONG`; further away rows look smaller) or a candidate run within
`NEAR` of it (a set laid flat right behind the hand looks shorter: 0.84 on the validation
split), a shorter run."""

TOUCH_SHARE, TOUCH_MIN = 0.6, 0.5
"""A candidate run joins when its share of side-by-side pairs is at least `TOUCH_SHARE` x the
nearest hand run's and at least `TOUCH_MIN`."""

ROW_LONG, FULL_ROW = 8, 0.75
"""Within `NEAR` sizes of a hand row (a row right behind it, a grid of tiles) a candidate run
joins with `ROW_LONG` tiles side by side or looking alike (`ROW_TILT`); further (up to
`REACH`) only as a full row: `ROW_LONG` and `FULL_ROW` x that row's count (a sheet of rows, a
hand in two rows; neat discards lie in rows of 6-8 beside a hand of 13-17), or as a row of
sets laid down (every part split off by a gap a pung, kong, claimed chow, ...)."""

ROW_TILT = 0.3
"""Alike: `|log(aspect / upright)|` at most this, the run's median aspect (width / height)
against the anchor's (grids and melds standing behind the hand differ by up to ~25 %)."""

REACH, NEAR = 4.0, 1.0
"""Distances, in long sides of the nearest hand run's tiles (box gap): see `ROW_LONG`; a short
run in a hand row's row joins within `REACH`, one off it within `NEAR` over its span."""

PAIR_TILT, PAIR_GAP = 0.2, 0.3
"""A short run of two or more tiles standing side by side within `PAIR_GAP` long sides (box gap)
of the hand row is not tilted when its median aspect is within `PAIR_TILT` (`|log(aspect /
upright)|`) of the anchor's: a pair set apart right behind the hand, seen a little more from
above (0.15 and 0.14 away on the validation split). One discard turned 15 degrees is 0.12, two
turned 30 degrees 0.21; discards scattered beside a hand turned 12 degrees lay 0.5 from its span."""


def runs_of(detections: Sequence[Detection], rows: Sequence[Sequence[int]]) -> list[list[int]]:
    """Each row (indices left to right) cut where the gap exceeds `RUN_GAP` tile widths."""
    out: list[list[int]] = []
    for row in rows:
        unit = median(short_side(detections[i]) for i in row)
        run: list[int] = []
        for i in row:
            if run and detections[i].xyxy[0] - detections[run[-1]].xyxy[2] > RUN_GAP * unit:
                out.append(run)
                run = []
            run.append(i)
        out.append(run)
    return out


@dataclass(frozen=True)
class HandRows:
    """The runs of a photo and which of them are the hand (rules 2-3).

    Attributes:
        runs: runs of tiles, indices into the detections, each left to right.
        hand: indices into `runs` of the hand rows; `anchor` among them.
        anchor: the best candidate run (the hand row).
        score: the anchor's score (`find_hand_rows`).
        size: the anchor's median long side, pixels.
        upright: the anchor's median aspect (width / height).
    """

    runs: list[list[int]]
    hand: frozenset[int]
    anchor: int
    score: float
    size: float
    upright: float


def find_hand_rows(
    detections: Sequence[Detection], free: Sequence[int], image_size: tuple[int, int] | None
) -> HandRows | None:
    """Rules 2-3 over the detections `free` (indices; the walls left out): the runs, the anchor
    and the runs that join it; None without a candidate row (no `OFF_ROW_MIN` tiles side by side).

    Args:
        detections: tiles in any order, `xyxy` pixels of one image.
        free: the indices to read.
        image_size: `(width, height)` pixels, for nearness to the bottom edge; None: the
            detections' own extent stands in.
    """
    if not free:
        return None
    rows = rows_of([detections[i] for i in free])
    runs = [[free[k] for k in run] for run in runs_of([detections[i] for i in free], rows)]
    stats = {}
    for k, run in enumerate(runs):
        ds = [detections[i] for i in run]
        count, share = standing(ds)
        if count >= OFF_ROW_MIN:
            aspect = median(d.width / max(d.height, 1e-6) for d in ds)
            stats[k] = (count, share, median(long_side(d) for d in ds), aspect)
    if not stats:
        return None  # no row of tiles side by side: nothing to tell the hand from the rest by
    top = min(d.xyxy[1] for d in detections)
    height = image_size[1] if image_size else max(d.xyxy[3] for d in detections) - top or 1.0
    bottom0 = 0.0 if image_size else top
    biggest = max(s[2] for s in stats.values())

    def row_score(k: int) -> float:
        count, share, size, _aspect = stats[k]
        cy = median(detections[i].center[1] for i in runs[k])
        near = min(1.0, max(0.0, (cy - bottom0) / height))
        return min(count, 18) * share * size / biggest * (0.5 + 0.5 * near)

    piles = {k for k in stats if overlap(detections, runs[k]) > PILE}
    if not any(row_score(k) > 0 for k in stats if k not in piles):
        piles = set()  # nothing but heaps: the best of them, as before (no row to prefer)

    def score(k: int) -> float:
        return 0.0 if k in piles else row_score(k)

    anchor = max(stats, key=score)
    _count, _share, a_size, upright = stats[anchor]
    hand = {anchor}
    grew = True
    while grew:
        grew = False
        spans = {h: span([detections[i] for i in runs[h]]) for h in hand}
        for k in range(len(runs)):
            if k not in hand and _joins(k, runs, stats, spans, detections, upright):
                hand.add(k)
                grew = True
                break
    return HandRows(runs, frozenset(hand), anchor, score(anchor), a_size, upright)


def _joins(
    k: int,
    runs: Sequence[Sequence[int]],
    stats: dict[int, tuple[int, float, float, float]],
    spans: dict[int, Box],
    detections: Sequence[Detection],
    upright: float,
) -> bool:
    """Run `k` joins the hand rows `spans` (rule 3): its size is `HAND_SIZE` (a full row) or
    `SET_SIZE` of the nearest hand run's, and it lies beside that run (`ROW_LONG`, `NEAR`)."""
    ds = [detections[i] for i in runs[k]]
    box = span(ds)
    size = median(long_side(d) for d in ds)
    near = min(spans, key=lambda h: box_gap(box, spans[h]))
    h_size = median(long_side(detections[i]) for i in runs[near])
    count = stats[k][0] if k in stats else 0
    gap = box_gap(box, spans[near])
    lo, hi = HAND_SIZE if count >= ROW_LONG or (k in stats and gap <= NEAR * h_size) else SET_SIZE
    if not lo * h_size <= size <= hi * h_size:
        return False
    if k not in stats:
        if not _beside(box, spans[near], h_size, same_row=_same_row(k, near, runs, detections)):
            return False
        if not any(tilted(d, upright) for d in ds):
            return True
        return gap <= PAIR_GAP * h_size and _standing_together(ds, upright)
    _count, share, _size_k, aspect = stats[k]
    h_count, h_share = stats[near][:2] if near in stats else (count, 1.0)
    if share < max(TOUCH_MIN, TOUCH_SHARE * h_share) or gap > REACH * h_size:
        return False
    if gap <= NEAR * h_size:  # right behind or before the hand row: a second row, a grid
        return count >= ROW_LONG or abs(log(aspect / upright)) <= ROW_TILT
    # further: a full row (a sheet of rows, a hand in two rows), or a row of sets laid down
    return count >= max(ROW_LONG, FULL_ROW * h_count) or all_sets(ds)


def _standing_together(ds: Sequence[Detection], upright: float) -> bool:
    """Two or more tiles (left to right) side by side (`side_by_side`), their median aspect within
    `PAIR_TILT` of `upright`: a pair or set standing apart, not discards turned one by one.

    >>> pair = [Detection((x, 0, x + 35, 40), "1m", 0.9) for x in (0, 37)]
    >>> _standing_together(pair, 0.75), _standing_together(pair[:1], 0.75)
    (True, False)
    """
    if len(ds) < 2:
        return False
    unit = median(short_side(d) for d in ds)
    aspect = median(d.width / max(d.height, 1e-6) for d in ds)
    together = all(side_by_side(a, b, unit) for a, b in pairwise(ds))
    return together and abs(log(aspect / upright)) <= PAIR_TILT


def _same_row(k: int, h: int, runs: Sequence[Sequence[int]], detections: Sequence[Detection]) -> bool:
    """Runs `k` and `h` are level (one centre's height inside the other's vertical span)."""
    a = span([detections[i] for i in runs[k]])
    b = span([detections[i] for i in runs[h]])
    ca, cb = (a[1] + a[3]) / 2, (b[1] + b[3]) / 2
    return b[1] <= ca <= b[3] or a[1] <= cb <= a[3]


def _beside(box: Box, hand: Box, size: float, *, same_row: bool) -> bool:
    """A short run at `box` lies beside a hand row at `hand` (rule 3)."""
    if same_row:
        return box_gap(box, hand) <= REACH * size
    overlap = min(box[2], hand[2]) - max(box[0], hand[0])
    return overlap > 0 and box_gap(box, hand) <= NEAR * size


__all__ = [
    "FULL_ROW",
    "HAND_SIZE",
    "LEVEL",
    "MELD_GROUP_KINDS",
    "NEAR",
    "PAIR_GAP",
    "PAIR_TILT",
    "PILE",
    "REACH",
    "ROW_LONG",
    "ROW_TILT",
    "RUN_GAP",
    "SET_SIZE",
    "TILT",
    "TOUCH",
    "TOUCH_MIN",
    "TOUCH_SHARE",
    "HandRows",
    "all_sets",
    "find_hand_rows",
    "long_side",
    "overlap",
    "runs_of",
    "short_side",
    "side_by_side",
    "standing",
    "tilted",
]
