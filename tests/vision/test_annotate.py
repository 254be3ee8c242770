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


def test_off_row_and_rejected_boxes_are_grey_and_rejected_is_dashed():
    from vision.annotate import GREY
    from vision.detection import Detection, Rejected

    canvas = np.zeros((200, 300, 3), np.uint8)
    off = Detection((20, 60, 60, 120), "W", 0.9, role="discard")
    kept = Detection((100, 60, 140, 120), "1m", 0.9)
    rej = Rejected((180, 60, 280, 180), 0.8)
    out = np.asarray(annotate(canvas, [off, kept], (), rejected=[rej]))
    grey = np.all(out == GREY, axis=2)
    assert grey[90, 20]  # the off-row tile's left edge
    assert not grey[90, 100] and out[90, 100].any()  # the tile in no group: its own colour
    bottom = grey[180, 180:281]  # the rejected box's bottom edge: dashes and gaps
    assert 0.3 < bottom.mean() < 0.7
    assert not out[120, 230].any()  # no label inside a rejected box
    without = np.asarray(annotate(canvas, [off, kept], ()))
    assert not np.all(without[180, 180:281] == GREY, axis=1).any()
