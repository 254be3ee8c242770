"""A heap of boxes is not the hand row (`vision.row_shapes.PILE`, issue 35): boxes only, no model.

On a real table photo (a set never trained on) the discards lay heaped in the middle and the
localiser put boxes over two or three of them at once: a run of large boxes each half over the
next outscored the hand row standing along the near edge, and 14 discards went into the hand.
"""

from __future__ import annotations

import pytest

from vision.arrange import arrange
from vision.detection import Detection
from vision.hand_rows import find_hand_rows
from vision.row_shapes import PILE, overlap

SIZE = (1440, 1080)


def row(codes: str, x: float, y: float, w: float, h: float, step: float, rise: float = 0) -> list[Detection]:
    """Tiles `codes` (one line, spaces between), boxes `w` x `h` from (`x`, `y`), each `step` px
    right of the last and `rise` px higher."""
    return [
        Detection((x + k * step, y - k * rise, x + k * step + w, y - k * rise + h), code, 0.5)
        for k, code in enumerate(codes.split())
    ]


# the hand along the near edge, five of its tiles found (face boxes 62 x 78, 2 px apart)
HAND = row("6p 6p 7s 7s 7p", 690, 780, 62, 78, 64)
# the heap in the middle: boxes over two or three discards each, every one 0.6 of a width over the next
HEAP = row("9s F 7p 6p 8s 3s", 560, 150, 150, 105, 87)


def test_a_heap_of_boxes_overlaps_more_than_a_row():
    assert overlap(HEAP, range(len(HEAP))) == pytest.approx(0.6, abs=0.01)
    assert PILE < 0.6
    assert overlap(HAND, range(len(HAND))) == 0.0


def test_the_hand_row_not_the_heap_above_it_is_the_hand():
    out, groups = arrange([*HAND, *HEAP], SIZE)
    grouped = sorted(out[i].tile for g in groups for i in g.tiles)
    assert grouped == sorted(d.tile for d in HAND)  # before: the heap's 6 tiles, the row's none
    assert {d.role for d in out if d.xyxy[1] < 400} <= {"discard", "other"}


def test_a_row_turned_20_degrees_is_no_heap():
    # boxes of a row turned 20 degrees overlap by the tile's height x tan 20: its slope explains it
    turned = row("1m 2m 3m 4m 5m 6m 7m 8m", 300, 700, 86, 96, 56, rise=20)
    assert overlap(turned, range(len(turned))) < PILE
    found = find_hand_rows([*turned, *HEAP], list(range(len(turned) + len(HEAP))), SIZE)
    assert found is not None and sorted(found.runs[found.anchor]) == list(range(len(turned)))


def test_a_hand_fanned_out_flat_stays_the_hand_beside_a_neat_row_of_discards():
    fanned = row("1m 1m 2m 3m 4m 5m 6m", 300, 760, 70, 50, 55)  # each 0.3 of a width over the next
    discards = row("E 9p 2s 8s", 500, 300, 46, 36, 48)
    assert overlap(fanned, range(len(fanned))) == pytest.approx(0.3)
    out, groups = arrange([*fanned, *discards], SIZE)
    assert sorted(out[i].tile for g in groups for i in g.tiles) == sorted(d.tile for d in fanned)


def test_nothing_but_heaps_the_best_heap_is_still_read():
    out, groups = arrange(HEAP, SIZE)
    assert sorted(out[i].tile for g in groups for i in g.tiles) == sorted(d.tile for d in HEAP)


def test_eval_roles_heaped_scenes():
    """`python -m datasets.eval_roles` `synthetic_heaped`: the 96 held-out table scenes, each with a
    heap of 6 boxes over heaped discards and a hand row of 5 tiles found. Measured: 1.58 tiles
    wrongly taken per scene, 0.47 left out, 83 scenes perfect (before the heap rule: 2.26, 0.89, 74;
    a heap turned 12 degrees overlaps 0.38 by `overlap`, under `PILE`, and still wins)."""
    from datasets.eval_roles import synthetic

    r = synthetic(heap=6, hand=5)
    assert r["scenes"] == 96 and r["scenes_perfect"] >= 83
    assert r["taken_per_scene"] <= 1.6 and r["left_out_per_scene"] <= 0.5
