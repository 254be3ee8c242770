"""At which size the tile reader decodes a photo: the decision table, from sizes alone.

A JPEG is decoded by libjpeg at 1/1, 1/2, 1/4 or 1/8 of its size (`vision.image.open_image`,
`min_side`); any other format is decoded whole and box-averaged to that size (PNG, WebP, HEIC
and AVIF decoders in Pillow / pillow-heif have no reduced decode). The reader first decodes at
the reduction its header allows (`header_reduction`: the long side stays >= the reader's
`decode_min_side`); once the localizer has found the tiles, it knows how big they are and where
they lie, and decodes again at a finer scale only when they are too small for what comes next
(`reduction_for`): the second localizer pass needs its region to have at least the pixels of
its input, the classifier needs a crop's short side to have at least its input width.

Reductions are integers: 1 = full size, 2 = half, 4 = quarter, 8 = eighth.
"""

from __future__ import annotations

import math

from vision.cost import box_factor

REDUCTIONS = (1, 2, 4, 8)
"""The scales libjpeg decodes at (1/r of each side)."""


def header_reduction(width: int, height: int, min_side: int | None) -> int:
    """The reduction decided from the header: the largest in `REDUCTIONS` that keeps the long
    side >= `min_side` px (None or 0: 1). `vision.image.open_image` may reduce further to fit
    its memory budget.

    >>> [header_reduction(4032, 3024, m) for m in (1000, 2000, 500, 0)], header_reduction(1479, 1109, 1000)
    ([4, 2, 8, 1], 1)
    """
    return box_factor(width, height, min_side or None)


def reduction_for(full_px: float, need_px: float, current: int) -> int:
    """The largest reduction, no coarser than `current`, at which a length of `full_px` pixels
    of the full-size photo keeps >= `need_px` pixels (1 when even full size has fewer).

    >>> [reduction_for(px, 48, 4) for px in (400, 200, 150, 60, 30)], reduction_for(400, 48, 8)
    ([4, 4, 2, 1, 1], 8)
    """
    for r in sorted((r for r in REDUCTIONS if r <= current), reverse=True):
        if full_px / r >= need_px:
            return r
    return 1


def min_side_for(width: int, height: int, reduction: int) -> int:
    """The `min_side` for `vision.image.open_image` that decodes a `width` x `height` photo
    at exactly 1/`reduction` (memory budget permitting).

    >>> [header_reduction(4032, 3024, min_side_for(4032, 3024, r)) for r in REDUCTIONS]
    [1, 2, 4, 8]
    """
    return max(width, height) // reduction


def current_reduction(scale: float) -> int:
    """The reduction a `LoadedImage.scale` stands for (nearest of `REDUCTIONS`).

    >>> current_reduction(1.0), current_reduction(0.25), current_reduction(1008 / 4032)
    (1, 4, 4)
    """
    return min(REDUCTIONS, key=lambda r: abs(1.0 / r - scale))


STRIP_ASPECT = 2.0
"""A photo (or second-pass region) at least this many times longer than it is high (or high than
long) is a strip: a tight crop of one row of tiles. The localizer sees it through an input of its
own shape (`strip_input`), not letterboxed into a square where the row is a sliver."""

STRIP_MAX_ASPECT = 8.0
"""`strip_input` follows a strip's shape up to this aspect; a longer one is letterboxed into it."""

STRIDE = 32
"""The localizer's input sides are multiples of this (the YOLOv8 backbone's coarsest stride)."""


def strip_input(size: tuple[int, int], hw: tuple[int, int]) -> tuple[int, int]:
    """The localizer input `(H, W)` for an image of `hw = (h, w)` pixels: `size` itself, unless
    the image is a strip (`STRIP_ASPECT`); then as many pixels as `size` (sides multiples of
    `STRIDE`) in the image's own shape, capped at `STRIP_MAX_ASPECT`. Only for a localizer graph
    of free height and width (`refine_input_size` in its metadata).

    Issue 35: a tight photo of a riichi hand (2480 x 392) letterboxed into 384 x 384 found 1 of
    13 tiles at the reader's threshold; through 960 x 160 (the same pixels), all 13.

    >>> strip_input((384, 384), (392, 2480)), strip_input((384, 384), (3024, 4032))
    ((160, 960), (384, 384))
    >>> strip_input((384, 384), (2480, 392)), strip_input((512, 512), (100, 5000))
    ((960, 160), (192, 1440))
    """
    h, w = hw
    aspect = w / max(h, 1)
    if h <= 0 or w <= 0 or max(aspect, 1 / aspect) < STRIP_ASPECT:
        return size
    return _shaped(size[0] * size[1], aspect)


def _shaped(area: float, aspect: float) -> tuple[int, int]:
    """`(H, W)`, multiples of `STRIDE`, of about `area` pixels and `aspect` = W / H (capped)."""
    aspect = min(max(aspect, 1 / STRIP_MAX_ASPECT), STRIP_MAX_ASPECT)
    nw = max(STRIDE, round(math.sqrt(area * aspect) / STRIDE) * STRIDE)
    nh = max(STRIDE, round(math.sqrt(area / aspect) / STRIDE) * STRIDE)
    return nh, nw


FEW_TILES = 13
"""A first localizer pass that finds fewer boxes than a hand holds (13) runs again, finer."""

FINER_SIDE = 1024
"""The finer pass's input has about `FINER_SIDE`^2 pixels (never more than the image's)."""

FINER_MIN_GAIN = 2.0
"""The finer pass runs only where it gives the tiles at least this many times the pixels (a side)."""


def finer_input(hw: tuple[int, int], found: int, size: tuple[int, int]) -> tuple[int, int] | None:
    """The input `(H, W)` of a finer pass over the whole image `hw = (h, w)` after a first pass
    at `size` found `found` boxes, or None: when it found fewer than `FEW_TILES` (no hand, or a
    hand whose tiles are too small for `size`) and the image has the pixels for
    `FINER_MIN_GAIN` x the input's long side, again at `FINER_SIDE`^2 pixels in the image's own shape.

    Issue 35: a riichi table photo (1920 x 1440) whose 14-tile hand, 107 px a tile, the 384
    pass missed entirely (7 boxes, all in the middle of the table): at 1184 x 896, 13 of 14.

    >>> finer_input((1440, 1920), 7, (384, 384)), finer_input((1440, 1920), 13, (384, 384))
    ((896, 1184), None)
    >>> finer_input((756, 1008), 3, (384, 384)), finer_input((640, 640), 3, (384, 384))
    ((768, 1024), None)
    """
    h, w = hw
    if found >= FEW_TILES or h <= 0 or w <= 0:
        return None
    finer = _shaped(min(FINER_SIDE * FINER_SIDE, h * w), w / h)
    return finer if max(finer) >= FINER_MIN_GAIN * max(size) else None


__all__ = [
    "FEW_TILES",
    "REDUCTIONS",
    "STRIP_ASPECT",
    "current_reduction",
    "finer_input",
    "header_reduction",
    "min_side_for",
    "reduction_for",
    "strip_input",
]
