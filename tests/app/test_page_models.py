"""The typed page models beside `HandInProgress`: the Learn page's `Practice` and the table
page's `TableView` (pure, no Streamlit), and the session keys they live under."""

from __future__ import annotations

from app.ui.state import keys
from app.ui.state.practice import KEPT, Practice
from app.ui.state.table_cache import Replay
from app.ui.state.table_view import TableView
from ledger import Table
from ledger.store import TableRecord
from scoring import HandInput, score

HAND = HandInput("xinyu", "123m456p789s345sEE", "E", self_drawn=True)


def _dealt(level: str = "one") -> Practice:
    return Practice("", "").next("xinyu", level, (HAND, score(HAND)))


def test_a_practice_is_judged_once_and_counts_a_streak():
    p = _dealt()
    want = p.answer
    assert want == score(HAND).own and not p.revealed and p.streak == 0
    p.reveal(None)  # nothing entered: nothing judged
    assert not p.revealed
    p.reveal(want)
    assert p.right and p.streak == 1 and p.guess == want
    p.reveal(want + 1)  # a guess changed afterwards is not judged again
    assert p.right and p.streak == 1 and p.guess == want


def test_the_table_level_asks_for_the_total_and_a_wrong_guess_ends_the_streak():
    p = _dealt("table")
    assert p.answer == score(HAND).total
    p.streak = 3
    p.reveal(p.answer + 1)
    assert p.revealed and not p.right and p.streak == 0


def test_a_new_practice_hand_keeps_only_the_streak():
    p = _dealt()
    p.reveal(p.answer)
    fresh = p.next("jiujiang", "several", None)
    assert KEPT == ("streak",)
    assert (fresh.variant, fresh.level, fresh.hand, fresh.result) == ("jiujiang", "several", None, None)
    assert (fresh.revealed, fresh.guess, fresh.streak, fresh.answer) == (False, None, 1, None)
    assert fresh.matches("jiujiang", "several") and not fresh.matches("xinyu", "several")


def _rec(revision: int) -> TableRecord:
    return TableRecord(Table("xinyu", ("A", "B", "C", "D"), code="T"), (), revision)


def test_the_table_view_replays_once_per_revision_of_one_table_on_one_database():
    v, rec = TableView(), _rec(4)
    code = rec.table.code
    ledger = rec.ledger()
    assert v.cached("sqlite:///a", code, 4) is None
    v.keep(Replay("sqlite:///a", rec, ledger))
    got = v.cached("sqlite:///a", code, 4)
    assert got is not None and (got.rec, got.ledger) == (rec, ledger)
    assert v.cached("sqlite:///a", code, 5) is None  # another phone wrote
    assert v.cached("sqlite:///b", code, 4) is None  # JXMJ_DB changed
    assert v.cached("sqlite:///a", "OTHER", 4) is None


def test_an_action_begins_on_the_revision_shown_and_is_forgotten_once_written():
    v = TableView()
    v.began("T", "edit")  # nothing shown yet: nothing to begin on
    assert not v.is_begun("T", "edit") and v.begun_at("T", "edit", 9) == 9
    v.showed("T", 3)
    v.began("T", "edit")
    v.showed("T", 5)
    v.began("T", "edit", keep=True)  # a field of the form: the edit began when opened
    assert v.begun_at("T", "edit", 9) == 3 and v.shown_at("T", 0) == 5
    v.began("T", "edit")
    assert v.begun_at("T", "edit", 9) == 5
    v.forget("T", "edit")
    assert not v.is_begun("T", "edit") and v.shown_at("U", 7) == 7


def test_every_session_key_is_declared_once():
    names = [n for n in vars(keys) if n.isupper()]
    values = [getattr(keys, n) for n in names]
    assert len(values) == len(set(values)), "two constants name one key"
    assert keys.widget("variant") == "w_variant" and keys.took("k") == "_took:k"
