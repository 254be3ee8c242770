"""Two phones on one table (SQLite): an edit, an undo or a lock checks the revision the phone
showed when the player began it; another phone's write since is a conflict, said in the page
language, and the edit the player entered stays in its form to save again or drop."""

from __future__ import annotations

import html

import pytest

from app.ui import i18n
from ledger.store import open_store
from tests.app.test_table_page import HAND_A, _click, _table, _totals
from tests.app.test_table_page import _open as _phone
from tests.ledger.util import json_hand

ZH, EN = i18n.catalog("zh"), i18n.catalog("en")
EDIT, UNDO, LOCK = (ZH[f"table.changed_{k}"] for k in ("edit", "undo", "lock"))
HAND1 = "李四 +3 · 王五 -3"  # `_two_hands`' first hand: 李四 wins 3 炮 on 王五's discard


pytestmark = pytest.mark.usefixtures("fresh_store")


def _said(at) -> str:
    return " ".join(html.unescape(w.value) for w in [*at.warning, *at.error])


def _two_hands(code: str) -> None:
    store = open_store()
    for _ in range(2):
        store.append(
            code,
            json_hand(
                store, code, {"seat": 1, "discarder": 2, "hand": {"concealed": HAND_A, "winning_tile": "C"}}
            ),
        )


def _begin_edit(at, n: int, kind: str = "drawn") -> None:
    """Open the edit of hand `n` and choose `kind` (the form is not submitted)."""
    at.number_input(key="tw_edit_n").set_value(n)
    at.run()
    at.segmented_control(key=f"ed_kind_{n}").set_value(kind)


def _save(at, n: int) -> None:
    next(b for b in at.button if b.key and f"edit_{n}" in b.key).click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def test_an_edit_after_another_phone_recorded_is_a_conflict_and_the_edit_stays():
    code = _table()
    _two_hands(code)
    a, b = _phone(code), _phone(code)
    _begin_edit(a, 1)
    _click(b, "tb_drawn")  # B records hand 3 meanwhile
    _save(a, 1)
    hands = open_store().get(code).hands
    assert [h.kind for h in hands] == ["win", "win", "drawn"]  # hand 1 unchanged
    assert _said(a) == EDIT.format(hand=1, n=3, money=HAND1)  # hand 1 as it is, not the last
    assert _totals(a) == ["0", "6", "-6", "0"]  # A shows B's hand 3 (drawn: no money)
    assert a.number_input(key="tw_edit_n").value == 1  # A's edit is still there ...
    assert a.segmented_control(key="ed_kind_1").value == "drawn"
    _save(a, 1)  # ... to save again, now on the table A shows
    assert [h.kind for h in open_store().get(code).hands] == ["drawn", "win", "drawn"]


def test_an_edit_checks_the_table_shown_when_it_began_not_at_the_last_tap():
    """The page rerun in between (another tap) shows B's hand, but the edit was chosen on the
    table before it: saving it is still a conflict, and the next save goes through."""
    code = _table()
    _two_hands(code)
    a, b = _phone(code), _phone(code)
    a.number_input(key="tw_edit_n").set_value(1)  # the edit begins on the table of two hands
    a.run()
    _click(b, "tb_drawn")
    a.segmented_control(key="tw_winner").set_value(2)  # A taps on, in the hand in progress
    a.run()
    a.segmented_control(key="ed_kind_1").set_value("drawn")
    _save(a, 1)
    assert [h.kind for h in open_store().get(code).hands] == ["win", "win", "drawn"]
    assert _said(a) == EDIT.format(hand=1, n=3, money=HAND1)  # hand 1 as it is, not the last
    assert a.segmented_control(key="ed_kind_1").value == "drawn"
    _save(a, 1)
    assert [h.kind for h in open_store().get(code).hands] == ["drawn", "win", "drawn"]


def test_an_edit_kept_after_a_conflict_can_be_dropped():
    code = _table()
    _two_hands(code)
    a, b = _phone(code), _phone(code)
    _begin_edit(a, 1)
    _click(b, "tb_drawn")
    _save(a, 1)
    assert _said(a) == EDIT.format(hand=1, n=3, money=HAND1)  # hand 1 as it is, not the last
    _click(a, "tb_edit_drop")
    assert a.number_input(key="tw_edit_n").value == 3  # the panel as new: the last hand, 保持原样
    kind = next(c for c in a.segmented_control if c.key and c.key.startswith("ed_kind_3"))
    assert kind.key != "ed_kind_3" and kind.value == "keep"  # a fresh form
    assert [h.kind for h in open_store().get(code).hands] == ["win", "win", "drawn"]


def test_an_edit_with_no_other_write_is_saved():
    code = _table()
    _two_hands(code)
    a, b = _phone(code), _phone(code)
    b.run()
    _begin_edit(a, 1)
    _save(a, 1)
    assert [h.kind for h in open_store().get(code).hands] == ["drawn", "win"]
    assert not _said(a)
    assert any(ZH["table.edited"].format(n=1) == t.value for t in a.toast)


def test_an_undo_after_another_phone_recorded_is_a_conflict():
    code = _table()
    _two_hands(code)
    a, b = _phone(code), _phone(code)
    _click(b, "tb_drawn")  # B records hand 3; A still shows two hands
    _click(a, "tb_undo")
    assert [h.kind for h in open_store().get(code).hands] == ["win", "win", "drawn"]
    assert _said(a) == UNDO.format(n=3, money="0")
    _click(a, "tb_undo")  # A now shows hand 3: this undo takes it back, on purpose
    assert [h.kind for h in open_store().get(code).hands] == ["win", "win"]


