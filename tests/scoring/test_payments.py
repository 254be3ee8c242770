"""吃炮 per payer, who pays, xingzi dealer doubling, point_value (DECISIONS §1.5)."""

from __future__ import annotations

import pytest

from scoring import Payer, score
from tests.scoring.util import amounts, parse_case, payer

BASIC = "234m567p678s99s +6s pung:777p"  # own 2 when self-drawn (basic + 自摸)


def eaten(r, i=0):
    return {it.key: it.points for it in r.payments[i].eaten_items}


@pytest.mark.parametrize(
    ("p", "expected"),
    [
        (Payer("a", bonus_tiles=1), {"bonus_tile": 1}),
        (Payer("a", bonus_tiles=4), {"bonus_tile": 4, "four_bonus_tiles": 10}),
        (payer("a", "pung:CCC"), {"dragon_set": 1}),
        (payer("a", "kong:PPPP"), {"dragon_set": 3}),
        (payer("a", "added_kong:CCCC"), {"dragon_set": 3}),
        (payer("a", "concealed_kong:PPPP"), {"dragon_set": 4}),
        (payer("a", "kong:1111m"), {"kong": 1}),
        (payer("a", "concealed_kong:1111m"), {"kong": 2}),
        (payer("a", "pung:111m pung:555m pung:999m chow:123s"), {}),
        (payer("a", "pung:CCC pung:PPP"), {"dragon_set": 2, "red_flag": 10}),
        # §1.3a: a payer's 红旗飘飘 needs both sets exposed; the concealed kong's own +4 is still eaten
        (payer("a", "pung:CCC concealed_kong:PPPP"), {"dragon_set": 5}),
        (payer("a", "kong:CCCC added_kong:PPPP"), {"dragon_set": 6, "red_flag": 10}),
        (Payer("a", ready_declared=True), {"ready_declared": 10}),
    ],
)
def test_eaten_items_jiujiang(p, expected):
    others = [Payer("b"), Payer("c")]
    r = score(parse_case(f"jj {BASIC} self", payers=[p, *others]))
    got: dict[str, int] = {}
    for it in r.payments[0].eaten_items:
        got[it.key] = got.get(it.key, 0) + it.points
    assert got == expected
    total = sum(it.points for it in r.payments[0].eaten_items)
    assert r.payments[0].eaten == total
    assert amounts(r) == [2 + total, 2, 2]


def test_each_bonus_tile_is_an_item():
    r = score(
        parse_case(
            f"jj {BASIC} self",
            payers=[Payer("a", bonus_tiles=3), Payer("b"), Payer("c")],
        )
    )
    assert [it.key for it in r.payments[0].eaten_items] == ["bonus_tile"] * 3
    assert r.payments[0].eaten == 3


def test_discard_win_one_payer_self_draw_three():
    r = score(parse_case(f"jj {BASIC} bonus:1"))
    assert [p.payer for p in r.payments] == ["discarder"] and amounts(r) == [2]
    r = score(parse_case(f"jj {BASIC} self"))
    assert len(r.payments) == 3 and r.total == 6


def test_xingzi_dealer_pays_double():
    r = score(
        parse_case(
            f"xz {BASIC} self",
            payers=[Payer("a", is_dealer=True), Payer("b"), Payer("c")],
        )
    )
    assert amounts(r) == [4, 2, 2] and [p.doubled for p in r.payments] == [True, False, False]


def test_xingzi_dealer_wins_all_double():
    r = score(parse_case(f"xz {BASIC} self dealer"))
    assert amounts(r) == [4, 4, 4]


def test_xingzi_doubling_includes_eaten():
    r = score(parse_case(f"xz {BASIC} bonus:1", payers=[Payer("d", is_dealer=True, bonus_tiles=2)]))
    assert amounts(r) == [(2 + 2) * 2]


def test_jiujiang_no_dealer_doubling():
    r = score(parse_case(f"jj {BASIC} self dealer"))
    assert amounts(r) == [2, 2, 2] and not any(p.doubled for p in r.payments)


@pytest.mark.parametrize(
    ("pv", "expected"), [(1, [3, 2, 2]), (2, [6, 4, 4]), (4, [12, 8, 8]), (0.5, [1.5, 1, 1])]
)
def test_point_value(pv, expected):
    r = score(
        parse_case(
            f"jj {BASIC} self",
            point_value=pv,
            payers=[Payer("a", bonus_tiles=1), Payer("b"), Payer("c")],
        )
    )
    assert amounts(r) == expected


def test_earthly_default_discarder_is_the_dealer_and_pays_double_in_xingzi():
    r = score(parse_case("xz 123m456p789s345s55p +3m earthly"))
    assert r.payments[0].is_dealer and amounts(r) == [(10 + 1) * 2]
