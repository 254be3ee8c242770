"""A box the classifier reads unsurely, read again without its colours (issue 35, "your set, read
right"): a tile's name never depends on its colour, but a classifier trained on the colours of
its sets does. A riichi 赤五 (an all-red 5條) is read `none` (0.24), 中 (0.21), 4萬, 5萬 — red
things — by the colour views, and 5條 at 0.78 by the same crop made grey.

The rule (`ReaderConfig.grey_min_p`; None: off), after the classifier and its flag, before the
`none` boxes are rejected:

- a box whose reading's calibrated probability is below `GREY_UNSURE` (the classifier unsure,
  `none` included) is classified again, its views made grey (`vision.flagging.grey_views`: each
  pixel the mean of its channels) — one extra batch, only for such boxes;
- where the grey reading names a face (not `none`, not a back) other than the colour reading,
  with a probability of at least `grey_min_p` (`GREY_MIN_P`), the box takes it; the colour
  reading becomes its runner-up and the box is flagged (one view against the others: the
  player sees it);
- otherwise the box reads as before.

Both bars are priors (half; seven in ten: a sure reading by the calibration), not fitted: checked
with every set of `real_sets_dev`, the val split and `real_rows_public` (`models/MODEL.md`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

import numpy as np

from vision.detection import BACK
from vision.modelfiles import NONE_CLASS
from vision.reading import Readings, combine_views

GREY_UNSURE = 0.5
"""A colour reading below this calibrated probability is read again in grey."""
GREY_MIN_P = 0.7
"""The grey reading's calibrated probability from which it decides."""


class GreyKnob(Protocol):
    """`ReaderConfig`'s switch (`vision.reader_config` imports this module)."""

    @property
    def grey_min_p(self) -> float | None: ...


class GreyViews(Protocol):
    """What `grey_look` needs of `vision.views.Classifier` (its `views` with `grey=True`)."""

    @property
    def classes(self) -> tuple[str, ...]: ...

    @property
    def temperature(self) -> float: ...

    def views(self, *args, **kwargs) -> tuple[np.ndarray, np.ndarray | None, list[int]]: ...


def take_grey(
    colour: Readings, grey: Readings, unsure: np.ndarray, classes: Sequence[str], min_p: float = GREY_MIN_P
) -> np.ndarray:
    """The indices into `unsure` (boxes of `colour`, read again as `grey`) whose grey reading
    decides: a face, not the colour reading, of probability >= `min_p`."""
    faces = np.array([c not in (NONE_CLASS, BACK) for c in classes], bool)
    g = grey.cls.astype(np.int64)
    ok = (grey.p >= min_p) & faces[g] & (g != colour.cls[unsure])
    return np.flatnonzero(ok)


def grey_look(
    clf: GreyViews,
    loaded: object,
    xyxy: np.ndarray,
    readings: Readings,
    flags: np.ndarray,
    timing: dict[str, float],
    source: tuple[np.ndarray, float] | None,
    knob: GreyKnob,
) -> tuple[Readings, np.ndarray]:
    """`(readings, flags)` with the unsure boxes read again in grey (module docstring), from
    `knob.grey_min_p` (`ReaderConfig`; None: as they are).

    Args:
        clf: the classifier (`vision.views.Classifier`).
        loaded: the `LoadedImage` the boxes `xyxy` (its pixels) belong to.
        flags: bool `(K,)` the boxes' `uncertain` flags so far.
        source: the crops' pixels and scale (`Classifier.crop_source`).
    """
    min_p, unsure = knob.grey_min_p, np.flatnonzero(readings.p < GREY_UNSURE)
    if min_p is None or not len(unsure):
        return readings, flags
    grey = grey_readings(clf, loaded, xyxy, unsure, timing, source)
    return take_look(readings, flags, grey, unsure, clf.classes, min_p)


def grey_readings(
    clf: GreyViews,
    loaded: object,
    xyxy: np.ndarray,
    at: np.ndarray,
    timing: dict[str, float],
    source: tuple[np.ndarray, float] | None,
) -> Readings:
    """The grey readings of the boxes `xyxy[at]` (one batch)."""
    logits, _emb, owner = clf.views(loaded, xyxy[at], timing, source, grey=True)
    return combine_views(logits, owner, len(at), clf.temperature)


def take_look(
    readings: Readings,
    flags: np.ndarray,
    grey: Readings,
    unsure: np.ndarray,
    classes: Sequence[str],
    min_p: float,
) -> tuple[Readings, np.ndarray]:
    """`(readings, flags)` with the boxes `unsure` (read again as `grey`) that `take_grey` picks
    taking their grey reading, flagged; the colour reading their runner-up."""
    take = take_grey(readings, grey, unsure, classes, min_p)
    if not len(take):
        return readings, flags
    at = unsure[take]
    cls, p, second = readings.cls.copy(), readings.p.copy(), None
    cls[at], p[at] = grey.cls[take], grey.p[take]
    if readings.second is not None:
        second = readings.second.copy()
        second[at] = readings.cls[at]
    probs = None
    if readings.probs is not None and grey.probs is not None:
        probs = readings.probs.copy()
        probs[at] = grey.probs[take]
    out = replace(readings, cls=cls, p=p, second=second, probs=probs)
    flags = np.asarray(flags, bool).copy()
    flags[at] = True
    return out, flags


def grey_look_both(
    clf: GreyViews,
    loaded: object,
    xyxy: np.ndarray,
    readings: Readings,
    plain: Readings,
    flags: np.ndarray,
    timing: dict[str, float],
    source: tuple[np.ndarray, float] | None,
    knob: GreyKnob,
) -> tuple[Readings, np.ndarray, np.ndarray]:
    """`grey_look` of the readings with references (`readings`) and of the same boxes read
    without them (`plain`), from one grey batch over the boxes unsure in either: `(readings,
    flags, plain's classes after the look)`.

    The classes without references are what `vision.refmatch.match_refs` sends a box back to
    when the embedding blend moved it and its face does not say so (its veto). They must be the
    reader's whole plain call, grey look included: a riichi 赤五 the colour views read `none` but
    the grey look reads 5條 is a 5條 without references; sent back to the colour views' `none`,
    the references would drop a tile the reader keeps without them (issue 35, real_sets_dev R4).
    """
    min_p = knob.grey_min_p
    if min_p is None:
        return readings, flags, plain.cls
    mine, theirs = readings.p < GREY_UNSURE, plain.p < GREY_UNSURE
    unsure = np.flatnonzero(mine | theirs)
    if not len(unsure):
        return readings, flags, plain.cls
    grey = grey_readings(clf, loaded, xyxy, unsure, timing, source)
    own = mine[unsure]
    out, flags = take_look(readings, flags, grey.rows(own), unsure[own], clf.classes, min_p)
    own = theirs[unsure]
    none = np.zeros(len(plain.cls), bool)
    was, _ = take_look(plain, none, grey.rows(own), unsure[own], clf.classes, min_p)
    return out, flags, was.cls
