"""Jiujiang / xingzi: every pattern, extra and adder of the tables, positive and negative
(DECISIONS §1.3), the seeds' worked values, and the 二炮起胡 gate (§1.4).

Each case: variant, standing tiles, winning tile, melds, how it was won → the exact items
(points per key) and own. Values are worked out by hand from the tables.
"""

from __future__ import annotations

import dataclasses

import pytest

from scoring import load_rules
from tests.scoring.util import amounts, payer, points, sc

SD = dict(self_drawn=True)
CLOSED_2M = "123m456p789s345s55p"  # waits on 2m only (13m + 2): closed wait


# (id, variant, concealed, win, melds, kwargs, expected points per key)
CASES = [
    # 平胡 and its +1 adders
    ("basic-self", "jiujiang", "234m567p678s99s", "6s", "pung 777p", SD, {"basic": 1, "self_drawn": 1}),
    (
        "basic-concealed-closed",
        "jiujiang",
        CLOSED_2M,
        "2m",
        "",
        {},
        {"basic": 1, "concealed": 1, "closed_wait": 1},
    ),
    (
        "basic-edge",
        "jiujiang",
        "123m456p789s345s55p",
        "3m",
        "",
        {},
        {"basic": 1, "concealed": 1, "edge_wait": 1},
    ),
    (
        "basic-edge-789",
        "xingzi",
        "789m456p789s345s55p",
        "7m",
        "",
        {},
        {"basic": 1, "concealed": 1, "edge_wait": 1},
    ),
    (
        "basic-single",
        "xingzi",
        "234m567p99s",
        "9s",
        "pung 777p, pung 111s",
        {},
        {"basic": 1, "single_wait": 1},
    ),
    # open wait, two waits: no wait adder (negative for edge/closed/single)
    (
        "basic-open-no-wait",
        "jiujiang",
        "234m567p678s99s",
        "6s",
        "pung 777p",
        SD,
        {"basic": 1, "self_drawn": 1},
    ),
    # 45666 + 6: waits 3m/6m, no 独听 → no wait adder although 6 could complete the pair
    (
        "trap-45666",
        "jiujiang",
        "45666m123p789pCCC",
        "6m",
        "",
        {},
        {"basic": 1, "concealed": 1, "dragon_set": 2},
    ),
    # 混一色
    (
        "half-flush-jj",
        "jiujiang",
        "234p456p777pCCCPP",
        "P",
        "",
        SD,
        {"half_flush": 10, "self_drawn": 5, "concealed": 5, "single_wait": 5, "dragon_set": 2},
    ),
    (
        "half-flush-xz",
        "xingzi",
        "234p456p777pCCCPP",
        "P",
        "",
        SD,
        {"half_flush": 10, "self_drawn": 1, "concealed": 1, "single_wait": 1, "dragon_set": 2},
    ),
    (
        "not-half-flush",
        "jiujiang",
        "234p456p789sCCCPP",
        "P",
        "",
        {},
        {"basic": 1, "concealed": 1, "single_wait": 1, "dragon_set": 2},
    ),
    # 清一色
    (
        "full-flush-jj",
        "jiujiang",
        "234p567p99p",
        "9p",
        "pung 111p, pung 888p",
        {},
        {"full_flush": 20, "single_wait": 5},
    ),
    (
        "full-flush-xz",
        "xingzi",
        "234p567p99p",
        "9p",
        "pung 111p, pung 888p",
        {},
        {"full_flush": 15, "single_wait": 1},
    ),
    (
        "full-flush-xz-self",
        "xingzi",
        "234p567p99p",
        "9p",
        "pung 111p, pung 888p",
        SD,
        {"full_flush": 15, "self_drawn": 5, "single_wait": 1},
    ),
    # 碰碰胡
    (
        "all-pungs-jj",
        "jiujiang",
        "777s999s33m",
        "3m",
        "pung 222m, pung 555p",
        SD,
        {"all_pungs": 15, "self_drawn": 5, "single_wait": 5},
    ),
    (
        "all-pungs-xz",
        "xingzi",
        "777s999s33m",
        "3m",
        "pung 222m, pung 555p",
        SD,
        {"all_pungs": 10, "self_drawn": 5, "single_wait": 1},
    ),
    (
        "all-pungs-with-kong",
        "jiujiang",
        "777s999s33m",
        "3m",
        "kong 2222m, pung 555p",
        SD,
        {"all_pungs": 15, "self_drawn": 5, "single_wait": 5, "kong": 1},
    ),
    # 一条龙 (and a straight with extra tiles)
    (
        "straight",
        "jiujiang",
        "123m456m789m55p",
        "5p",
        "pung 777s",
        {},
        {"pure_straight": 10, "single_wait": 5},
    ),
    (
        "straight-xz",
        "xingzi",
        "123m456m789m55p",
        "5p",
        "pung 777s",
        {},
        {"pure_straight": 10, "single_wait": 1},
    ),
    ("no-straight", "jiujiang", "123m456m789p55p", "5p", "pung 777s", {}, {"basic": 1, "single_wait": 1}),
    (
        "straight-extra-tiles",
        "jiujiang",
        "12345678999m555p",
        "5p",
        "",
        {},
        {"pure_straight": 10, "concealed": 5},
    ),
    # 七对
    ("seven-pairs-jj", "jiujiang", "11m33m55p77p99s22s44s", "4s", "", {}, {"seven_pairs": 20}),
    (
        "seven-pairs-jj-self",
        "jiujiang",
        "11m33m55p77p99s22s44s",
        "4s",
        "",
        SD,
        {"seven_pairs": 20, "self_drawn": 5},
    ),
    ("seven-pairs-xz", "xingzi", "11m33m55p77p99s22s44s", "4s", "", {}, {"seven_pairs": 10}),
    # 七仙女 50 / 100 (replaces 七对, 清一色, 潇洒, 滚)
    ("fairies-discard", "jiujiang", "11223344556677m", "7m", "", {}, {"seven_fairies": 50}),
    ("fairies-self", "jiujiang", "11223344556677m", "7m", "", SD, {"seven_fairies": 100}),
    ("fairies-xz-3-9", "xingzi", "33445566778899s", "3s", "", SD, {"seven_fairies": 100}),
    (
        "not-fairies",
        "jiujiang",
        "11223344556688m",
        "8m",
        "",
        {},
        {"seven_pairs": 20, "full_flush": 20, "pair_run": 5, "pair_run_extra": 15},
    ),
    # 全求人 (+ 碰碰胡), not on a self-draw
    (
        "all-melded",
        "jiujiang",
        "33m",
        "3m",
        "pung 222m, pung 555p, pung 777s, kong 9999s",
        {},
        {"all_melded": 10, "all_pungs": 15, "kong": 1},
    ),
    (
        "all-melded-xz-20",
        "xingzi",
        "33m",
        "3m",
        "pung 222m, pung 555p, pung 777s, pung 999s",
        {},
        {"all_melded": 10, "all_pungs": 10},
    ),
    (
        "not-all-melded-self",
        "jiujiang",
        "33m",
        "3m",
        "pung 222m, pung 555p, pung 777s, kong 9999s",
        SD,
        {"all_pungs": 15, "self_drawn": 5, "single_wait": 5, "kong": 1},
    ),
    (
        "not-all-melded-concealed-kong",
        "jiujiang",
        "33m",
        "3m",
        "pung 222m, pung 555p, pung 777s, concealed_kong 9999s",
        {},
        {"all_pungs": 15, "single_wait": 5, "kong": 2},
    ),
    # 红旗飘飘 (standing 中 completed by a discard counts as exposed)
    (
        "red-flag",
        "jiujiang",
        "CCCPPP123m456m99m",
        "C",
        "",
        {},
        {"half_flush": 10, "red_flag": 10, "concealed": 5, "dragon_set": 3},
    ),
    (
        "red-flag-self",
        "jiujiang",
        "CCCPPP123m456m99m",
        "C",
        "",
        SD,
        {"half_flush": 10, "red_flag": 10, "self_drawn": 5, "concealed": 5, "dragon_set": 4},
    ),
    (
        "red-flag-kongs",
        "xingzi",
        "123m456m99s",
        "9s",
        "kong CCCC, concealed_kong PPPP",
        SD,
        {"red_flag": 10, "self_drawn": 5, "single_wait": 1, "dragon_set": 7},
    ),
    (
        "no-red-flag",
        "jiujiang",
        "CCC123m456m789sPP",
        "P",
        "",
        {},
        {"basic": 1, "concealed": 1, "single_wait": 1, "dragon_set": 2},
    ),
    (
        "red-flag-seven-pairs-xz",
        "xingzi",
        "CCCCPPPP11m22m55p",
        "5p",
        "",
        {},
        {"seven_pairs": 10, "red_flag": 10, "luxury": 10},
    ),
    (
        "no-red-flag-seven-pairs-jj",
        "jiujiang",
        "CCCCPPPP11m22m55p",
        "5p",
        "",
        {},
        {"seven_pairs": 20, "luxury": 10},
    ),
    # events
    (
        "kong-bloom",
        "jiujiang",
        "123m456m789s11s",
        "1s",
        "concealed_kong 5555p",
        dict(self_drawn=True, events=("kong_bloom",)),
        {"kong_bloom": 10, "concealed": 5, "single_wait": 5, "kong": 2},
    ),
    (
        "kong-bloom-xz",
        "xingzi",
        "123m456m789s11s",
        "1s",
        "concealed_kong 5555p",
        dict(self_drawn=True, events=("kong_bloom",)),
        {"kong_bloom": 15, "concealed": 1, "single_wait": 1, "kong": 2},
    ),
    (
        "no-kong-bloom",
        "jiujiang",
        "123m456m789s11s",
        "1s",
        "concealed_kong 5555p",
        SD,
        {"basic": 1, "self_drawn": 1, "concealed": 1, "single_wait": 1, "kong": 2},
    ),
    (
        "kong-discard",
        "jiujiang",
        CLOSED_2M,
        "2m",
        "",
        dict(events=("kong_discard",)),
        {"kong_discard": 10, "concealed": 5, "closed_wait": 5},
    ),
    (
        "last-tile-draw",
        "jiujiang",
        CLOSED_2M,
        "2m",
        "",
        dict(self_drawn=True, events=("last_tile",)),
        {"last_tile_draw": 10, "concealed": 5, "closed_wait": 5},
    ),
    (
        "last-tile-discard",
        "xingzi",
        CLOSED_2M,
        "2m",
        "",
        dict(events=("last_tile",)),
        {"last_tile_discard": 10, "concealed": 1, "closed_wait": 1},
    ),
    (
        "heavenly",
        "jiujiang",
        CLOSED_2M,
        "2m",
        "",
        dict(self_drawn=True, winner_is_dealer=True, events=("heavenly",)),
        {"heavenly": 10, "self_drawn": 5},
    ),
    (
        "earthly-jj",
        "jiujiang",
        CLOSED_2M,
        "3m",
        "",
        dict(events=("earthly",)),
        {"earthly": 20, "edge_wait": 5},
    ),
    ("earthly-xz", "xingzi", CLOSED_2M, "3m", "", dict(events=("earthly",)), {"earthly": 10, "edge_wait": 1}),
    (
        "earthly-not-ready",
        "jiujiang",
        CLOSED_2M,
        "3m",
        "",
        dict(events=("earthly", "ready_declared")),
        {"earthly": 20, "edge_wait": 5},
    ),
    (
        "ready",
        "jiujiang",
        "234m345p567p678s99s",
        "6s",
        "",
        dict(events=("ready_declared",)),
        {"ready_declared": 10},
    ),
    (
        "ready-self-edge",
        "jiujiang",
        CLOSED_2M,
        "3m",
        "",
        dict(self_drawn=True, events=("ready_declared",)),
        {"ready_declared": 10, "self_drawn": 5, "edge_wait": 5},
    ),
    # 潇洒 / 滚 / 豪华 (seeds: 潇洒带一/二/三滚; 11 33 4444 55 77 99 = 潇洒 + 豪华)
    ("pair-run", "jiujiang", "11m11p99p99m55s66s77s", "7s", "", {}, {"seven_pairs": 20, "pair_run": 5}),
    (
        "pair-run-1-extra",
        "xingzi",
        "11m33p55s66s77s88s99p",
        "1m",
        "",
        {},
        {"seven_pairs": 10, "pair_run": 5, "pair_run_extra": 5},
    ),
    (
        "pair-run-2-extra",
        "xingzi",
        "11m33p44s55s66s77s88s",
        "1m",
        "",
        {},
        {"seven_pairs": 10, "pair_run": 5, "pair_run_extra": 10},
    ),
    (
        "pair-run-3-extra",
        "xingzi",
        "11m33s44s55s66s77s88s",
        "1m",
        "",
        {},
        {"seven_pairs": 10, "pair_run": 5, "pair_run_extra": 15},
    ),
    ("two-pair-runs", "xingzi", "112233m556677p99s", "9s", "", {}, {"seven_pairs": 10, "pair_run": 10}),
    (
        "quad-in-run",
        "xingzi",
        "11m33p4444p55p77s99s",
        "9s",
        "",
        {},
        {"seven_pairs": 10, "pair_run": 5, "luxury": 5},
    ),
    ("three-luxuries", "xingzi", "1111m2222p3333s55s", "5s", "", {}, {"seven_pairs": 10, "luxury": 15}),
    ("no-pair-run", "xingzi", "11m33m55p77p99s22s44s", "4s", "", {}, {"seven_pairs": 10}),
    # 潇洒碰碰胡 (123 123 123 vs 111 222 333: the pung reading is larger)
    (
        "pung-run-three",
        "jiujiang",
        "111222333m555p99s",
        "9s",
        "",
        {},
        {"all_pungs": 15, "pung_run": 5, "concealed": 5, "single_wait": 5},
    ),
    (
        "pung-run-four",
        "jiujiang",
        "111222333444m99s",
        "9s",
        "",
        {},
        {"all_pungs": 15, "pung_run": 10, "concealed": 5, "single_wait": 5},
    ),
    (
        "pung-run-with-kong-xz",
        "xingzi",
        "555p666p99s",
        "9s",
        "kong 7777p, pung 111m",
        SD,
        {"all_pungs": 10, "pung_run": 5, "self_drawn": 5, "single_wait": 1, "kong": 1},
    ),
    (
        "no-pung-run",
        "jiujiang",
        "111333555m777p99s",
        "9s",
        "",
        {},
        {"all_pungs": 15, "concealed": 5, "single_wait": 5},
    ),
    # bonus adders: 發, 四个发财, 中/白 sets, kongs
    (
        "bonus-tiles",
        "jiujiang",
        "234m567p678s99s",
        "6s",
        "pung 777p",
        dict(bonus_tiles=2),
        {"basic": 1, "bonus_tile": 2},
    ),
    (
        "four-bonus",
        "xingzi",
        "234m567p678s99s",
        "6s",
        "pung 777p",
        dict(bonus_tiles=4),
        {"basic": 1, "bonus_tile": 4, "four_bonus_tiles": 10},
    ),
    (
        "dragon-exposed-pung",
        "jiujiang",
        "234m567p678s99s",
        "6s",
        "pung CCC",
        SD,
        {"basic": 1, "self_drawn": 1, "dragon_set": 1},
    ),
    (
        "dragon-exposed-kong",
        "jiujiang",
        "234m567p678s99s",
        "6s",
        "kong PPPP",
        SD,
        {"basic": 1, "self_drawn": 1, "dragon_set": 3},
    ),
    (
        "dragon-added-kong",
        "jiujiang",
        "234m567p678s99s",
        "6s",
        "added_kong PPPP",
        SD,
        {"basic": 1, "self_drawn": 1, "dragon_set": 3},
    ),
    (
        "dragon-concealed-kong",
        "jiujiang",
        "234m567p678s99s",
        "6s",
        "concealed_kong CCCC",
        SD,
        {"basic": 1, "self_drawn": 1, "concealed": 1, "dragon_set": 4},
    ),
    (
        "dragon-pair-no-bonus",
        "jiujiang",
        "234m567p678sCC",
        "6s",
        "pung 777p",
        SD,
        {"basic": 1, "self_drawn": 1},
    ),
    (
        "other-kongs",
        "jiujiang",
        "234m567p99s",
        "9s",
        "kong 8888m, concealed_kong 1111s",
        SD,
        {"basic": 1, "self_drawn": 1, "single_wait": 1, "kong": 3},
    ),
]


