"""`datasets.dice_cut`: how `vision.dice`'s limits follow from synthetic dice against true tiles
(issue 35), and the synthetic dice it reads (`datasets.dice_render`)."""

from __future__ import annotations

import numpy as np

from datasets.dice_cut import choose, takes
from datasets.dice_render import die_image


def _rec(conf: float, tile: str = "4p", height: float = 0.7, area: float = 0.6, gap: float = 0.3) -> dict:
    return {"tile": tile, "conf": conf, "uncertain": True, "height": height, "area": area, "gap": gap}


def _tiles(n: int, weak: list[float]) -> list[dict]:
    """`n` true dot tiles: those of `weak` read weakly and flagged, the rest surely."""
    return [_rec(c) for c in weak] + [dict(_rec(0.9), uncertain=False) for _ in range(n - len(weak))]


def test_the_cut_lies_midway_between_the_dice_and_the_tiles():
    dice = [_rec(0.05 + 0.01 * k) for k in range(20)]  # 0.05 .. 0.24: 90 % under 0.23
    tiles = {"val": _tiles(300, [0.35, 0.43, 0.43]), "renders": _tiles(300, [])}  # 1/300 < 0.5 % to 0.43
    lim = choose(dice, tiles)
    assert (lim["lo"], lim["hi"], lim["conf"]) == (0.23, 0.43, 0.33)


def test_where_dice_and_tiles_overlap_the_tiles_come_first():
    dice = [_rec(0.5 + 0.01 * k) for k in range(20)]
    tiles = {"val": _tiles(300, [0.35, 0.43, 0.43])}
    lim = choose(dice, tiles)
    assert (lim["lo"], lim["hi"], lim["conf"]) == (0.68, 0.43, 0.43)


def test_the_size_limits_hold_the_dice_rounded_up():
    dice = [_rec(0.1, height=0.5 + 0.004 * k, area=0.4 + 0.005 * k) for k in range(101)]  # to 0.9, 0.9
    lim = choose(dice, {"val": _tiles(300, [])})
    assert (lim["height"], lim["area"]) == (0.9, 0.9)
    assert lim["hi"] == 1.0  # no tile at risk: the cut may go anywhere above the dice


def test_the_rule_on_a_record_as_vision_dice_reads_it():
    assert takes(_rec(0.2), 0.3, 1.0, 1.1)
    assert not takes(_rec(0.2, tile="4s"), 0.3, 1.0, 1.1)  # a bamboo: no die reads so
    assert not takes(_rec(0.2, height=1.2), 0.3, 1.0, 1.1)  # a tile's size
    assert not takes(_rec(0.2, gap=1.5), 0.3, 1.0, 1.1)  # away from the row
    assert not takes(dict(_rec(0.2), height=None), 0.3, 1.0, 1.1)  # a hand tile


def test_a_die_is_a_small_cube_with_its_pips():
    die = die_image(np.random.default_rng(3), 60)
    ys, xs = np.nonzero(die[..., 3] > 100)
    w, h = xs.max() - xs.min() + 1, ys.max() - ys.min() + 1
    assert 50 <= max(w, h) <= 2.2 * 60  # a face of 60 px, its top and side faces beside it
    rgb = die[..., :3][die[..., 3] > 250].astype(int)
    dark = (rgb.max(1) < 100) | ((rgb[:, 0] > 150) & (rgb[:, 1] < 80))  # pips: black or red
    assert 0.02 < dark.mean() < 0.6


def test_the_low_tier_lets_the_cut_rise_for_boxes_lower_than_the_row():
    """Step 4: dice lower than the row (0.6 of its height) read 0.25-0.34, over the cut that true
    tiles at 0.7 of the row's height (read 0.2-0.3) allow; at 0.6 or lower no tile is at risk, so
    the cut rises there to take every die, at the smallest size and cut that do."""
    dice = [_rec(0.25 + 0.005 * k, height=0.6) for k in range(18)]  # 0.25 .. 0.335
    tiles = {"val": _tiles(300, [0.2, 0.2, 0.25, 0.3, 0.3]), "renders": _tiles(300, [])}  # at 0.7 high
    lim = choose(dice, tiles)
    assert lim["conf"] == 0.2 and (lim["low"], lim["low_conf"]) == (0.6, 0.34)
    assert all(takes(r, lim["conf"], lim["height"], lim["area"], low=0.6, low_cut=0.34) for r in dice)
    assert not any(takes(r, lim["conf"], lim["height"], lim["area"]) for r in dice)  # the cut alone


def test_no_low_tier_where_it_takes_no_more_dice():
    dice = [_rec(0.1, height=1.0) for _ in range(10)]
    lim = choose(dice, {"val": _tiles(300, [0.3, 0.3])})
    assert (lim["low"], lim["low_conf"]) == (0.0, 0.0)


def test_the_records_carry_the_flag_the_rule_reads_before_flag5_clears():
    """ "Dice, 4": the rule reads the flags before flag 5's clears, so the calibration does too: a
    die whose flag the show threshold clears is recorded `uncertain` (and `shown` False), and the
    rule is off while reading (nothing leaves)."""
    from types import SimpleNamespace

    from datasets.dice_cut import record, rule_off
    from tests.vision.test_dice import ROW, SIZE, Y, _die
    from tests.vision.test_layout import lay
    from vision.arrange import arrange
    from vision.dice import measures

    def detect(dets):
        rejected: list = []
        out, _ = arrange(dets, SIZE, None, None, rejected, [False] * 16 + [True])
        return SimpleNamespace(detections=out, rejected=rejected)

    res, flags = rule_off(detect, [*lay(ROW, y=Y), _die(1000, "2p", conf=0.28)])
    assert len(res.detections) == 17 and not res.rejected
    assert flags == [False] * 16 + [True]
    rec = record(res.detections[-1], measures(res.detections)[-1], None, flags[-1])
    assert (rec["uncertain"], rec["shown"]) == (True, False)
    assert takes(rec, 0.18, 2.45, 4.65, low=0.95, low_cut=0.34)  # the shipped limits
