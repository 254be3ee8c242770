"""Pixels of a decoded picture: any Pillow mode to 8-bit RGB in strips, and EXIF orientation.

Used by `vision.image.open_image` (the policy lives there). Converting chunk by chunk (a band
of rows, cut into pieces across a very wide picture) keeps the memory of a conversion to the
result plus one chunk of at most `vision.cost.CHUNK_PIXELS` pixels, whatever the mode and the
shape: no second full-size copy of the picture is made.
"""

from __future__ import annotations

from typing import cast

import numpy as np
from PIL import Image

from vision.cost import CHUNK_PIXELS


def strip_to_rgb(im: Image.Image) -> np.ndarray:
    """One strip in any PIL mode -> `(h, w, 3)` uint8 RGB (alpha composited on white)."""
    mode = im.mode
    if mode == "RGB":
        return np.asarray(im)
    if mode.startswith("I;16") or mode in ("I", "F"):
        a = np.asarray(im)
        if mode.startswith("I;16"):
            a8 = (a.astype(np.uint16) >> 8).astype(np.uint8)
        else:
            a = a.astype(np.float64)
            hi = 65535.0 if a.max(initial=0) > 255 else 255.0
            a8 = np.clip(a * (255.0 / hi), 0, 255).astype(np.uint8)
        return np.repeat(a8[:, :, None], 3, axis=2)
    if mode == "RGBA" and _alpha_extrema(im) == (255, 255):  # opaque: nothing to composite
        return np.asarray(im.convert("RGB"))
    if mode in ("RGBA", "LA", "PA", "La", "RGBa") or (mode == "P" and "transparency" in im.info):
        im = im.convert("RGBA")
        background = Image.new("RGBA", im.size, (255, 255, 255, 255))
        return np.asarray(Image.alpha_composite(background, im).convert("RGB"))
    return np.asarray(im.convert("RGB"))


def to_rgb(im: Image.Image, factor: int = 1) -> np.ndarray:
    """The loaded picture as `(h // factor, w // factor, 3)` uint8 RGB, converted in chunks.

    `factor` > 1 box-averages `factor` x `factor` blocks (the last `w % factor` columns and
    `h % factor` rows are dropped, so the scale is exactly `1 / factor`). Each chunk is a
    whole number of blocks and at most `CHUNK_PIXELS` pixels (or one block row of `factor`
    rows by `factor` columns, when a block is larger).
    """
    w, h = im.size
    out = np.empty((h // factor, w // factor, 3), np.uint8)
    width, height = out.shape[1] * factor, out.shape[0] * factor
    cols = min(width, max(factor, CHUNK_PIXELS // factor // factor * factor))
    rows = max(factor, CHUNK_PIXELS // max(cols, 1) // factor * factor)
    for y0 in range(0, height, rows):
        y1 = min(y0 + rows, height)
        for x0 in range(0, width, cols):
            x1 = min(x0 + cols, width)
            whole = (x0, y0, x1, y1) == (0, 0, w, h)  # one chunk (a photo decoded reduced): not copied first
            out[y0 // factor : y1 // factor, x0 // factor : x1 // factor] = _convert(
                im if whole else im.crop((x0, y0, x1, y1)), factor
            )
    return out


def _convert(chunk: Image.Image, factor: int) -> np.ndarray:
    if factor == 1:
        return strip_to_rgb(chunk)
    if _reduce_first(chunk):  # Pillow's box reduce (C), the mean of each block, rounded ...
        return strip_to_rgb(chunk.reduce(factor))
    return np.asarray(Image.fromarray(strip_to_rgb(chunk)).reduce(factor))  # ... after converting


def _reduce_first(strip: Image.Image) -> bool:
    """Whether averaging before the RGB conversion gives the same pixels as after it (and is
    cheaper): RGB, grey, and RGBA without transparency (no compositing to do)."""
    return strip.mode in ("RGB", "L") or (strip.mode == "RGBA" and _alpha_extrema(strip) == (255, 255))


def orient(a: np.ndarray, orientation: int) -> np.ndarray:
    """Apply EXIF orientation 1..8 to `(h, w, 3)` pixels (numpy views, one copy at most)."""
    if orientation not in range(2, 9):
        return a
    ops = {
        2: lambda x: x[:, ::-1],
        3: lambda x: x[::-1, ::-1],
        4: lambda x: x[::-1],
        5: lambda x: np.swapaxes(x, 0, 1),
        6: lambda x: np.rot90(x, -1),
        7: lambda x: np.swapaxes(x, 0, 1)[::-1, ::-1],
        8: lambda x: np.rot90(x, 1),
    }
    return np.ascontiguousarray(ops[orientation](a))


def _alpha_extrema(im: Image.Image) -> tuple[int, int]:
    """The (min, max) of an RGBA image's alpha band (``getextrema`` gives one pair per band)."""
    bands = cast(tuple[tuple[int, int], ...], im.getextrema())
    return bands[3]
