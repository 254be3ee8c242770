"""Classifier crops of synthetic scenes, cut exactly as the runtime cuts them (`vision.boxes.cut_crops`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from vision.boxes import cut_crops

if TYPE_CHECKING:
    from datasets.scenes import Box


def crop_for_classifier(
    img: np.ndarray, box: Box, rng: np.random.Generator | None, out_hw=(64, 48), jitter=0.06
):
    """Cut a box as the runtime does (sideways box rotated upright), with optional jitter."""
    x0, y0, x1, y1 = box.xyxy
    bw, bh = x1 - x0, y1 - y0
    if rng is not None:
        d = rng.normal(0, jitter, 4) * np.array([bw, bh, bw, bh])
        if rng.random() < 0.15:
            # a loose box: the localiser sometimes takes in the table or a neighbour on one side
            side = int(rng.integers(4))
            d[side] += (1 if side >= 2 else -1) * rng.uniform(0.1, 0.4) * (bw if side % 2 == 0 else bh)
        x0, y0, x1, y1 = x0 + d[0], y0 + d[1], x1 + d[2], y1 + d[3]
    return cut(img, (x0, y0, x1, y1), out_hw, rot_k=(1 if rng is None or rng.random() < 0.5 else 3))


def cut(img: np.ndarray, xyxy, out_hw=(64, 48), rot_k=1):
    """One crop as the runtime cuts it (`vision.boxes.cut_crops`), uint8 `(H, W, 3)`: the box
    widened to whole pixels and clipped; a sideways box turned upright (`rot_k` 1: 90° counter-
    clockwise, 3: clockwise); a box under 2 px a black crop."""
    h, w = img.shape[:2]
    x0, y0, x1, y1 = xyxy
    x0, y0 = int(max(0, np.floor(x0))), int(max(0, np.floor(y0)))
    x1, y1 = int(min(w, np.ceil(x1))), int(min(h, np.ceil(y1)))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return np.zeros((*out_hw, 3), np.uint8)
    batch, rotated, _ = cut_crops(img, np.array([[x0, y0, x1, y1]], np.float32), tuple(out_hw))
    view = batch[1 if rotated[0] and rot_k == 3 else 0]
    return np.rint(view.transpose(1, 2, 0) * 255.0).astype(np.uint8)
