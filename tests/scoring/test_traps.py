"""Known traps from other scorers, one test each, with exact values."""

from __future__ import annotations

import pytest

from scoring import HandError, score
from tests.scoring.util import amounts, parse_case, points


def test_both_seven_pairs_and_four_sets_takes_the_larger():
    # 112233m 445566p 88s: 平胡 (123 123 456 456 88) or 七对 with two 潇洒 — 计大不计小
    r = score(parse_case("jj 112233m445566p88s +8s"))
    assert r.readings == 2 and r.shape == "seven_pairs"
    assert points(r) == {"seven_pairs": 20, "pair_run": 10}


def test_fairies_hand_is_also_four_sets_and_reads_as_seven_fairies():
    # 11223344556677m also reads 123 123 456 456 77 (清一色): 七仙女 is larger
    r = score(parse_case("xz 11223344556677m +1m"))
    assert r.shape == "seven_pairs" and points(r) == {"seven_fairies": 50}


def test_winning_tile_fits_several_blocks():
    # 45666m + 6m: 6 completes 456 (open) or the pair 66 (single); waits 3m/6m → no 单钓
    r = score(parse_case("jj 45666m123p789pCCC +6m"))
    assert r.readings == 2
    assert [t.code for t in r.waits] == ["3m", "6m"]
    assert points(r) == {"basic": 1, "concealed": 1, "dragon_set": 2}


def test_three_identical_chows_or_three_pungs():
    r = score(parse_case("jj 111222333m555p99s +9s"))
    assert r.readings == 2
    assert [b.kind for b in r.decomposition if b.source == "hand"] == ["pung", "pung", "pung", "pung", "pair"]
    assert r.own == 15 + 5 + 5 + 5  # 碰碰胡 + 潇洒 + 门清 + 单钓


def test_straight_with_extra_tiles():
    r = score(parse_case("jj 12345678999m555p +5p"))
    assert points(r) == {"pure_straight": 10, "concealed": 5}
    r = score(parse_case("xz 12345678999m +1m pung:CCC"))
    assert "pure_straight" in points(r) and "half_flush" in points(r)


def test_quad_inside_a_pair_run():
    r = score(parse_case("xz 11m33p4444p55p77s99s +9s"))
    assert points(r) == {"seven_pairs": 10, "pair_run": 5, "luxury": 5}


def test_dragon_triplet_completed_by_a_discard_is_exposed():
    disc = score(parse_case("jj CCC123m456p789s55p +C"))
    self_ = score(parse_case("jj CCC123m456p789s55p +C self"))
    assert points(disc)["dragon_set"] == 1 and points(self_)["dragon_set"] == 2


def test_kong_counted_as_a_triplet_not_twice():
    # a 中 kong is +3 (not pung +1 and kong +1), and counts as a triplet for 碰碰胡 / 红旗飘飘
    r = score(parse_case("jj PPP99s +9s kong:CCCC pung:111m pung:555p self"))
    assert points(r) == {
        "all_pungs": 15,
        "red_flag": 10,
        "self_drawn": 5,
        "single_wait": 5,
        "dragon_set": 3 + 2,
    }


def test_five_copies_is_an_error():
    with pytest.raises(HandError, match="five or more copies of 5p"):
        score(parse_case("jj 55555p123m456s789s +5p"))


def test_items_add_up_on_a_busy_hand():
    r = score(parse_case("jj CCCPPP99p +9p pung:111p concealed_kong:3333p self bonus:4"))
    assert sum(i.points for i in r.items) == r.own
    assert points(r) == {
        "half_flush": 10,
        "all_pungs": 15,
        "red_flag": 10,
        "self_drawn": 5,
        "single_wait": 5,
        "bonus_tile": 4,
        "four_bonus_tiles": 10,
        "dragon_set": 4,
        "kong": 2,
    }
    assert amounts(r) == [r.own] * 3
