"""The coarse-to-fine second localizer pass: which region is read again, and how the two passes'
boxes are merged."""

from __future__ import annotations

import numpy as np
import pytest

from vision import ReaderConfig
from vision.arrange import refine_region
from vision.boxes import nms


def test_refine_region_only_for_small_clusters_in_large_images():
    cfg = ReaderConfig()
    small = np.array(
        [[1000, 1000, 1040, 1060], [1045, 1000, 1085, 1060], [1090, 1000, 1130, 1060]], np.float32
    )
    region = refine_region(small, (3000, 4000), (384, 384), cfg)
    assert region is not None
    x0, y0, x1, y1 = region
    assert x0 <= 1000 and x1 >= 1130 and y0 <= 1000 and y1 >= 1060
    wide = small * np.array([3, 1, 3, 1], np.float32) - np.array([2900, 0, 0, 0], np.float32)
    wide[:, 0] = np.clip(wide[:, 0], 0, None)
    assert refine_region(wide, (3000, 4000), (384, 384), cfg) is None  # already fills the width
    assert refine_region(small / 8, (375, 500), (384, 384), cfg) is None  # no pixels to gain
    assert refine_region(small, (3000, 4000), (384, 384), ReaderConfig(refine_min_gain=0)) is None


def test_nms_merges_two_passes():
    a = np.array([[0, 0, 10, 10], [20, 0, 30, 10]], np.float32)
    b = np.array([[0.5, 0, 10.5, 10], [40, 0, 50, 10]], np.float32)
    xyxy, scores, _cls = nms(
        np.concatenate([a, b]), np.array([0.9, 0.8, 0.95, 0.7], np.float32), np.zeros(4, np.int64), 0.45, 10
    )
    assert len(xyxy) == 3 and scores.tolist() == pytest.approx([0.95, 0.8, 0.7])
