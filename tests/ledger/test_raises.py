"""九江 raises (DECISIONS §1.6): 跟庄, 黄庄, their windows; never multiplied, the largest holds.

Each list is the raise of hands 1..n followed by the raise of the next hand, derived by hand
from §1.6. Hand A on a discard is 3 炮, self-drawn 4 炮 from each payer (tests/ledger/util.py).
"""

from __future__ import annotations

import pytest

from ledger import LedgerError
from tests.ledger.util import dealers, deltas, drawn, play, raises, totals, win


def test_follow_doubles_the_next_hand_only_when_the_dealer_changes():
    # hand 1 (dealer 0) followed; 1 wins -> hand 2 dealt by 1 at x2; 2 wins -> dealer changes -> x1
    ledger = play("jiujiang", win("1<2", follow="followed"), win("2<3"), win("3<0"))
    assert raises(ledger) == [1, 2, 1, 1]
    assert deltas(ledger, 2) == [0, 0, 6, -6]  # 3 炮 x point value 2
    assert [r.code for r in ledger.outcomes[1].reasons] == ["follow"]


@pytest.mark.parametrize("follow", ["dragon", "second"])
def test_follow_x4_for_a_dragon_first_discard_or_a_followed_second_discard(follow):
    ledger = play("jiujiang", win("1<2", follow=follow), win("2<3"))
    assert raises(ledger) == [1, 4, 1]
    assert deltas(ledger, 2) == [0, 0, 12, -12]
    assert ledger.outcomes[1].reasons[0].code == f"follow_{follow}"


def test_follow_x2_holds_through_the_dealers_run_then_resets():
    # hand 2's dealer (1) keeps dealing through hands 3 and 4 (连庄): x2 each; 3 wins hand 4 -> x1
    ledger = play("jiujiang", win("1<2", follow="followed"), win("1*"), win("1<0"), win("3<1"), win("0<3"))
    assert dealers(ledger) == [0, 1, 1, 1, 3, 0]
    assert raises(ledger) == [1, 2, 2, 2, 1, 1]
    assert [r.code for r in ledger.outcomes[2].reasons] == ["follow_hold"]
    # x4 first, then the hold is x2 (not x4)
    ledger = play("jiujiang", win("0*", follow="dragon"), win("0*"), win("0*"), win("2<1"))
    assert raises(ledger) == [1, 4, 2, 2, 1]
    assert deltas(ledger, 2) == [48, -16, -16, -16]  # dealer self-draw 4 炮 x4 from each


def test_drawn_opens_a_window_of_four():
    ledger = play("jiujiang", drawn(), *[win("1<2")] * 5)
    assert raises(ledger) == [1, 2, 2, 2, 2, 1, 1]
    assert totals(ledger) == [0, 3 * (2 * 4 + 1), -3 * (2 * 4 + 1), 0]  # four wins at x2, one at x1


def test_consecutive_drawn_gives_x4_then_a_new_window():
    # 1, 2 drawn: hand 3 x4, a new window from hand 3 (3..6) at x2, hand 7 x1
    ledger = play("jiujiang", drawn(), drawn(), *[win("1<2")] * 5)
    assert raises(ledger) == [1, 2, 4, 2, 2, 2, 1, 1]
    # three drawn in a row: the third follows a drawn hand too -> hand 4 x4 as well
    ledger = play("jiujiang", drawn(), drawn(), drawn(), *[win("1<2")] * 5)
    assert raises(ledger) == [1, 2, 4, 4, 2, 2, 2, 1, 1]


def test_overlapping_raises_take_the_largest():
    # hand 1 drawn (window 2..5 x2); hand 2 followed on 中 -> hand 3 x4 (not 8); dealer 0 keeps
    # dealing: hold x2 and the window x2 -> 2; hand 4 won by 1 -> hand 5 window only; hand 6 x1
    ledger = play(
        "jiujiang", drawn(), win("0*", follow="dragon"), win("0*"), win("1<2"), win("1<2"), win("1<2")
    )
    assert raises(ledger) == [1, 2, 4, 2, 2, 1, 1]
    assert deltas(ledger, 3) == [48, -16, -16, -16]
    assert sorted(r.code for r in ledger.outcomes[2].reasons) == ["drawn", "follow_dragon"]
    assert sorted(r.code for r in ledger.outcomes[3].reasons) == ["drawn", "follow_hold"]


