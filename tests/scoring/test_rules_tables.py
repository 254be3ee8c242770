"""Rule tables are data: every pattern has a predicate, names and a DECISIONS reference, and a
house table changes a value without touching the engine."""

from __future__ import annotations

from importlib.resources import files

import pytest

from scoring import VARIANTS, format_text, load_rules, load_rules_file, score
from scoring.patterns import registry
from tests.scoring.util import hand, sc


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_pattern_has_a_predicate_and_a_rule_reference(variant):
    rules = load_rules(variant)
    reg = registry(rules.family)
    assert set(rules.patterns) <= set(reg)
    for key, p in rules.patterns.items():
        assert p.name_zh and p.name_en and p.rule.startswith("DECISIONS §"), key
        assert reg[key].holds.__doc__, key


def test_table_numbers_match_decisions():
    jj, xz, xy = (load_rules(v) for v in VARIANTS)
    assert {k: p.base for k, p in jj.patterns.items()} == {
        "half_flush": 10, "full_flush": 20, "all_pungs": 15, "pure_straight": 10, "seven_pairs": 20,
        "seven_fairies": 50, "all_melded": 10, "red_flag": 10, "kong_bloom": 10, "robbing_kong": 10,
        "kong_discard": 10, "last_tile_draw": 10, "last_tile_discard": 10, "heavenly": 10, "earthly": 20,
        "ready_declared": 10,
    }  # fmt: skip
    assert {k: p.base for k, p in xz.patterns.items()} == {
        "half_flush": 10, "full_flush": 15, "all_pungs": 10, "pure_straight": 10, "seven_pairs": 10,
        "seven_fairies": 50, "all_melded": 10, "red_flag": 10, "kong_bloom": 15, "robbing_kong": 10,
        "kong_discard": 10, "last_tile_draw": 10, "last_tile_discard": 10, "heavenly": 10, "earthly": 10,
    }  # fmt: skip
    assert jj.patterns["seven_fairies"].base_self_drawn == 100
    assert {k: p.multiplier for k, p in xy.patterns.items()} == {
        "concealed": 2, "kong": 2, "seven_pairs": 4, "luxury_seven_pairs": 8, "half_flush": 2,
        "full_flush": 4, "all_pungs": 2, "all_melded": 4, "all_honours": 8, "kong_bloom": 2,
    }  # fmt: skip
    assert jj.option("wait_bonus_needs_single_wait") is True and xy.option("cap") == 0
    assert jj.bonus == {
        "bonus_tile": 1, "four_bonus_tiles": 10, "dragon_pung": 1, "dragon_standing": 2,
        "dragon_kong": 3, "dragon_concealed_kong": 4, "kong": 1, "concealed_kong": 2,
    }  # fmt: skip
    assert len(jj.tile_kinds) == 29 and len(xy.tile_kinds) == 34


def test_house_table_changes_a_value(tmp_path):
    text = (files("scoring.rules") / "jiujiang.toml").read_text("utf-8")
    text = text.replace("base = 15                            # §1.3 table", "base = 30  # house rule")
    f = tmp_path / "house.toml"
    f.write_text(text, encoding="utf-8")
    house = load_rules_file(f)
    r = sc("jiujiang", "777s999s33m", "3m", "pung 222m, pung 555p", self_drawn=True, rules=house)
    assert r.own == 30 + 5 + 5


def test_text_format_for_each_variant():
    t = format_text(sc("xinyu", "EEESSSWWWCCCPP", "P", self_drawn=True))
    assert "全风向" in t and "x8" in t and "Own: 32 (product)" in t
    t = format_text(sc("jiujiang", "234m567p678s99s", "6s", "pung 777p"))
    assert "cannot win" in t and "二炮起胡" in t and "[pung:777p]" in t
    t = format_text(score(hand("xingzi", "11m33p4444p55p77s99s", "9s")))
    assert "豪华" in t and "潇洒" in t and "seven_pairs" in t
