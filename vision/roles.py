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
   bottom edge. The best is the hand row (the anchor); a heap of boxes (neighbours overlapping by
   more than `vision.row_shapes.PILE` widths beyond the row's slope: discards piled up, or boxes
   over several of them) is not, while any other candidate is.
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
   `other`, and so is a run of sets laid down that did not join the hand (another player's
   melds, `_others_sets`); everything else is a `discard`. Another player's melds along the
   photo's sides (their tiles running down it) stay `discard`: both are left out alike.

Rules 2-3 are `vision.hand_rows`. Rules 2-4 are also read with x and y swapped (`TURNED`: a
hand running down the photo). Without a candidate row (a hand laid steeply diagonal, a single
set) every tile that is not a wall is `hand`. `meld` is given after grouping (`meld_roles`): a hand tile
in a group the layout reads as a set laid down (`MELD_GROUP_KINDS`, a chow only when claimed).

Constants chosen on synthetic table scenes (`vision.testing_table.table_scene`, 72 scenes, seeds
other than those of tests/vision/test_roles.py) and the `real_photos_rf` validation split
(`ROW_TILT`, `ROW_LONG`). The judge photos were only evaluated on; one of them showed that a
row further away looks flatter, which the synthetic sheets of rows (`rows=`) now hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from math import log
from statistics import median

import numpy as np

from vision.detection import HAND_ROLES, Detection, Group, Role
from vision.hand_rows import (
    HAND_SIZE,
    MELD_GROUP_KINDS,
    REACH,
    RUN_GAP,
    TILT,
    TOUCH,
    TOUCH_MIN,
    HandRows,
    all_sets,
    find_hand_rows,
    long_side,
    side_by_side,
    standing,
)
from vision.layout import OFF_ROW_MIN, OFF_ROW_SIZE
from vision.markers import MARKER_TILT
from vision.walls import wall_tiles

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


def roles_and_turn(
    detections: Sequence[Detection], image_size: tuple[int, int] | None = None
) -> tuple[list[Role], bool]:
    """The role of every detection — `hand`, `wall`, `discard` or `other` — by the rules of the
    module docstring (`meld` comes later, from the groups: `meld_roles`), and whether the hand was
    found running down the photo (`TURNED`: a photo turned 90° without EXIF).

    Args:
        detections: tiles in any order, `xyxy` pixels of one image.
        image_size: `(width, height)` pixels of that image (for nearness to the bottom edge);
            None: the detections' own extent stands in.

    >>> row = [Detection((x, 500, x + 30, 540), "1m", 0.9) for x in range(0, 400, 32)]
    >>> logo = Detection((600, 0, 700, 120), "P", 0.9)
    >>> roles, turned = roles_and_turn(row + [Detection((100, 400, 126, 430), "W", 0.9), logo], (800, 600))
    >>> roles[-3:], turned
    (['hand', 'discard', 'other'], False)
    """
    n = len(detections)
    if n == 0:
        return [], False
    on_wall = wall_tiles(detections)
    roles: list[Role] = ["wall" if w else "hand" for w in on_wall]
    free = [i for i in range(n) if not on_wall[i]]
    found, score = _hand_of(detections, free, image_size)
    swapped = [replace(d, xyxy=(d.xyxy[1], d.xyxy[0], d.xyxy[3], d.xyxy[2])) for d in detections]
    found_t, score_t = _hand_of(swapped, free, image_size[::-1] if image_size else None)
    turned = score_t > TURNED * score
    if turned:
        found = found_t  # the hand runs down the photo (turned without EXIF): read it sideways
    for i, role in (found or {}).items():
        roles[i] = role
    return roles, turned


def table_roles(detections: Sequence[Detection], image_size: tuple[int, int] | None = None) -> list[Role]:
    """The roles of `roles_and_turn`, without whether the hand ran down the photo."""
    return roles_and_turn(detections, image_size)[0]


