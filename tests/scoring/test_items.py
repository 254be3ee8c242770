"""Every scored item, positive and negative, one line a case (DECISIONS §1.3 jiujiang / xingzi,
§2 xinyu): the hand (see :func:`tests.scoring.util.parse_case`) → the exact points (or
multipliers) per item key; keys not named score nothing. The id is the item key the case is
about. Values are worked out by hand from the tables.
"""

from __future__ import annotations

import math

import pytest

from scoring import score
from scoring.items import registry
from tests.scoring.util import case, parse_case, points

# fmt: off
PAO_CASES = [
    # 平胡 and its +1 adders
    case("basic", "jj 234m567p678s99s +6s pung:777p self", basic=1, self_drawn=1),
    case("self_drawn", "xz 234m567p678s99s +6s pung:777p self", basic=1, self_drawn=1),
    case("self_drawn-no-discard", "xz 234m567p678s99s +6s pung:777p", basic=1),
    case("concealed", "jj 123m456p789s345s55p +5p", basic=1, concealed=1, single_wait=1),
    case("closed_wait", "jj 123m456p789s345s55p +2m", basic=1, concealed=1, closed_wait=1),
    case("edge_wait", "jj 123m456p789s345s55p +3m", basic=1, concealed=1, edge_wait=1),
    case("edge_wait-789", "xz 789m456p789s345s55p +7m", basic=1, concealed=1, edge_wait=1),
    case("single_wait", "xz 234m567p99s +9s pung:777p pung:111s", basic=1, single_wait=1),
    # open wait, two waits: no wait adder (negative for edge/closed/single)
    case("edge_wait-no-open-wait", "jj 234m567p678s99s +6s pung:777p self", basic=1, self_drawn=1),
    # 45666 + 6: waits 3m/6m, no 独听 → no wait adder although 6 could complete the pair
    case("single_wait-no-two-waits", "jj 45666m123p789pCCC +6m", basic=1, concealed=1, dragon_set=2),
    # 混一色
    case("half_flush-jj", "jj 234p456p777pCCCPP +P self", half_flush=10, self_drawn=5, concealed=5, single_wait=5, dragon_set=2),
    case("half_flush-xz", "xz 234p456p777pCCCPP +P self", half_flush=10, self_drawn=1, concealed=1, single_wait=1, dragon_set=2),
    case("half_flush-no", "jj 234p456p789sCCCPP +P", basic=1, concealed=1, single_wait=1, dragon_set=2),
    # 清一色
    case("full_flush-jj", "jj 234p567p99p +9p pung:111p pung:888p", full_flush=20, single_wait=5),
    case("full_flush-xz", "xz 234p567p99p +9p pung:111p pung:888p", full_flush=15, single_wait=1),
    case("full_flush-xz-self", "xz 234p567p99p +9p pung:111p pung:888p self", full_flush=15, self_drawn=5, single_wait=1),
    # 碰碰胡
    case("all_pungs-jj", "jj 777s999s33m +3m pung:222m pung:555p self", all_pungs=15, self_drawn=5, single_wait=5),
    case("all_pungs-xz", "xz 777s999s33m +3m pung:222m pung:555p self", all_pungs=10, self_drawn=5, single_wait=1),
    case("all_pungs-with-kong", "jj 777s999s33m +3m kong:2222m pung:555p self", all_pungs=15, self_drawn=5, single_wait=5, kong=1),
    # 一条龙 (and a straight with extra tiles)
    case("pure_straight", "jj 123m456m789m55p +5p pung:777s", pure_straight=10, single_wait=5),
    case("pure_straight-xz", "xz 123m456m789m55p +5p pung:777s", pure_straight=10, single_wait=1),
    case("pure_straight-no", "jj 123m456m789p55p +5p pung:777s", basic=1, single_wait=1),
    case("pure_straight-extra-tiles", "jj 12345678999m555p +5p", pure_straight=10, concealed=5),
    # 七对
    case("seven_pairs-jj", "jj 11m33m55p77p99s22s44s +4s", seven_pairs=20),
    case("seven_pairs-jj-self", "jj 11m33m55p77p99s22s44s +4s self", seven_pairs=20, self_drawn=5),
    case("seven_pairs-xz", "xz 11m33m55p77p99s22s44s +4s", seven_pairs=10),
    # 七仙女 50 / 100 (replaces 七对, 清一色, 潇洒, 滚)
    case("seven_fairies-discard", "xz 11223344556677m +7m", seven_fairies=50),
    # 计大不计小: the ordinary 七对 reading of the same tiles (20 + 20 + 5 + 15 = 60) beats a flat 50
    case("seven_fairies-no-ordinary-reading-larger", "jj 11223344556677m +7m", seven_pairs=20, full_flush=20, pair_run=5, pair_run_extra=15),
    case("seven_fairies-self", "jj 11223344556677m +7m self", seven_fairies=100),
    case("seven_fairies-xz-3-9", "xz 33445566778899s +3s self", seven_fairies=100),
    case("seven_fairies-no", "jj 11223344556688m +8m", seven_pairs=20, full_flush=20, pair_run=5, pair_run_extra=15),
    # 全求人 (+ 碰碰胡), not on a self-draw
    case("all_melded", "jj 33m +3m pung:222m pung:555p pung:777s kong:9999s", all_melded=10, all_pungs=15, kong=1),
    case("all_melded-xz-20", "xz 33m +3m pung:222m pung:555p pung:777s pung:999s", all_melded=10, all_pungs=10),
    case("all_melded-self-no", "jj 33m +3m pung:222m pung:555p pung:777s kong:9999s self", all_pungs=15, self_drawn=5, single_wait=5, kong=1),
    case("all_melded-concealed-kong-no", "jj 33m +3m pung:222m pung:555p pung:777s concealed_kong:9999s", all_pungs=15, single_wait=5, kong=2),
    # 红旗飘飘 (standing 中 completed by a discard counts as exposed)
    case("red_flag", "jj CCCPPP123m456m99m +C", half_flush=10, red_flag=10, concealed=5, dragon_set=3),
    case("red_flag-self", "jj CCCPPP123m456m99m +C self", half_flush=10, red_flag=10, self_drawn=5, concealed=5, dragon_set=4),
    case("red_flag-kongs", "xz 123m456m99s +9s kong:CCCC concealed_kong:PPPP self", red_flag=10, self_drawn=5, single_wait=1, dragon_set=7),
    case("red_flag-no", "jj CCC123m456m789sPP +P", basic=1, concealed=1, single_wait=1, dragon_set=2),
    case("red_flag-seven_pairs-xz", "xz CCCCPPPP11m22m55p +5p", seven_pairs=10, red_flag=10, luxury=10),
    case("red_flag-seven_pairs-jj-no", "jj CCCCPPPP11m22m55p +5p", seven_pairs=20, luxury=10),
    # events
    case("kong_bloom", "jj 123m456m789s11s +1s concealed_kong:5555p self kong_bloom", kong_bloom=10, concealed=5, single_wait=5, kong=2),
    case("kong_bloom-xz", "xz 123m456m789s11s +1s concealed_kong:5555p self kong_bloom", kong_bloom=15, concealed=1, single_wait=1, kong=2),
    case("robbing_kong", "jj 234m567p678s99s +6s pung:777p robbing_kong payer:pung:666s", robbing_kong=10),
    case("kong_bloom-no", "jj 123m456m789s11s +1s concealed_kong:5555p self", basic=1, self_drawn=1, concealed=1, single_wait=1, kong=2),
    case("kong_discard", "jj 123m456p789s345s55p +2m kong_discard payer:kong:9999m", kong_discard=10, concealed=5, closed_wait=5),
    case("last_tile_draw", "jj 123m456p789s345s55p +2m self last_tile", last_tile_draw=10, concealed=5, closed_wait=5),
    case("last_tile_discard", "xz 123m456p789s345s55p +2m last_tile", last_tile_discard=10, concealed=1, closed_wait=1),
    case("heavenly", "jj 123m456p789s345s55p +2m self dealer heavenly", heavenly=10, self_drawn=5),
    case("earthly-jj", "jj 123m456p789s345s55p +3m earthly", earthly=20, edge_wait=5),
    case("earthly-xz", "xz 123m456p789s345s55p +3m earthly", earthly=10, edge_wait=1),
    case("earthly-replaces-ready_declared", "jj 123m456p789s345s55p +3m earthly ready_declared", earthly=20, edge_wait=5),
    case("ready_declared", "jj 234m345p567p678s99s +6s ready_declared", ready_declared=10),
    case("ready_declared-self-edge", "jj 123m456p789s345s55p +3m self ready_declared", ready_declared=10, self_drawn=5, edge_wait=5),
    # 潇洒 / 滚 / 豪华 (seeds: 潇洒带一/二/三滚; 11 33 4444 55 77 99 = 潇洒 + 豪华)
    case("pair_run", "jj 11m11p99p99m55s66s77s +7s", seven_pairs=20, pair_run=5),
    case("pair_run-1-extra", "xz 11m33p55s66s77s88s99p +1m", seven_pairs=10, pair_run=5, pair_run_extra=5),
    case("pair_run-2-extra", "xz 11m33p44s55s66s77s88s +1m", seven_pairs=10, pair_run=5, pair_run_extra=10),
    case("pair_run-3-extra", "xz 11m33s44s55s66s77s88s +1m", seven_pairs=10, pair_run=5, pair_run_extra=15),
    case("pair_run-two-runs", "xz 112233m556677p99s +9s", seven_pairs=10, pair_run=10),
    # 潇洒 / 滚 count consecutive ranks, a quad being one rank (§1.3): 22 33 4444 55 is four ranks
    case("pair_run_extra-quad-is-one-rank", "xz 22p33p4444p55p77s99s +9s", seven_pairs=10, pair_run=5, pair_run_extra=5, luxury=5),
    case("luxury-in-a-run", "xz 11m33p4444p55p77s99s +9s", seven_pairs=10, pair_run=5, luxury=5),
    case("luxury-three", "xz 1111m2222p3333s55s +5s", seven_pairs=10, luxury=15),
    case("pair_run-no", "xz 11m33m55p77p99s22s44s +4s", seven_pairs=10),
    # 潇洒碰碰胡 (123 123 123 vs 111 222 333: the pung reading is larger)
    case("pung_run-three", "jj 111222333m555p99s +9s", all_pungs=15, pung_run=5, concealed=5, single_wait=5),
    case("pung_run-four", "jj 111222333444m99s +9s", all_pungs=15, pung_run=10, concealed=5, single_wait=5),
    case("pung_run-with-kong-xz", "xz 555p666p99s +9s kong:7777p pung:111m self", all_pungs=10, pung_run=5, self_drawn=5, single_wait=1, kong=1),
    case("pung_run-no", "jj 111333555m777p99s +9s", all_pungs=15, concealed=5, single_wait=5),
    # bonus adders: 發, 四个发财, 中/白 sets, kongs
    case("bonus_tile", "jj 234m567p678s99s +6s pung:777p bonus:2", basic=1, bonus_tile=2),
    case("four_bonus_tiles", "xz 234m567p678s99s +6s pung:777p bonus:4", basic=1, bonus_tile=4, four_bonus_tiles=10),
    case("dragon_set-exposed-pung", "jj 234m567p678s99s +6s pung:CCC self", basic=1, self_drawn=1, dragon_set=1),
    case("dragon_set-exposed-kong", "jj 234m567p678s99s +6s kong:PPPP self", basic=1, self_drawn=1, dragon_set=3),
    case("dragon_set-added-kong", "jj 234m567p678s99s +6s added_kong:PPPP self", basic=1, self_drawn=1, dragon_set=3),
    case("dragon_set-concealed-kong", "jj 234m567p678s99s +6s concealed_kong:CCCC self", basic=1, self_drawn=1, concealed=1, dragon_set=4),
    case("dragon_set-no-pair", "jj 234m567p678sCC +6s pung:777p self", basic=1, self_drawn=1),
    case("kong", "jj 234m567p99s +9s kong:8888m concealed_kong:1111s self", basic=1, self_drawn=1, single_wait=1, kong=3),

]

