"""The grey reader's doubt: an unflagged tile whose reading the grey reader gives little is flagged
(issue 35 item 5, "Your set, read right": a flag that holds on sets it has never seen).

The grey reader (`vision.grey_reader`) reads every face-up box apart from colour. Where it gives the
colour reading little, the tile is in doubt, though neither reader is sure of another tile. Four
ways, each on an unflagged face-up tile of a `CHECKED` kind (dots, bamboo, honours, flowers; 萬
tiles are `vision.grey_text`'s), with `DoubtBars`:

- **it names another tile** (`named`): another suit or honour tile, however weakly, with the
  reading under `GREY_DOUBT_P`. Not where it sees `none`, a back or a flower: on a set with corner
  indices (set A of `real_sets_dev`) that is its word for honour art it never saw;
- **it is sure of nothing** (`lost`): its best word under `GREY_LOST_TOP`, the reading under
  `GREY_LOST_P` — a face it cannot read (an American set's 8條, a dragon drawn as a picture);
- **it sees no tile on a suit tile** (`blank`): a dot or bamboo tile it reads as `none`, a back or a
  flower, the reading under `GREY_BLANK_P` (a dot or bamboo face always has a shape it knows);
- **both readers see the same other tile** (`race`): the colour reading's runner-up gets
  `GREY_RACE_SECOND` or more of the grey reader, the reading itself under `GREY_RACE_P` (a 9條
  read 6條, 9條 second: the grey reader 0.44 / 0.28).

A doubted wind, 中 or 發 is read as text (`text_veto`: a few faces, one batch): where its best word
names the reading from `vision.text_check.CONFIRM_MIN_SCORE`, the tile is not flagged — the text
reader reads winds and dragons of any family (set A's 西: the grey reader sure of nothing, the text
reader 西 at 0.50).

Measured with whole sets held out (`datasets/reports/model-history.md`, "The grey reader, third
pass").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from scoring.tiles import tile_of
from vision.detection import BACK, FLOWER, Detection
from vision.grey_reader import GreyView, checked, suit_of
from vision.text_check import CONFIRM_MIN_SCORE, read_faces
from vision.text_reader import HONOURS

if TYPE_CHECKING:
    from vision.text_reader import TextReader

GREY_DOUBT_P = 0.2
"""Below this grey probability of its reading, an unflagged dot, bamboo, honour or flower tile the
grey reader reads as another suit or honour tile is flagged (`named`)."""
GREY_LOST_TOP = 0.3
"""The grey reader's best word under this: it is sure of nothing (`lost`)."""
GREY_LOST_P = 0.25
"""With it sure of nothing, a reading it gives less than this is flagged (`lost`)."""
GREY_BLANK_P = 0.05
"""A dot or bamboo tile it reads as `none`, a back or a flower, giving the reading less than this,
is flagged (`blank`)."""
GREY_RACE_P = 0.5
"""A reading the grey reader gives less than this ... (`race`)."""
GREY_RACE_SECOND = 0.2
"""... while it gives the colour reading's runner-up this or more is flagged (`race`)."""
NO_TILE = frozenset(("none", BACK, FLOWER))
"""The grey readings that name no suit or honour tile."""


@dataclass(frozen=True)
class DoubtBars:
    """The bars of the four doubts (the module docstring); None turns one off."""

    named: float | None = GREY_DOUBT_P
    lost_top: float | None = GREY_LOST_TOP
    lost: float = GREY_LOST_P
    blank: float | None = GREY_BLANK_P
    race: float | None = GREY_RACE_P
    race_second: float = GREY_RACE_SECOND


