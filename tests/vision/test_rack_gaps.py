"""A lone back among standing faces is the rack seen between two groups, not a tile (issue 35:
6 of `real_sets_dev`'s extra boxes, a wooden rack's gap read `back` and taken into the hand)."""

from __future__ import annotations

from vision import TileReader, testing
from vision.detection import Detection
from vision.walls import rack_gaps

SIZE = (1600, 1200)


def _row(codes: str, y: float = 700.0) -> list[tuple[tuple[float, float, float, float], str]]:
    """Standing tiles 72 x 96 px, 4 px apart, left to right from x = 128."""
    return [((128 + 76 * k, y, 200 + 76 * k, y + 96), c) for k, c in enumerate(codes.split())]


def _read(tmp_path, scene):
    testing.build_models(tmp_path, scene, SIZE)
    result = TileReader(tmp_path).detect(testing.paint_scene(*SIZE, scene))
    return [result.detections[k].tile for g in result.groups for k in g.tiles], result


def test_a_gap_in_the_rack_read_back_is_left_out(tmp_path):
    hand, result = _read(tmp_path, _row("1m 2m 3m back 6s 7s 8s 2p 2p"))
    assert hand == "1m 2m 3m 6s 7s 8s 2p 2p".split()  # before: ... 3m back 6s ...
    assert [d.tile for d in result.detections] == hand
    assert len(result.rejected) == 1 and result.rejected[0].why == "not_a_tile"
    assert result.rejected[0].xyxy[0] == 128 + 3 * 76


def test_a_concealed_kong_and_a_wall_keep_their_backs(tmp_path):
    scene = _row("1p back 5s 5s back N 7m 8m") + _row("back back back back back back", y=300)
    _, result = _read(tmp_path, scene)
    kong_row = [d.tile for d in result.detections if d.xyxy[1] >= 700]
    assert kong_row == "1p back 5s 5s back N 7m 8m".split()
    assert sum(d.tile == "back" and d.xyxy[1] == 300 for d in result.detections) == 6  # the wall
    assert not result.rejected


def test_rack_gaps_by_geometry():
    def row(codes: str, step: float = 60) -> list[Detection]:
        return [
            Detection((step * k, 0, step * k + 50, 70), c, 0.9, face_down=c == "back")
            for k, c in enumerate(codes.split())
        ]

    assert rack_gaps(row("1p N back F S")) == [False, False, True, False, False]
    assert rack_gaps(row("1p F back")) == [False, False, True]  # past the row's last tile
    assert rack_gaps(row("back")) == [False]  # alone: no row
    assert rack_gaps(row("1p back back F")) == [False] * 4  # two backs: a kong shown back back
    assert rack_gaps(row("N back F", step=100)) == [False] * 3  # 50 px apart: not one row of tiles
    assert rack_gaps(row("F F back N")) == [False] * 4  # F F back: a kong's end


def test_the_racks_end_lower_than_the_last_tile_is_left_out(tmp_path):
    """Set A (issue 35): past the hand's last tile the rack's dark end, 0.74 of the tiles' height and
    within it, read `back` and taken into the hand as a 14th tile."""
    row = _row("1m 2m 3m 6s 7s 8s 2p 3p")
    end = ((128 + 76 * 8, 721.0, 200 + 76 * 8, 790.0), "back")  # 69 px tall beside 96 px faces
    hand, result = _read(tmp_path, [*row, end])
    assert hand == "1m 2m 3m 6s 7s 8s 2p 3p".split()  # before: ... 2p 3p back
    assert [round(r.xyxy[0]) for r in result.rejected] == [128 + 76 * 8]


def test_a_back_as_tall_as_the_row_or_below_it_stays(tmp_path):
    """A back as tall as the faces beside it (a standing tile of a kong `back X X back` at the row's
    end) and a short back reaching below the row (not within its height) are not the rack's end."""
    kong = _row("1m 2m 3m 6s back 5s 5s back")
    _, result = _read(tmp_path, kong)
    assert [d.tile for d in result.detections] == "1m 2m 3m 6s back 5s 5s back".split()
    low = ((128 + 76 * 3, 760.0, 200 + 76 * 3, 830.0), "back")  # 70 px, its bottom 34 px below
    _, result = _read(tmp_path, [*_row("1m 2m 3m"), low])
    assert [d.tile for d in result.detections] == "1m 2m 3m back".split() and not result.rejected


def test_below_by_geometry():
    face = Detection((0, 0, 60, 80), "9s", 0.9)
    back = lambda y0, y1, x0=62: Detection((x0, y0, x0 + 50, y1), "back", 0.3, face_down=True)  # noqa: E731
    assert rack_gaps([face, back(20, 78)]) == [False, True]  # 58 px within 80: the rack's end
    assert rack_gaps([face, back(8, 72)]) == [False, True]  # 64 px: within a third, beside it (as before)
    assert rack_gaps([face, back(50, 100)]) == [False, False]  # 50 px, reaching 20 px below the face
    assert rack_gaps([face, back(20, 78, x0=90)]) == [False, False]  # 30 px apart (> 0.4 x 50)


def test_a_concealed_kong_laid_flat_past_the_row_keeps_its_backs(tmp_path):
    """A concealed kong laid flat past the standing row, `back 5s 5s back` with its tiles apart
    (0.6 of a tile between them): its first back is lower than the row's last face beside it, but a
    tile of its own height lies past it — a tile laid there, not the rack's end (before: that back
    left out as `not_a_tile`, the kong read `5s 5s back`)."""
    kong = "back 5s 5s back".split()
    flat = [((896 + 115 * k, 736.0, 968 + 115 * k, 796.0), c) for k, c in enumerate(kong)]
    _, result = _read(tmp_path, _row("1m 2m 3m 4p 5p 6p 7s 8s 9s N") + flat)
    assert [d.tile for d in result.detections if round(d.xyxy[1]) == 736] == kong
    assert not result.rejected


def test_a_back_below_the_last_face_with_a_tile_past_it_stays():
    face = Detection((0, 0, 60, 80), "9s", 0.9)
    back = Detection((62, 30, 112, 78), "back", 0.3, face_down=True)
    past = lambda x0: Detection((x0, 30, x0 + 50, 78), "5s", 0.9)  # noqa: E731  the back's own height
    assert rack_gaps([face, back]) == [False, True]  # nothing past it: the rack's end
    assert rack_gaps([face, back, past(150)]) == [False, False, False]  # 38 px past it: a tile laid there
    assert rack_gaps([face, back, past(170)]) == [False, True, False]  # over a tile's width away