FAN_CASES = [
    case("basic", "xy 123m456p789sEE +E pung:333s self"),  # the ×1 基本分 alone
    case("concealed", "xy 123m456p789s345sEE +E self", concealed=2),
    case("concealed-no-pung", "xy 123m456p789sEE +E pung:333s self"),
    case("concealed-no-concealed-kong", "xy 123m456p789sEE +E concealed_kong:3333s self", kong=2),
    case("kong", "xy 123m456p789sEE +E kong:3333s self", kong=2),
    case("kong-added", "xy 123m456p789sEE +E added_kong:3333s self", kong=2),
    case("seven_pairs", "xy 11m33p55p77s99sEESS +E self", seven_pairs=4),
    case("luxury_seven_pairs", "xy 1111m33p55p77s99sEE +E self", luxury_seven_pairs=8),
    case("half_flush", "xy 123m456m789m111mEE +E self", concealed=2, half_flush=2),
    case("full_flush", "xy 123m456m789m111m55m +5m self", concealed=2, full_flush=4),
    case("full_flush-seven-pairs", "xy 11223355668899m +9m self", seven_pairs=4, full_flush=4),
    case("all_pungs", "xy 111m555p999sEEESS +S self", concealed=2, all_pungs=2),
    case("all_pungs-melded", "xy 111m999sSS +S pung:555p pung:EEE self", all_pungs=2),
    case("all_melded", "xy SS +S pung:111m pung:555p pung:999s pung:EEE self", all_pungs=2, all_melded=4),
    case("all_honours", "xy EEESSSWWWCCCPP +P self", concealed=2, all_honours=8, all_pungs=2),
    # §2: the free shape is "scored as 清一色"; 全风向 needs a real winning shape.
    case("all_honours-no-free-shape", "xy ESWNCFPESWNCFE +E self", concealed=2, full_flush=4),
    case("all_honours-seven-pairs", "xy EESSWWNNCCFFPP +E self", seven_pairs=4, all_honours=8),
    case("all_honours-melded", "xy PP +P pung:EEE pung:SSS pung:WWW kong:CCCC self", kong=2, all_pungs=2, all_melded=4, all_honours=8),
    case("kong_bloom", "xy 123m456p789sEE +E kong:3333s self kong_bloom", kong=2, kong_bloom=2),
    case("cap", "xy 1111m33p55p77s99sEE +E self rule:cap=4", luxury_seven_pairs=8, cap=0.5),
    case("cap-not-reached", "xy 1111m33p55p77s99sEE +E self rule:cap=16", luxury_seven_pairs=8),

]
# fmt: on


@pytest.mark.parametrize(("spec", "expected"), PAO_CASES)
def test_pao_items(spec, expected):
    r = score(parse_case(spec))
    assert points(r) == expected
    assert r.own == sum(expected.values()) == sum(i.points for i in r.items)
    for i in r.items:
        assert i.reason and i.rule.startswith("DECISIONS §") and i.name_zh and i.name_en


@pytest.mark.parametrize(("spec", "expected"), FAN_CASES)
def test_fan_items(spec, expected):
    r = score(parse_case(spec))
    assert {i.key: i.multiplier for i in r.items if i.key != "basic"} == expected
    assert r.own == math.prod(expected.values()) == math.prod(i.multiplier for i in r.items)
    assert r.items[0].key == "basic"


@pytest.mark.parametrize(("family", "cases"), [("pao", PAO_CASES), ("fan", FAN_CASES)])
def test_every_registered_key_has_a_case(family, cases):
    """A new item key needs a case here whose id is the key (``key`` or ``key-…``)."""
    ids = [c.id for c in cases]
    assert [k for k in registry(family) if not any(i == k or i.startswith(f"{k}-") for i in ids)] == []
