"""Payments from seats (DECISIONS §1.5), 星子 doubling and 炸糊 (§1.6), 新余 kong money (§2)."""

from __future__ import annotations

import pytest

from ledger import LedgerError
from scoring import Meld, Payer
from tests.ledger.util import X, deltas, drawn, false_win, play, read_hand, win


def test_xingzi_doubling_comes_from_the_seats():
    # hand 1: dealer 0 self-draws A: 4 炮 x2 from each -> +24. Hand 2 (dealer still 0): 1 self-draws:
    # the dealer pays 4 x2 = 8, the others 4. Hand 3 (dealer 1): 2 wins on the dealer's discard: 3 x2.
    # Hand 4 (dealer 2): 3 wins on 0's discard, no dealer involved: 3.
    ledger = play("xingzi", win("0*"), win("1*"), win("2<1"), win("3<0"))
    assert deltas(ledger, 1) == [24, -8, -8, -8]
    assert deltas(ledger, 2) == [-8, 16, -4, -4]
    assert deltas(ledger, 3) == [0, -6, 6, 0]
    assert deltas(ledger, 4) == [-3, 0, 0, 3]
    assert [p.doubled for p in ledger.outcomes[1].results[0].payments] == [False, False, True]  # 2, 3, 0


def test_jiujiang_has_no_dealer_doubling():
    assert deltas(play("jiujiang", win("0*")), 1) == [12, -4, -4, -4]


def test_several_winners_each_paid_by_the_discarder():
    # 星子: 3 and 2 win on the dealer's (0) discard: each 3 炮 x2 (the dealer pays double)
    assert deltas(play("xingzi", win("3,2<0")), 1) == [-12, 0, 6, 6]
    assert len(play("xingzi", win("3,2<0")).outcomes[0].results) == 2


def test_false_win_penalty():
    # 星子 炸糊: the declarer pays each other player 10 炮 x point value (judgement, §1.6)
    assert deltas(play("xingzi", false_win(3)), 1) == [10, 10, 10, -30]
    assert deltas(play("xingzi", false_win(0), base="0.5"), 1) == [-15, 5, 5, 5]
    assert deltas(play("xingzi", false_win(1), rules={"false_win.penalty": 5}), 1) == [5, -15, 5, 5]
    with pytest.raises(LedgerError, match="no 炸糊 penalty") as e:
        play("jiujiang", false_win(1))
    assert e.value.code == "rule_not_in_variant"


def test_xinyu_kong_money_in_a_win():
    # 1 self-draws X (门清 x2 = 2 from each); 3 holds an exposed kong: 1 from each of the others,
    # the winner included: 1: +6 - 1 = 5; 3: -2 + 3 = 1; 0 and 2: -2 - 1 = -3.
    ledger = play("xinyu", win("1*", X, kongs={"3": {"exposed": 1, "concealed": 0}}))
    assert deltas(ledger, 1) == [-3, 5, -3, 1]
    # the winner's own exposed kong comes with the score: 开杠 x2 = 2, +1 kong money from each -> 3 each
    k = win("1*", "123m456p789sEE E", melds=[{"kind": "kong", "tiles": "5555s"}])
    assert deltas(play("xinyu", k), 1) == [-3, 9, -3, -3]


def test_xinyu_kong_money_in_a_drawn_hand():
    # 王五's concealed kong collects 2 from each other player, 张三's exposed kong 1 (§2, also when drawn)
    ledger = play("xinyu", drawn(kongs={"王五": {"concealed": 1}, "0": [1, 0]}))
    assert deltas(ledger, 1) == [3 - 2, -1 - 2, 6 - 1, -1 - 2]
    assert (
        deltas(play("xinyu", drawn(kongs={"2": [0, 1]}), rules={"kong_money.in_drawn_hand": False}), 1)
        == [0] * 4
    )


def test_kong_money_is_a_xinyu_rule_and_the_winner_has_none_in_kongs():
    with pytest.raises(LedgerError, match="新余 rule"):
        play("jiujiang", drawn(kongs={"1": [1, 0]}))
    with pytest.raises(LedgerError, match="李四 won: their kongs are the melds of their hand"):
        play("xinyu", win("1*", X, kongs={"1": [1, 0]}))


