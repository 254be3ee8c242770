"""Sticks that touch end to end, in columns (`vision.pip_columns`, issue 35): some sets draw 6條
and 9條 so, and the other stick counters find nothing there."""

from __future__ import annotations

import pytest

from tests.vision.pip_faces import TOUCHING, stick_face, touching_stick_face
from vision.pip_ink import ink_masks
from vision.pip_sticks import count_sticks


@pytest.mark.parametrize("ink", ["green", "black", "blue", "red"])
@pytest.mark.parametrize("shear", [-15.0, 0.0, 15.0])
@pytest.mark.parametrize("h", [40, 55, 70])
def test_touching_sticks_counted_in_any_ink_slant_and_size(ink, shear, h):
    got = {n: count_sticks(touching_stick_face(n, ink, h, shear)) for n in (6, 9)}
    assert {n: c.count if c else None for n, c in got.items()} == {6: 6, 9: 9}
    assert min(c.conf for c in got.values()) >= 0.1  # main: None for both


def test_eight_as_two_rows_of_four_touching():
    got = [
        count_sticks(touching_stick_face(8, ink, h, shear))
        for ink in ("green", "red")
        for h in (55, 70)
        for shear in (-15.0, 15.0)
    ]
    assert [c.count if c else None for c in got] == [8] * len(got)


def test_either_way_up():
    for n in TOUCHING:
        assert count_sticks(touching_stick_face(n, "blue", 60, 10.0, turn=True)).count == n


def test_sticks_apart_are_not_read_as_touching():
    """Two rows of sticks apart with a joint line at each node (the older sets): the columns read
    them as two sticks each, never three (6 → 9 was the danger)."""
    from vision.pip_columns import sticks_in_columns

    for ink in ("green", "black", "red"):
        for turn in (False, True):
            got = [sticks_in_columns(m) for m in ink_masks(stick_face(6, ink, turn=turn))]
            assert all(c.count == 6 for c in got if c is not None and c.conf >= 0.3), (ink, turn, got)
            assert count_sticks(stick_face(6, ink, turn=turn)).count == 6
