"""Decomposition (every reading), waits, is_complete, suggest_fixes — and the traps."""

from __future__ import annotations

import random

import pytest
from mahjong.hand_calculating.divider import HandDivider

from scoring import HandError, Tile, format_tiles, is_complete, parse_tiles, score, suggest_fixes, waits
from scoring.decompose import decompose_all, standard_readings
from scoring.tiles import counts_of
from tests.scoring.util import melds_of, parse_case


def readings(text):
    return standard_readings(counts_of(parse_tiles(text)))


def test_123_123_123_and_111_222_333_both_read():
    rs = readings("111222333m55p789s")
    kinds = sorted(tuple(k for k, _t in sets) for _p, sets in rs)
    assert len(rs) == 2
    assert kinds == [("chow", "chow", "chow", "chow"), ("pung", "pung", "pung", "chow")] or len(kinds) == 2


def test_seven_pairs_and_four_sets_hand_has_both_readings_and_the_larger_wins():
    c = counts_of(parse_tiles("112233m445566p88s"))
    all_readings = decompose_all(c)
    assert len(all_readings) == 2 and all_readings[-1][0] == "seven_pairs"
    r = score(parse_case("jj 112233m445566p88s +8s"))
    assert r.shape == "seven_pairs" and r.own == 30  # 七对 20 + two 潇洒 beat 平胡
    assert r.readings == 2


def test_winning_tile_in_several_blocks_all_tried():
    r = score(parse_case("jj 45666m123p789pCCC +6m"))
    assert r.readings == 2  # 6m in 456 (open) or in the pair 66 (single)
    assert r.wait in ("open", "single")


def test_decomposition_marks_winning_block_and_melds():
    r = score(parse_case("jj 123m456p789s345s55p +2m"))
    blocks = [(b.kind, format_tiles(b.tiles), b.source, b.winning) for b in r.decomposition]
    assert ("chow", "123m", "hand", True) in blocks
    assert sum(1 for b in blocks if b[3]) == 1
    r = score(parse_case("jj 234m567p678s99s +6s pung:777p self"))
    assert r.decomposition[-1].source == "meld" and r.decomposition[-1].kind == "pung"


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("1112345678999m", "123456789m"),  # nine gates
        ("13m456p789s345s55p", "2m"),
        ("4566m123p789pCCC", "36m"),
        ("11m33m55p77p99s22s4s", "4s"),  # seven pairs
        ("234m567p678s99s", None),  # 14 tiles: not one short
    ],
)
def test_waits(hand, expected):
    if expected is None:
        with pytest.raises(HandError, match="one tile short"):
            waits(hand)
        return
    assert format_tiles(waits(hand)) == expected


def test_waits_ignore_a_tile_held_four_times():
    # 1111m + a fifth 1m would read 111 + 11: that fifth copy does not exist
    assert waits("1111m456p789s345s") == []
    assert format_tiles(waits("11123m456p789s55p")) == "14m5p"


def test_waits_with_melds_and_variants():
    assert waits("13m55p", melds_of("pung:777p pung:999s pung:CCC"), "jiujiang") == [Tile.M2]
    assert format_tiles(waits("ESWNCFPESWNCF", (), "xinyu")) == "ESWNCFP"  # free all-honour shape


def test_is_complete():
    assert is_complete("123m456p789s345s55p")
    assert not is_complete("123m456p789s345s56p")
    assert is_complete("11m33m55p77p99s22s44s")
    assert is_complete("ESWNCFPESWNCFE", variant="xinyu")
    assert not is_complete("123m456p789s345sEW", variant="xinyu")
    assert is_complete("99s", melds_of("pung:111m pung:777p pung:555s chow:678s"))
    with pytest.raises(HandError, match="wind"):
        is_complete("123m456p789s345sEE")


def test_suggest_fixes_smallest_change_first():
    fixes = suggest_fixes("123m456p789s345s57p", winning_tile="5p")
    assert fixes and fixes[0].cost == 1
    assert all(f.remove is not None and f.add is not None for f in fixes)
    assert fixes[0].describe() == "5p instead of 4p"
    assert suggest_fixes("123m456p789s345s55p") == []
    add = suggest_fixes("13m456p789s345s55p")
    assert [(f.remove, f.add) for f in add] == [(None, Tile.M2)]
    drop = suggest_fixes("123m456p789s345s55p9m")
    assert [f.describe() for f in drop] == ["9m removed"]


def test_suggest_fixes_keeps_the_winning_tile():
    fixes = suggest_fixes("123m456p789s345s5pC", winning_tile="C")
    assert fixes and all(f.remove != Tile.C for f in fixes)
    assert fixes[0].describe() == "C instead of 5p"


def _random_complete(rng: random.Random) -> list[int]:
    while True:
        c = [0] * 34
        for _ in range(4):
            t = rng.randrange(34)
            if t < 27 and t % 9 <= 6 and rng.random() < 0.6:
                for u in (t, t + 1, t + 2):
                    c[u] += 1
            else:
                c[t] += 3
        c[rng.randrange(34)] += 2
        if max(c) <= 4:
            return c


def test_same_readings_as_mahjong_hand_divider_on_random_hands():
    rng = random.Random(11)
    for _ in range(300):
        c = _random_complete(rng)
        ours = standard_readings(c)
        theirs = [d for d in HandDivider.divide_hand(c) if len(d) == 5]
        as_sets = sorted(
            sorted([[t, t + 1, t + 2] if k == "chow" else [t] * 3 for k, t in sets] + [[p, p]])
            for p, sets in ours
        )
        assert as_sets == sorted(sorted(d) for d in theirs)
