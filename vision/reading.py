"""From classifier outputs to a reading per box: the likelier of a box's views, calibrated, and
whether the reading is `uncertain`.

A box has one or two views (`vision.boxes.cut_crops`: a sideways box turned both ways, an upright
box as it is and, for models trained upside down, turned 180°). The view whose best class is
likelier wins. Models from 0.6.0 carry a `calibration` in their metadata, fitted on real photos
the models never trained on (`datasets/calibrate.py`):

- `temperature` T: probabilities are `softmax(logits / T)`;
- `flag_logit_margin` (0.6.2 on), `disagree_factor`: a reading is
  uncertain when the logit margin of the winning view (`log(p1 / p2)`, the top-1 over the
  top-2 class; it does not depend on how the rest of the probability is spread), times
  `disagree_factor` where the two views name different classes (default 0: a disagreement is
  always uncertain), is below `flag_logit_margin`;
- `flag_margin` (older calibrations): the same with the top-1 minus top-2 probability. A
  probability margin also flags readings whose second class is far behind but whose probability
  is spread over many classes: those are mostly right.

Without a calibration (older models) a reading is uncertain when `conf < LOW_CONF`, the rule the
app has always drawn in red.

Whatever the classifier's confidence, `beyond_the_set` marks every reading of a tile that a
photo of one hand shows more often than a set holds (4 of each tile): at least one of them is
wrong, and the player is shown which tiles to check.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from vision.boxes import softmax
from vision.detection import BACK, FLOWER

LOW_CONF = 0.6
"""Without a calibration: `conf` below this is uncertain."""

SET_COPIES = 4
"""How many of each tile one set holds. Flowers (one class for flowers, seasons and the extra
bonus tiles of some sets) and face-down tiles (`back`: any tile) are not counted."""

HAND_MAX_TILES = 18
"""The most tiles one hand holds (14, one more per kong), flowers aside. A photo with more
shows more than one hand (several example hands, a whole table, two sets), where five of a
tile can be right: `beyond_the_set` then flags nothing."""


@dataclass(frozen=True, slots=True)
class Readings:
    """Per box (K boxes): `cls` int (K,) class index, `p` float (K,) its calibrated probability,
    `margin` float (K,) top-1 minus top-2 probability, `agree` bool (K,) every view of the box
    names `cls` (true for a box with one view), `logit_margin` float (K,) `log(p1 / p2)` of the
    winning view (calibrated logits; `margin`-only readings built by hand leave it `None`),
    `ref_sim` float (K,) the best cosine similarity of the box's views to a reference of class
    `cls` (`vision.refblend.box_similarity`; NaN where `cls` has none; `None` read without references),
    `proto_sim` float (K,) the best cosine of the views to the prototype of `cls`
    (`vision.flagging.proto_sim`; `None` without a flag model), `second` int (K,) the runner-up
    class of the winning view (`None` for readings built by hand), `probs` float (K, C) the
    calibrated probabilities of every class in the winning view (`None` for readings built by hand:
    `vision.shape_check` takes the likeliest class of a suit from them)."""

    cls: np.ndarray
    p: np.ndarray
    margin: np.ndarray
    agree: np.ndarray
    logit_margin: np.ndarray | None = None
    ref_sim: np.ndarray | None = None
    proto_sim: np.ndarray | None = None
    second: np.ndarray | None = None
    probs: np.ndarray | None = None

    def rows(self, pick: np.ndarray) -> Readings:
        """The readings of the boxes `pick` (bool `(K,)` or int indices), every field alike.

        >>> r = Readings(np.array([3, 4, 5]), np.array([0.9, 0.8, 0.7]), np.zeros(3), np.ones(3, bool))
        >>> r.rows(np.array([2, 0])).cls.tolist(), r.rows(np.array([2, 0])).second
        ([5, 3], None)
        """
        parts: dict[str, Any] = {f.name: _pick(getattr(self, f.name), pick) for f in fields(Readings)}
        return Readings(**parts)


def _pick(v: np.ndarray | None, pick: np.ndarray) -> np.ndarray | None:
    return None if v is None else v[pick]


def combine_views(
    logits: np.ndarray, owner: Sequence[int], n_boxes: int, temperature: float = 1.0
) -> Readings:
    """The reading of each box from the logits `(B, C)` of its views (`owner[b]` = box of view `b`).

    >>> import numpy as np
    >>> z = np.log(np.array([[0.6, 0.4], [0.1, 0.9], [0.7, 0.3]]))
    >>> r = combine_views(z, [0, 0, 1], 2)
    >>> r.cls.tolist(), [round(float(v), 2) for v in r.p], r.agree.tolist()
    ([1, 0], [0.9, 0.7], [False, True])
    >>> [round(float(v), 3) for v in r.logit_margin]  # log(0.9 / 0.1), log(0.7 / 0.3)
    [2.197, 0.847]
    >>> r.second.tolist()  # the runner-up of the winning view
    [0, 1]
    """
    scaled = np.asarray(logits, np.float32) / np.float32(temperature)
    probs = softmax(scaled)
    k = len(probs[0]) if len(probs) else 1
    best = np.full((n_boxes, k), -1.0, np.float32)
    best_z = np.zeros((n_boxes, k), np.float32)
    first = np.full(n_boxes, -1, np.int64)
    agree = np.ones(n_boxes, bool)
    for b, box in enumerate(owner):
        c = int(np.argmax(probs[b]))
        if first[box] < 0:
            first[box] = c
        elif first[box] != c:
            agree[box] = False
        if probs[b, c] > best[box].max():
            best[box], best_z[box] = probs[b], scaled[b]
    top2 = np.sort(best, axis=1)[:, -2:] if k > 1 else np.concatenate([np.zeros_like(best), best], 1)
    z2 = np.sort(best_z, axis=1)[:, -2:] if k > 1 else np.full((n_boxes, 2), [-np.inf, 0.0], np.float32)
    return Readings(
        cls=best.argmax(1),
        p=best.max(1),
        margin=top2[:, 1] - top2[:, 0],
        agree=agree,
        logit_margin=z2[:, 1] - z2[:, 0],
        second=np.argsort(best, axis=1, kind="stable")[:, -2] if k > 1 else best.argmax(1),
        probs=best,
    )


def uncertain(readings: Readings, conf: np.ndarray, calibration: Mapping[str, float]) -> np.ndarray:
    """Bool (K,): which readings to flag (see the module docstring).

    >>> import numpy as np
    >>> r = Readings(np.array([0, 1]), np.array([0.9, 0.5]), np.array([0.85, 0.1]), np.array([True, True]))
    >>> uncertain(r, np.array([0.9, 0.5]), {"temperature": 1.0, "flag_margin": 0.2}).tolist()
    [False, True]
    >>> uncertain(r, np.array([0.9, 0.5]), {}).tolist()
    [False, True]
    >>> spread = Readings(np.array([0]), np.array([0.8]), np.array([0.77]), np.array([True]),
    ...                   np.array([np.log(0.8 / 0.03)]))  # 0.8 first, 0.03 second, the rest spread
    >>> uncertain(spread, np.array([0.8]), {"flag_margin": 0.815}).tolist()
    [True]
    >>> uncertain(spread, np.array([0.8]), {"flag_logit_margin": 3.13}).tolist()
    [False]
    """
    if "flag_logit_margin" in calibration:
        if readings.logit_margin is None:
            raise ValueError("a flag_logit_margin calibration needs readings with logit_margin")
        score, threshold = readings.logit_margin, float(calibration["flag_logit_margin"])
    elif "flag_margin" in calibration:
        score, threshold = readings.margin, float(calibration["flag_margin"])
    else:
        return (np.asarray(conf) < LOW_CONF) | unlike_refs(readings, calibration)
    factor = float(calibration.get("disagree_factor", 0.0))
    flags = score * np.where(readings.agree, 1.0, factor) < threshold
    return flags | unlike_refs(readings, calibration)


def unlike_refs(readings: Readings, calibration: Mapping[str, float]) -> np.ndarray:
    """Bool (K,): read with references (`readings.ref_sim`), the class read has references and
    every view of the box is less similar to them than `calibration["ref_flag_similarity"]`.

    >>> import numpy as np
    >>> r = Readings(np.array([0, 1, 2]), np.ones(3), np.ones(3), np.ones(3, bool), None,
    ...              np.array([0.9, 0.3, np.nan]))
    >>> unlike_refs(r, {"ref_flag_similarity": 0.6}).tolist()
    [False, True, False]
    """
    if readings.ref_sim is None or "ref_flag_similarity" not in calibration:
        return np.zeros(len(readings.cls), bool)
    with np.errstate(invalid="ignore"):
        return np.asarray(readings.ref_sim < float(calibration["ref_flag_similarity"]))


def beyond_the_set(tiles: Sequence[str]) -> list[bool]:
    """Per reading of a photo's tiles: is its tile read more often than one set holds?

    Rules of the game, not fitted thresholds: one hand (at most `HAND_MAX_TILES` tiles, flowers
    aside) cannot hold five 2p, so all five readings are uncertain (a sideways 4p boxed as two
    halves reads as two 2p). Flowers and `back` are never counted (`SET_COPIES`).

    >>> beyond_the_set(["2p"] * 5 + ["1m"] * 4 + ["back"] * 2 + ["flower"] * 9)
    ... # doctest: +NORMALIZE_WHITESPACE
    [True, True, True, True, True, False, False, False, False, False, False, False, False, False,
     False, False, False, False, False, False]
    >>> any(beyond_the_set(["2p"] * 5 + ["1m"] * 14))  # 19 tiles: more than one hand
    False
    """
    if sum(t != FLOWER for t in tiles) > HAND_MAX_TILES:
        return [False] * len(tiles)
    counts = Counter(t for t in tiles if t not in (FLOWER, BACK))
    return [counts[t] > SET_COPIES for t in tiles]


__all__ = [
    "HAND_MAX_TILES",
    "LOW_CONF",
    "SET_COPIES",
    "Readings",
    "beyond_the_set",
    "combine_views",
    "uncertain",
    "unlike_refs",
]
