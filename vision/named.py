"""The read boxes named as `Detection`s: the last step of `TileReader.detect` before the roles.

A box the classifier calls `none` is `Rejected`; a box the localizer calls `back` is face down
unless the classifier says `flower`; a sideways box (width > `SIDEWAYS_RATIO` x height) is
`rotated`; a flagged box is `uncertain` (never a back). Boxes come in pixels of the decoded image
and leave in full-size pixels (`/ scale`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from vision.boxes import SIDEWAYS_RATIO
from vision.detection import BACK, FLOWER, Detection, Rejected
from vision.modelfiles import NONE_CLASS
from vision.reading import Readings


@dataclass
class Named:
    """`name_boxes`'s answer, one entry per kept box in each list (in the order of the boxes).

    Attributes:
        dets: the detections.
        margins: the classifier's logit margin per detection (its `conf` where the readings
            have none): flag 2's fifth-copy check (`vision.arrange`).
        probs: the class probabilities per detection, or None (`vision.face_checks`).
        show: whether the detection's flag is shown (flag 5).
        rejected: the boxes read `none`, as `Rejected` in full-size pixels.
    """

    dets: list[Detection] = field(default_factory=list)
    margins: list[float] = field(default_factory=list)
    probs: list[np.ndarray | None] = field(default_factory=list)
    show: list[bool] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)


def name_boxes(
    xyxy: np.ndarray,
    scale: float,
    class_ids: np.ndarray,
    conf: np.ndarray,
    readings: Readings,
    flags: np.ndarray,
    shown: np.ndarray,
    classes: Sequence[str],
    back_class: int,
) -> Named:
    """Name each box.

    Args:
        xyxy: `(n, 4)` boxes in pixels of the decoded image; `scale`: its size / full size.
        class_ids: `(n,)` the localizer's class per box (`back_class`: its `back`, -1 if none).
        conf: `(n,)` localizer score x classifier probability, 0..1.
        readings: the classifier's readings of the `n` boxes; `flags`, `shown`: `(n,)` bool,
            flag 2 and whether flag 5 shows it.
        classes: the classifier's classes (`readings.cls` indexes them).

    >>> r = Readings(np.array([0, 1]), np.array([0.9, 0.8]), np.array([0.8, 0.6]), np.ones(2, bool))
    >>> n = name_boxes(np.array([[0, 0, 10, 14], [20, 0, 30, 14]], np.float32), 0.5,
    ...     np.zeros(2, int), np.array([0.9, 0.7]), r, np.array([True, False]),
    ...     np.array([True, False]), ["1m", NONE_CLASS], -1)
    >>> [(d.tile, d.xyxy, d.uncertain) for d in n.dets], [x.xyxy for x in n.rejected]
    ([('1m', (0.0, 0.0, 20.0, 28.0), True)], [(40.0, 0.0, 60.0, 28.0)])
    """
    none = classes.index(NONE_CLASS) if NONE_CLASS in classes else -1
    full_xyxy = xyxy / np.float32(scale)
    margin = readings.logit_margin if readings.logit_margin is not None else conf
    out = Named()
    for k in range(len(xyxy)):
        x0, y0, x1, y1 = (float(v) for v in full_xyxy[k])
        box = (x0, y0, x1, y1)
        if int(readings.cls[k]) == none:
            out.rejected.append(Rejected(xyxy=box, conf=float(conf[k])))
            continue
        tile = classes[readings.cls[k]]
        if int(class_ids[k]) == back_class and tile != FLOWER:
            tile = BACK  # the localizer saw a back: face down, unless the classifier says flower
        w, h = box[2] - box[0], box[3] - box[1]
        second = classes[readings.second[k]] if readings.second is not None else None
        out.dets.append(
            Detection(
                xyxy=box,
                tile=tile,
                conf=float(conf[k]),
                face_down=tile == BACK,
                rotated=w > SIDEWAYS_RATIO * h,
                uncertain=bool(flags[k]) and tile != BACK,
                second=second if tile != BACK and second not in (tile, NONE_CLASS, BACK) else None,
            )
        )
        out.margins.append(float(margin[k]))
        out.probs.append(readings.probs[k] if readings.probs is not None else None)
        out.show.append(bool(shown[k]))
    return out
