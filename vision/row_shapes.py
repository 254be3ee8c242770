"""The shapes of tiles side by side (`vision.hand_rows`, `vision.roles`): pairs standing side by
side, runs of them, heaps of boxes, tiles turned, rows of sets laid down.

Boxes only, pixels of one image; all lengths relative to tile sizes (any resolution). Constants
chosen on synthetic table scenes (`vision.testing_table.table_scene`) and the `real_photos_rf`
validation split; the judge photos and `real_sets_dev` were only evaluated on.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from math import log
from statistics import median

from vision.detection import Detection
from vision.layout import OFF_ROW_STEP, guess_kind, split_by_gaps

MELD_GROUP_KINDS = ("pung", "kong", "concealed_kong", "bonus", "flowers")
"""Group kinds whose tiles are a set laid down (`meld`); `chow` too when claimed."""

TOUCH = 0.4
"""Tiles stand side by side with a box gap of at most this many tile widths (short side)."""

LEVEL = 0.3
"""Side by side: the centres' heights differ by at most this fraction of the taller box."""

TILT = 0.12
"""A tile of a short run is tilted when `|log(aspect / upright)|` and `|log(aspect * upright)|`
both exceed this (`upright`: the anchor's median aspect): neither standing nor sideways, e.g.
a discard turned 20-70 degrees. A tilted short run does not join, unless it lies within
`PAIR_GAP` of the hand and its tiles stand together (`PAIR_TILT`)."""

PILE = 0.4
"""A candidate run whose neighbouring boxes overlap along x by more than this many tile widths
(the median over its pairs, beyond what its slope explains: `overlap`) is a heap, not a row:
tiles standing side by side touch, they cannot overlap. Scattered discards piled on each other,
or the localiser's boxes over two or three of them, make such runs; one cannot be the anchor
while a run that is not a heap is a candidate (issue 35: on a photo of a table with a heap of
discards in the middle such a run outscored the hand row, 14 discards taken into the hand).
Chosen on the validation split of `real_photos_rf` and `real_rows_public`: the hand rows there
overlap 0.34 at most (a hand of flat tiles fanned out, each over the next); `real_sets_dev` was
only evaluated on (0.4 and 0.5 read it alike)."""


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


def overlap(detections: Sequence[Detection], run: Sequence[int]) -> float:
    """The median, over the run's neighbouring pairs (left to right), of how far their boxes
    overlap along x beyond what the row's slope explains, in tile widths (short sides): boxes of
    a row turned by an angle overlap by the tile's height x its tangent (`dy / dx` of the centres)
    and no more. 0 for a run of one tile.

    >>> row = [Detection((x, 0, x + 30, 40), "1m", 0.9) for x in (0, 31, 62)]
    >>> heap = [Detection((x, 0, x + 30, 40), "1m", 0.9) for x in (0, 12, 24)]
    >>> overlap(row, [0, 1, 2]), overlap(heap, [0, 1, 2])
    (0.0, 0.6)
    """
    ds = [detections[i] for i in run]
    unit = median(short_side(d) for d in ds)
    ovs = []
    for a, b in pairwise(ds):
        dx = b.center[0] - a.center[0]
        slope = abs(b.center[1] - a.center[1]) / max(dx, 1e-6)
        ovs.append(max(0.0, a.xyxy[2] - b.xyxy[0] - min(a.height, b.height) * slope) / unit)
    return median(ovs) if ovs else 0.0


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


__all__ = [
    "LEVEL",
    "MELD_GROUP_KINDS",
    "PILE",
    "TILT",
    "TOUCH",
    "all_sets",
    "long_side",
    "overlap",
    "short_side",
    "side_by_side",
    "standing",
    "tilted",
]
