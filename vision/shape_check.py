"""The suit a face shows by its shapes (`vision.suit_shape`) against the classifier's reading, as
`vision.pips_check` has the pip counter's word and `vision.text_check` the text reader's.

The rule (`ReaderConfig.shape_min_conf`; None, off, by default: on real_sets_dev it put no tile
right, `models/MODEL.md`), for each face up tile with a shape of confidence >= the threshold:

- circles (`p`) or sticks (`s`) where the classifier reads the other suit: the tile takes the
  classifier's likeliest class **of the shape's suit** (or the pip count of that suit where the
  counter is sure of it, `vision.pips_check.PIPS_MIN_CONF`); the classifier's reading moves to
  `second`; the tile stays flagged unless the count confirms the new class;
- circles or sticks where the classifier reads a character or honour tile, or strokes (`z`)
  where it reads a dot or bamboo tile of two or more pips: the tile is flagged, its reading kept;
- anything else: unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from vision.detection import BACK, FLOWER, Detection
from vision.pips import count_pips
from vision.pips_check import PIPS_MIN_CONF
from vision.suit_shape import SuitShape, read_shape
from vision.text_check import face_crop

SHAPE_MIN_CONF = 0.8
"""The confidence of a shape from which it decides (when the rule is on)."""


def _suit(code: str) -> str | None:
    return code[1] if len(code) == 2 and code[0].isdigit() else None


def decide(
    det: Detection,
    shape: SuitShape,
    probs: np.ndarray | None,
    classes: Sequence[str],
    count: int | None = None,
    min_conf: float = SHAPE_MIN_CONF,
) -> Detection:
    """`det` as the rule has it (module docstring).

    Args:
        probs: `(C,)` the classifier's probabilities of `classes` for this tile (None: the
            likeliest class of the suit is its pip count, else the tile is only flagged).
        count: the pip count of the shape's suit, where the counter is sure of it.
    """
    if det.face_down or det.tile in (BACK, FLOWER) or shape.suit is None or shape.conf < min_conf:
        return det
    suit = _suit(det.tile)
    if shape.suit == "z":
        return replace(det, uncertain=True) if suit in ("p", "s") and det.tile[0] != "1" else det
    if suit == shape.suit:
        return det
    if suit not in ("p", "s"):
        return replace(det, uncertain=True)
    code = f"{count}{shape.suit}" if count is not None else None
    if code is None and probs is not None:
        own = [k for k, c in enumerate(classes) if _suit(c) == shape.suit]
        code = classes[max(own, key=lambda k: float(probs[k]))]
    if code is None:
        return replace(det, uncertain=True)
    return replace(det, tile=code, second=det.tile, uncertain=count is None)


def check_with_shape(
    dets: Sequence[Detection],
    probs: Sequence[np.ndarray | None],
    classes: Sequence[str],
    pixels: np.ndarray,
    scale: float,
    min_conf: float = SHAPE_MIN_CONF,
) -> list[Detection]:
    """`dets` decided by their faces' shapes (`decide`).

    Args:
        dets: detections, `xyxy` in pixels of the full photo.
        probs: per detection, the classifier's probabilities `(C,)` of `classes` (or None).
        pixels: `(h, w, 3)` uint8 RGB, the photo at `scale` (the reader's crop source).
    """
    out = list(dets)
    for k, det in enumerate(dets):
        if det.face_down or det.tile in (BACK, FLOWER):
            continue
        face = face_crop(pixels, scale, det)
        shape = read_shape(face)
        count = None
        if shape.suit in ("p", "s") and shape.conf >= min_conf and _suit(det.tile) not in (shape.suit, None):
            found = count_pips(face, shape.suit)
            count = found.count if found is not None and found.conf >= PIPS_MIN_CONF else None
        out[k] = decide(det, shape, probs[k], classes, count, min_conf)
    return out


def confirm_suit(
    dets: Sequence[Detection], pixels: np.ndarray, scale: float, min_conf: float = SHAPE_MIN_CONF
) -> list[Detection]:
    """Flag 5's agreement (`vision.flagging`): a flagged face up dot or bamboo tile whose shapes
    show its suit at `min_conf` or more (`read_shape`, an independent reader: circles for 筒,
    sticks for 條) is not flagged; nothing else changes. Only flagged tiles are looked at.

    Args:
        dets: detections, `xyxy` in pixels of the full photo.
        pixels: `(h, w, 3)` uint8 RGB, the photo at `scale` (the reader's crop source).
    """
    out = list(dets)
    for k, det in enumerate(dets):
        suit = _suit(det.tile)
        if det.uncertain and not det.face_down and suit in ("p", "s"):
            shape = read_shape(face_crop(pixels, scale, det))
            if shape.suit == suit and shape.conf >= min_conf:
                out[k] = replace(det, uncertain=False)
    return out


__all__ = ["SHAPE_MIN_CONF", "check_with_shape", "confirm_suit", "decide"]