def why_doubt(d: Detection, v: GreyView, bars: DoubtBars = DoubtBars()) -> str | None:
    """Which doubt flags `d` (`named`, `lost`, `blank`, `race`; None: none), the grey view `v` its box's.

    >>> v = GreyView("9s", 0.6, np.array([0.1, 0.6, 0.3]), ("6s", "9s", "none"))
    >>> why_doubt(Detection((0, 0, 6, 8), "6s", 0.9), v)
    'named'
    >>> v = GreyView("none", 0.15, np.array([0.11, 0.1, 0.15]), ("4s", "8s", "none"))
    >>> why_doubt(Detection((0, 0, 6, 8), "4s", 0.5), v)
    'lost'
    >>> v = GreyView("6s", 0.44, np.array([0.44, 0.28, 0.05]), ("6s", "9s", "none"))
    >>> why_doubt(Detection((0, 0, 6, 8), "6s", 0.7, second="9s"), v)
    'race'
    >>> why_doubt(Detection((0, 0, 6, 8), "6s", 0.7, second="5s"), v) is None
    True
    """
    p = v.p_of(d.tile)
    if bars.named is not None and v.name != d.tile and tile_of(v.name) is not None and p < bars.named:
        return "named"
    if bars.lost_top is not None and v.p < bars.lost_top and p < bars.lost:
        return "lost"
    if bars.blank is not None and suit_of(d.tile) in "ps" and v.name in NO_TILE and p < bars.blank:
        return "blank"
    second = d.second or d.tile  # no runner-up: no race
    race = bars.race is not None and second != d.tile and p < bars.race
    return "race" if race and v.p_of(second) >= bars.race_second else None


def doubt_by_grey(
    dets: Sequence[Detection], views: Sequence[GreyView | None], doubt_p: float | None = GREY_DOUBT_P
) -> list[Detection]:
    """`dets` with every unflagged tile of a `CHECKED` kind that a doubt flags (`why_doubt`) flagged;
    its runner-up the grey reading where that names another suit or honour tile. `views` in the order
    of `dets` (None: not read); `doubt_p` None: no doubt at all, else `named`'s bar (the other
    bars `DoubtBars`' defaults).

    >>> d = [Detection((0, 0, 6, 8), "6s", 0.9), Detection((9, 0, 15, 8), "2p", 0.9)]
    >>> v = GreyView("9s", 0.6, np.array([0.1, 0.6, 0.3]), ("6s", "9s", "none"))
    >>> [(x.uncertain, x.second) for x in doubt_by_grey(d, [v, None])]
    [(True, '9s'), (False, None)]
    >>> doubt_by_grey(d, [replace(v, name="none"), None])[0].uncertain  # it sees no tile: no word
    False
    """
    if doubt_p is None:
        return list(dets)
    bars, out = DoubtBars(named=doubt_p), list(dets)
    for k, (d, v) in enumerate(zip(dets, views, strict=True)):
        if v is None or d.uncertain or not checked(d) or why_doubt(d, v, bars) is None:
            continue
        named = tile_of(v.name) is not None and v.name != d.tile
        out[k] = replace(d, uncertain=True, second=v.name if named else d.second)
    return out


def text_veto(
    before: Sequence[Detection],
    after: Sequence[Detection],
    text: TextReader | None,
    source: tuple[np.ndarray, float],
) -> list[Detection]:
    """`after` with each honour tile with a word (a wind, 中, 發: `HONOURS`; not 白) the doubt
    flagged (unflagged in `before`, flagged in `after`, the same tile) put back as it was where
    the text reader's best word names it from `CONFIRM_MIN_SCORE` (one batch; unchanged without a
    text reader).

    Args:
        source: the pixels the faces are cut from (RGB uint8 `[H, W, 3]`) and their scale to the photo.
    """
    out = list(after)
    todo = [
        k
        for k, (b, a) in enumerate(zip(before, after, strict=True))
        if a.uncertain and not b.uncertain and a.tile == b.tile and a.tile in HONOURS
    ]
    if text is None or not todo:
        return out
    for k, reading in read_faces(text, source[0], source[1], after, todo):
        if reading.best == after[k].tile and reading.score >= CONFIRM_MIN_SCORE:
            out[k] = before[k]
    return out


__all__ = [
    "GREY_BLANK_P",
    "GREY_DOUBT_P",
    "GREY_LOST_P",
    "GREY_LOST_TOP",
    "GREY_RACE_P",
    "GREY_RACE_SECOND",
    "NO_TILE",
    "DoubtBars",
    "doubt_by_grey",
    "text_veto",
    "why_doubt",
]
