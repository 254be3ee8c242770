"""Layout analysis on synthetic detection lists: rows, gap-separated sets, meld guesses, hand."""

from __future__ import annotations

import pytest

from vision.detection import Detection
from vision.layout import group_tiles, guess_kind, rows_of

TW, TH = 60.0, 80.0  # tile width / height in pixels


def lay(spec: str, x: float = 100.0, y: float = 500.0, gap: float = 3.0, big_gap: float = 60.0):
    """Detections for a row written as text: sets split by `|`, tiles by spaces.

    `7p~` = sideways tile; `back` = face down. Returns a list of Detection, left to right.
    """
    dets = []
    for k, part in enumerate(spec.split("|")):
        if k:
            x += big_gap - gap
        for tok in part.split():
            sideways = tok.endswith("~")
            code = tok.rstrip("~")
            if sideways:
                box = (x, y + TH - TW, x + TH, y + TH)
                x += TH + gap
            else:
                box = (x, y, x + TW, y + TH)
                x += TW + gap
            dets.append(Detection(box, code, 0.9, face_down=code == "back", rotated=sideways))
    return dets


def kinds(dets):
    return [(g.kind_guess, [dets[i].tile for i in g.tiles]) for g in group_tiles(dets)]


@pytest.mark.parametrize(
    "tiles,sideways,kind",
    [
        (["7p", "7p", "7p"], False, "pung"),
        (["7p", "7p", "7p"], True, "pung"),
        (["C", "C", "C", "C"], False, "kong"),
        (["back", "5s", "5s", "back"], False, "concealed_kong"),
        (["back", "back", "back", "back"], False, "concealed_kong"),
        (["5s", "5s", "5s", "back"], False, "concealed_kong"),  # one face down: was "hand"
        (["back", "back", "back", "5s"], True, "concealed_kong"),  # one face up: was "unknown"
        (["back", "5s", "6s", "back"], False, "hand"),  # faces not alike
        (["3m", "4m", "5m"], True, "chow"),
        (["5m", "3m", "4m"], True, "chow"),
        (["F"], False, "bonus"),
        (["F", "F", "F"], False, "bonus"),
        (["flower", "flower"], False, "flowers"),
        (["1m", "2m", "3m", "5p", "5p"], False, "hand"),
        (["1m", "3m", "9s"], True, "unknown"),
        (["5p"], False, "unknown"),
        (["8m", "9m", "1p"], False, "hand"),
    ],
)
def test_guess_kind(tiles, sideways, kind):
    assert guess_kind(tiles, sideways) == kind


@pytest.mark.parametrize(
    "spec,want",
    [
        # a hand with the winning tile set apart
        (
            "1m 2m 3m 4m 5m 6m 7s 8s 9s 2p 2p 5p 6p | 7p",
            [("hand", "1m 2m 3m 4m 5m 6m 7s 8s 9s 2p 2p 5p 6p"), ("winning_tile", "7p")],
        ),
        # claimed pung (sideways), then the hand, then the winning tile
        (
            "7p 7p~ 7p | 1m 2m 3m 4m 5m 6m 2p 2p 5p 6p | 7p",
            [("pung", "7p 7p 7p"), ("hand", "1m 2m 3m 4m 5m 6m 2p 2p 5p 6p"), ("winning_tile", "7p")],
        ),
        # concealed kong and 發 set aside
        (
            "back 9s 9s back | F F | 1m 2m 3m 4m 4m",
            [("concealed_kong", "back 9s 9s back"), ("bonus", "F F"), ("hand", "1m 2m 3m 4m 4m")],
        ),
        # a kong with a sideways tile, a chow with a sideways tile
        (
            "C C~ C C | 3m~ 4m 5m | 1s 1s",
            [("kong", "C C C C"), ("chow", "3m 4m 5m"), ("hand", "1s 1s")],
        ),
        # no gaps at all: one hand set
        ("1m 1m 1m 2m 3m", [("hand", "1m 1m 1m 2m 3m")]),
    ],
)
def test_one_row(spec, want):
    dets = lay(spec)
    got = [(k, " ".join(t)) for k, t in kinds(dets)]
    assert got == want


def test_rows_top_to_bottom_and_left_to_right_whatever_the_input_order():
    top = lay("7p 7p~ 7p | F", y=100)
    bottom = lay("1m 2m 3m 4m 5m | 5m", y=400)
    dets = list(reversed(bottom)) + top[::2] + top[1::2]
    groups = group_tiles(dets)
    assert [g.row for g in groups] == [0, 0, 1, 1]
    assert [dets[i].tile for i in groups[2].tiles] == ["1m", "2m", "3m", "4m", "5m"]
    xs = [dets[i].xyxy[0] for i in groups[2].tiles]
    assert xs == sorted(xs)
    assert sorted(i for g in groups for i in g.tiles) == list(range(len(dets)))


def test_slanted_row_stays_one_row():
    dets = []
    for k in range(14):  # each tile 12 px lower than the last: 2 tile heights over the row
        x, y = 100 + k * 63.0, 300 + k * 12.0
        dets.append(Detection((x, y, x + TW, y + TH), "5s", 0.9))
    assert len(rows_of(dets)) == 1


def test_two_close_rows_stay_apart():
    dets = lay("1m 2m 3m", y=100) + lay("4m 5m 6m", y=100 + TH + 5)
    assert [len(r) for r in rows_of(dets)] == [3, 3]


def test_scale_free():
    a = lay("7p 7p 7p | 1m 2m 3m 4m 4m | 9s")
    big = [Detection(tuple(v * 7 for v in d.xyxy), d.tile, d.conf, d.face_down, d.rotated) for d in a]
    assert kinds(a) == kinds(big)


def test_every_group_is_a_guess_and_json_shape():
    groups = group_tiles(lay("7p 7p~ 7p | 1m 2m"))
    for g in groups:
        j = g.to_json()
        assert j["guess"] is True and set(j) >= {"tiles", "kind_guess", "row"}
    assert groups[0].claimed and not groups[1].claimed


def test_empty():
    assert group_tiles([]) == []


def test_a_box_straddling_two_rows_does_not_merge_them():
    top = lay("1m 2m 3m 4m 5m 6m", y=100)
    bottom = lay("1p 2p 3p 4p 5p 6p", y=100 + TH + 5)
    x = top[2].xyxy[2] + 1  # a bad box between the third and fourth tiles, half in each row
    bad = Detection((x, 100 + TH / 2, x + 2, 100 + TH * 1.5), "9s", 0.4)
    rows = rows_of([*top, bad, *bottom])
    tiles = [[([*top, bad, *bottom])[i].tile for i in r] for r in rows]
    assert ["1m", "2m", "3m", "4m", "5m", "6m"] in [[t for t in r if t != "9s"] for r in tiles]
    assert ["1p", "2p", "3p", "4p", "5p", "6p"] in [[t for t in r if t != "9s"] for r in tiles]


@pytest.mark.parametrize(
    ("gap", "apart", "want"),
    [
        (3.0, 30.0, ["hand", "pung"]),  # tight row: 30 px (half a tile) sets the pung apart
        (22.0, 30.0, ["hand"]),  # loose row (22 px between all): 30 px is its own spacing
        (22.0, 60.0, ["hand", "pung"]),  # loose row, a full tile apart: a pung
    ],
)
def test_three_alike_inside_a_loose_row_are_a_pung_only_when_set_apart(gap, apart, want):
    dets = lay("1m 2m 3m 4s 5s 6s 9p 9p | 7p 7p 7p", gap=gap, big_gap=apart)
    assert [g.kind_guess for g in group_tiles(dets)] == want
