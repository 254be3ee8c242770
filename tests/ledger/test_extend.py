"""One replay, not three: `extend` folds hands onto a replay already made, `add_hand(before=)`
and `Store.append(before=, revision=)` use it, and the result is the full replay's, hand for
hand, also when two phones write at once (the revision check refuses a stale ledger)."""

from __future__ import annotations

import threading

import pytest

from ledger import (
    ConflictError,
    Context,
    LedgerError,
    Table,
    add_hand,
    edit_hand,
    extend,
    parse_hand,
    replay,
)
from ledger import fold as fold_module
from tests.ledger.util import SEATS, drawn, false_win, json_hand, read_hand, win

# 跟庄 holds, 黄庄 windows, 一炮多响 and self-draws: every piece of the fold's state; 星子 炸糊
HANDS = [win("1<2", follow="followed"), drawn(), win("3,2<1"), drawn("dragon"), drawn(), win("0*"),
         win("2<0", follow="second"), win("1<3"), drawn(), win("3*")]  # fmt: skip
XINGZI = [win("1<2"), drawn(), win("3,2<1"), drawn(), false_win(2), win("0*"), false_win(0), win("2<0"),
          drawn(), drawn(), win("1*")]  # fmt: skip


def _recorded(variant: str = "jiujiang") -> tuple[Table, list]:
    table = Table(variant, SEATS, "0.5")
    hands: list = []
    for data in XINGZI if variant == "xingzi" else HANDS:
        hand, _ = add_hand(table, hands, read_hand(table, hands, data))
        hands.append(hand)
    return table, hands


@pytest.fixture
def folded(monkeypatch) -> list[int]:
    """How many hands the fold scored and paid for (`ledger.fold._money` calls), by the test."""
    count = [0]
    inner = fold_module._money

    def counted(*a, **kw):
        count[0] += 1
        return inner(*a, **kw)

    monkeypatch.setattr(fold_module, "_money", counted)
    return count


@pytest.mark.parametrize("variant", ["jiujiang", "xingzi"])
def test_extend_is_the_replay_at_every_cut(variant):
    table, hands = _recorded(variant)
    whole = replay(table, hands)
    for cut in range(len(hands) + 1):
        on = extend(replay(table, hands[:cut]), *hands[cut:])
        assert on == whole, cut  # outcomes, totals, next dealer, next raise and why
        assert on.next_point_value == whole.next_point_value
    one_by_one = replay(table, [])
    for hand in hands:
        one_by_one = extend(one_by_one, hand)
    assert one_by_one == whole
    assert len({o.dealer for o in whole.outcomes}) > 2  # the dealer moved
    assert variant == "xingzi" or {o.raise_ for o in whole.outcomes} == {1, 2, 4}  # 九江: raises ran


def test_extend_leaves_the_ledger_it_started_from():
    table, hands = _recorded()
    start = replay(table, hands[:3])
    again = replay(table, hands[:3])
    extend(start, *hands[3:])
    assert start == again and extend(start, hands[3]) == replay(table, hands[:4])
    with pytest.raises(ValueError, match="made by replay"):
        extend(fold_module.Ledger(table, (), (0,) * 4, 0, 1, ()), hands[0])


def test_add_hand_before_folds_one_hand_only(folded):
    table, hands = _recorded()
    before = replay(table, hands, strict=False)
    folded[0] = 0
    hand, after = add_hand(table, hands, read_hand(table, hands, win("2<3"), before=before), before=before)
    assert folded[0] == 1  # before: 2 x 11 + 1 (a lenient and a strict replay of the table)
    assert after == replay(table, [*hands, hand])
    new, edited = read_hand(table, hands, win("2<3")), read_hand(table, hands, drawn(), 5)
    folded[0] = 0
    add_hand(table, hands, new)  # without it: one replay, then the new hand
    assert folded[0] == len(hands) + 1
    folded[0] = 0
    edit_hand(table, hands, 5, edited)
    assert folded[0] == len(hands)  # the prefix once, then the rest (before: 4 + 11)


