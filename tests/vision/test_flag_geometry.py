"""Flag 6 (issue 35 item 5): a box in doubt by its geometry (`vision.flag_geometry`: two boxes in one
tile's slot, a box no tile's width) and a tile a reader renamed on a weak word (`vision.text_check`)
are flagged whatever the classifier's margin, and flag 5's clears leave them."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.arrange import arrange
from vision.detection import Detection
from vision.face_checks import check_faces
from vision.flag_geometry import flag_doubled
from vision.reader_config import ReaderConfig
from vision.testing_table import table_detections, table_scene
from vision.text_check import CROSS_MIN_SCORE, TEXT_MIN_SCORE, WEAK_RENAME, decide
from vision.text_reader import TEXT_CODES, TextReading

SIZE = (1400, 600)
PITCH, W, H, Y = 80.0, 76.0, 100.0, 400.0


def row(hand: str, sure: bool = True) -> list[Detection]:
    """A standing hand, left to right, one box a tile (`PITCH` apart), every reading sure."""
    return [
        Detection((40 + PITCH * k, Y, 40 + PITCH * k + W, Y + H), t, 0.9, uncertain=not sure)
        for k, t in enumerate(hand.split())
    ]


def flags_of(dets: list[Detection]) -> dict[tuple, bool]:
    out, _groups = arrange(dets, SIZE)
    return {(d.tile, round(d.xyxy[0])): d.uncertain for d in flag_doubled(out)}


def test_a_second_box_on_a_tile_already_boxed_is_flagged_both_boxes():
    """R4's doubled 4s: a box drawn again 12 px off a tile, read as surely as the first."""
    dets = row("1m 2m 3m 4s 5s 6s 7p 8p 9p E E E C C")
    x0, y0, x1, y1 = dets[3].xyxy
    dets.append(Detection((x0 + 12, y0 - 4, x1 + 6, y1 - 2), "4s", 0.9))
    got = flags_of(dets)
    assert [k for k, f in got.items() if f] == [("4s", 280), ("4s", 292)]
    assert ReaderConfig().flag_geometry


def test_a_box_across_a_sideways_tile_and_its_neighbour_is_flagged():
    """A meld's sideways tile (1.33 tiles wide, lower) with a second sideways box reaching 70 % into
    it: two boxes in one slot."""
    dets = row("1m 2m 3m 4s 5s 6s 7p 8p 9p E E")
    side = (40 + PITCH * 11, Y + 25, 40 + PITCH * 11 + 100, Y + H)
    dets += [
        Detection(side, "4s", 0.9, rotated=True),
        Detection((side[0] + 30, side[1], side[2] + 30, side[3]), "4s", 0.9, rotated=True),
    ]
    got = flags_of(dets)
    assert sorted(k for k, f in got.items() if f) == [("4s", 920), ("4s", 950)]


def test_a_box_half_a_tile_or_two_tiles_wide_is_flagged():
    dets = row("1m 2m 3m 4s 5s 6s 7p 8p")
    x = 40 + PITCH * 8
    half = Detection((x, Y, x + 30, Y + H), "9p", 0.9)
    assert flags_of([*dets, half])[("9p", x)]
    wide = Detection((x, Y, x + 2.4 * PITCH, Y + H), "9p", 0.9)
    got = flags_of([*dets, wide])
    assert got[("9p", x)] and not any(f for k, f in got.items() if k != ("9p", x))


def test_clean_rows_sideways_melds_and_tables_are_not_flagged():
    """A standing hand, one with a sideways meld tile, and synthetic table photos (hand, melds,
    discards, walls; tilted, turned): no box of a tile the layout draws once is flagged, and the
    flag changes no reading and no role."""
    plain = row("1m 2m 3m 4s 5s 6s 7p 8p 9p E E E C C")
    assert not any(flags_of(plain).values())
    side = row("1m 2m 3m 4s 5s 6s 7p 8p 9p E E")
    side.append(Detection((40 + PITCH * 11, Y + 25, 40 + PITCH * 11 + 100, Y + H), "C", 0.9, rotated=True))
    assert not any(flags_of(side).values())
    shown = 0
    for seed in range(6):
        for kw in ({}, {"tilt": 0.3}, {"angle": 15.0}, {"melds": 0, "discards": 20}):
            dets, _groups = arrange(table_detections(table_scene(seed, **kw)), (1600, 1200))
            out = flag_doubled(dets)
            assert [(d.tile, d.role) for d in out] == [(d.tile, d.role) for d in dets]
            shown += sum(o.uncertain != d.uncertain for o, d in zip(out, dets, strict=True))
    assert shown == 0


