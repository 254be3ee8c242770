"""Issue 36 item 8: a round / seat marker read as a tile is `other`, never the hand's: a red one
by its colour (`vision.markers.red_markers`), a flagged square box in a hand row by its shape
(`vision.roles`, `MARKER_TILT`)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tests.vision.test_layout import lay
from vision.arrange import arrange
from vision.detection import Detection
from vision.markers import RED_SHARE, red_markers, red_share, red_shares
from vision.roles import table_roles

ROW = "1m 2m 3m 4m 5m 6m 7p 8p 9p 2s 3s 4s 9s 9s"
SIZE = (1600, 900)


def _row_and(marker: Detection) -> list[Detection]:
    return [*lay(ROW, y=700.0), marker]


def _disc(x: float = 100.0 + 14 * 63 + 3, *, uncertain: bool = True, side: float = 70.0) -> Detection:
    """A square box touching the row's right end, read 中 (the red 北 marker of the trial)."""
    return Detection((x, 705.0, x + side, 705.0 + side), "C", 0.41, uncertain=uncertain)


@pytest.mark.parametrize(
    ("marker", "role"),
    [
        (_disc(), "other"),  # flagged, square: a marker (it was `hand`, in the hand as 中)
        (_disc(uncertain=False), "hand"),  # read sure: the shape alone is no reason
        (Detection((985.0, 700.0, 1045.0, 780.0), "C", 0.41, uncertain=True), "hand"),  # a tile's shape
        (Detection((985.0, 720.0, 1065.0, 780.0), "C", 0.41, uncertain=True), "hand"),  # sideways: a tile
    ],
)
def test_a_flagged_square_box_in_the_hand_row_is_other(marker, role):
    assert table_roles(_row_and(marker), SIZE)[-1] == role
    assert table_roles(_row_and(marker), SIZE)[:14] == ["hand"] * 14


def _picture(dets: list[Detection], red: int) -> np.ndarray:
    """Ivory tiles with a small red mark each (a 中's share of red), detection `red` a red disc."""
    img = np.full((SIZE[1], SIZE[0], 3), (30, 90, 40), np.uint8)
    for k, d in enumerate(dets):
        x0, y0, x1, y1 = (int(v) for v in d.xyxy)
        if k == red:
            img[y0:y1, x0:x1] = (205, 25, 30)
            img[y0 + 25 : y1 - 25, x0 + 30 : x1 - 30] = (250, 240, 220)  # the marker's white 北
        else:
            img[y0:y1, x0:x1] = (240, 235, 220)
            img[y0 + 30 : y1 - 30, x0 + 20 : x1 - 20] = (200, 30, 30)
    return img


def test_a_red_marker_is_told_from_the_tiles_by_its_colour_and_arranged_out_of_the_hand():
    dets = _row_and(dataclasses.replace(_disc(side=66.0), xyxy=(985.0, 700.0, 1045.0, 780.0)))
    shares = red_shares(_picture(dets, red=14), np.array([d.xyxy for d in dets]))
    assert shares[14] >= RED_SHARE and max(shares[:14]) < 0.3
    found = red_markers(shares)
    assert found == [False] * 14 + [True]
    out, groups = arrange(dets, SIZE, None, found)
    assert [d.role for d in out if d.tile == "C"] == ["other"]  # without the colour: `hand`
    assert arrange(dets, SIZE)[0][13].role == "hand" and "C" in [
        arrange(dets, SIZE)[0][k].tile for k in range(15)
    ]
    assert sum(len(g.tiles) for g in groups) == 14


def test_a_photo_under_red_light_has_no_red_marker():
    assert red_markers([0.8, 0.83, 0.79, 0.81, 0.82]) == [False] * 5
    assert red_share(np.full((10, 10, 3), (200, 20, 20), np.uint8)) == 1.0


def test_the_hand_guess_leaves_the_marker_out():
    from app.photo_hand import hand_from_photo

    dets, groups = arrange(_row_and(_disc()), SIZE)
    from vision.detection import DetectResult

    guess = hand_from_photo(
        DetectResult(width=SIZE[0], height=SIZE[1], detections=dets, groups=groups), "jiujiang"
    )
    assert "C" not in [t.code for t in guess.concealed] and len(guess.concealed) == 14
