"""The text reader's word on the character tiles of a reading (`vision.text_reader`).

Only the flagged tiles (`uncertain`) that the classifier reads as a character tile (1m..9m,
E S W N, C, F), or names one as its runner-up, are read as text: the cost stays with the faces
where it can help (reading every character tile cost 12x the plain read on 12 MP photos of 17
萬 tiles; on real_sets_dev the text put right only flagged tiles, and turned no sure tile). The rule, one
threshold (`TEXT_MIN_SCORE`, chosen leaving each physical set of real_sets_dev out in turn;
`models/MODEL.md`, "The text reader"):

- the text reader's best word has a probability >= the threshold: it decides. A tile it names
  otherwise takes its reading (the classifier's moves to `second`); either way the tile is not
  uncertain (on real_sets_dev its confident words were right 119 times of 119);
- below the threshold (a face it cannot read: a slanted, tiny or stylised one) the reading is the
  classifier's, flag and all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from vision.detection import Detection
from vision.text_reader import TEXT_CODES, TextReader, TextReading

TEXT_MIN_SCORE = 0.1
"""The CTC probability of the best tile word from which the text reader decides a tile."""


def wants_text(det: Detection) -> bool:
    """Whether the text reader should read `det`: a flagged face up tile the classifier reads as
    a character tile or names one as its runner-up."""
    return det.uncertain and not det.face_down and (det.tile in TEXT_CODES or det.second in TEXT_CODES)


def decide(det: Detection, reading: TextReading, min_score: float = TEXT_MIN_SCORE) -> Detection:
    """`det` as the rule has it (module docstring): unchanged below `min_score`; else the text's
    code, not uncertain, and the classifier's reading kept as `second` when they differ."""
    if reading.score < min_score:
        return det
    best = reading.best
    if best == det.tile:
        return replace(det, uncertain=False)
    return replace(det, tile=best, uncertain=False, second=det.tile)


def face_crop(pixels: np.ndarray, scale: float, det: Detection) -> np.ndarray:
    """The face of `det` cut from `pixels` (`(h, w, 3)` uint8 RGB at `scale` of the full photo),
    BGR, a sideways tile turned upright (90° one way; the text reader's 180° turn covers the other)."""
    h, w = pixels.shape[:2]
    x0, y0, x1, y1 = (v * scale for v in det.xyxy)
    crop = pixels[
        max(int(y0), 0) : min(int(np.ceil(y1)), h), max(int(x0), 0) : min(int(np.ceil(x1)), w), ::-1
    ]
    return np.ascontiguousarray(np.rot90(crop) if det.rotated else crop)


def check_with_text(
    dets: Sequence[Detection],
    pixels: np.ndarray,
    scale: float,
    text: TextReader,
    min_score: float = TEXT_MIN_SCORE,
) -> list[Detection]:
    """`dets` with the character tiles decided by the text reader (`decide`), in one model batch.

    Args:
        dets: detections, `xyxy` in pixels of the full photo.
        pixels: `(h, w, 3)` uint8 RGB, the photo at `scale` (the reader's crop source).
    """
    todo = [k for k, d in enumerate(dets) if wants_text(d)]
    faces = [face_crop(pixels, scale, dets[k]) for k in todo]
    keep = [k for k, f in zip(todo, faces, strict=True) if min(f.shape[:2]) >= 8]
    readings = text.read([f for f in faces if min(f.shape[:2]) >= 8])
    out = list(dets)
    for k, reading in zip(keep, readings, strict=True):
        out[k] = decide(out[k], reading, min_score)
    return out


__all__ = ["TEXT_MIN_SCORE", "check_with_text", "decide", "face_crop", "wants_text"]
