"""The 萬 tiles the grey reader doubts, read as text (issue 35, "Your set, read right": a flag that
holds on sets it has never seen).

The grey reader (`vision.grey_reader`) does not judge a 萬 tile alone: on a set whose numerals it
never saw (set A of `real_sets_dev`, black numerals) it reads a right 四萬 as 一萬. But where it
gives the colour reading little (`GREY_TEXT_P`), the tile is worth one text read
(`vision.text_reader`: what the face *says*), and only then — a text read costs about as much as
the whole rest of the photo's reading, so it runs on a few tiles, never on every 萬:

- the text reader's best word is the reading itself (`CONFIRM_P`): the tile stays as it was;
- it names another 萬 from `vision.text_check.WEAK_RENAME` (the bar from which its word is trusted
  against any reading): the tile takes that reading, flagged, the colour reading its runner-up;
- it names another 萬 from `vision.text_check.TEXT_MIN_SCORE` (the bar from which it decides a
  flagged character tile): the tile is flagged, that word its runner-up — against a grey reader
  that still gives the reading 0.7 to 0.85, a weaker word does not rename (an American set's 三萬,
  which it reads 二萬 at 0.11 to 0.40);
- otherwise the tile is flagged (the grey reading its runner-up where that is another 萬).

Measured with whole sets held out (`datasets/reports/model-history.md`, "The grey reader, second
pass").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from vision.detection import Detection
from vision.grey_reader import GreyView, suit_of
from vision.text_check import TEXT_MIN_SCORE, WEAK_RENAME, read_faces

if TYPE_CHECKING:
    from vision.text_reader import TextReader

CONFIRM_P = 0.001
"""The text reader confirms a 萬 tile the grey reader doubts where its best word names the reading
at all (from this score: not a blank read). Its word for a right 萬 of an unseen set is often weak
(set A's 四萬: 0.012 to 0.41); of 0.001, 0.005, 0.01, 0.02 it flags the fewest right tiles, and
every bar flags the same wrong ones (`datasets/reports/model-history.md`)."""


def doubted(d: Detection, view: GreyView | None, text_p: float | None) -> bool:
    """Whether `d` is a face-up, unflagged 萬 tile whose reading the grey reader gives less than
    `text_p` (None: never).

    >>> v = GreyView("1m", 0.86, np.array([0.86, 0.09]), ("1m", "4m"))
    >>> d = Detection((0, 0, 6, 8), "4m", 0.9)
    >>> doubted(d, v, 0.7), doubted(replace(d, uncertain=True), v, 0.7), doubted(d, v, None)
    (True, False, False)
    """
    if text_p is None or view is None or d.face_down or d.uncertain or suit_of(d.tile) != "m":
        return False
    return view.p_of(d.tile) < text_p


def decide(d: Detection, view: GreyView, best: str, score: float) -> Detection:
    """`d` after the text reader's word (`best` at `score`) on a 萬 tile the grey reader doubts
    (the module docstring's rule).

    >>> v = GreyView("3m", 0.9, np.array([0.9, 0.05]), ("3m", "2m"))
    >>> d = Detection((0, 0, 6, 8), "3m", 0.9, second="5m")
    >>> x = decide(d, v, "2m", 0.62); (x.tile, x.uncertain, x.second)
    ('2m', True, '3m')
    >>> x = decide(d, v, "2m", 0.39); (x.tile, x.uncertain, x.second)
    ('3m', True, '2m')
    >>> x = decide(d, v, "3m", 0.012); (x.tile, x.uncertain)
    ('3m', False)
    >>> x = decide(d, v, "F", 0.01); (x.tile, x.uncertain, x.second)
    ('3m', True, '5m')
    """
    if best == d.tile and score >= CONFIRM_P:
        return d
    if suit_of(best) == "m" and best != d.tile and score >= TEXT_MIN_SCORE:
        if score >= WEAK_RENAME:
            return replace(d, tile=best, uncertain=True, second=d.tile)
        return replace(d, uncertain=True, second=best)
    other = suit_of(view.name) == "m" and view.name != d.tile
    return replace(d, uncertain=True, second=view.name if other else d.second)


def check_characters(
    dets: Sequence[Detection],
    views: Sequence[GreyView | None],
    text: TextReader | None,
    source: tuple[np.ndarray, float],
    text_p: float | None,
) -> list[Detection]:
    """`dets` with the 萬 tiles the grey reader doubts (`doubted`; `views` in the order of `dets`)
    read as text in one batch and decided (`decide`); unchanged without a text reader.

    Args:
        source: the pixels the faces are cut from (RGB uint8 `[H, W, 3]`) and their scale to the photo.
    """
    out = list(dets)
    todo = [k for k, (d, v) in enumerate(zip(dets, views, strict=True)) if doubted(d, v, text_p)]
    if text is None or not todo:
        return out
    for k, reading in read_faces(text, source[0], source[1], dets, todo):
        out[k] = decide(dets[k], views[k], reading.best, reading.score)  # type: ignore[arg-type]
    return out


__all__ = ["CONFIRM_P", "check_characters", "decide", "doubted"]
