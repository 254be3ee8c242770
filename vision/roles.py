"""Roles from the layout: which tiles of a table photo are the player's hand, and which are
discards, walls or something else (`Detection.role`, docs/detect-json.md).

A photo taken at the table holds the hand and much else. `table_roles` reads it from the
boxes alone (pixels of one image; all lengths relative to tile sizes, so any resolution):

1. **Walls** (`vision.walls.wall_tiles`): clusters of 5 or more touching face-down tiles,
   and face-up tiles lying on them.
2. **Runs.** `vision.layout.rows_of` rows, cut where neighbours are more than `RUN_GAP`
   tile widths apart. A run with `OFF_ROW_MIN` or more tiles side by side is a candidate
   hand row. Its score: `min(n, 18)` x the share of neighbour pairs that *stand side by side*
   (gap at most `TOUCH` widths, centres level within `LEVEL` of the height, sizes alike) x
   its tile size relative to the largest candidate's x `0.5 + 0.5 * nearness` to the image's
   bottom edge. The best is the hand row (the anchor).
3. **Hand rows.** Other candidate runs join the hand when their tiles are the size of the
   hand row they lie beside (`HAND_SIZE`, `SET_SIZE`), stand side by side as much as
   `TOUCH_SHARE` of that row does (and at least `TOUCH_MIN`), and either lie right behind
   it looking alike or further away (up to `REACH` sizes) as a full row or a row of melds
   (`ROW_LONG`): two or
   three rows of a hand, or of a sheet of rows, stay together (the hand guess keeps at most
   one hand of them, `app.photo_hand`). A short run (a tile or a set laid apart) joins when
   it is that row's size (`SET_SIZE`), not tilted (`TILT`), and beside it: in the same row
   within `REACH` sizes, or within `NEAR` sizes of it and overlapping its span.
4. **The rest.** A tile inside the hand rows whose long side is outside `OFF_ROW_SIZE` of its
   run's median is `other` (a logo, a box on a rack); elsewhere, a tile outside
   `DISCARD_SIZE` of the anchor's size, or with no other tile within `ISOLATED` sizes, is
   `other`; everything else is a `discard`.

Rules 2-4 are also read with x and y swapped (`TURNED`: a hand running down the photo).
Without a candidate row (a hand laid steeply diagonal, a single set) every tile that is not
a wall is `hand`, as before roles. `meld` is given after grouping (`meld_roles`): a hand tile
in a group the layout reads as a set laid down (`MELD_GROUP_KINDS`, a chow only when claimed).

Constants chosen on synthetic table scenes (`vision.testing.table_scene`, 72 scenes, seeds
other than those of tests/vision/test_roles.py) and the `real_photos_rf` validation split
(`ROW_TILT`, `ROW_LONG`). The judge photos were only evaluated on; one of them showed that a
row further away looks flatter, which the synthetic sheets of rows (`rows=`) now hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import pairwise
from math import log
from statistics import median

import numpy as np

from vision.detection import Detection, Group
from vision.layout import OFF_ROW_MIN, OFF_ROW_SIZE, OFF_ROW_STEP, guess_kind, rows_of, split_by_gaps
from vision.walls import Box, box_gap, span, wall_tiles

TOUCH = 0.4
"""Tiles stand side by side with a box gap of at most this many tile widths (short side)."""

LEVEL = 0.3
"""Side by side: the centres' heights differ by at most this fraction of the taller box."""

RUN_GAP = 2.5
"""A row is cut into runs where neighbours are more than this many tile widths apart."""

HAND_SIZE, SET_SIZE = (0.75, 1.33), (0.85, 1.2)
"""A run joins the hand when its median long side is within these multiples of the nearest
hand run's: a full row (`ROW_LONG`; further away rows look smaller), a shorter run."""

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
a discard turned 20-70 degrees. A tilted short run does not join."""

ISOLATED = 4.0
"""A tile off the hand with no other tile within this many anchor sizes is `other`."""

DISCARD_SIZE = (0.3, 1.6)
"""Off the hand, a `discard` has a long side within these multiples of the anchor's, else it
is `other`: discards lie further from the camera (smaller), and even turned 45 degrees a
discard's box is hardly longer than a standing tile's."""

TURNED = 1.5
"""Read with x and y swapped too: when the anchor there scores this many times the upright one,
the hand runs down the photo (held sideways, no EXIF) and those roles win."""

EDGE = 1.0
"""A box within this many pixels of the photo's top or bottom edge may be cut by it (`uncut`)."""

MELD_GROUP_KINDS = ("pung", "kong", "concealed_kong", "bonus", "flowers")
"""Group kinds whose tiles are a set laid down (`meld`); `chow` too when claimed."""


def _size(d: Detection) -> float:
    return max(d.width, d.height)


def _short(d: Detection) -> float:
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
    alike = max(_size(a), _size(b)) <= 1.25 * min(_size(a), _size(b))
    return gap <= TOUCH * unit and level and alike