def test_a_lock_after_another_phone_recorded_is_a_conflict():
    code = _table()
    _two_hands(code)
    a, b = _phone(code), _phone(code)
    a.checkbox(key="tw_lock_sure").check()
    a.run()
    _click(b, "tb_drawn")
    _click(a, "tb_lock")
    assert not open_store().get(code).table.locked
    assert _said(a) == LOCK.format(n=3, money="0")


def test_an_edit_of_the_only_hand_after_another_phone_recorded_is_a_conflict():
    code = _table()
    open_store().append(code, json_hand(open_store(), code, {"kind": "drawn"}))
    a, b = _phone(code), _phone(code)
    a.checkbox(key="ed_f_1").check()  # the only hand: the edit's default
    _click(b, "tb_drawn")
    _save(a, 1)
    assert [h.follow.followed for h in open_store().get(code).hands] == [False, False]
    assert _said(a) == EDIT.format(hand=1, n=2, money="0")
    assert a.number_input(key="tw_edit_n").value == 1
    assert a.checkbox(key="ed_f_1").value


def test_a_lock_ticked_before_another_phone_recorded_is_a_conflict_after_a_rerun():
    code = _table()
    _two_hands(code)
    a, b = _phone(code), _phone(code)
    a.checkbox(key="tw_lock_sure").check()  # 确认 on the settlement of two hands
    a.run()
    _click(b, "tb_drawn")
    a.run()  # another tap on A
    _click(a, "tb_lock")
    assert not open_store().get(code).table.locked
    assert _said(a) == LOCK.format(n=3, money="0")
    _click(a, "tb_lock")  # the settlement A shows now: locked
    assert open_store().get(code).table.locked


def test_each_conflict_says_what_was_not_written_and_names_the_buttons_to_tap():
    """The stale edit said "你这一手还在：核对后再记，或清空" (the record's words: "your hand in
    progress"), though the edit, not a hand, was kept and its buttons are 保存修改 / 放弃修改."""
    for cat in (ZH, EN):
        edit, undo, lock = (cat[f"table.changed_{k}"] for k in ("edit", "undo", "lock"))
        assert cat["table.edit_save"] in edit and cat["table.edit_drop"] in edit and "{hand}" in edit
        assert cat["table.undo"] in undo and cat["table.lock"] in lock
        assert all("{n}" in x and "{money}" in x for x in (edit, undo, lock))  # what the table holds now
    assert "这一手" not in EDIT and "hand in progress" not in EN["table.changed_edit"]
    assert ZH["table.record"] not in EDIT


@pytest.mark.parametrize(("lang", "entered"), [("zh", True), ("en", True), ("zh", False)])
def test_a_hand_being_entered_when_another_phone_locks_is_said_not_recorded(lang, entered):
    """B types a hand; A locks the table; B taps 记这一手: the page is read-only now, and says B's
    hand 2 was not recorded (main: the tap did nothing and the hand vanished without a word). A
    phone with nothing entered is told only that the table is locked."""
    from tests.app.test_table_page import _enter

    code = _table()
    _two_hands(code)
    open_store().undo(code)  # one hand: B's would be hand 2
    a, b = _phone(code), _phone(code)
    b.segmented_control(key="lang").set_value(lang)
    b.run()
    if entered:
        _enter(b, HAND_A, 3, 0)
    a.checkbox(key="tw_lock_sure").check()
    a.run()
    _click(a, "tb_lock")
    if entered:
        _click(b, "tb_record")  # drawn from B's page before the lock reached it
    else:
        b.run()
    words = {"zh": ZH, "en": EN}[lang]
    assert [i.value for i in b.info] == [words["table.locked"]]
    assert [w.value for w in b.warning] == ([words["table.locked_unrecorded"].format(n=2)] if entered else [])
    assert len(open_store().get(code).hands) == 1


@pytest.mark.parametrize("entered", [True, False])
def test_a_reload_shows_the_table_as_it_is_and_the_hand_is_checked_against_it(entered):
    """Issue 36 item 2: phone A begins a hand (跟庄 ticked), B records a 黄庄, A reloads. The
    draft kept the revision A began on, so main refused A's next 记这一手 with "另一部手机先改了这一
    桌" though A's page had shown B's hand since the reload. Now the reload says at once that the
    table changed since the hand was begun (nothing said when nothing was entered), the hand
    begins on the table shown, and the record goes through."""
    from tests.app.test_table_page import _enter

    code = _table()
    a, b = _phone(code), _phone(code)
    if entered:
        a.checkbox(key="tw_followed").check()
        a.run()
    assert a.session_state.hip.table.seen == open_store().revision(code)
    _click(b, "tb_drawn")
    again = _phone(code, a.session_state["draft_token"])  # A reloads
    assert again.session_state.hip.table.seen == open_store().revision(code)  # the table it shows
    reload_said = ZH["table.changed_reload"].format(n=1, money="0")
    assert [w.value for w in again.warning] == ([reload_said] if entered else [])
    assert again.checkbox(key="tw_followed").value is entered  # A's hand is kept
    _enter(again, HAND_A, winner=1, discarder=2)
    _click(again, "tb_record")
    hands = open_store().get(code).hands
    assert [(h.kind, h.follow.followed) for h in hands] == [("drawn", False), ("win", entered)]
    assert not _said(again)
