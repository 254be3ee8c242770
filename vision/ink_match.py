"""Copies of one tile print alike (issue 35, "Your set, read right": a flag that holds on sets it
has never seen).

Every copy of a tile in one set is printed from one plate, in one ink. Two tiles of one photo that
the reader names alike but whose inks are of different colours cannot both be that tile: an
American set's red and green dragons are one drawing in two inks, and a set printed in an ink no
training set used (the `mono` and `swap` stand-ins, `datasets.stand_ins`) leaves the colour reader
and the grey reader both reading the red one as 發. Such copies are flagged (`uncertain`) — every
copy that is unlike more of the others than it is like, both where they split evenly (the photo
cannot say which is right).

The ink of a face (`ink_of`) is its mean colour in CIELAB's a*b* plane, measured against the
face's own paper (so a warm lamp or a shadow shifts both alike), with its spread. Two inks differ
(`unlike`) only where all three hold:

- both are coloured (chroma >= `INK_CHROMA`): black ink has no hue to compare;
- their hues lie `INK_HUE_DEG` apart or more: another ink, not the same one lit otherwise;
- their means lie `INK_Z` times the faces' own colour spread apart or more: a face printed in
  several inks (八筒's red, green and blue) has a mean that wanders with the view.

Never compared: flowers and seasons (each its own design), 白 (little or no ink: its colour is the
photo's) and the fives (a riichi set's red five 赤五 is the same tile in another ink).

Bars (`datasets/reports/model-history.md`, "Copies print alike"): over every pair of right tiles
read alike on real_sets_dev, real_rows_public, the validation split and the four stand-ins, none
passes all three; each alone is passed by some (a lamp-lit black 北 pair, z 3.3; a 六筒 pair of
red and black dots, 87°).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.boxes import box_pixels
from vision.detection import FLOWER, Detection

INK_CHROMA = 8.0
"""CIELAB chroma (a*b* distance from the paper's colour) from which an ink counts as coloured."""
INK_HUE_DEG = 45.0
"""Degrees of hue from which two coloured inks are other inks."""
INK_Z = 2.5
"""How far apart two inks' means must lie, in the faces' own colour spread (root mean square)."""
NOT_COMPARED = frozenset({FLOWER, "P", "5m", "5p", "5s"})
"""Tiles printed differently by design within one set (module docstring)."""
MIN_INK_SHARE = 0.02
"""A face with less ink than this share of its pixels (a blank, a face too small) is not compared."""
MIN_FACE_PX = 8
"""A face less than this many pixels a side is not compared."""
GRID = (24, 18)
"""`(rows, columns)` every face is sampled at (`inks_of`: bilinear; an area mean cost 7× as much)."""


@dataclass(frozen=True)
class Ink:
    """A face's ink: its mean `a`, `b` (CIELAB, 8-bit scale, against the face's paper) and the
    spread of its pixels about that mean (root of the summed variances)."""

    a: float
    b: float
    spread: float

    @property
    def chroma(self) -> float:
        return float(np.hypot(self.a, self.b))

    @property
    def hue(self) -> float:
        """Degrees, -180..180."""
        return float(np.degrees(np.arctan2(self.b, self.a)))


def ink_of(face: np.ndarray) -> Ink | None:
    """The ink of a face (`(h, w, 3)` uint8 RGB, the tile's box), or None: too small, or less ink
    than `MIN_INK_SHARE` (`inks_of` of one face).

    >>> face = np.full((40, 30, 3), 235, np.uint8); face[10:30, 10:20] = (200, 30, 30)
    >>> ink = ink_of(face); round(ink.hue), ink.chroma > 40
    (34, True)
    >>> ink_of(np.full((40, 30, 3), 235, np.uint8)) is None
    True
    """
    return inks_of([face])[0]


def inks_of(faces: Sequence[np.ndarray]) -> list[Ink | None]:
    """The ink of each face (`ink_of`), measured together: each face less its outer 8 % (10 %
    across: the tile's body) sampled at `GRID` (colour means need no detail), all in one
    array — a few numpy calls for a photo, not a few per face."""
    out: list[Ink | None] = [None] * len(faces)
    keep = [k for k, f in enumerate(faces) if min(f.shape[:2]) >= MIN_FACE_PX]
    if not keep:
        return out
    cores = []
    for k in keep:
        h, w = faces[k].shape[:2]
        core = faces[k][int(0.08 * h) : int(np.ceil(0.92 * h)), int(0.1 * w) : int(np.ceil(0.9 * w))]
        cores.append(cv2.resize(np.ascontiguousarray(core), GRID[::-1], interpolation=cv2.INTER_LINEAR))
    lab = cv2.cvtColor(np.concatenate(cores), cv2.COLOR_RGB2LAB).reshape(len(keep), -1, 3).astype(np.float32)
    light, ab = lab[..., 0], np.ascontiguousarray(lab[..., 1:]) - 128.0
    hi = np.quantile(light, 0.85, axis=1)[:, None]
    top = GRID[0] * GRID[1] * 2 // 5  # the paper: the face's brightest 40 %
    paper = np.argpartition(light, -top, axis=1)[:, -top:]
    ab = ab - np.median(np.take_along_axis(ab, paper[..., None], axis=1), axis=1, keepdims=True)
    ink = (light < hi - 25.0) | ((ab * ab).sum(axis=2) > 18.0**2)
    n = np.maximum(ink.sum(axis=1, keepdims=True), 1)
    mean = (ab * ink[..., None]).sum(axis=1) / n
    var = (((ab - mean[:, None, :]) ** 2).sum(axis=2) * ink).sum(axis=1) / n[:, 0]
    for i, k in enumerate(keep):
        if ink[i].mean() >= MIN_INK_SHARE:
            out[k] = Ink(float(mean[i, 0]), float(mean[i, 1]), float(np.sqrt(var[i])))
    return out


def unlike(x: Ink, y: Ink, z: float = INK_Z) -> bool:
    """Whether two inks are other inks (module docstring: coloured, `INK_HUE_DEG` apart, `z`
    spreads apart).

    >>> red, green = Ink(40.0, 20.0, 5.0), Ink(-30.0, 15.0, 5.0)
    >>> unlike(red, green), unlike(red, Ink(38.0, 24.0, 5.0)), unlike(red, Ink(2.0, 1.0, 3.0))
    (True, False, False)
    """
    if min(x.chroma, y.chroma) < INK_CHROMA:
        return False
    if abs((x.hue - y.hue + 180.0) % 360.0 - 180.0) < INK_HUE_DEG:
        return False
    apart = float(np.hypot(x.a - y.a, x.b - y.b))
    return apart >= z * float(np.sqrt((x.spread**2 + y.spread**2) / 2.0 + 1.0))


def flag_unlike_inks(
    dets: Sequence[Detection], pixels: np.ndarray, scale: float, z: float | None = INK_Z
) -> list[Detection]:
    """`dets` with every face-up copy flagged that is unlike (`unlike`) more copies of its
    reading in the photo than it is like (module docstring); `z` None: unchanged.

    Args:
        pixels: `(h, w, 3)` uint8 RGB, the photo at `scale` of the full photo (`xyxy`'s pixels).
    """
    out = list(dets)
    if z is None:
        return out
    alike: dict[str, list[int]] = defaultdict(list)
    for k, d in enumerate(dets):
        if not d.face_down and d.tile not in NOT_COMPARED:
            alike[d.tile].append(k)
    todo = [k for ks in alike.values() if len(ks) > 1 for k in ks]
    measured = inks_of([box_pixels(pixels, scale, dets[k].xyxy) for k in todo])
    inks = {k: ink for k, ink in zip(todo, measured, strict=True) if ink is not None}
    for ks in alike.values():
        seen = [k for k in ks if k in inks]
        for k in seen:
            other = sum(unlike(inks[k], inks[j], z) for j in seen if j != k)
            if other and other >= len(seen) - 1 - other:
                out[k] = replace(out[k], uncertain=True)
    return out


__all__ = [
    "INK_CHROMA",
    "INK_HUE_DEG",
    "INK_Z",
    "NOT_COMPARED",
    "Ink",
    "flag_unlike_inks",
    "ink_of",
    "inks_of",
    "unlike",
]
