"""The views of a face the text reader reads (`vision.text_reader`): the whole face, and the
numeral and 萬 side by side; a face printed light on dark is read inverted.

Ink is what is darker than the face (red, blue, green and black inks all count: `_ink_rows`), so a
face printed light on dark (black faces with white or gold characters) is turned into dark on
light first (`light_on_dark`): the recogniser, trained on dark text on light paper, and the ink
gap between the numeral and 萬 both want it that way.
"""

from __future__ import annotations

import numpy as np

RATIO = 3.0
"""How much farther the light tail of a face's greys must lie from its median than the dark tail
for the face to be printed light on dark (`light_on_dark`)."""


def split_row(face: np.ndarray, lo: float = 0.3, hi: float = 0.62) -> int:
    """The row between the numeral and 萬 on a face `(h, w, 3)`: of the rows between `lo` and `hi`
    of its height that hold (almost) no ink (`_ink_rows` <= 10 % of the fullest row's), the one
    nearest the middle (a gap inside the numeral, as in 二 or 六, lies farther up); none: the
    row with the least ink."""
    h = face.shape[0]
    ink = _ink_rows(face)
    a, b = int(h * lo), max(int(h * hi), int(h * lo) + 1)
    empty = np.flatnonzero(ink[a:b] <= 0.1 * ink.max()) if ink.max() > 0 else np.arange(b - a)
    if len(empty) == 0:
        return a + int(np.argmin(ink[a:b]))
    return a + int(empty[np.argmin(np.abs(a + empty - h / 2))])


def _ink_rows(part: np.ndarray) -> np.ndarray:
    """Per row of `part` `(h, w, 3)`, how much ink it holds: how much darker than the face's
    median its darkest channel is (red, blue, green and black inks all count)."""
    dark = part.min(axis=2).astype(np.float32)
    return np.clip(np.median(dark) - dark, 0, None).sum(axis=1)


def centre_ink(part: np.ndarray, height: int) -> np.ndarray:
    """`part` `(h, w, 3)` cut to the rows holding its ink and centred in `height` rows filled with
    its median colour: a recogniser reads a line of text in the middle (a lone 一 at the top of
    its view reads as 二)."""
    ink = _ink_rows(part)
    rows = np.flatnonzero(ink > 0.08 * ink.max()) if ink.max() > 0 else np.arange(len(part))
    y0, y1 = int(rows[0]), int(rows[-1]) + 1
    height = max(height, y1 - y0)
    fill = np.median(part.reshape(-1, 3), axis=0).astype(np.uint8)
    out = np.empty((height, part.shape[1], 3), np.uint8)
    out[:] = fill
    at = (height - (y1 - y0)) // 2
    out[at : at + y1 - y0] = part[y0:y1]
    return out


def light_on_dark(face: np.ndarray) -> bool:
    """Whether `face` `(h, w, 3)` uint8 is printed light on dark: its typical (median) grey is
    dark (< 128) and its ink lies above it, not below: the 95th percentile more than `RATIO`
    times farther above the median than the 5th below (a black face: 39 and 153 over 27; a
    cream face in a dim photo, 100 over 12 and under 199, is dark ink on a face in shadow)."""
    grey = face.mean(axis=2) if face.size else np.zeros((1, 1))
    p5, p50, p95 = np.percentile(grey, (5, 50, 95))
    return bool(p50 < 128 and p95 - p50 > RATIO * (p50 - p5))


def inset_face(face: np.ndarray, inset: float = 0.06) -> np.ndarray:
    """`face` `(h, w, 3)` less `inset` of its height and width on each side (the tile's edge)."""
    h, w = face.shape[:2]
    dy, dx = round(h * inset), round(w * inset)
    return face[dy : h - dy or h, dx : w - dx or w]


def polarities(face: np.ndarray) -> tuple[bool, ...]:
    """The inversions `face_views` should read `face` with: a face printed light on dark both
    inverted and as printed (`light_on_dark` judges from the greys alone), any other as printed."""
    return (True, False) if light_on_dark(inset_face(face)) else (False,)


def face_views(face: np.ndarray, inset: float = 0.06, invert: bool | None = None) -> dict[str, np.ndarray]:
    """The two views of an upright face crop `(h, w, 3)` uint8 (inset by `inset` of its sides,
    inverted with `invert`; None: when printed light on dark, `light_on_dark`):
    `whole`, and `side`: the part above `split_row` (the numeral, without the top of 萬, which
    makes 一 a 二) and the part below, each centred (`centre_ink`), side by side."""
    f = inset_face(face, inset)
    f = 255 - f if (light_on_dark(f) if invert is None else invert) else f
    cut = split_row(f)
    height = max(cut, len(f) - cut)
    top, bottom = centre_ink(f[:cut], height), centre_ink(f[cut:], height)
    hh = max(len(top), len(bottom))
    top, bottom = centre_ink(top, hh), centre_ink(bottom, hh)
    return {"whole": f, "side": np.concatenate([top, bottom], axis=1)}


__all__ = ["centre_ink", "face_views", "inset_face", "light_on_dark", "polarities", "split_row"]
