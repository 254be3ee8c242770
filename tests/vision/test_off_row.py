"""Tiles that are not the player's (`off_row`: role neither hand nor meld): kept out of the groups
and listed last, never a lone winning tile set apart or a hand laid diagonally, and not counted
towards a set's four copies."""

from __future__ import annotations

from vision.arrange import arrange
from vision.detection import Detection
from vision.layout import rows_of
from vision.roles import off_row


def row(codes, x=100.0, y=500.0, w=72.0, h=96.0):
    return [((x + k * (w + 4), y, x + k * (w + 4) + w, y + h), c) for k, c in enumerate(codes)]


def test_off_row_tiles_stay_out_of_groups_and_come_last():
    dets = [Detection(b, c, 0.9) for b, c in row(["1m", "2m", "3m", "4m", "5m"])]
    far = Detection((1400.0, 100.0, 1472.0, 196.0), "W", 0.9)  # a box on a chair, far away
    huge = Detection((500.0, 480.0, 760.0, 800.0), "P", 0.9)  # much larger than the row's tiles
    assert off_row(dets) == [False] * 5
    assert off_row([*dets, far, huge])[-2:] == [True, True]
    out, groups = arrange([far, *dets, huge])
    assert [d.tile for d in out] == ["1m", "2m", "3m", "4m", "5m", "W", "P"]
    assert [d.off_row for d in out] == [False] * 5 + [True, True]
    assert sorted(i for g in groups for i in g.tiles) == [0, 1, 2, 3, 4]


def test_a_lone_set_apart_winning_tile_is_not_off_row():
    dets = [Detection(b, c, 0.9) for b, c in row(["1m", "2m", "3m", "4m"])]
    win = Detection((100 + 5 * 76 + 60, 500.0, 100 + 5 * 76 + 132, 596.0), "9p", 0.9)  # a tile apart
    below = Detection((200.0, 640.0, 272.0, 736.0), "E", 0.9)  # a second row under the hand
    assert off_row([*dets, win, below]) == [False] * 6


def test_a_hand_laid_steeply_diagonal_is_not_off_row():
    # 16 tiles 64x57 px, each 26 px right and 40 px up of the one before (too little vertical
    # overlap for one row), except two steps of 12 and 20 px: those three tiles make the only
    # "row" of three, as 0.6.1's boxes did on synthetic scene 10, and the old rule flagged 5 of
    # the others. They do not stand side by side, so there is no hand row and nothing is off_row.
    steep, x, y = [], 0.0, 1200.0
    for k in range(16):
        steep.append(Detection((x, y, x + 64, y + 57), "5p", 0.9))
        x, y = (x + 12, y - 20) if k in (6, 7) else (x + 26, y - 40)
    assert sorted(map(len, rows_of(steep)))[-1] == 3
    assert off_row(steep) == [False] * 16
    flat = [Detection((66.0 * k, 0.0, 66.0 * k + 64, 57.0), "5p", 0.9) for k in range(16)]
    far = Detection((2000.0, 900.0, 2064.0, 957.0), "W", 0.9)
    assert off_row([*flat, far]) == [False] * 16 + [True]


def test_an_off_row_tile_does_not_count_towards_the_set():
    dets = [Detection(b, c, 0.99) for b, c in row(["2p"] * 4 + ["3p"] * 2)]
    far = Detection((3000.0, 2500.0, 3072.0, 2596.0), "2p", 0.99)  # a fifth 2p far from the hand
    out, _groups = arrange([*dets, far])
    assert [d.off_row for d in out][-1] is True
    assert not any(d.uncertain for d in out)