def test_base_point_value_is_exact_money():
    ledger = play("jiujiang", drawn(), win("1<2"), base="0.1")
    assert deltas(ledger, 2) == [0, 0.6, -0.6, 0]  # 3 炮 x 0.1 x2, not 0.6000000000000001
    assert str(ledger.outcomes[1].point_value) == "0.2"


@pytest.mark.parametrize(
    ("change", "message", "code"),
    [
        ({"winner_is_dealer": True}, "the dealer of this hand is 张三", "payers_contradict_seats"),
        ({"point_value": 3}, "point_value comes from the table", "bad_hand"),
        (
            {"payers": [{"name": "赵六"}]},
            "payer '赵六' does not pay 李四: the payers are 王五",
            "payers_contradict_seats",
        ),
        ({"payers": [{"is_dealer": True}]}, "is_dealer contradicts the table", "not_the_dealer"),
        ({"self_drawn": True}, "self_drawn must agree with the discarder", "payers_contradict_seats"),
        ({"variant": "xinyu"}, "the table plays jiujiang", "payers_contradict_seats"),
    ],
)
def test_a_win_that_contradicts_the_seats_is_refused(change, message, code):
    with pytest.raises(LedgerError, match=message) as e:
        play("jiujiang", win("1<2", **change))
    assert e.value.code == code
    assert str(e.value).startswith("hand 1: ")


def test_payers_facts_are_kept_per_seat():
    # 吃炮: 王五 (the discarder) shows an exposed kong: +1 eaten -> (3 + 1) = 4
    ledger = play(
        "jiujiang", win("1<2", payers=[{"name": "王五", "melds": [{"kind": "kong", "tiles": "9999p"}]}])
    )
    assert deltas(ledger, 1) == [0, 4, -4, 0]
    assert ledger.outcomes[0].hand.winners[0].eaten == {2: Payer(melds=(Meld.of("kong", "9999p"),))}


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ({"kind": "win", "winners": [{"seat": 7, "hand": {}}]}, "unknown seat 7"),
        ({"kind": "win", "winners": [{"seat": "钱七", "hand": {}}]}, "unknown seat '钱七'"),
        (win("1,2*"), "several winners are possible only on one discard"),
        (win("1<1"), "李四 cannot win on their own discard"),
        ({"kind": "tie"}, "unknown kind 'tie'"),
        ({"kind": "drawn", "winner": 1}, "unknown field 'winner'"),
        (win("1<2", hand="123m456p789s234mC C"), "李四's hand"),
        (win("1<2", hand="1234m456p789s234m 1m"), "cannot win|李四's hand"),
    ],
)
def test_bad_hands_name_the_problem(hand, message):
    with pytest.raises(LedgerError, match=message):
        play("jiujiang", hand)


def test_scoring_house_rules_reach_every_hand():
    from ledger import Table, add_hand

    # a house that pays 平胡 2 instead of 1: hand A on a discard is 2 + 1 + 1 = 4
    table = Table("jiujiang", ("a", "b", "c", "d"), house_rules={"scoring": {"basic.points": 2}})
    _, ledger = add_hand(table, [], read_hand(table, [], win("1<2")))
    assert [int(d) for d in ledger.outcomes[0].deltas] == [0, 4, -4, 0]
    with pytest.raises(LedgerError, match="scoring house rules: rules: unknown key 'nope'") as e:
        Table("jiujiang", ("a", "b", "c", "d"), house_rules={"scoring": {"nope": 1}})
    assert e.value.code == "bad_rule"


def test_several_winners_must_fit_one_discard():
    a = {"seat": 2, "hand": {"concealed": "123m456p789s234mCC", "winning_tile": "C"}}
    b = {"seat": 3, "hand": {"concealed": "123m456p789s11s345m", "winning_tile": "5m"}}
    msg = r"do not fit one discard: .*every winner wins on the discarded tile"
    with pytest.raises(LedgerError, match=msg) as e:
        play("xingzi", {"kind": "win", "winners": [a, b], "discarder": 1})
    assert e.value.code == "inconsistent_winners"
