"""Dark faces (issue 35): a set whose faces are darker than their ink (black novelty sets, white or
gold print on black) is read through its inverted photo, so that the localiser, the classifier,
the text reader and the pip counter all see dark ink on a light face, as they were made for.

The polarity of one face (`polarity`) follows from its grey levels alone:

- its **body** is the median grey of the band next to its rim (the box between `RIM` and `MARGIN`
  of each side), where no set prints (an 8筒's dots or a black 8條's sticks can cover half the
  centre, never that band);
- its **ink** is what in its centre (the box less `MARGIN` on each side) differs from the body by
  more than `INK_STEP` grey levels: lighter ink or darker ink, as shares of the centre.

A face is dark (1) when its body is darker than `DARK_BODY` and its light ink covers `MIN_INK` to
`MAX_INK` of the centre and at least `INK_RATIO` times its dark ink; light (-1) when the same holds
of its dark ink; else neither (0: a back or a blank has no ink; a light face in a loose box on a
dark table is all "ink"). A white face in shadow, or with dark-green dots, has its ink darker than
its body: light. A photo is read inverted (`dark_photo`) when its dark faces are at least
`MIN_FACES` and at least `PHOTO_SHARE` of the faces that are dark or light: the boxes on the
table, the scenery and the backs abstain, and a few stray boxes never turn a photo.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.image import LoadedImage
from vision.scale import current_reduction

MARGIN = 0.15
"""Share of the box cut away on each side before the face is measured."""
RIM = 0.05
"""Share of the box, on each side, that is the tile's rim (and the table beyond a loose box)."""
DARK_BODY = 100.0
"""The body's grey (0..255) below which a face may be dark."""
INK_STEP = 40.0
"""Grey levels from the body from which a pixel is ink."""
MIN_INK = 0.04
"""The least share of the centre in ink (light ink for a dark face, dark for a light one)."""
MAX_INK = 0.6
"""The most: beyond it the "ink" is a face (a light face in a box loose on a dark table)."""
INK_RATIO = 3.0
"""How many times its dark ink a dark face's light ink covers at least."""
PHOTO_SHARE = 0.5
MIN_FACES = 2
SIZE = (64, 48)
"""`(h, w)`: each box is measured resized to this (polarity needs no finer detail)."""


def _masks(h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """Bool `(h, w)`: the centre (the box less `MARGIN` a side) and the band between `RIM` and
    `MARGIN` (the face's body next to its rim)."""
    ry, rx, my, mx = round(h * RIM), round(w * RIM), round(h * MARGIN), round(w * MARGIN)
    centre = np.zeros((h, w), bool)
    centre[my : h - my, mx : w - mx] = True
    band = np.zeros((h, w), bool)
    band[ry : h - ry, rx : w - rx] = True
    return centre, band & ~centre


_CENTRE, _BAND = _masks(*SIZE)


def polarity(face_rgb: np.ndarray) -> int:
    """A face's polarity from its grey levels (module docstring): 1 dark (its ink lighter than its
    body), -1 light (its ink darker), 0 neither (no ink found: a back, a blank, the table).

    Args:
        face_rgb: `(h, w, 3)` uint8, the tile's box (RGB or BGR: only grey levels count).
    """
    grey = _grey(face_rgb)
    return 0 if grey is None else int(_polarities(grey[None])[0])


def _grey(face_rgb: np.ndarray) -> np.ndarray | None:
    """The face's grey levels at `SIZE`, float32; None for a face too small to measure."""
    if face_rgb.ndim != 3 or min(face_rgb.shape[:2]) < 8:
        return None
    small = cv2.resize(np.ascontiguousarray(face_rgb), SIZE[::-1], interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(small, cv2.COLOR_RGB2GRAY).astype(np.float32)


def _polarities(greys: np.ndarray) -> np.ndarray:
    """Int8 `(K,)`: `polarity` of each face of `greys` (`(K, *SIZE)` float32 grey levels), all at
    once (the same numbers as one face at a time: each body the median of its own band)."""
    body = np.median(greys[:, _BAND], axis=1).astype(np.float64)[:, None]
    centre = greys[:, _CENTRE]
    light = (centre > body + INK_STEP).mean(axis=1)
    dark = (centre < body - INK_STEP).mean(axis=1)
    is_dark = (body[:, 0] < DARK_BODY) & (light >= MIN_INK) & (light <= MAX_INK) & (light >= INK_RATIO * dark)
    is_light = (dark >= MIN_INK) & (dark <= MAX_INK) & (dark >= INK_RATIO * light)
    return np.where(is_dark, 1, np.where(is_light, -1, 0)).astype(np.int8)


def dark_face(face_rgb: np.ndarray) -> bool:
    """Whether a face's body is darker than its ink (`polarity` 1)."""
    return polarity(face_rgb) == 1


def box_polarity(pixels: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
    """Int `(K,)`: `polarity` of each box `xyxy` (pixels of `pixels`), measured together."""
    h, w = pixels.shape[:2]
    out = np.zeros(len(xyxy), np.int8)
    greys, measured = [], []
    for k, (x0, y0, x1, y1) in enumerate(np.asarray(xyxy, np.float64).reshape(-1, 4)):
        a, b = max(int(x0), 0), max(int(y0), 0)
        c, d = min(int(np.ceil(x1)), w), min(int(np.ceil(y1)), h)
        grey = _grey(pixels[b:d, a:c]) if c > a and d > b else None
        if grey is not None:
            greys.append(grey)
            measured.append(k)
    if greys:
        out[measured] = _polarities(np.stack(greys))
    return out


def dark_photo(pixels: np.ndarray, xyxy: np.ndarray, face_up: Sequence[bool] | np.ndarray) -> bool:
    """Whether the photo's faces are dark: `PHOTO_SHARE` of its face-up boxes, `MIN_FACES` at least."""
    up = np.asarray(face_up, bool)
    boxes = np.asarray(xyxy).reshape(-1, 4)[up]
    if len(boxes) < MIN_FACES:
        return False
    votes = box_polarity(pixels, boxes)
    dark, voting = int((votes == 1).sum()), int((votes != 0).sum())
    return dark >= MIN_FACES and dark >= PHOTO_SHARE * voting


def light_face(pixels: np.ndarray) -> np.ndarray:
    """`pixels` inverted: a dark face with light ink becomes a light face with dark ink (its hues
    turned to their opposites: gold print reads as blue ink, which every set prints)."""
    return np.ascontiguousarray(255 - np.asarray(pixels, np.uint8))


def light_photo(classifier, loaded: LoadedImage, xyxy: np.ndarray, timing: dict[str, float]) -> LoadedImage:
    """`loaded` inverted (`light_face`), as the reader reads a photo of dark faces: decoded again
    first where its boxes `xyxy` (pixels of `loaded.pixels`) want finer crops
    (`classifier.crop_source`: the inverted pixels have no source to decode again from); the
    milliseconds are added to `timing["decode"]`.

    Args:
        classifier: the reader's `vision.views.Classifier`.
    """
    reduction = classifier.crop_reduction(loaded, xyxy)
    if reduction < current_reduction(loaded.scale):
        loaded = classifier.decode_at(loaded, reduction, timing)
    return LoadedImage(
        pixels=light_face(loaded.pixels),
        width=loaded.width,
        height=loaded.height,
        scale=loaded.scale,
        decode_ms=timing["decode"],
    )


__all__ = ["box_polarity", "dark_face", "dark_photo", "light_face", "light_photo", "polarity"]
