"""Pixels of a decoded picture: any Pillow mode to 8-bit RGB in strips, and EXIF orientation.

Used by `vision.image.open_image` (the policy lives there). Converting strip by strip keeps the
memory of a conversion to the result plus one strip, whatever the mode: no second full-size
copy of the picture is made.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

STRIP_PIXELS = 2_000_000
"""Pixels converted to RGB per strip."""


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
    if mode == "RGBA" and im.getextrema()[3] == (255, 255):  # opaque: nothing to composite
        return np.asarray(im.convert("RGB"))
    if mode in ("RGBA", "LA", "PA", "La", "RGBa") or (mode == "P" and "transparency" in im.info):
        im = im.convert("RGBA")
        background = Image.new("RGBA", im.size, (255, 255, 255, 255))
        return np.asarray(Image.alpha_composite(background, im).convert("RGB"))
    return np.asarray(im.convert("RGB"))


def to_rgb(im: Image.Image, factor: int = 1) -> np.ndarray:
    """The loaded picture as `(h // factor, w // factor, 3)` uint8 RGB, converted in strips.

    `factor` > 1 box-averages `factor` x `factor` blocks (the last `w % factor` columns and
    `h % factor` rows are dropped, so the scale is exactly `1 / factor`).
    """
    if factor == 1 and im.mode == "RGB":
        return np.asarray(im)  # one copy, the result itself (a decoded JPEG, most often)
    w, h = im.size
    out = np.empty((h // factor, w // factor, 3), np.uint8)
    rows = max(factor, STRIP_PIXELS // max(w, 1) // factor * factor)
    for y0 in range(0, out.shape[0] * factor, rows):
        y1 = min(y0 + rows, out.shape[0] * factor)
        strip = im.crop((0, y0, out.shape[1] * factor, y1))
        if factor == 1:
            part = strip_to_rgb(strip)
        elif _reduce_first(strip):  # Pillow's box reduce (C), the mean of each block, rounded ...
            part = strip_to_rgb(strip.reduce(factor))
        else:  # ... after the conversion where converting does not commute with averaging
            part = np.asarray(Image.fromarray(strip_to_rgb(strip)).reduce(factor))
        out[y0 // factor : y1 // factor] = part
    return out


def _reduce_first(strip: Image.Image) -> bool:
    """Whether averaging before the RGB conversion gives the same pixels as after it (and is
    cheaper): RGB, grey, and RGBA without transparency (no compositing to do)."""
    return strip.mode in ("RGB", "L") or (strip.mode == "RGBA" and strip.getextrema()[3] == (255, 255))


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
