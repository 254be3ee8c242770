"""Dealer (庄家) sequences per variant: DECISIONS §1.6 (九江, 星子) and §2 (新余)."""

from __future__ import annotations

import pytest

from tests.ledger.util import X, dealers, drawn, play, win


@pytest.mark.parametrize("variant", ["jiujiang", "xingzi"])
def test_jj_xz_dealer_sequence(variant):
    # seat 0 deals hand 1. 1 wins off 2 -> 1 deals; 黄庄 -> 1 keeps; 1 (dealer) self-draws -> keeps;
    # 3 and 2 both win on 1's discard: the first counter-clockwise from the discarder (2) deals.
    ledger = play(variant, win("1<2"), drawn(), win("1*"), win("3,2<1"), win("0<3"))
    assert dealers(ledger) == [0, 1, 1, 1, 2, 0]


def test_several_winners_first_from_discarder_wraps_round():
    # discarder 2; winners 0 and 1: counter-clockwise from 2 comes 3, 0, 1 -> seat 0 deals.
    assert dealers(play("jiujiang", win("1,0<2")))[-1] == 0
    # discarder 3; winners 2 and 1: 0, 1, 2 -> seat 1 deals
    assert dealers(play("jiujiang", win("2,1<3")))[-1] == 1


def test_several_winners_dealer_keeps_option():
    # house rule: a winning dealer keeps the deal even when another won on the same discard
    rules = {"dealer.several_winners": "dealer_keeps"}
    assert dealers(play("xingzi", win("1,0<2"), rules=rules)) == [0, 0]
    assert dealers(play("xingzi", win("1,3<2"), rules=rules)) == [0, 3]  # dealer not among them: first from 2


def test_xinyu_dealer_sequence():
    # 新余: seat 0 first; the winner deals next; after a drawn hand the NEXT seat deals (§2).
    ledger = play("xinyu", win("2*", X), drawn(), win("3*", X), drawn(), drawn())
    assert dealers(ledger) == [0, 2, 3, 3, 0, 1]


def test_false_win_keeps_the_dealer():
    ledger = play("xingzi", win("2<0"), {"kind": "false_win", "declarer": 1})
    assert dealers(ledger) == [0, 2, 2]
