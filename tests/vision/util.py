"""Helpers of the reader's tests: the localiser's input shapes of a `detect`, the yardstick's
edit distance between two rows of tile codes, and one row drawn by `datasets.scenes` for the
shipped classifier, and a stand-in's face with its code written on it."""

from __future__ import annotations

import cv2
import numpy as np

import vision.reader as reader_module
from vision import TileReader
from vision.image import LoadedImage
from vision.modelfiles import models_dir

# a flat, centred, landscape row filling 0.8 of the frame (`datasets.scenes.make_scene`'s opts)
DRAWN_OPTS = {"angle": 0.0, "tilt": 0.1, "persp": 0.0, "center": True, "portrait": False, "row_frac": 0.8}


def drawn_row(sets: list[list[int]]):
    """One row of `sets` (class indices) drawn with seed 1, and the shipped reader.

    Returns `(reader, classify, loaded, xyxy, boxes)`: `classify(xyxy)` reads boxes of the drawn
    photo `loaded` with the shipped classifier; `xyxy` `[N, 4]` float32 and `boxes` the drawn tiles.
    """
    from datasets.scenes import make_scene

    reader = TileReader(models_dir())
    opts = {**DRAWN_OPTS, "rows": 1, "last_apart": False}
    img, boxes = make_scene(np.random.default_rng(1), sets=sets, opts=opts)
    loaded = LoadedImage.from_array(np.ascontiguousarray(np.clip(img, 0, 255).astype(np.uint8)))

    def classify(xyxy):
        return reader.classifier.classify(loaded, np.asarray(xyxy, np.float32), {"decode": 0.0})

    return reader, classify, loaded, np.array([b.xyxy for b in boxes], np.float32), boxes


def localizer_shapes(monkeypatch, reader) -> list[tuple[int, ...]]:
    """A list that fills with the input shape of every localiser pass `reader` runs from now on."""
    shapes: list[tuple[int, ...]] = []
    run = reader_module.run_model

    def spy(spec, batch):
        if spec is reader.localizer:
            shapes.append(tuple(batch.shape))
        return run(spec, batch)

    monkeypatch.setattr(reader_module, "run_model", spy)
    return shapes


def edits(a: list[str], b: list[str]) -> int:
    """Edit distance of two rows (the yardstick's, `../shared/tools/eval_rows.py`).

    >>> edits(["1m", "2m", "3m"], ["1m", "3m"])
    1
    """
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]


def coded_tile(box: tuple[float, float, float, float], rgb: tuple[int, int, int], code: str) -> np.ndarray:
    """A face of `box`'s size (xyxy, rounded) in `rgb`, its tile `code` written on it in an ink of
    the same red: the stand-in models see red only, so the ink changes nothing for them, and the
    faces differ for what compares appearances (references, the grey look)."""
    x0, y0, x1, y1 = box
    tile = np.empty((round(y1) - round(y0), round(x1) - round(x0), 3), np.uint8)
    tile[:] = rgb
    h, w = tile.shape[:2]
    ink = (rgb[0], 0, 0)
    cv2.putText(tile, code[0], (w // 5, h // 2), cv2.FONT_HERSHEY_SIMPLEX, w / 40, ink, max(2, w // 12))
    cv2.putText(tile, code[1:], (w // 4, h - h // 8), cv2.FONT_HERSHEY_SIMPLEX, w / 60, ink, max(2, w // 16))
    return tile
