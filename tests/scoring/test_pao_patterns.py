"""Jiujiang / xingzi: the seeds' worked values, the 二炮起胡 gate (§1.4) and table options.
The items one by one are in test_items.py."""

from __future__ import annotations

import dataclasses

import pytest

from scoring import HandError, HandInput, Meld, Payer, load_rules, score
from tests.scoring.util import amounts, parse_case, payer, points

SD = dict(self_drawn=True)
CLOSED_2M = "123m456p789s345s55p"  # waits on 2m only (13m + 2): closed wait


def test_seed_robbing_kong_11_16_21_jiujiang():
    # 11: not concealed (a pung down), the wait is open
    r = score(
        parse_case("jj 123m456p99s +1m pung:777p pung:555s robbing_kong", payers=[payer("b", "pung:111m")])
    )
    assert (r.own, amounts(r)) == (10, [11])
    # 16: concealed, open wait (3s of 345s, also 6s)
    r = score(parse_case(f"jj {CLOSED_2M} +3s robbing_kong", payers=[payer("b", "pung:333s")]))
    assert (r.own, amounts(r)) == (15, [16])
    # 21: concealed + closed
    r = score(parse_case(f"jj {CLOSED_2M} +2m robbing_kong", payers=[payer("b", "pung:222m")]))
    assert (r.own, amounts(r)) == (20, [21])
    assert points(r) == {"robbing_kong": 10, "concealed": 5, "closed_wait": 5}


def test_seed_robbing_kong_11_12_13_xingzi():
    r = score(
        parse_case("xz 123m456p99s +1m pung:777p pung:555s robbing_kong", payers=[payer("b", "pung:111m")])
    )
    assert amounts(r) == [11]
    r = score(parse_case(f"xz {CLOSED_2M} +3s robbing_kong", payers=[payer("b", "pung:333s")]))
    assert amounts(r) == [12]
    r = score(parse_case(f"xz {CLOSED_2M} +2m robbing_kong", payers=[payer("b", "pung:222m")]))
    assert amounts(r) == [13]


def test_robbed_pung_counts_as_the_robbed_added_kong():
    r = score(parse_case(f"jj {CLOSED_2M} +2m robbing_kong", payers=[payer("b", "pung:222m")]))
    eaten = r.payments[0].eaten_items
    assert [(i.key, i.points) for i in eaten] == [("kong", 1)]
    assert r.notes == ("b's pung of 2m counts as the robbed (added) kong",)


# ---- input checks that protect money (DECISIONS §1.3a, §1.5) -----------------------------


@pytest.mark.parametrize("payers", [None, [payer("b")], [payer("b", "pung:111m")]])
def test_robbing_kong_without_the_robbed_pung_is_an_error(payers):
    with pytest.raises(HandError) as e:
        score(parse_case(f"jj {CLOSED_2M} +2m robbing_kong", payers=payers))
    assert e.value.code == "robbed_pung_missing" and "pung of 2m" in str(e.value)


def test_kong_discard_needs_the_discarders_kong():
    with pytest.raises(HandError) as e:
        score(parse_case(f"jj {CLOSED_2M} +2m kong_discard", payers=[payer("b", "pung:111m")]))
    assert e.value.code == "discarder_kong_missing" and "the discarder b must show" in str(e.value)
    with pytest.raises(HandError) as e:  # the default payer: it said "the discarder discarder"
        score(parse_case(f"jj {CLOSED_2M} +2m kong_discard"))
    assert str(e.value).startswith("kong_discard (杠上流泪): the discarder must show the kong")
    for kind in ("kong", "added_kong", "concealed_kong"):
        r = score(parse_case(f"jj {CLOSED_2M} +2m kong_discard", payers=[payer("b", f"{kind}:9999m")]))
        assert r.can_win and points(r)["kong_discard"] == 10


def test_xingzi_self_draw_needs_the_dealer_among_its_payers():
    plain = [Payer("a"), Payer("b"), Payer("c")]
    with pytest.raises(HandError) as e:
        score(parse_case("xz 234m567p678s99s +6s pung:777p self", payers=plain))
    assert e.value.code == "dealer_not_paying"
    with pytest.raises(HandError):  # the default payers hold no dealer either
        score(HandInput("xingzi", "234m567p678s99s", "6s", True, melds=(Meld.of("pung", "777p"),)))
    # the winner deals, or the house plays without doubling on a self-draw: nothing to check
    assert score(parse_case("xz 234m567p678s99s +6s pung:777p self dealer", payers=plain)).can_win
    r = score(
        parse_case(
            "xz 234m567p678s99s +6s pung:777p self",
            payers=plain,
            rules={"dealer_doubles_on_self_draw": False},
        )
    )
    assert amounts(r) == [2, 2, 2]
    # jiujiang has no dealer doubling: no dealer needed
    assert score(parse_case("jj 234m567p678s99s +6s pung:777p self", payers=plain)).can_win


def test_seed_four_bonus_tiles_plus_ten():
    r = score(parse_case("jj 234m567p678s99s +6s pung:777p self bonus:4"))
    assert r.own == 1 + 1 + 4 + 10


# ---- 二炮起胡 (§1.4) ----------------------------------------------------------------------


def test_minimum_blocks_a_one_pao_discard():
    r = score(parse_case("jj 234m567p678s99s +6s pung:777p"))
    assert not r.can_win and "二炮起胡" in r.reason and r.payments == ()
    assert r.own == 1


def test_eaten_pao_do_not_lift_the_minimum():
    r = score(
        parse_case("xz 234m567p678s99s +6s pung:777p", payers=[payer("b", "kong:1111s", bonus_tiles=3)])
    )
    assert not r.can_win


def test_two_pao_on_a_discard_may_win():
    r = score(parse_case("jj 234m567p678s99s +6s pung:777p bonus:1"))
    assert r.can_win and r.own == 2


def test_self_draw_always_reaches_two():
    r = score(parse_case("jj 234m567p678s99s +6s pung:777p self"))
    assert r.can_win and r.own == 2


@pytest.mark.parametrize("event", ["robbing_kong", "kong_discard", "last_tile"])
def test_minimum_exceptions_with_a_low_table(event):
    rules = load_rules("jiujiang")
    low = dict(rules.patterns)
    key = {"last_tile": "last_tile_discard"}.get(event, event)
    low[key] = dataclasses.replace(low[key], base=0, adders={})
    table = dataclasses.replace(rules, patterns=low)
    payers = {"robbing_kong": [payer("b", "pung:666s")], "kong_discard": [payer("b", "kong:1111m")]}
    r = score(parse_case(f"jj 234m567p678s99s +6s pung:777p {event}", payers=payers.get(event)), table)
    assert r.can_win and r.own == 0


def test_wait_bonus_option_off_gives_single_wait_on_two_waits():
    rules = load_rules("jiujiang")
    off = dataclasses.replace(
        rules, options=dataclasses.replace(rules.options, wait_bonus_needs_single_wait=False)
    )
    r = score(parse_case("jj 45666m123p789pCCC +6m"), off)
    assert points(r) == {"basic": 1, "concealed": 1, "single_wait": 1, "dragon_set": 2}
    assert r.wait == "single"
    r = score(parse_case("jj 45666m123p789pCCC +6m"))
    assert "single_wait" not in points(r) and [t.code for t in r.waits] == ["3m", "6m"]
