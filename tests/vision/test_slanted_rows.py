"""A slanted hand row stays one row (`vision.layout.rows_of`, `ROW_NEAR`): issue 35, set B — the
labelled hand rising to the right had its right half taken into the row of another player's hand
across the photo, as high there, so it was cut into two runs of 3 and the other hand (6 standing)
was taken as the hand (14 taps)."""

from __future__ import annotations

from vision import TileReader, testing
from vision.detection import Detection
from vision.layout import rows_of

SIZE = (1600, 1200)


def _slant(codes: str, x: float, y: float, dy: float) -> list[tuple[tuple[float, float, float, float], str]]:
    """Standing tiles 60 x 90 px, 2 px apart from `x`, each `dy` px lower than the one before."""
    codes_ = codes.split()
    return [((x + 62 * k, y + dy * k, x + 62 * k + 60, y + dy * k + 90), c) for k, c in enumerate(codes_)]


def test_a_rising_hand_is_not_cut_by_a_row_across_the_photo(tmp_path):
    other = _slant("1s 2s 3s 4s 5s 6s", 100, 540, 20)  # another player's hand, falling to the right
    hand = _slant("9m 9m 8s 6s 1m 8p", 900, 700, -24)  # the hand: lower, rising to the right
    scene = [*other, *hand]
    testing.build_models(tmp_path, scene, SIZE)
    result = TileReader(tmp_path).detect(testing.paint_scene(*SIZE, scene))
    grouped = [result.detections[k] for g in result.groups for k in g.tiles]
    assert [d.tile for d in sorted(grouped, key=lambda d: d.xyxy[0])] == "9m 9m 8s 6s 1m 8p".split()
    # before: 1s 2s 3s 4s 5s 6s, the hand's halves two runs of 3 (its right half in the other's row)


def test_rows_of_takes_the_near_row_first():
    other = [Detection(b, c, 0.9) for b, c in _slant("1s 2s 3s 4s 5s 6s", 100, 540, 20)]
    hand = [Detection(b, c, 0.9) for b, c in _slant("9m 9m 8s 6s 1m 8p", 900, 700, -24)]
    rows = rows_of([*other, *hand])
    assert sorted(map(sorted, rows)) == [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11]]
    # a tile as high as the far row's end and its near neighbour still joins the neighbour
    level = [Detection((0, 100, 60, 190), "1m", 0.9), Detection((62, 100, 122, 190), "2m", 0.9)]
    far = Detection((1000, 96, 1060, 186), "5p", 0.9)
    assert rows_of([*level, far]) == [[0, 1, 2]]  # alone it joins the row as before