def runs_of(detections: Sequence[Detection], rows: Sequence[Sequence[int]]) -> list[list[int]]:
    """Each row (indices left to right) cut where the gap exceeds `RUN_GAP` tile widths."""
    out: list[list[int]] = []
    for row in rows:
        unit = median(_short(detections[i]) for i in row)
        run: list[int] = []
        for i in row:
            if run and detections[i].xyxy[0] - detections[run[-1]].xyxy[2] > RUN_GAP * unit:
                out.append(run)
                run = []
            run.append(i)
        out.append(run)
    return out


def _standing(ds: Sequence[Detection]) -> tuple[int, float]:
    """`(tiles side by side along x, share of neighbour pairs standing side by side)`: the count
    is 1 + the steps between neighbouring centres (by x) of at least `OFF_ROW_STEP` x the median
    tile width (tiles of a steep diagonal that `rows_of` puts in one "row" overlap along x).

    >>> _standing([Detection((x, 0, x + 30, 40), "1m", 0.9) for x in (0, 32, 64)])
    (3, 1.0)
    >>> _standing([Detection((x, y, x + 60, y + 50), "1m", 0.9) for x, y in ((0, 40), (12, 20), (24, 0))])[0]
    1
    """
    unit = median(_short(d) for d in ds)
    xs = sorted(d.center[0] for d in ds)
    n = 1 + sum(b - a >= OFF_ROW_STEP * unit for a, b in pairwise(xs))
    pairs = list(pairwise(ds))
    share = sum(side_by_side(a, b, unit) for a, b in pairs) / len(pairs) if pairs else 0.0
    return n, share


def _tilted(d: Detection, upright: float) -> bool:
    aspect = d.width / d.height if d.height > 0 else 1.0
    return min(abs(log(aspect / upright)), abs(log(aspect * upright))) > TILT


def table_roles(detections: Sequence[Detection], image_size: tuple[int, int] | None = None) -> list[str]:
    """The role of every detection — `hand`, `wall`, `discard` or `other` — by the rules of the
    module docstring (`meld` comes later, from the groups: `meld_roles`).

    Args:
        detections: tiles in any order, `xyxy` pixels of one image.
        image_size: `(width, height)` pixels of that image (for nearness to the bottom edge);
            None: the detections' own extent stands in.

    >>> row = [Detection((x, 500, x + 30, 540), "1m", 0.9) for x in range(0, 400, 32)]
    >>> logo = Detection((600, 0, 700, 120), "P", 0.9)
    >>> table_roles(row + [Detection((100, 400, 126, 430), "W", 0.9), logo], (800, 600))[-3:]
    ['hand', 'discard', 'other']
    """
    n = len(detections)
    if n == 0:
        return []
    on_wall = wall_tiles(detections)
    roles = ["wall" if w else "hand" for w in on_wall]
    free = [i for i in range(n) if not on_wall[i]]
    found, score = _hand_of(detections, free, image_size)
    turned = [replace(d, xyxy=(d.xyxy[1], d.xyxy[0], d.xyxy[3], d.xyxy[2])) for d in detections]
    found_t, score_t = _hand_of(turned, free, image_size[::-1] if image_size else None)
    if score_t > TURNED * score:
        found = found_t  # the hand runs down the photo (turned without EXIF): read it sideways
    for i, role in (found or {}).items():
        roles[i] = role
    return roles


def _hand_of(
    detections: Sequence[Detection], free: Sequence[int], image_size: tuple[int, int] | None
) -> tuple[dict[int, str] | None, float]:
    """Rules 2-4 over the detections `free` (the walls left out): `({index: role}, the anchor's
    score)`, or `(None, 0.0)` without a candidate row."""
    if not free:
        return None, 0.0
    roles = {i: "hand" for i in free}
    runs = [[free[k] for k in run] for run in runs_of([detections[i] for i in free], _rows(detections, free))]
    stats = {}
    for k, run in enumerate(runs):
        ds = [detections[i] for i in run]
        count, share = _standing(ds)
        if count >= OFF_ROW_MIN:
            aspect = median(d.width / max(d.height, 1e-6) for d in ds)
            stats[k] = (count, share, median(_size(d) for d in ds), aspect)
    if not stats:
        return None, 0.0  # no row of tiles side by side: nothing to tell the hand from the rest by
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
    in_hand = {i for k in hand for i in runs[k]}
    lo, hi = OFF_ROW_SIZE
    for k in hand:
        med = median(_size(detections[i]) for i in runs[k])
        for i in runs[k]:
            if not lo * med <= _size(detections[i]) <= hi * med:
                roles[i] = "other"
                in_hand.discard(i)
    nearest = _nearest_gaps(detections)
    small, big = DISCARD_SIZE
    for i in free:
        if i in in_hand or roles[i] == "other":
            continue
        alone = nearest[i] > ISOLATED * a_size
        size = _size(detections[i])
        roles[i] = "other" if alone or not small * a_size <= size <= big * a_size else "discard"
    return roles, score(anchor)