def _hand_of(
    detections: Sequence[Detection], free: Sequence[int], image_size: tuple[int, int] | None
) -> tuple[dict[int, Role] | None, float]:
    """Rules 2-4 over the detections `free` (the walls left out): `({index: role}, the anchor's
    score)`, or `(None, 0.0)` without a candidate row."""
    found = find_hand_rows(detections, free, image_size)
    if found is None:
        return None, 0.0
    roles: dict[int, Role] = {i: "hand" for i in free}
    runs, a_size = found.runs, found.size
    in_hand = {i for k in found.hand for i in runs[k]}
    lo, hi = OFF_ROW_SIZE
    for k in found.hand:
        med = median(long_side(detections[i]) for i in runs[k])
        up = median(_aspect(detections[i]) for i in runs[k])
        for i in runs[k]:
            odd = _marker_shaped(detections[i], up, image_size)
            if not lo * med <= long_side(detections[i]) <= hi * med or odd:
                roles[i] = "other"
                in_hand.discard(i)
    nearest = _nearest_gaps(detections)
    small, big = DISCARD_SIZE
    theirs = _others_sets(detections, found)
    for i in free:
        if i in in_hand or roles[i] == "other":
            continue
        alone = nearest[i] > ISOLATED * a_size
        size = long_side(detections[i])
        unlike = not small * a_size <= size <= big * a_size
        roles[i] = "other" if alone or unlike or i in theirs else "discard"
    return roles, found.score


def _aspect(d: Detection) -> float:
    """Width / height, at most 1 (a sideways tile reads as the upright one)."""
    a = d.width / d.height if d.height > 0 else 1.0
    return a if a <= 1 else 1 / a


def _marker_shaped(d: Detection, upright: float, image_size: tuple[int, int] | None) -> bool:
    """A flagged reading whose box is neither standing nor sideways (`vision.markers.MARKER_TILT`
    from the run's `upright` aspect): a round or square marker, not a tile. A box the photo's
    edge cuts (within `EDGE` of it) has no shape of its own."""
    if not d.uncertain or d.height <= 0 or upright <= 0:
        return False
    x0, y0, x1, y1 = d.xyxy
    if image_size is not None and min(x0, y0, image_size[0] - x1, image_size[1] - y1) <= EDGE:
        return False
    a = d.width / d.height
    return min(abs(log(a / upright)), abs(log(a * upright))) > MARKER_TILT


def _others_sets(detections: Sequence[Detection], found: HandRows) -> set[int]:
    """The tiles of runs off the hand that are sets laid down (`OFF_ROW_MIN` or more tiles side by
    side, as many pairs as `TOUCH_MIN`, every part a set: `vision.hand_rows.all_sets`): another
    player's melds, `other`. Discards lie one by one or in rows of unrelated tiles."""
    out: set[int] = set()
    for k, run in enumerate(found.runs):
        ds = [detections[i] for i in run]
        if k in found.hand or len(ds) < OFF_ROW_MIN:
            continue
        count, share = standing(ds)
        if count >= OFF_ROW_MIN and share >= TOUCH_MIN and all_sets(ds):
            out.update(run)
    return out


def _nearest_gaps(detections: Sequence[Detection]) -> np.ndarray:
    """`(n,)` pixels from each box to the nearest other box (`vision.walls.box_gap`; inf for a lone box)."""
    b = np.array([d.xyxy for d in detections], np.float64).reshape(-1, 4)
    gx = np.maximum(b[:, None, 0] - b[None, :, 2], b[None, :, 0] - b[:, None, 2])
    gy = np.maximum(b[:, None, 1] - b[None, :, 3], b[None, :, 1] - b[:, None, 3])
    gap = np.maximum(np.maximum(gx, gy), 0.0)
    np.fill_diagonal(gap, np.inf)
    return gap.min(1) if len(b) > 1 else np.full(len(b), np.inf)


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


def off_row(detections: Sequence[Detection]) -> list[bool]:
    """Which detections are not the player's: `table_roles` gives neither `hand` nor `meld`.

    >>> row = [Detection((x, 0, x + 30, 40), "1m", 0.9) for x in range(0, 200, 32)]
    >>> off_row(row + [Detection((600, 500, 630, 540), "W", 0.9), Detection((0, 0, 100, 120), "P", 0.9)])[-3:]
    [False, True, True]
    """
    return [role not in HAND_ROLES for role in table_roles(detections)]


__all__ = [
    "HAND_SIZE",
    "ISOLATED",
    "MELD_GROUP_KINDS",
    "REACH",
    "RUN_GAP",
    "TILT",
    "TOUCH",
    "meld_roles",
    "off_row",
    "roles_and_turn",
    "side_by_side",
    "table_roles",
    "uncut",
]
