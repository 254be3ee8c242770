"""Every judgement call of DECISIONS is a table option: each one on and off (a positive and a
negative test), set per call through the ``rules`` overrides; the overrides themselves; several
winners on one discard."""

from __future__ import annotations

import math

import pytest

from scoring import VARIANTS, HandError, HandInput, Payer, load_rules, score, score_json, score_winners
from tests.scoring.util import amounts, parse_case, points

RED = "123m456mCCCPPP99s +9s self"  # 中 and 白 standing: 红旗飘飘 on a 平胡 shape


def _pao(spec: str, **rules) -> dict[str, int]:
    return points(score(parse_case(spec, rules=rules)))


def _fan(spec: str, **rules) -> float:
    r = score(parse_case(spec, rules=rules))
    assert math.prod(i.multiplier for i in r.items) == r.own
    return r.own


# (option or table key, value, hand, expected points per key) — the table's own value first
PAO_OPTIONS = [
    ("red_flag_is_addon", True, f"jj {RED}", dict(basic=1, self_drawn=1, concealed=1, single_wait=1, dragon_set=4, red_flag=10)),
    ("red_flag_is_addon", False, f"jj {RED}", dict(red_flag=10, self_drawn=5, concealed=5, single_wait=5, dragon_set=4)),
    ("red_flag_is_addon", False, f"xz {RED}", dict(red_flag=10, self_drawn=5, concealed=1, single_wait=1, dragon_set=4)),
    ("red_flag_is_addon", True, f"xz {RED}", dict(basic=1, self_drawn=1, concealed=1, single_wait=1, dragon_set=4, red_flag=10)),
    ("seven_fairies.compare_without", True, "jj 11223344556677m +7m", dict(seven_pairs=20, full_flush=20, pair_run=5, pair_run_extra=15)),
    ("seven_fairies.compare_without", False, "jj 11223344556677m +7m", dict(seven_fairies=50)),
    ("wait_bonus_needs_single_wait", True, "jj 45666m123p789pCCC +6m", dict(basic=1, concealed=1, dragon_set=2)),
    ("wait_bonus_needs_single_wait", False, "jj 45666m123p789pCCC +6m", dict(basic=1, concealed=1, single_wait=1, dragon_set=2)),
]  # fmt: skip


@pytest.mark.parametrize(
    ("key", "value", "spec", "expected"), PAO_OPTIONS, ids=[f"{k}={v}" for k, v, *_ in PAO_OPTIONS]
)
def test_pao_option(key, value, spec, expected):
    assert _pao(spec, **{key: value}) == expected


FAN_OPTIONS = [
    ("kong_counts_once", True, "xy 123m456pEE +E kong:3333s concealed_kong:7777s self", 2),
    ("kong_counts_once", False, "xy 123m456pEE +E kong:3333s concealed_kong:7777s self", 4),
    ("luxury_counts_once", True, "xy 1111m2222p55p77sEE +E self", 8),
    ("luxury_counts_once", False, "xy 1111m2222p55p77sEE +E self", 64),
    ("concealed_with_seven_pairs", False, "xy 11m33p55p77s99sEESS +E self", 4),
    ("concealed_with_seven_pairs", True, "xy 11m33p55p77s99sEESS +E self", 8),
    ("cap", 0, "xy EEESSSWWWCCCPP +P self", 32),
    ("cap", 16, "xy EEESSSWWWCCCPP +P self", 16),
]


@pytest.mark.parametrize(
    ("key", "value", "spec", "own"), FAN_OPTIONS, ids=[f"{k}={v}" for k, v, *_ in FAN_OPTIONS]
)
def test_fan_option(key, value, spec, own):
    assert _fan(spec, **{key: value}) == own


def test_xinyu_free_shape_is_full_flush_never_all_honours():
    r = score(parse_case("xy ESWNCFPESWNCFE +E self"))
    assert {i.key: i.multiplier for i in r.items} == {
        "basic": 1,
        "concealed": 2,
        "full_flush": 4,
    }
    assert r.own == 8


@pytest.mark.parametrize(
    ("value", "expected"), [(False, {"dragon_set": 5}), (True, {"dragon_set": 5, "red_flag": 10})]
)
def test_payer_red_flag_counts_concealed_kong(value, expected):
    h = parse_case(
        "jj 123m456m789s234s55p +5p",
        rules={"payer_red_flag_counts_concealed_kong": value},
        payers=(Payer("b", melds=parse_case("jj 11m +1m pung:CCC concealed_kong:PPPP").melds),),
    )
    r = score(h)
    assert points(HandEaten(r)) == expected and amounts(r) == [3 + sum(expected.values())]


