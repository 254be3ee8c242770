"""A photo turned 90° without EXIF: read again turned upright.

A phone held sideways writes the turn into the photo's EXIF orientation, which `vision.image`
applies; a photo that lost its tag on the way (a screenshot, a messenger's copy, an editor) shows
the hand running down the picture. The localiser and the classifier read upright tiles: on such
a photo they find the tiles but box them loosely, and every standing tile looks sideways (a
claimed one) to the layout, which then puts each in its own group. `vision.roles` tells the
hand runs down the photo (`roles_and_turn`) and most of its boxes lie wide (`WIDE_SHARE`); then
the pixels are turned upright, the side the hand lies nearer becoming the bottom (the hand nearer
the left edge: the photo was turned clockwise), read again, and the boxes turned back into the
photo's pixels. `rotated` stays that of the upright reading: a tile lies sideways in the hand's
frame, not the photo's.

Only a turned photo pays: it is read twice. Kept only where the upright reading finds its hand
upright (else the first reading stands).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from vision.detection import DetectResult
from vision.image import LoadedImage
from vision.roles import roles_and_turn

__all__ = ["WIDE_SHARE", "read_upright", "turn_back"]

WIDE_SHARE = 0.5
"""A hand that runs down the photo is read turned only where more than this share of its face-up
boxes are wider than tall (its standing tiles lie sideways in the photo); a grid of upright tiles,
whose columns are as long as its rows, is not."""


def turn_back(xyxy: tuple[float, ...], size: tuple[int, int], k: int) -> tuple[float, float, float, float]:
    """A box `(x0, y0, x1, y1)` of the photo turned upright by `np.rot90(pixels, k)` (`k` 1:
    anticlockwise, -1: clockwise), in pixels of the photo as it came (`size` `(width, height)`).

    >>> turn_back((10, 20, 30, 60), (200, 100), 1)  # the upright photo is 100 x 200
    (140, 10, 180, 30)
    >>> turn_back((10, 20, 30, 60), (200, 100), -1)
    (20, 70, 60, 90)
    """
    x0, y0, x1, y1 = xyxy
    w, h = size
    return (w - y1, x0, w - y0, x1) if k == 1 else (y0, h - x1, y1, h - x0)


def _turn(loaded: LoadedImage, k: int) -> LoadedImage:
    """`loaded` turned by `np.rot90(pixels, k)`; it cannot be decoded again (no `source`)."""
    pixels = np.ascontiguousarray(np.rot90(loaded.pixels, k))
    return LoadedImage(pixels, loaded.height, loaded.width, loaded.scale, loaded.decode_ms)


def read_upright(detect: Callable[[LoadedImage], DetectResult], loaded: LoadedImage) -> DetectResult:
    """`detect(loaded)`; where its hand runs down the photo, `detect` of the photo turned upright,
    its boxes turned back into `loaded`'s pixels (module docstring), `timing_ms` the two readings'
    sum. The same `DetectResult` shapes either way: `width`, `height` those of `loaded`."""
    first = detect(loaded)
    size = (loaded.width, loaded.height)  # the roles `arrange` gave: no geometry read again here
    hand = [d.xyxy for d in first.detections if d.role in ("hand", "meld") and not d.face_down]
    if not hand or np.mean([x1 - x0 > y1 - y0 for x0, y0, x1, y1 in hand]) <= WIDE_SHARE:
        return first  # upright tiles, in a row or a grid (its columns as long as its rows)
    if not roles_and_turn(first.detections, size)[1]:
        return first  # sideways tiles, but the hand runs across the photo (melds laid out)
    centre = np.mean([x0 + x1 for x0, _y0, x1, _y1 in hand]) / 2
    k = 1 if centre < loaded.width / 2 else -1  # the hand's side becomes the bottom
    again = detect(_turn(loaded, k))
    if roles_and_turn(again.detections, (loaded.height, loaded.width))[1]:
        return first  # upright, it still runs down the photo: not a turned hand
    timing = {key: first.timing_ms.get(key, 0.0) + ms for key, ms in again.timing_ms.items()}
    return DetectResult(
        width=loaded.width,
        height=loaded.height,
        detections=[replace(d, xyxy=turn_back(d.xyxy, size, k)) for d in again.detections],
        groups=again.groups,
        timing_ms=timing,
        rejected=[replace(r, xyxy=turn_back(r.xyxy, size, k)) for r in again.rejected],
    )
