"""Flag 4's per-tile signals: flag 3's (`datasets.flag3_signals`) and the localiser's second-pass
doubt, on one photo read as `jxmj detect` reads it today (the box rules in: `vision.scale`'s strip
and finer inputs, `vision.walls.rack_gaps`).

Added here:

- `pass2`: 1.0 where the box was not among the first plain localiser pass's boxes (IoU < `SAME`
  with each): a box only a finer or second pass found, or a merged split — the localiser doubted
  it at first sight.

A new reader's per-tile signal (its agreement with the classifier, its probability) is one more
key in the dict `photo_signals` returns and one entry in `datasets.flag4_eval.SUSPICION` (its
orientation: higher is more suspect); `datasets.flag4` measures its AUC and, when the runtime
computes it (`vision.flagging`), may fit it.
"""

from __future__ import annotations

import numpy as np

from datasets.flag3_signals import photo_signals as flag3_signals

SAME = 0.7
"""IoU at which a final box is one the first plain pass found."""


def iou_max(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per box of `a (K, 4)` its best IoU with a box of `b (M, 4)` (0 where `b` is empty).

    >>> iou_max(np.array([[0, 0, 10, 10], [20, 0, 30, 10]]), np.array([[0, 0, 10, 5]])).tolist()
    [0.5, 0.0]
    """
    a = np.asarray(a, np.float64).reshape(-1, 4)
    b = np.asarray(b, np.float64).reshape(-1, 4)
    if not len(b):
        return np.zeros(len(a))
    x0 = np.maximum(a[:, None, 0], b[None, :, 0])
    y0 = np.maximum(a[:, None, 1], b[None, :, 1])
    x1 = np.minimum(a[:, None, 2], b[None, :, 2])
    y1 = np.minimum(a[:, None, 3], b[None, :, 3])
    inter = np.clip(x1 - x0, 0, None) * np.clip(y1 - y0, 0, None)
    area = lambda v: (v[:, 2] - v[:, 0]) * (v[:, 3] - v[:, 1])  # noqa: E731
    union = area(a)[:, None] + area(b)[None, :] - inter
    return (inter / np.maximum(union, 1e-9)).max(1)


def photo_signals(reader, loaded) -> tuple[list, list[dict]]:
    """`(detections, signals per detection)`: flag 3's and `pass2` (module docstring)."""
    first: list[np.ndarray] = []
    localize = reader._localize

    def spy(pix, size=None, *more, **kw):  # `more`, `kw`: the weak boxes (`vision.row_ends`)
        out = localize(pix, size, *more, **kw)
        if not first:  # the first call of a photo: the first pass at the plain input
            first.append(np.asarray(out[0], np.float64))
        return out

    reader._localize = spy
    try:
        dets, sig = flag3_signals(reader, loaded)
    finally:
        reader._localize = localize
    boxes = np.array([d.xyxy for d in dets], np.float64).reshape(-1, 4) * loaded.scale
    seen = iou_max(boxes, first[0] if first else np.zeros((0, 4)))
    for s, v in zip(sig, seen, strict=True):
        s["pass2"] = float(v < SAME)
    return dets, sig
