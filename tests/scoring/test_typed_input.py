"""HandInput as a value: hashable (rules a FrozenMap), and a Decimal point value paid exactly."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scoring import HandError, HandInput, Payer, score
from scoring.frozen import FrozenMap

PAYERS = (Payer("a", is_dealer=True), Payer("b"), Payer("c"))


def hand(**kw) -> HandInput:
    return HandInput("xingzi", "234p456p777pCCCPP", "P", self_drawn=True, payers=PAYERS, **kw)


def test_equal_hands_hash_alike_and_serve_as_one_key():
    a, b = hand(rules={"min_win": 1}), hand(rules={"min_win": 1})
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert isinstance(a.rules, FrozenMap) and a.rules == {"min_win": 1}


def test_the_rules_are_a_copy_the_caller_cannot_change():
    given = {"min_win": 1}
    h = hand(rules=given)
    given["min_win"] = 5
    assert h.rules["min_win"] == 1
    with pytest.raises(TypeError):
        h.rules["min_win"] = 2  # type: ignore[index]


def test_a_rule_value_keeps_its_type_in_the_key():
    assert FrozenMap({"x": 1}) != FrozenMap({"x": True})
    assert FrozenMap({"x": [1, 2]}) != FrozenMap({"x": (1, 2)})
    assert hash(FrozenMap({"b": 1, "a": [2]})) == hash(FrozenMap({"a": [2], "b": 1}))


def test_a_decimal_point_value_pays_exact_decimals_in_their_shortest_form():
    r = score(hand(point_value=Decimal("0.3")))
    assert [p.amount for p in r.payments] == [Decimal("9"), Decimal("4.5"), Decimal("4.5")]
    assert all(type(p.amount) is Decimal for p in r.payments)
    assert str(r.payments[0].amount) == "9"  # not 9.0
    assert r.total == Decimal("18")
    out = r.to_json()
    assert [p["amount"] for p in out["payments"]] == [9, 4.5, 4.5] and out["point_value"] == 0.3


def test_a_decimal_point_value_is_written_as_the_float_one_is():
    for pv in ("0.3", "2", "0.0001", "1000000"):
        exact = score(hand(point_value=Decimal(pv))).to_json()
        floated = score(hand(point_value=float(pv) if "." in pv else int(pv))).to_json()
        assert exact == floated, pv


def test_xinyu_kong_money_times_a_decimal_point_value_is_written_as_with_a_float():
    kw = dict(melds=[{"kind": "kong", "tiles": "1111m"}], rules={"kong_money_times_point_value": True})
    h = HandInput.from_json(
        {"variant": "xinyu", "concealed": "234p456p789sEE", "winning_tile": "E", "self_drawn": True, **kw}
    )
    for pv, want in ((Decimal("0.5"), 0.5), (Decimal("2"), 2)):
        got = score(HandInput(**{**h.__dict__, "point_value": pv})).to_json()["payments"][0]
        assert got["kong_money"] == want and type(got["kong_money"]) is type(want)


@pytest.mark.parametrize("pv", [Decimal("NaN"), Decimal("Infinity"), Decimal("0"), Decimal("0.00001")])
def test_a_decimal_point_value_out_of_bounds_is_refused(pv):
    with pytest.raises(HandError) as e:
        hand(point_value=pv)
    assert e.value.code == "bad_point_value"