def test_add_hand_before_refuses_another_tables_replay():
    table, hands = _recorded()
    with pytest.raises(ValueError, match="not the replay"):
        add_hand(table, hands, read_hand(table, hands, drawn()), before=replay(table, hands[:-1]))
    with pytest.raises(ValueError, match="not the replay"):
        add_hand(
            table,
            hands,
            read_hand(table, hands, drawn()),
            before=replay(Table("jiujiang", SEATS, "2"), hands),
        )


def test_add_hand_before_a_ledger_with_a_broken_hand_names_it():
    """A lenient replay that marked a stored hand as no longer paying (a 炸糊 on a 九江 table):
    the new hand is refused as the strict replay refuses it, naming that hand."""
    table, hands = _recorded()
    hands.insert(2, parse_hand(table, false_win(1), Context(3)))
    before = replay(table, hands, strict=False)
    assert [o.number for o in before.outcomes if o.error] == [3]
    for kw in ({"before": before}, {}):
        with pytest.raises(LedgerError, match="hand 3: this table's rules have no 炸糊"):
            add_hand(table, hands, read_hand(table, hands, drawn()), **kw)


def _code(store) -> str:
    return store.create_table(Table("jiujiang", SEATS)).table.code


def test_append_before_is_the_stored_replay(store, folded):
    code = _code(store)
    for data in HANDS:
        store.append(code, json_hand(store, code, data))
    rec = store.get(code)
    before = rec.ledger()
    new = read_hand(rec.table, rec.hands, win("2<3"), before=before)
    folded[0] = 0
    hand, after = store.append(code, new, expected=len(HANDS), revision=rec.revision, before=before)
    assert folded[0] == 1  # no read and replay of the table inside the write
    assert after == store.get(code).ledger() and store.revision(code) == rec.revision + 1
    assert store.get(code).hands[-1] == hand


def test_append_before_a_stale_revision_is_a_conflict(store):
    code = _code(store)
    store.append(code, json_hand(store, code, win("1<2")))
    rec = store.get(code)
    store.edit(
        code, 1, json_hand(store, code, drawn(), 1), expected=1
    )  # another phone: the hand count stays 1
    with pytest.raises(ConflictError):
        store.append(
            code, json_hand(store, code, win("2<3")), expected=1, revision=rec.revision, before=rec.ledger()
        )
    assert [h.kind for h in store.get(code).hands] == ["drawn"]  # nothing written from the stale ledger
    with pytest.raises(ValueError, match="revision"):
        store.append(code, json_hand(store, code, drawn()), before=store.get(code).ledger())
    with pytest.raises(ValueError, match="revision"):
        other = _code(store)
        store.append(other, json_hand(store, other, drawn()), revision=0, before=store.get(code).ledger())


def test_two_phones_with_their_replays_never_lose_or_double_a_hand(store, db_url):
    from ledger.store import open_store

    code = _code(store)
    store.append(code, json_hand(store, code, drawn()))
    other = open_store(db_url)
    rec = store.get(code)
    barrier = threading.Barrier(2)
    results: list = []

    def write(s, seat):
        barrier.wait()
        try:
            s.append(
                code,
                json_hand(s, code, win(f"{seat}<0")),
                expected=1,
                revision=rec.revision,
                before=rec.ledger(),
            )
            results.append("ok")
        except ConflictError as e:
            results.append(e.code)

    threads = [threading.Thread(target=write, args=(s, seat)) for s, seat in ((store, 1), (other, 2))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    other.close()
    assert sorted(results) == ["conflict", "ok"]
    now = store.get(code)
    assert len(now.hands) == 2 and now.revision == rec.revision + 1
    assert now.ledger() == replay(now.table, now.hands)


def test_create_table_checks_each_hand_once(store, folded):
    _, hands = _recorded()
    folded[0] = 0
    rec = store.create_table(Table("jiujiang", SEATS, "0.5"), hands)
    assert folded[0] == len(hands)  # before: 2 replays per hand, 132 for these 11
    assert rec.ledger().outcomes == replay(rec.table, hands).outcomes