@pytest.mark.parametrize(
    ("variant", "concealed", "win", "melds", "kw", "expected"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_items(variant, concealed, win, melds, kw, expected):
    r = sc(variant, concealed, win, melds, **kw)
    assert points(r) == expected
    assert r.own == sum(expected.values())
    assert sum(i.points for i in r.items) == r.own
    for i in r.items:
        assert i.reason and i.rule.startswith("DECISIONS §") and i.name_zh and i.name_en


def test_seed_robbing_kong_11_16_21_jiujiang():
    robbed = [payer("b", "pung 222m")]
    # 11: not concealed (a pung down), the wait is open
    r = sc("jiujiang", "123m456p99s", "1m", "pung 777p, pung 555s", events=("robbing_kong",),
           payers=[payer("b", "pung 111m")])  # fmt: skip
    assert (r.own, amounts(r)) == (10, [11])
    # 16: concealed, open wait (3s of 345s, also 6s)
    r = sc("jiujiang", CLOSED_2M.replace("345s", "345s"), "3s", events=("robbing_kong",))
    assert (r.own, amounts(r)) == (15, [16])
    # 21: concealed + closed
    r = sc("jiujiang", CLOSED_2M, "2m", events=("robbing_kong",), payers=robbed)
    assert (r.own, amounts(r)) == (20, [21])
    assert points(r) == {"robbing_kong": 10, "concealed": 5, "closed_wait": 5}


def test_seed_robbing_kong_11_12_13_xingzi():
    r = sc("xingzi", "123m456p99s", "1m", "pung 777p, pung 555s", events=("robbing_kong",))
    assert amounts(r) == [11]
    r = sc("xingzi", CLOSED_2M, "3s", events=("robbing_kong",))
    assert amounts(r) == [12]
    r = sc("xingzi", CLOSED_2M, "2m", events=("robbing_kong",))
    assert amounts(r) == [13]


def test_robbed_kong_is_eaten_even_when_not_listed():
    r = sc("jiujiang", CLOSED_2M, "2m", events=("robbing_kong",))
    eaten = r.payments[0].eaten_items
    assert [(i.key, i.points) for i in eaten] == [("kong", 1)]
    assert r.notes and "robbed kong" in r.notes[0]


def test_seed_four_bonus_tiles_plus_ten():
    r = sc("jiujiang", "234m567p678s99s", "6s", "pung 777p", self_drawn=True, bonus_tiles=4)
    assert r.own == 1 + 1 + 4 + 10


# ---- 二炮起胡 (§1.4) ----------------------------------------------------------------------


def test_minimum_blocks_a_one_pao_discard():
    r = sc("jiujiang", "234m567p678s99s", "6s", "pung 777p")
    assert not r.can_win and "二炮起胡" in r.reason and r.payments == ()
    assert r.own == 1


def test_eaten_pao_do_not_lift_the_minimum():
    r = sc("xingzi", "234m567p678s99s", "6s", "pung 777p", payers=[payer("b", "kong 1111s", bonus_tiles=3)])
    assert not r.can_win


def test_two_pao_on_a_discard_may_win():
    r = sc("jiujiang", "234m567p678s99s", "6s", "pung 777p", bonus_tiles=1)
    assert r.can_win and r.own == 2


def test_self_draw_always_reaches_two():
    r = sc("jiujiang", "234m567p678s99s", "6s", "pung 777p", self_drawn=True)
    assert r.can_win and r.own == 2


@pytest.mark.parametrize("event", ["robbing_kong", "kong_discard", "last_tile"])
def test_minimum_exceptions_with_a_low_table(event):
    rules = load_rules("jiujiang")
    low = dict(rules.patterns)
    key = {"last_tile": "last_tile_discard"}.get(event, event)
    low[key] = dataclasses.replace(low[key], base=0, adders={})
    table = dataclasses.replace(rules, patterns=low)
    r = sc("jiujiang", "234m567p678s99s", "6s", "pung 777p", events=(event,), rules=table)
    assert r.can_win and r.own == 0


def test_wait_bonus_option_off_gives_single_wait_on_two_waits():
    rules = load_rules("jiujiang")
    off = dataclasses.replace(rules, options={**rules.options, "wait_bonus_needs_single_wait": False})
    r = sc("jiujiang", "45666m123p789pCCC", "6m", rules=off)
    assert points(r) == {"basic": 1, "concealed": 1, "single_wait": 1, "dragon_set": 2}
    assert r.wait == "single"
    r = sc("jiujiang", "45666m123p789pCCC", "6m")
    assert "single_wait" not in points(r) and [t.code for t in r.waits] == ["3m", "6m"]
