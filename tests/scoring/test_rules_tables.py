"""Rule tables are data: every pattern has a predicate, names and a DECISIONS reference, and a
house table changes a value without touching the engine."""

from __future__ import annotations

from importlib.resources import files

import pytest

from scoring import VARIANTS, HandError, format_text, load_rules, load_rules_file, score
from scoring.items import EATEN_KEYS, register, registry
from scoring.rules import load_overrides
from tests.scoring.util import parse_case


def _eaten_keys(rules) -> set[str]:
    """The item keys a table scores on a payer (吃炮): its ``[eaten]`` values, under their items."""
    return (
        {k for k in EATEN_KEYS if rules.eaten.get(k) or k in ("dragon_set", "kong")} if rules.eaten else set()
    )


def undeclared(family: str, tables) -> set[str]:
    """The registered keys of ``family`` that none of its ``tables`` declares (uses)."""
    declared = set().union(*(t.item_keys for t in tables if t.family == family))
    return set(registry(family)) - declared


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_key_a_table_declares_maps_to_exactly_one_registered_function(variant):
    rules = load_rules(variant)
    reg = registry(rules.family)
    keys = rules.item_keys
    assert keys <= set(reg), keys - set(reg)
    assert _eaten_keys(rules) <= keys
    functions = [reg[k].fn for k in keys]
    assert len(set(functions)) == len(functions)  # one function per key, none serves two keys
    for key in keys:
        assert reg[key].fn.__doc__, key
        assert (reg[key].kind == "pattern") == (key in rules.patterns), key
        zh, en, rule = rules.name(key)
        assert zh and en and rule.startswith("DECISIONS §"), key


@pytest.mark.parametrize("family", ["pao", "fan"])
def test_every_registered_function_is_used_by_a_table_of_its_family(family):
    assert undeclared(family, [load_rules(v) for v in VARIANTS]) == set()


def test_a_pattern_one_table_lacks_needs_no_exception(tmp_path):
    """A xingzi-only pattern (the traced change of issue 38): a row in xingzi's table and its
    function; jiujiang, which lacks it, needs nothing."""
    text = (files("scoring.rules") / "xingzi.toml").read_text("utf-8")
    row = ('name_zh = "房规牌型"', 'name_en = "House pattern"', "base = 10", 'rule = "DECISIONS §1.3"')
    text += "\n[patterns.house_only_pattern]\n" + "\n".join(row) + "\n"
    f = tmp_path / "xingzi.toml"
    f.write_text(text, encoding="utf-8")
    reg = registry("pao")
    register(reg, "house_only_pattern")(lambda r: False)
    try:
        tables = [load_rules("jiujiang"), load_rules_file(f)]
        assert "house_only_pattern" not in tables[0].item_keys and "house_only_pattern" in tables[1].item_keys
        assert undeclared("pao", tables) == set()
        assert undeclared("pao", tables[:1]) >= {"house_only_pattern"}  # no table uses it: caught
    finally:
        del reg["house_only_pattern"]


def test_a_key_registers_once():
    with pytest.raises(ValueError, match="registered twice"):
        register(registry("pao"), "half_flush")(lambda r: True)


def test_table_numbers_match_decisions():
    """The pattern values: tests/scoring/test_rule_docs.py reads them from DECISIONS' tables."""
    jj, xy = load_rules("jiujiang"), load_rules("xinyu")
    assert jj.patterns["seven_fairies"].base_self_drawn == 100
    assert jj.options.wait_bonus_needs_single_wait is True and xy.options.cap == 0
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
    r = score(parse_case("jj 777s999s33m +3m pung:222m pung:555p self"), house)
    assert r.own == 30 + 5 + 5


def test_text_format_for_each_variant():
    t = format_text(score(parse_case("xy EEESSSWWWCCCPP +P self")))
    assert "全风向" in t and "x8" in t and "Own: 32 (product)" in t
    t = format_text(score(parse_case("jj 234m567p678s99s +6s pung:777p")))
    assert "cannot win" in t and "二炮起胡" in t and "[pung:777p]" in t
    t = format_text(score(parse_case("xz 11m33p4444p55p77s99s +9s")))
    assert "豪华" in t and "潇洒" in t and "seven_pairs" in t


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_house_rule_key_is_documented(variant):
    """docs/rules/README.md "House rules per call" names every option and value key of the table."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "rules" / "README.md").read_text("utf-8")
    section = doc.split("## House rules per call", 1)[1]
    rules = load_rules(variant)
    keys = [*rules.raw["options"], *rules.extras, *rules.bonus, *rules.eaten, *rules.adder_rules]
    missing = [k for k in keys if f"`{k}`" not in section]
    assert not missing
    page = (Path(__file__).resolve().parents[2] / "docs" / "rules" / f"{variant}.md").read_text("utf-8")
    assert not [
        k for k in rules.raw["options"] if f"`{k}`" not in page
    ]  # each option on its variant page too


@pytest.mark.parametrize("load", [load_rules_file, load_overrides])
def test_a_rule_file_is_read_with_a_size_limit(load):
    # /dev/zero never ends: tomllib.load read it all (8 GB in 27 s) before this limit
    with pytest.raises(HandError, match="larger than 1 MiB") as e:
        load("/dev/zero")
    assert e.value.code == "bad_rule_table"
