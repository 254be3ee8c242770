"""From classifier outputs to a reading per box: the likelier of a box's views, calibrated, and
whether the reading is `uncertain`.

A box has one or two views (`vision.boxes.cut_crops`: a sideways box turned both ways, an upright
box as it is and, for models trained upside down, turned 180°). The view whose best class is
likelier wins. Models from 0.6.0 carry a `calibration` in their metadata, fitted on real photos
the models never trained on (`datasets/calibrate.py`):

- `temperature` T: probabilities are `softmax(logits / T)`;
- `flag_margin`, `disagree_factor`: a reading is uncertain when the top-1 minus top-2
  probability of the winning view, times `disagree_factor` where the two views name different
  classes (default 0: a disagreement is always uncertain), is below `flag_margin`.

Without a calibration (older models) a reading is uncertain when `conf < LOW_CONF`, the rule the
app has always drawn in red.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from vision.boxes import softmax

LOW_CONF = 0.6
"""Without a calibration: `conf` below this is uncertain."""


@dataclass(frozen=True, slots=True)
class Readings:
    """Per box (K boxes): `cls` int (K,) class index, `p` float (K,) its calibrated probability,
    `margin` float (K,) top-1 minus top-2 probability, `agree` bool (K,) every view of the box
    names `cls` (true for a box with one view)."""

    cls: np.ndarray
    p: np.ndarray
    margin: np.ndarray
    agree: np.ndarray


def combine_views(
    logits: np.ndarray, owner: Sequence[int], n_boxes: int, temperature: float = 1.0
) -> Readings:
    """The reading of each box from the logits `(B, C)` of its views (`owner[b]` = box of view `b`).

    >>> import numpy as np
    >>> z = np.log(np.array([[0.6, 0.4], [0.1, 0.9], [0.7, 0.3]]))
    >>> r = combine_views(z, [0, 0, 1], 2)
    >>> r.cls.tolist(), [round(float(v), 2) for v in r.p], r.agree.tolist()
    ([1, 0], [0.9, 0.7], [False, True])
    """
    probs = softmax(np.asarray(logits, np.float32) / np.float32(temperature))
    k = len(probs[0]) if len(probs) else 1
    best = np.full((n_boxes, k), -1.0, np.float32)
    first = np.full(n_boxes, -1, np.int64)
    agree = np.ones(n_boxes, bool)
    for b, box in enumerate(owner):
        c = int(np.argmax(probs[b]))
        if first[box] < 0:
            first[box] = c
        elif first[box] != c:
            agree[box] = False
        if probs[b, c] > best[box].max():
            best[box] = probs[b]
    top2 = np.sort(best, axis=1)[:, -2:] if k > 1 else np.concatenate([np.zeros_like(best), best], 1)
    return Readings(cls=best.argmax(1), p=best.max(1), margin=top2[:, 1] - top2[:, 0], agree=agree)


def uncertain(readings: Readings, conf: np.ndarray, calibration: Mapping[str, float]) -> np.ndarray:
    """Bool (K,): which readings to flag (see the module docstring).

    >>> import numpy as np
    >>> r = Readings(np.array([0, 1]), np.array([0.9, 0.5]), np.array([0.85, 0.1]), np.array([True, True]))
    >>> uncertain(r, np.array([0.9, 0.5]), {"temperature": 1.0, "flag_margin": 0.2}).tolist()
    [False, True]
    >>> uncertain(r, np.array([0.9, 0.5]), {}).tolist()
    [False, True]
    """
    if "flag_margin" not in calibration:
        return np.asarray(conf) < LOW_CONF
    factor = float(calibration.get("disagree_factor", 0.0))
    margin = readings.margin * np.where(readings.agree, 1.0, factor)
    return margin < float(calibration["flag_margin"])


__all__ = ["LOW_CONF", "Readings", "combine_views", "uncertain"]
