"""Annotation: boxes and Chinese tile names drawn on the photo."""

from __future__ import annotations

import numpy as np
import pytest

from vision.annotate import FONT_CANDIDATES, _font, annotate, tile_name_zh


@pytest.mark.parametrize(
    "code,name",
    [("5m", "五萬"), ("1p", "一筒"), ("9s", "九條"), ("C", "中"), ("F", "發"), ("P", "白"), ("back", "背")],
)
def test_tile_names(code, name):
    assert tile_name_zh(code) == name


def test_shipped_font_draws_cjk():
    assert FONT_CANDIDATES[0].is_file()
    font, cjk = _font(20)
    assert cjk
    assert font.getbbox("發")[2] > font.getbbox(" ")[2]


def test_annotate_draws_on_a_copy(reader, scene_pixels):
    result = reader.detect(scene_pixels)
    im = annotate(scene_pixels, result.detections, result.groups)
    out = np.asarray(im)
    assert out.shape == scene_pixels.shape
    assert not np.array_equal(out, scene_pixels)
    assert (scene_pixels == _background()).any()  # input untouched


def _background():
    from vision.testing import BACKGROUND

    return np.array(BACKGROUND, np.uint8)


def test_annotate_at_reduced_scale(reader, scene_pixels):
    result = reader.detect(scene_pixels)
    small = scene_pixels[::2, ::2].copy()
    im = annotate(small, result.detections, result.groups, scale=0.5)
    assert im.size == (small.shape[1], small.shape[0])