class HandEaten:
    """The eaten items of the first payer, as ``points`` reads a result."""

    def __init__(self, r):
        self.items = r.payments[0].eaten_items


@pytest.mark.parametrize(("value", "expected"), [(True, [4, 2, 2]), (False, [2, 2, 2])])
def test_dealer_doubles_on_self_draw(value, expected):
    r = score(
        parse_case("xz 234m567p678s99s +6s pung:777p self", rules={"dealer_doubles_on_self_draw": value})
    )
    assert amounts(r) == expected
    # the dealer's own win and the dealer's discard stay doubled either way
    dealer_wins = parse_case(
        "xz 234m567p678s99s +6s pung:777p self dealer", rules={"dealer_doubles_on_self_draw": value}
    )
    assert amounts(score(dealer_wins)) == [4, 4, 4]


# ---- house rules per call (the `rules` object, `jxmj score --rules`) ---------------------------

HAND = {"variant": "jiujiang", "concealed": "234p567p99p", "winning_tile": "9p", "self_drawn": False,
        "melds": [{"kind": "pung", "tiles": "111p"}, {"kind": "pung", "tiles": "888p"}]}  # fmt: skip


def test_rules_override_a_value_and_the_result_echoes_it():
    assert score_json(HAND)["own"] == 25 and "rules_applied" not in score_json(HAND)
    out = score_json({**HAND, "rules": {"full_flush.base": 15, "patterns.full_flush.adders.single_wait": 1}})
    assert out["own"] == 16
    assert out["rules_applied"] == {
        "patterns.full_flush.base": 15,
        "patterns.full_flush.adders.single_wait": 1,
    }


@pytest.mark.parametrize(
    ("rules", "code", "fragment"),
    [
        ({"full_flush.bse": 15}, "unknown_rule_key", "'full_flush.bse'"),
        ({"no_such_option": True}, "unknown_rule_key", "'no_such_option'"),
        ({"xinyu.cap": 16}, "unknown_rule_key", "'xinyu.cap'"),  # another variant's table
        ({"tiles.honours": []}, "unknown_rule_key", "'tiles.honours'"),  # structure is not a house rule
        ({"full_flush.base": "15"}, "bad_rule_value", "patterns.full_flush.base must be a whole number"),
        ({"min_win": True}, "bad_rule_value", "options.min_win must be a whole number"),
        ({"red_flag_is_addon": 1}, "bad_rule_value", "options.red_flag_is_addon must be true or false"),
        ({"bonus.kong": -1}, "bad_rule_value", "bonus.kong must be from 0 to 1,000,000"),
        ([1], "bad_field", "rules must be an object"),
        ({"extras": {}, "cpa": 1}, "unknown_rule_key", "'cpa'"),  # {} was an internal TypeError (cache key)
        ({"extras": {"pair_runn": 5}}, "unknown_rule_key", "'extras.pair_runn'"),  # nested: the whole path
        ({"full_flush.replaces": [{}]}, "bad_rule_value", "replaces must be a list of names"),
        ({"full_flush.replaces": ["full_flush"]}, "bad_rule_value", "a pattern cannot replace itself"),
        ({"min_win_exceptions": ["robing_kong"]}, "bad_rule_value", "the unknown item 'robing_kong'"),
        ({"adder_rules.concealed_excluded_by": ["x"]}, "bad_rule_value", "the unknown item 'x'"),
    ],
)
def test_rules_override_errors_name_the_key(rules, code, fragment):
    with pytest.raises(HandError) as e:
        score_json({**HAND, "rules": rules})
    assert e.value.code == code and fragment in str(e.value)


@pytest.mark.parametrize(
    ("rules", "detail"),
    [
        ({"full_flush.bse": 15}, {"key": "full_flush.bse", "keys": "base, base_self_drawn, replaces, "
          "compare_without, adders.<self_drawn|concealed|edge_wait|closed_wait|single_wait>"}),
        ({"extras.pair_runn": 5}, {"key": "extras.pair_runn", "keys": "extras.luxury, extras.luxury_max, "
          "extras.pair_run, extras.pair_run_extra, extras.pair_run_extra_max, extras.pair_run_min, "
          "extras.pung_run_four, extras.pung_run_three"}),  # jiujiang.toml's [extras]
        ({"min_win": True}, {"key": "options.min_win", "want": "int"}),
        ({"bonus.kong": -1}, {"key": "bonus.kong", "want": "int"}),
        ({"red_flag_is_addon": 1}, {"key": "options.red_flag_is_addon", "want": "bool"}),
        ({"full_flush.replaces": [{}]}, {"key": "patterns.full_flush.replaces", "want": "names"}),
        ({"full_flush.replaces": ["full_flush"]}, {"key": "patterns.full_flush.replaces", "want": "not_itself"}),
        ({"min_win_exceptions": ["robing_kong"]},
         {"key": "options.min_win_exceptions", "want": "known_item", "item": "robing_kong"}),
    ],
)  # fmt: skip
def test_rules_override_errors_carry_their_parts_for_the_app_to_word(rules, detail):
    """`HandError.detail`: what the app's zh / en catalog needs to say it (never the sentence)."""
    with pytest.raises(HandError) as e:
        score_json({**HAND, "rules": rules})
    assert e.value.detail == detail
    assert e.value.with_prefix("x: ").detail == detail


