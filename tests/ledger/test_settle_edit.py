"""Settlement (nets sum to zero, fewest transfers) and edit / undo recomputing later hands."""

from __future__ import annotations

import itertools
import random
from decimal import Decimal

import pytest

from ledger import LedgerError, Table, edit_hand, replay, settle
from tests.ledger.util import SEATS, deltas, drawn, play, raises, read_hand, totals, win


def _apply(nets, transfers):
    bal = list(nets)
    for t in transfers:
        bal[t.payer] += t.amount
        bal[t.payee] -= t.amount
    return bal


@pytest.mark.parametrize(
    ("nets", "lines"),
    [
        ((36, -36, 10, -10), ["李四 → 张三 36", "赵六 → 王五 10"]),
        ((30, -10, -10, -10), ["李四 → 张三 10", "王五 → 张三 10", "赵六 → 张三 10"]),
        ((7, 3, -3, -7), ["赵六 → 张三 7", "王五 → 李四 3"]),
        ((5, -4, 3, -4), ["李四 → 张三 4", "赵六 → 王五 3", "赵六 → 张三 1"]),
        ((0, 0, 0, 0), []),
    ],
)
def test_fewest_transfers(nets, lines):
    s = settle(SEATS, tuple(map(Decimal, nets)))
    assert s.lines() == lines
    assert _apply(s.nets, s.transfers) == [0, 0, 0, 0]


def test_transfers_are_fewest_on_random_nets():
    rng = random.Random(7)
    for _ in range(300):
        a, b, c = (rng.randint(-40, 40) for _ in range(3))
        nets = tuple(map(Decimal, (a, b, c, -a - b - c)))
        t = settle(SEATS, nets).transfers
        assert _apply(nets, t) == [0, 0, 0, 0]
        live = [n for n in nets if n]
        groups = _most_zero_sum_groups(live)
        assert len(t) == len(live) - groups


def _most_zero_sum_groups(live: list) -> int:
    """Brute force: label the non-zero nets with k groups; the largest k whose groups all sum to 0."""
    best = 0
    for k in range(1, len(live) + 1):
        for labels in itertools.product(range(k), repeat=len(live)):
            sums = [sum(n for n, g in zip(live, labels, strict=True) if g == i) for i in range(k)]
            if len(set(labels)) == k and not any(sums):
                best = k
    return best


def test_a_real_evening_settles_to_zero():
    ledger = play("jiujiang", win("1<2", follow="followed"), win("1*"), drawn(), win("3,0<1"), win("2*"))
    assert sum(ledger.totals) == 0
    assert all(sum(o.deltas) == 0 for o in ledger.outcomes)
    s = settle(SEATS, ledger.totals)
    assert _apply(s.nets, s.transfers) == [0, 0, 0, 0]
    # 1: x1, 1 wins off 2: 3.  2: x2 (跟庄), 1 self-draws: 8 from each.  3: x2 (hold), drawn.
    # 4: x2 (hold, 黄庄 window), 3 and 0 win off 1: 6 each; 3 deals next.  5: x2 (window), 2 self-draws.
    assert [o.raise_ for o in ledger.outcomes] == [1, 2, 2, 2, 2]
    assert totals(ledger) == [-8 + 6 - 8, 3 + 24 - 12 - 8, -3 - 8 + 24, -8 + 6 - 8]
    assert s.lines() == ["张三 → 王五 10", "赵六 → 李四 7", "赵六 → 王五 3"]


def test_editing_an_early_hand_recomputes_later_raises_and_totals():
    table = Table("jiujiang", SEATS)
    hands = [h for h in _record(table, win("1<2"), win("1<2", follow="followed"), win("1<2"), win("1<2"))]
    before = replay(table, hands)
    assert raises(before) == [1, 1, 2, 2, 2]
    assert totals(before) == [0, 3 + 3 + 6 + 6, -18, 0]
    # hand 1 was really a drawn hand: hand 2 is now dealt by 0 inside the 黄庄 window (x2); 1 wins it
    # and deals hand 3 (x2: 跟庄 and the window); hand 4: hold x2 (1 keeps dealing) and window x2
    _, after = edit_hand(table, hands, 1, read_hand(table, hands, drawn(), 1))
    assert [o.dealer for o in after.outcomes] == [0, 0, 1, 1]
    assert raises(after) == [1, 2, 2, 2, 2]
    assert totals(after) == [0, 18, -18, 0]
    assert deltas(after, 2) == [0, 6, -6, 0]


def test_an_edit_that_breaks_a_later_hand_is_refused():
    table = Table("jiujiang", SEATS)
    earthly = win("1<0", hand="123m456p789s234mCC C", events=["earthly"])  # 地胡: the dealer (0) discards
    hands = _record(table, drawn(), earthly)
    with pytest.raises(LedgerError, match="hand 2: 李四's hand"):
        edit_hand(
            table, hands, 1, read_hand(table, hands, win("2<3"), 1)
        )  # now 2 deals hand 2 and 0's discard is not the dealer's
    with pytest.raises(LedgerError, match="no hand 5: the table has 2 hands") as e:
        edit_hand(table, hands, 5, read_hand(table, hands, drawn(), 5))
    assert e.value.code == "no_such_hand"


def test_undo_is_the_list_without_its_last_hand():
    table = Table("jiujiang", SEATS)
    hands = _record(table, win("1<2"), drawn())
    assert raises(replay(table, hands))[-1] == 2
    assert raises(replay(table, hands[:-1]))[-1] == 1
    assert replay(table, hands[:-1]).next_dealer == 1


def _record(table, *datas):
    from ledger import add_hand

    out = []
    for d in datas:
        h, _ = add_hand(table, out, read_hand(table, out, d))
        out.append(h)
    return out
