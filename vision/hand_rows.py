"""Hand rows from the layout (`vision.roles` rules 2 and 3): rows cut into runs of tiles side by
side, the best run the hand row (the anchor), and the runs that join it.

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
from vision.layout import OFF_ROW_MIN, OFF_ROW_STEP, guess_kind, rows_of, split_by_gaps
from vision.walls import Box, box_gap, span

MELD_GROUP_KINDS = ("pung", "kong", "concealed_kong", "bonus", "flowers")
"""Group kinds whose tiles are a set laid down (`meld`); `chow` too when claimed."""

TOUCH = 0.4
"""Tiles stand side by side with a box gap of at most this many tile widths (short side)."""

LEVEL = 0.3
"""Side by side: the centres' heights differ by at most this fraction of the taller box."""

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

TILT = 0.12
"""A tile of a short run is tilted when `|log(aspect / upright)|` and `|log(aspect * upright)|`
both exceed this (`upright`: the anchor's median aspect): neither standing nor sideways, e.g.
a discard turned 20-70 degrees. A tilted short run does not join, unless it lies within
`PAIR_GAP` of the hand and its tiles stand together (`PAIR_TILT`)."""

PAIR_TILT, PAIR_GAP = 0.2, 0.3
"""A short run of two or more tiles standing side by side within `PAIR_GAP` long sides (box gap)
of the hand row is not tilted when its median aspect is within `PAIR_TILT` (`|log(aspect /
upright)|`) of the anchor's: a pair set apart right behind the hand, seen a little more from
above (0.15 and 0.14 away on the validation split). One discard turned 15 degrees is 0.12, two
turned 30 degrees 0.21; discards scattered beside a hand turned 12 degrees lay 0.5 from its span."""


def long_side(d: Detection) -> float:
    """The box's long side, pixels."""
    return max(d.width, d.height)


def short_side(d: Detection) -> float:
    """The box's short side (a tile's width), pixels."""
    return min(d.width, d.height)


def side_by_side(a: Detection, b: Detection, unit: float) -> bool:
    """`a` and `b` (left to right) stand side by side: gap <= `TOUCH * unit` pixels, centres
    level within `LEVEL` of the taller box, long sides within 1.25x of each other.

    >>> side_by_side(Detection((0, 0, 30, 40), "1m", 1), Detection((32, 2, 62, 42), "2m", 1), 30)
    True
    >>> side_by_side(Detection((0, 0, 30, 40), "1m", 1), Detection((32, 20, 62, 60), "2m", 1), 30)
    False
    """
    gap = b.xyxy[0] - a.xyxy[2]
    level = abs(a.center[1] - b.center[1]) <= LEVEL * max(a.height, b.height)
    alike = max(long_side(a), long_side(b)) <= 1.25 * min(long_side(a), long_side(b))
    return gap <= TOUCH * unit and level and alike


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


def standing(ds: Sequence[Detection]) -> tuple[int, float]:
    """`(tiles side by side along x, share of neighbour pairs standing side by side)`: the count
    is 1 + the steps between neighbouring centres (by x) of at least `OFF_ROW_STEP` x the median
    tile width (tiles of a steep diagonal that `rows_of` puts in one "row" overlap along x).

    >>> standing([Detection((x, 0, x + 30, 40), "1m", 0.9) for x in (0, 32, 64)])
    (3, 1.0)
    >>> standing([Detection((x, y, x + 60, y + 50), "1m", 0.9) for x, y in ((0, 40), (12, 20), (24, 0))])[0]
    1
    """
    unit = median(short_side(d) for d in ds)
    xs = sorted(d.center[0] for d in ds)
    n = 1 + sum(b - a >= OFF_ROW_STEP * unit for a, b in pairwise(xs))
    pairs = list(pairwise(ds))
    share = sum(side_by_side(a, b, unit) for a, b in pairs) / len(pairs) if pairs else 0.0
    return n, share


def tilted(d: Detection, upright: float) -> bool:
    """The tile lies neither standing nor sideways (`TILT`; `upright`: the anchor's aspect)."""
    aspect = d.width / d.height if d.height > 0 else 1.0
    return min(abs(log(aspect / upright)), abs(log(aspect * upright))) > TILT


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

    def score(k: int) -> float:
        count, share, size, _aspect = stats[k]
        cy = median(detections[i].center[1] for i in runs[k])
        near = min(1.0, max(0.0, (cy - bottom0) / height))
        return min(count, 18) * share * size / biggest * (0.5 + 0.5 * near)

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


def all_sets(ds: Sequence[Detection]) -> bool:
    """The run (left to right) is sets laid down only: each part split off by a gap
    (`vision.layout.split_by_gaps`) is a pung, kong, concealed kong, claimed chow, 發 or flowers.

    >>> kong = [Detection((62 * k, 0, 62 * k + 60, 80), "5s", 0.9) for k in range(4)]
    >>> all_sets(kong), all_sets(kong[:2])
    (True, False)
    """
    unit = median(short_side(d) for d in ds)
    for part in split_by_gaps(ds, range(len(ds)), unit):
        sideways = any(ds[i].rotated for i in part)
        kind = guess_kind([ds[i].tile for i in part], sideways)
        if not (kind in MELD_GROUP_KINDS or (kind == "chow" and sideways)):
            return False
    return True


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
    "runs_of",
    "short_side",
    "side_by_side",
    "standing",
    "tilted",
]
