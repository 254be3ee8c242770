"""The suit a tile's face shows by the shape of its ink (issue 35 item 2): circles (筒, dots),
sticks (條, bamboo) or strokes (萬 and the honours, characters) — whatever colour the set prints.

The ink (`ink_map`) is how much darker each pixel of the inner face is than the face around it
(the black-hat of its lightness, over a disc wider than a pip: a shadow, a gradient or the tile's
side is no ink; red, green, blue and black inks alike), thresholded (Otsu) in three masks: as
found, only the darkest, and filled then eroded (dots that touch part at their neck). Blobs that
touch the border (the tile's side, a neighbour) are dropped. Each blob is sorted by its outline:

- a **circle** fills its fitted ellipse (area / (π/4 · long · short) ≥ `ROUND`), is at most
  `CIRCLE_ASPECT` long for wide and at least `MIN_DOT` of the face high; a dot tile's circles are
  of one size (within `SIZE_BAND`x of their median area), two to nine of them;
- a **stick** is elongated (long / short ≥ `STICK_ASPECT`) along the face's height (within
  `STICK_TILT` degrees: a 二 or 三 is elongated across), two or more of one length;
- the rest is strokes.

A suit is read when its blobs hold at least `SHARE` of the ink (in one of the masks) and the other
suit's at most `OTHER_SHARE`: `p` (circles), `s` (sticks); `z` (a character or honour, or
一筒's single flower and 一條's bird: one blob is no layout) when neither holds more than
`OTHER_SHARE`. The confidence is the winning share less the other suit's.

Measured on real_sets_dev (`models/MODEL.md`, "Suit by shape"): of the dot and bamboo tiles it
reads 67 right and 2 wrong, and not one suit misread there does it put right (the faces the
classifier misreads are cut across two tiles).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.pip_ink import FACE_H, face_inner, filled, inner

ROUND = 0.85
CIRCLE_ASPECT = 1.3
STICK_ASPECT = 2.5
STICK_TILT = 30.0
SIZE_BAND = 2.0
SHARE = 0.6
OTHER_SHARE = 0.2
BLACKHAT = 0.43
"""The ink is what is darker than the face within this share of its height (wider than a pip)."""
MIN_INK = 25.0
"""The least black-hat (lightness, 0..255) that is ink."""
MASK_FACTORS = (1.0, 1.6)
"""The ink masks read (times the threshold): as found, and only the darkest (pips that touch
part)."""
MIN_DOT = 0.14
"""The least diameter of a dot, as a share of the face's height (a beaded stick's beads are smaller:
two beaded sticks are not an 8筒)."""
MIN_BLOB = 0.003
"""The least area of a blob, as a share of the inner face (specks and grain are not ink)."""
_K3 = np.ones((3, 3), np.uint8)


@dataclass(frozen=True, slots=True)
class SuitShape:
    """What the ink's shapes say.

    Attributes:
        suit: "p" circles, "s" sticks, "z" strokes (a character or honour), None unsure.
        conf: 0..1, the winning share of the ink less the other suit's (0 for None).
        circles: the share of the ink in circles of one size (two to nine of them).
        sticks: the share of the ink in upright sticks of one length (two or more).
    """

    suit: str | None
    conf: float
    circles: float
    sticks: float


@dataclass(frozen=True, slots=True)
class _Blob:
    area: float
    round: float  # the share of its fitted ellipse it fills
    aspect: float
    tilt: float  # degrees between the long axis and the face's height
    long: float


def _blobs(mask: np.ndarray) -> list[_Blob]:
    contours, _ = cv2.findContours(inner(mask), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    min_area = MIN_BLOB * mask.size
    out = []
    for c in contours:
        area = float(cv2.contourArea(c))
        if area < min_area:
            continue
        (_cx, _cy), (w, h), angle = cv2.minAreaRect(c)
        long, short = max(w, h), max(min(w, h), 1.0)
        # OpenCV: `angle` turns the side of length w from the x axis; the long side's angle from x
        along_x = angle if w >= h else angle + 90.0
        tilt = abs(((along_x % 180.0) + 180.0) % 180.0 - 90.0)
        fill = area / max(np.pi / 4 * long * short, 1e-6)  # a disc fills its ellipse (1.0)
        out.append(_Blob(area, min(fill, 1.0), long / short, tilt, long))
    return out


def _one_size(values: list[float]) -> list[int]:
    if not values:
        return []
    med = float(np.median(values))
    return [k for k, v in enumerate(values) if med / SIZE_BAND <= v <= med * SIZE_BAND]


def _shares(mask: np.ndarray) -> tuple[float, float]:
    """(circles, sticks): the shares of the mask's ink in each."""
    found = _blobs(mask)
    ink = sum(b.area for b in found)
    if ink <= 0:
        return 0.0, 0.0
    least = MIN_DOT * mask.shape[0]
    round_ = [b for b in found if b.round >= ROUND and b.aspect <= CIRCLE_ASPECT and b.long >= least]
    keep = _one_size([b.area for b in round_])
    circles = sum(round_[k].area for k in keep) / ink if 2 <= len(keep) <= 9 else 0.0
    sticks_ = [b for b in found if b.aspect >= STICK_ASPECT and b.tilt <= STICK_TILT]
    keep = _one_size([b.long for b in sticks_])
    sticks = sum(sticks_[k].area for k in keep) / ink if len(keep) >= 2 else 0.0
    return float(circles), float(sticks)


def ink_map(face_bgr: np.ndarray) -> tuple[np.ndarray, float]:
    """The inner face's ink, `(FACE_H, w)` uint8: how much darker each pixel is than the face
    around it (the black-hat of its lightness over `BLACKHAT` of the face's height: a shadow, a
    gradient or the tile's side wider than a pip is no ink), and its threshold (Otsu, at least
    `MIN_INK`)."""
    inner_face = face_inner(face_bgr)
    light = cv2.cvtColor(inner_face, cv2.COLOR_BGR2LAB)[..., 0]
    k = round(BLACKHAT * FACE_H) | 1
    ink = cv2.morphologyEx(light, cv2.MORPH_BLACKHAT, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    otsu, _ = cv2.threshold(ink, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return ink, max(float(otsu), MIN_INK)


def read_shape(face_bgr: np.ndarray) -> SuitShape:
    """The suit the face's ink shows (module docstring).

    Args:
        face_bgr: `(h, w, 3)` uint8 BGR, the face upright or turned 180° (dark ink on a light
            face, or `vision.face_polarity.light_face` of a dark one).
    """
    if face_bgr.ndim != 3 or min(face_bgr.shape[:2]) < 8:
        return SuitShape(None, 0.0, 0.0, 0.0)
    ink, th = ink_map(face_bgr)
    masks: list[np.ndarray] = [(ink > th * f).astype(np.uint8) * 255 for f in MASK_FACTORS]
    masks.append(cv2.erode(filled(masks[0]), _K3, iterations=3))  # touching dots part at their neck
    found = [_shares(m) for m in masks]
    circles, sticks = max(c for c, _ in found), max(s for _, s in found)
    if circles >= SHARE and sticks <= OTHER_SHARE:
        return SuitShape("p", round(circles - sticks, 4), circles, sticks)
    if sticks >= SHARE and circles <= OTHER_SHARE:
        return SuitShape("s", round(sticks - circles, 4), circles, sticks)
    if max(circles, sticks) <= OTHER_SHARE and (ink > th).any():
        return SuitShape("z", round(1.0 - max(circles, sticks), 4), circles, sticks)
    return SuitShape(None, 0.0, circles, sticks)


__all__ = ["SuitShape", "read_shape"]
