"""`vision.gaps.rim_steps` (issue 37): a box's rim steps are the medians of the rows in its
`RIM_BAND` at the top and the bottom only, the rows between never taken, and the same values as
every row's medians gave (the reader's results unchanged, its CPU a photo smaller)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import gaps
from vision.gaps import RIM_BAND, rim_steps


def every_row(pixels: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """The steps as `rimless` took them before: every row's median, then the band's largest."""
    h, w = pixels.shape[:2]
    out = np.zeros((len(boxes), 2), np.float32)
    for k, (x0, y0, x1, y1) in enumerate(np.asarray(boxes, np.float64)):
        xa, xb = min(max(int(x0), 0), w - 1), max(min(int(np.ceil(x1)), w), int(x0) + 1)
        ya, yb = min(max(int(y0), 0), h - 1), max(min(int(np.ceil(y1)), h), int(y0) + 1)
        part = pixels[ya:yb, xa:xb].astype(np.float32)
        rows = np.abs(np.median(part, axis=1) - np.median(part.reshape(-1, 3), axis=0)).max(axis=1)
        n = max(1, round(RIM_BAND * len(rows)))
        out[k] = rows[:n].max(), rows[-n:].max()
    return out


BOXES = np.array(
    [
        [10.4, 20.7, 82.2, 116.9],  # a tile: 96 rows, bands of 12
        [0, 0, 5, 3],  # 3 rows: the bands overlap
        [150, 290, 190, 300],  # cut by the photo's bottom edge
        [-4, -4, 30, 9.5],  # outside at the top-left
        [60, 60, 60.2, 61],  # less than a pixel
    ],
    np.float32,
)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rim_steps_are_the_steps_every_rows_medians_gave(seed):
    rng = np.random.default_rng(seed)
    pixels = rng.integers(0, 256, (300, 200, 3), dtype=np.uint8)
    pixels[20:30] //= 3  # a dark band: a rim at the first box's top
    got = rim_steps(pixels, BOXES)
    assert got.shape == (5, 2)
    np.testing.assert_array_equal(got, every_row(pixels, BOXES))
    assert got[0, 0] > got[0, 1]  # the dark rows lie in the top band


def test_only_the_bands_rows_have_their_medians_taken(monkeypatch):
    """A 96-row tile: 12 rows at the top and 12 at the bottom, not all 96 (nor 4 x 96 with the box's)."""
    rows_taken = []
    median = np.median

    def counting(a, axis=None, **kw):
        if axis == 1:
            rows_taken.append(np.shape(a)[0])
        return median(a, axis=axis, **kw)

    monkeypatch.setattr(gaps.np, "median", counting)
    pixels = np.full((200, 200, 3), 200, np.uint8)
    pixels[100:110] = 40
    got = rim_steps(pixels, np.array([[10, 100, 82, 196]], np.float32))
    assert rows_taken == [24]
    assert got.tolist() == [[160.0, 0.0]]


@pytest.mark.parametrize("shape", [(96, 72, 3), (7, 5, 3), (1, 1, 3), (2, 1, 3)])
def test_colour_median_is_numpys_median_of_the_pixels(shape):
    rng = np.random.default_rng(len(shape) + shape[0])
    part = rng.integers(0, 256, shape, dtype=np.uint8)
    part[: shape[0] // 2] = 17  # many equal values: the middle two may be one
    want = np.median(part.reshape(-1, 3).astype(np.float32), axis=0)
    got = gaps.colour_median(part)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, want)
    box = np.array([[0, 0, shape[1], shape[0]]], np.float32)
    every_other = np.median(part[::2, ::2].reshape(-1, 3), axis=0)
    np.testing.assert_array_equal(gaps.median_colours(part, box), [every_other])