def reading(**scores: float) -> TextReading:
    s = np.zeros(len(TEXT_CODES), np.float32)
    for code, v in scores.items():
        s[TEXT_CODES.index(code)] = v
    return TextReading(s)


def test_a_weak_renaming_stays_flagged_a_sure_one_does_not():
    """R3's 9m, read right by the classifier (flagged, 8m second), renamed 8m by the text reader at
    0.13: above the text check's bar, under the bar a word needs against any reading."""
    nine = Detection((0.0, 0.0, 75.0, 100.0), "9m", 0.5, uncertain=True, second="8m")
    assert TEXT_MIN_SCORE < 0.13 < WEAK_RENAME == CROSS_MIN_SCORE
    got = decide(nine, reading(**{"8m": 0.13}), weak=WEAK_RENAME)
    assert (got.tile, got.second, got.uncertain) == ("8m", "9m", True)
    assert not decide(nine, reading(**{"8m": 0.13})).uncertain  # without flag 6: shown unflagged
    assert not decide(nine, reading(**{"8m": 0.8}), weak=WEAK_RENAME).uncertain  # a sure word
    assert not decide(nine, reading(**{"9m": 0.13}), weak=WEAK_RENAME).uncertain  # agreement


class WeakText:
    """A text reader that reads every face as 8m at 0.13 (and no digit)."""

    digits = None

    def read(self, faces, sideways=None):
        return [reading(**{"8m": 0.13}) for _ in faces]


def test_flag_5s_clears_leave_a_weak_renaming_flagged_after_the_roles():
    """The tile's flag score is under the show threshold (`show` False): flag 5 would clear a flag
    the readers leave; a tile the text renamed on a weak word is not cleared, and stays flagged
    once the roles are read."""
    dets = row("1m 2m 3m 4m 5m 6m 7m 9m 9m E E E C C")
    dets[7] = replace(dets[7], uncertain=True, second="8m")
    pixels = np.full((600, 1400, 3), 200, np.uint8)
    show = [True] * 14
    show[7] = False
    on = ReaderConfig(weak_rename=WEAK_RENAME)
    got, clear = check_faces(dets, [None] * 14, (), (pixels, 1.0), WeakText(), on, show)
    assert (got[7].tile, got[7].uncertain, clear[7]) == ("8m", True, False)
    out, _groups = arrange(got, SIZE, None, None, clear=clear)
    assert [d.tile for d in out if d.uncertain] == ["8m"]
    got, clear = check_faces(dets, [None] * 14, (), (pixels, 1.0), WeakText(), ReaderConfig(), show)
    assert (got[7].tile, got[7].uncertain) == ("8m", False)  # off by default: renamed, unflagged


def test_one_back_among_the_hands_faces_is_flagged_a_kongs_two_are_not():
    """Set A's rack end: a back past the row's last face, lower than the faces (so the rack-gap rule
    does not take it out). A concealed kong shows two backs (`back X X back`): no flag."""
    dets = row("1m 2m 3m 4s 5s 6s 7p 8p 9p E E E C")
    x = 40 + PITCH * 13
    end = Detection((x, Y + 26, x + W, Y + H), "back", 0.9, face_down=True)
    out, _groups = arrange([*dets, end], SIZE)
    assert [d.tile for d in flag_doubled(out) if d.uncertain] == ["back"]
    kong = row("1m 2m 3m 4s 5s 6s 7p 8p 9p back E E back")
    kong = [replace(d, face_down=True) if d.tile == "back" else d for d in kong]
    out, _groups = arrange(kong, SIZE)
    assert not any(d.uncertain for d in flag_doubled(out))
