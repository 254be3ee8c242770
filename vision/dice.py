"""Dice (骰子) read as tiles: a die lying against the hand row is not a tile, so it leaves the
detections (`Rejected`, `why: "not_a_tile"`), as the rack seen between two groups does.

The classifier knows no die: a die's face (1-6 pips on a plain white face) reads as a dot tile
(筒) or as 白 (`P`, a plain face), with a low confidence and flagged. `arrange` already keeps it out
of the hand (`discard` or `other`), but a die right behind the hand row lies where a reader of rows
takes it for one of the row's tiles (issue 35: three dice behind a row of winds and dragons read
`2p`, `7p`, `P` and counted as three extra tiles of that row).

`dice` takes a box for a die when all hold:

1. It is off the hand (`discard` or `other`): a hand tile is never taken away here.
2. It reads as a dot tile or 白 (`DIE_TILES`), flagged `uncertain` by the classifier's own doubt
   (flag 2's flag as `vision.arrange.arrange` hands it here: before flag 5's clears, so whatever
   the show threshold of `models/flag.npz` clears), with a confidence under `DIE_CONF` — or
   under `DIE_LOW_CONF` when its box is lower than the hand row's tiles (height at most `DIE_LOW`
   x their median: a die, 16 mm, is lower than a tile standing, 35 mm; a tile of the row or
   behind it, its own height).
3. It is not much larger than the hand row's tiles: height at most `DIE_HEIGHT` x their median
   height and area at most `DIE_AREA` x their median area.
4. It lies against the hand row: within `DIE_NEAR` of the row's median tile height from a hand
   tile (a die further away is left as it is: off the hand, it changes nothing).

The limits are chosen by `python -m datasets.dice_cut` (report `datasets/reports/dice-cut.json`)
without `real_sets_dev`: synthetic dice beside synthetic hand rows, read by the shipped reader,
against true dot and 白 tiles (the val split of `real_photos_rf`, training renders). Size: the
99th percentile of the dice's boxes over the row's medians. Confidence: the dice read at
0.10-0.49 (q1-q99, median 0.23; "Dice, 4"), true dot / 白 tiles read weakly as a dot or 白 and
flagged at 0.09 and up (renders; val 0.22 and up): the two overlap, so the cut is the largest
that takes under 0.5 % of the true tiles (the tiles first), and it takes only a share of the dice
(the report says how many).
Aspect is not asked: a row seen from above at a slant has square boxes too, and a die partly
hidden by the row is wide and low (synthetic dice: 0.68-1.35).

The low tier (`DIE_LOW`, `DIE_LOW_CONF`; "Dice, 3" in `datasets/reports/model-history.md`): of the
tells a die has (its box square, lower than the row's tiles, its gap to the row, its aspect over
the row's), none parts the dice from the true dot / 白 tiles alone on the same records; a box lower
than the row's tiles lets the cut rise at the same allowance of true tiles (`datasets.dice_cut`
step 4: the size and cut that take the most dice with under 0.5 % of the true tiles, ties to the
stricter).

numpy-free: boxes and roles only.
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import median

from vision.detection import HAND_ROLES, Detection

DIE_TILES = frozenset({*(f"{n}p" for n in range(1, 10)), "P"})
"""What the classifier reads a die as: a dot tile (its pips) or 白 (its plain face)."""

DIE_CONF = 0.18
"""A die reads with a confidence under this (and flagged): `datasets.dice_cut`."""

DIE_HEIGHT, DIE_AREA = 2.45, 4.65
"""A die's box: height at most `DIE_HEIGHT`, area at most `DIE_AREA` times the hand row's median."""

DIE_LOW, DIE_LOW_CONF = 0.95, 0.34
"""A die lower than the hand row's tiles (height at most `DIE_LOW` x their median) reads with a
confidence under `DIE_LOW_CONF` (and flagged): `datasets.dice_cut` step 4."""

DIE_NEAR = 1.0
"""A die lies within this many of the hand row's median tile heights from a hand tile (the rule's
reach, not fitted)."""


def _gap(a: Detection, b: Detection) -> float:
    """Pixels between two boxes (0 when they touch or overlap)."""
    ax0, ay0, ax1, ay1 = a.xyxy
    bx0, by0, bx1, by1 = b.xyxy
    return max(bx0 - ax1, ax0 - bx1, by0 - ay1, ay0 - by1, 0.0)


def measures(detections: Sequence[Detection]) -> list[tuple[float, float, float] | None]:
    """Per detection `(height, area, gap)` over the hand row's median tile height, median box area
    and median tile height (the gap to the nearest hand tile); None for a hand tile, or for all when
    there is no hand. What `dice` compares with its limits (and `datasets.dice_cut` measures)."""
    hand = [d for d in detections if d.role in HAND_ROLES]
    if not hand:
        return [None] * len(detections)
    height = median(d.height for d in hand)
    area = median(d.width * d.height for d in hand)
    return [
        None
        if d.role in HAND_ROLES
        else (d.height / height, d.width * d.height / area, min(_gap(d, h) for h in hand) / height)
        for d in detections
    ]


def dice(
    detections: Sequence[Detection],
    conf: float = DIE_CONF,
    height: float = DIE_HEIGHT,
    area: float = DIE_AREA,
    near: float = DIE_NEAR,
    low: float = DIE_LOW,
    low_conf: float = DIE_LOW_CONF,
) -> list[bool]:
    """Which detections are dice lying against the hand row (rules of the module docstring);
    `detections` with their roles (`vision.arrange.arrange`). The limits default to the module's.

    >>> row = [Detection((x, 100, x + 30, 140), "E", 0.9, role="hand") for x in range(0, 300, 32)]
    >>> die = Detection((40, 78, 64, 100), "2p", 0.12, uncertain=True, role="discard")
    >>> far = Detection((40, 0, 64, 22), "2p", 0.12, uncertain=True, role="discard")
    >>> sure = Detection((80, 78, 104, 100), "2p", 0.8, role="discard")
    >>> low = Detection((120, 78, 144, 100), "7p", 0.3, uncertain=True, role="discard")
    >>> tall = Detection((160, 60, 184, 100), "7p", 0.3, uncertain=True, role="discard")
    >>> dice([*row, die, far, sure, low, tall])[-5:]
    [True, False, False, True, False]
    """
    return [
        m is not None
        and d.tile in DIE_TILES
        and d.uncertain
        and d.conf < (max(conf, low_conf) if m[0] <= low else conf)
        and m[0] <= height
        and m[1] <= area
        and m[2] <= near
        for d, m in zip(detections, measures(detections), strict=True)
    ]


__all__ = [
    "DIE_AREA",
    "DIE_CONF",
    "DIE_HEIGHT",
    "DIE_LOW",
    "DIE_LOW_CONF",
    "DIE_NEAR",
    "DIE_TILES",
    "dice",
    "measures",
]