def test_rules_override_keys_of_every_shape():
    xy = {"variant": "xinyu", "concealed": "EEESSSWWWCCCPP", "winning_tile": "P", "self_drawn": True}
    for key in ("cap", "options.cap", "xinyu.cap", "xinyu.options.cap"):
        out = score_json({**xy, "rules": {key: 16}})
        assert out["own"] == 16 and out["rules_applied"] == {"options.cap": 16}
    out = score_json({**xy, "rules": {"all_honours.multiplier": 4}})
    assert out["own"] == 16


# ---- several winners on one discard (一炮多响, DECISIONS §1.5) ----------------------------------

D = (Payer("d", melds=parse_case("jj 11m +1m kong:CCCC").melds),)


def test_several_winners_are_scored_one_by_one():
    a = HandInput("jiujiang", "123m456p789s345s55p", "2m", False, payers=D)
    b = HandInput("jiujiang", "22m456p789s345s678s", "2m", False, payers=D)
    ra, rb = score_winners([a, b])
    assert (ra.own, rb.own) == (3, 3)
    assert (
        [p.amount for p in ra.payments] == [3 + 3] == [p.amount for p in rb.payments]
    )  # each eats the 中 kong


def test_a_lone_winner_is_scored_as_score_would_a_self_draw_too():
    hand = HandInput("jiujiang", "123m456p789s345s55p", "2m", True)
    (only,) = score_winners([hand])
    assert only.own == score(hand).own == 4  # 平胡 1 + 自摸 1 + 门清 1 + 卡 2m 1
    assert [p.amount for p in only.payments] == [4, 4, 4]


@pytest.mark.parametrize(
    ("second", "fragment"),
    [
        (HandInput("jiujiang", "123m456p789s345s55p", "5p", False, payers=D), "discarded tile 2m"),
        (
            HandInput("jiujiang", "22m456p789s345s678s", "2m", False, payers=(Payer("e"),)),
            "different discarders",
        ),
        (HandInput("xingzi", "22m456p789s345s678s", "2m", False, payers=D), "different variants"),
        (HandInput("jiujiang", "22m456p789s345s678s", "2m", True), "a self-draw has one winner"),
    ],
)
def test_several_winners_must_share_one_discard(second, fragment):
    a = HandInput("jiujiang", "123m456p789s345s55p", "2m", False, payers=D)
    with pytest.raises(HandError) as e:
        score_winners([a, second])
    assert e.value.code == "inconsistent_winners" and fragment in str(e.value)


def test_several_winners_cannot_hold_a_fifth_copy_between_them():
    a = HandInput("jiujiang", "222m456p789s345s55p", "2m", False, payers=(Payer("d"),))
    b = HandInput("jiujiang", "222m456p789s345s55s", "2m", False, payers=(Payer("d"),))
    with pytest.raises(HandError) as e:
        score_winners([a, b])
    assert e.value.code == "fifth_copy"


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_table_option_is_a_typed_field(variant):
    """Each ``[options]`` key of a built-in table is a field of ``scoring.rules.Options`` (the
    ``<pattern>_is_addon`` switches excepted: they are the rows' ``addon``), read with its value."""
    rules = load_rules(variant)
    for key, value in rules.raw["options"].items():
        if key.endswith("_is_addon"):
            assert rules.patterns[key.removesuffix("_is_addon")].addon is value
            continue
        got = getattr(rules.options, key)
        assert got == (tuple(value) if isinstance(value, list) else value)
    hash(rules.options)


def test_an_unknown_option_is_refused_and_a_left_out_one_defaults():
    from scoring.rules import Options

    with pytest.raises(ValueError, match="no option 'dealer_double'"):
        Options.of({"dealer_double": True})
    assert Options.of({}) == Options() and Options().cap == 0 and Options().dealer_doubles is False
    assert load_rules("xinyu").with_overrides({"cap": 16}).options.cap == 16