def test_house_rules_change_the_numbers():
    assert raises(play("jiujiang", drawn(), win("1<2"), win("1<2"), rules={"drawn.window": 1})) == [
        1,
        2,
        1,
        1,
    ]
    multiply = {"raises.combine": "multiply"}
    assert raises(play("jiujiang", drawn(), win("0*", follow="dragon"), rules=multiply)) == [1, 2, 8]
    with pytest.raises(LedgerError, match=r"unknown house rule 'drawn\.windw'") as e:
        play("jiujiang", drawn(), rules={"drawn.windw": 3})
    assert e.value.code == "unknown_rule"
    with pytest.raises(LedgerError, match=r"raises.combine = 'add' is not allowed: use max / multiply"):
        play("jiujiang", rules={"raises.combine": "add"})


@pytest.mark.parametrize("variant", ["xingzi", "xinyu"])
def test_follow_is_a_jiujiang_rule(variant):
    with pytest.raises(LedgerError, match="跟庄 is a 九江 rule") as e:
        play(variant, drawn(follow="followed"))
    assert e.value.code == "rule_not_in_variant"
    assert raises(play(variant, drawn(), drawn())) == [1, 1, 1]  # no 黄庄 raise outside 九江


@pytest.mark.parametrize(
    ("key", "value", "allowed"),
    [
        ("drawn.raise", 10**15, "from 1 to 16"),  # base 10^6 x 10^15: a point value no hand could score
        ("drawn.raise", 0, "from 1 to 16"),  # x0 would pay nothing and score nothing
        ("follow.hold", 17, "from 1 to 16"),
        ("drawn.consecutive_raise", -4, "from 1 to 16"),
        ("dealer.first", 4, "from 0 to 3"),  # four seats
        ("false_win.penalty", 1001, "from 0 to 1000"),
        ("drawn.window", 10**6, "from 0 to 1000"),
        ("drawn.raise", True, "from 1 to 16"),
    ],
)
def test_house_rule_numbers_are_bounded_and_the_error_names_the_rule(key, value, allowed):
    from ledger import Table

    with pytest.raises(
        LedgerError, match=rf"house rule {key} = .* is not allowed: use a whole number {allowed}"
    ) as e:
        Table("jiujiang", ("a", "b", "c", "d"), house_rules={"ledger": {key: value}})
    assert e.value.code == "bad_rule"


@pytest.mark.parametrize(("key", "value"), [("drawn.raise", 16), ("drawn.raise", 1), ("dealer.first", 3)])
def test_the_bounds_themselves_are_house_rules_a_table_may_have(key, value):
    from ledger import Table

    assert Table("jiujiang", ("a", "b", "c", "d"), house_rules={"ledger": {key: value}}).house_rules


MULTIPLY_16 = {"drawn.raise": 16, "raises.combine": "multiply", "drawn.consecutive_raise": 16}


@pytest.mark.parametrize(
    ("base", "rules"),
    [
        (10**6, MULTIPLY_16),  # x16 per 黄庄 of the last 4 hands, x16 consecutive: x16^5 after 4 drawn hands
        (1, {"drawn.raise": 2, "drawn.window": 40, "raises.combine": "multiply"}),  # 2^40 > 10^12
    ],
)
def test_raises_that_could_multiply_beyond_any_scorable_point_value_are_refused_at_the_open(base, rules):
    from ledger import Table

    with pytest.raises(LedgerError, match=r"raises can multiply the base .* beyond 1,000,000,000,000") as e:
        Table("jiujiang", ("a", "b", "c", "d"), base, {"ledger": rules})
    assert e.value.code == "bad_rule"


def test_the_largest_multiplied_raise_a_table_may_have_is_reached_and_scored():
    # x16 x16 x16 x16 (four 黄庄 windows) x16 (consecutive) = x16^5 = 1,048,576: base 10^6 is refused
    # above, base 10^5 plays it: hand 5 is worth 1.05e11 per 炮
    ledger = play("jiujiang", drawn(), drawn(), drawn(), drawn(), win("1*"), base=10**5, rules=MULTIPLY_16)
    assert raises(ledger)[4] == 16**5 and deltas(ledger, 5)[1] > 0
