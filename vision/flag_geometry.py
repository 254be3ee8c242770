"""Boxes in doubt by their geometry alone: two boxes in one tile's slot, or a box no tile's width
(flag 6, issue 35 item 5).

The classifier reads what a box holds, and a box drawn a second time on a tile already boxed, or
across a sideways tile and its neighbour, holds a tile: it reads it surely (R4's two doubled `4s`
on real_sets_dev, margin 5.9), and no score of the reading can doubt it. The row can. Along a row
of tiles side by side (`vision.row_pitch.neighbours`: boxes of one height, sharing their height),
each tile has a slot one pitch wide (the distance between neighbouring centres, a tile's width
where tiles lie apart); a box is in doubt, whatever its reading's margin, where

- it shares more than `row_pitch.MAX_OVERLAP` of the narrower box's width with a neighbour: one
  tile boxed twice (the bar `vision.row_pitch.trim_overlaps` already leaves to NMS for that
  reason; touching and widened boxes share at most a third);
- its centre lies within `SLOT` of the row's pitch of a neighbour's: two boxes in one slot;
- in a row of `MIN_RUN` or more (where a pitch is known) it is narrower than `NARROW` or wider
  than `WIDE` times the pitch: half a tile, or two tiles in one box (a sideways tile is 1.33
  pitches, 1.78 when boxed a third too wide as on a riichi rack: below `WIDE`).

Both boxes of a doubled pair are flagged: which of the two is the phantom the geometry cannot
say, and the player's one tap removes it. Only the player's tiles are looked at (`flag_doubled`:
roles `hand` and `meld`); a face-down box is not flagged for its geometry, but it counts as a
neighbour. A face-down box that is the **only** one among the player's tiles is flagged: a concealed
kong shows two backs or four, so one back among a hand's faces is the rack, the table or another's
tile seen past the row (what `vision.walls.rack_gaps` removes where it stands beside a face of its
height; set A's rack end, 0.74 of its neighbour's height, it does not). The flag changes no reading
and no role: `vision.reader` applies it after `vision.arrange.arrange`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import pairwise

import numpy as np

from vision.detection import Detection
from vision.row_pitch import MAX_OVERLAP, _runs, neighbours

SLOT = 0.5
"""Two centres nearer than this share of the row's pitch are in one tile's slot."""
NARROW = 0.5
"""A box narrower than this share of the row's pitch is half a tile (or less)."""
WIDE = 2.0
"""A box wider than this many pitches holds two tiles (a sideways tile is 1.33)."""
MIN_RUN = 4
"""The pitch is known only in a run of at least this many boxes side by side (three gaps)."""


def doubled(xyxy: np.ndarray) -> np.ndarray:
    """Bool `(K,)`: the boxes `xyxy (K, 4)` in doubt by their geometry (module docstring).

    A row of five 80 px tiles with a second box over the fourth: both of its boxes; a box of
    half a tile's width at the row's end; a box two and a half tiles wide.

    >>> row = [[80 * k, 0, 80 * k + 78, 110] for k in range(5)] + [[250, 0, 318, 110]]
    >>> doubled(np.array(row, float)).tolist()
    [False, False, False, True, False, True]
    >>> row = [[80 * k, 0, 80 * k + 78, 110] for k in range(5)]
    >>> doubled(np.array(row + [[400, 0, 430, 110]], float)).tolist()[-1]
    True
    >>> doubled(np.array(row + [[400, 0, 600, 110]], float)).tolist()[-1]
    True
    >>> bool(doubled(np.array(row, float)).any())
    False
    """
    b = np.asarray(xyxy, np.float64).reshape(-1, 4)
    out = np.zeros(len(b), bool)
    pairs = neighbours(b)
    if not pairs:
        return out
    w = b[:, 2] - b[:, 0]
    cx = (b[:, 0] + b[:, 2]) / 2
    gap = {(i, j): cx[j] - cx[i] for i, j in pairs}
    run = _runs(len(b), pairs)
    pitch = _pitches(w, pairs, gap, run)
    for i, j in pairs:
        shared = min(b[i, 2], b[j, 2]) - max(b[i, 0], b[j, 0])
        one_slot = np.isfinite(pitch[i]) and gap[i, j] < SLOT * pitch[i]
        if shared > MAX_OVERLAP * min(w[i], w[j]) or one_slot:
            out[[i, j]] = True
    known = np.isfinite(pitch)
    out[known] |= (w[known] < NARROW * pitch[known]) | (w[known] > WIDE * pitch[known])
    return out


def _pitches(w: np.ndarray, pairs, gap: dict, run: np.ndarray) -> np.ndarray:
    """Float `(n,)`: per box its run's pitch (`MIN_RUN` boxes or more; else NaN): the median
    centre gap, or the median box width where that is less (tiles lying apart, a discard row: a
    slot is a tile's width, not the gap). The medians hold where one box of the run is doubled."""
    n = len(w)
    # the pairs of one run: walk the chains (each box has at most one right neighbour)
    left = {j: i for i, j in pairs}
    right = dict(pairs)
    out = np.full(n, np.nan)
    seen: set[int] = set()
    for start in range(n):
        if start in seen or start in left or run[start] < MIN_RUN:
            continue
        chain, k = [start], start
        while k in right and right[k] not in chain:
            k = right[k]
            chain.append(k)
        seen.update(chain)
        gaps = [gap[a, c] for a, c in pairwise(chain)]
        if len(gaps) >= MIN_RUN - 1:
            out[chain] = min(float(np.median(gaps)), float(np.median(w[chain])))
    return out


def flag_doubled(dets: Sequence[Detection]) -> list[Detection]:
    """`dets` with the face-up ones `doubled` flags among the player's tiles (roles `hand` and
    `meld`: a standing row's pitch; tiles lying on the table overlap as they were thrown) made
    `uncertain` (the order kept)."""
    mine = [k for k, d in enumerate(dets) if not d.off_row]
    out = list(dets)
    if len(mine) < 2:
        return out
    geo = doubled(np.array([dets[k].xyxy for k in mine], np.float64))
    backs = [k for k in mine if dets[k].face_down]
    for k, g in zip(mine, geo, strict=True):
        lone = backs == [k]  # the one back among the player's faces
        if (lone or (g and not dets[k].face_down)) and not dets[k].uncertain:
            out[k] = replace(dets[k], uncertain=True)
    return out


__all__ = ["MIN_RUN", "NARROW", "SLOT", "WIDE", "doubled", "flag_doubled"]
