"""The ink of a face the crop cuts loosely (`vision.pip_ink.face_masks`, issue 35): a strip of
table or a neighbour's edge inside the crop, pale side columns beside a dark middle one. The
plain masks lose these 9條 of touching sticks (main: None for most); the face region's do not."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.pip_faces import (
    beside_neighbour,
    on_table,
    pale_side_columns,
    touching_stick_face,
)
from vision.pip_ink import FACE_H, face_masks, face_region, ink_distance
from vision.pip_sticks import count_sticks


def _counts(faces):
    got = [count_sticks(f) for f in faces]
    return [c.count if c else None for c in got]


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("ink", ["green", "blue"])
def test_a_nine_with_a_strip_of_dark_table_in_the_crop(side, ink):
    faces = [on_table(touching_stick_face(9, ink, 60, shear), side) for shear in (-10.0, 0.0, 10.0)]
    assert _counts(faces) == [9, 9, 9]  # main: None at -10 and 10


@pytest.mark.parametrize("ink", ["green", "black"])
def test_a_nine_beside_a_neighbours_edge(ink):
    faces = [beside_neighbour(touching_stick_face(9, ink, 60, shear)) for shear in (-10.0, 0.0, 10.0)]
    assert _counts(faces) == [9, 9, 9]  # main: None for one or two of the three


@pytest.mark.parametrize("h", [50, 60])
def test_pale_side_columns_beside_a_dark_middle_one(h):
    faces = [pale_side_columns(9, h, shear) for shear in (-10.0, 0.0, 10.0)]
    assert _counts(faces) == [9, 9, 9]  # main: None for all


def test_the_face_region_leaves_the_table_out():
    face = on_table(touching_stick_face(9, "green", 60, 10.0), "left", 0.25)
    dist, th = ink_distance(face)
    region = face_region(dist, th)
    assert region.shape == (FACE_H, dist.shape[1])
    w = dist.shape[1]
    assert not region[:, : round(0.1 * w)].any()  # the table strip (less the rim cut away)
    assert region[FACE_H // 2, w // 2] and region[:, w // 2].mean() > 0.8


def test_face_masks_touch_no_edge():
    for m in face_masks(on_table(touching_stick_face(9, "blue", 60), "top", 0.15)):
        assert m.dtype == np.uint8 and set(np.unique(m)) <= {0, 255}
        assert not (m[:2].any() or m[-2:].any() or m[:, :2].any() or m[:, -2:].any())
        assert (m > 0).mean() > 0.1  # the sticks are there