def _nearest_gaps(detections: Sequence[Detection]) -> np.ndarray:
    """`(n,)` pixels from each box to the nearest other box (`_box_gap`; inf for a lone box)."""
    b = np.array([d.xyxy for d in detections], np.float64).reshape(-1, 4)
    gx = np.maximum(b[:, None, 0] - b[None, :, 2], b[None, :, 0] - b[:, None, 2])
    gy = np.maximum(b[:, None, 1] - b[None, :, 3], b[None, :, 1] - b[:, None, 3])
    gap = np.maximum(np.maximum(gx, gy), 0.0)
    np.fill_diagonal(gap, np.inf)
    return gap.min(1) if len(b) > 1 else np.full(len(b), np.inf)


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
    size = median(_size(d) for d in ds)
    near = min(spans, key=lambda h: box_gap(box, spans[h]))
    h_size = median(_size(detections[i]) for i in runs[near])
    count = stats[k][0] if k in stats else 0
    lo, hi = HAND_SIZE if count >= ROW_LONG else SET_SIZE
    if not lo * h_size <= size <= hi * h_size:
        return False
    if k not in stats:
        beside = _beside(box, spans[near], h_size, same_row=_same_row(k, near, runs, detections))
        return beside and not any(_tilted(d, upright) for d in ds)
    _count, share, _size_k, aspect = stats[k]
    h_count, h_share = stats[near][:2] if near in stats else (count, 1.0)
    gap = box_gap(box, spans[near])
    if share < max(TOUCH_MIN, TOUCH_SHARE * h_share) or gap > REACH * h_size:
        return False
    if gap <= NEAR * h_size:  # right behind or before the hand row: a second row, a grid
        return count >= ROW_LONG or abs(log(aspect / upright)) <= ROW_TILT
    # further: a full row (a sheet of rows, a hand in two rows), or a row of sets laid down
    return count >= max(ROW_LONG, FULL_ROW * h_count) or _all_sets(ds)


def _all_sets(ds: Sequence[Detection]) -> bool:
    """The run (left to right) is sets laid down only: each part split off by a gap
    (`vision.layout.split_by_gaps`) is a pung, kong, concealed kong, claimed chow, 發 or flowers.

    >>> kong = [Detection((62 * k, 0, 62 * k + 60, 80), "5s", 0.9) for k in range(4)]
    >>> _all_sets(kong), _all_sets(kong[:2])
    (True, False)
    """
    unit = median(_short(d) for d in ds)
    for part in split_by_gaps(ds, range(len(ds)), unit):
        sideways = any(ds[i].rotated for i in part)
        kind = guess_kind([ds[i].tile for i in part], sideways)
        if not (kind in MELD_GROUP_KINDS or (kind == "chow" and sideways)):
            return False
    return True


def _rows(detections: Sequence[Detection], free: Sequence[int]) -> list[list[int]]:
    """`rows_of` over the detections `free` (indices into that list)."""
    return rows_of([detections[i] for i in free])


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


def uncut(detections: Sequence[Detection], image_size: tuple[int, int] | None) -> list[Detection]:
    """The boxes as the layout should see them: an upright box touching the photo's top or
    bottom edge (within `EDGE` px) and shorter than its width / the median aspect of the other
    upright boxes is cut by the edge; it is made that tall, away from the edge (a row of melds
    along the edge, its tops cut unevenly, stays one row of tiles of one size).

    >>> row = [Detection((x, 30, x + 30, 70), "5s", 0.9) for x in (0, 32, 64)]
    >>> [d.xyxy for d in uncut([*row, Detection((96, 0, 126, 12), "5s", 0.9)], (200, 100))][-1]
    (96, -28.0, 126, 12)
    """
    if image_size is None:
        return list(detections)
    height = image_size[1]

    def cut(d: Detection) -> bool:
        return not d.rotated and (d.xyxy[1] <= EDGE or d.xyxy[3] >= height - EDGE)

    whole = [d.width / d.height for d in detections if not cut(d) and not d.rotated and d.height > 0]
    if not whole:
        return list(detections)
    aspect = median(whole)
    out = []
    for d in detections:
        tall = d.width / aspect
        if cut(d) and d.height < tall:
            x0, y0, x1, y1 = d.xyxy
            d = replace(d, xyxy=(x0, y1 - tall, x1, y1) if y0 <= EDGE else (x0, y0, x1, y0 + tall))
        out.append(d)
    return out


def meld_roles(groups: Sequence[Group]) -> set[int]:
    """Indices of the tiles of `groups` that are a set laid down: a group of a
    `MELD_GROUP_KINDS` kind, or a claimed chow.

    >>> g = [Group((0, 1, 2), "pung"), Group((3, 4), "hand"), Group((5, 6, 7), "chow", claimed=True)]
    >>> sorted(meld_roles(g))
    [0, 1, 2, 5, 6, 7]
    """
    return {
        i
        for g in groups
        if g.kind_guess in MELD_GROUP_KINDS or (g.kind_guess == "chow" and g.claimed)
        for i in g.tiles
    }


__all__ = [
    "HAND_SIZE",
    "ISOLATED",
    "MELD_GROUP_KINDS",
    "REACH",
    "RUN_GAP",
    "TILT",
    "TOUCH",
    "meld_roles",
    "side_by_side",
    "table_roles",
    "uncut",
]
