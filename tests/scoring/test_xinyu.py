"""Xinyu (DECISIONS §2): every multiplier positive and negative, exclusion groups, the cap,
self-draw only, kong money."""

from __future__ import annotations

import dataclasses
import math

import pytest

from scoring import load_rules, score
from tests.scoring.util import amounts, mults, parse_case

SD = dict(self_drawn=True)


def test_golden_all_honours_all_pungs_concealed_is_32():
    r = score(parse_case("xy EEESSSWWWCCCPP +P self"))
    assert r.own == 32 and amounts(r) == [32, 32, 32]


def test_discard_cannot_win():
    r = score(parse_case("xy 123m456p789s345sEE +E"))
    assert not r.can_win and "self-draw only" in r.reason and r.payments == ()


def test_kong_money_added_to_each_payment():
    # exposed kong 1 + concealed kong 2 from each payer, on top of the hand score (x2 kong)
    r = score(parse_case("xy 123m456pEE +E kong:3333s concealed_kong:7777s self"))
    assert r.own == 2
    assert [p.kong_money for p in r.payments] == [3, 3, 3]
    assert amounts(r) == [5, 5, 5]


def test_point_value_scales_the_hand_not_the_kong_money():
    r = score(parse_case("xy 123m456pEE +E kong:3333s concealed_kong:7777s self", point_value=2))
    assert amounts(r) == [7, 7, 7]
    rules = load_rules("xinyu")
    both = dataclasses.replace(
        rules, options=dataclasses.replace(rules.options, kong_money_times_point_value=True)
    )
    r = score(parse_case("xy 123m456pEE +E kong:3333s concealed_kong:7777s self", point_value=2), both)
    assert amounts(r) == [10, 10, 10]


@pytest.mark.parametrize(("cap", "own"), [(0, 64), (64, 64), (32, 32), (16, 16)])
def test_cap_option(cap, own):
    rules = load_rules("xinyu")
    table = dataclasses.replace(rules, options=dataclasses.replace(rules.options, cap=cap))
    # all honours x8, all pungs x2, all melded x4 = 64
    r = score(parse_case("xy PP +P pung:EEE pung:SSS pung:WWW pung:CCC self"), table)
    assert r.own == own
    assert math.prod(i.multiplier for i in r.items) == own
    assert ("cap" in [i.key for i in r.items]) == (own < 64)


def test_events_other_than_kong_bloom_have_no_place():
    with pytest.raises(Exception, match="no place in Xinyu"):
        score(parse_case("xy 123m456p789s345sEE +E self heavenly dealer"))


def test_three_payers_default():
    r = score(parse_case("xy 123m456p789s345sEE +E self"))
    assert [p.payer for p in r.payments] == ["player 1", "player 2", "player 3"]


def test_all_melded_with_a_concealed_kong_option():
    spec = "xy SS +S pung:111m pung:555p pung:999s concealed_kong:EEEE self"
    r = score(parse_case(spec))
    assert mults(r) == {"kong": 2, "all_pungs": 2, "all_melded": 4}
    rules = load_rules("xinyu")
    strict = dataclasses.replace(
        rules, options=dataclasses.replace(rules.options, all_melded_counts_concealed_kong=False)
    )
    r = score(parse_case(spec), strict)
    assert mults(r) == {"kong": 2, "all_pungs": 2}


def test_kong_money_is_one_function_for_the_engine_and_the_ledger():
    """scoring.kong_money: exposed x 1 + concealed x 2 (DECISIONS §2), scaled by the point value
    only where the table says so; an int unless it is scaled."""
    from decimal import Decimal

    from scoring import kong_money

    options = load_rules("xinyu").options
    assert kong_money(options, 2, 1, Decimal("1.5")) == 4 and type(kong_money(options, 2, 1, 3)) is int
    scaled = dataclasses.replace(options, kong_money_times_point_value=True)
    assert kong_money(scaled, 2, 1, Decimal("1.5")) == Decimal("6.0")
