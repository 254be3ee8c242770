"""The 牌局 page's edit panel (修改某一把) as a draft: what a player chose to correct a recorded
hand survives a reload — the panel opens again on the same hand with the same choices and says
so — and is gone once the edit is saved or dropped; a second phone's write meanwhile is still a
conflict, never overwritten."""

from __future__ import annotations

import html

import pytest
from streamlit.testing.v1 import AppTest

from app.drafts import open_drafts
from app.ui import i18n
from ledger.store import open_store
from tests.app.conftest import APP
from tests.app.test_table_page import HAND_A, _click, _table, _totals
from tests.app.test_table_page import _open as _phone
from tests.ledger.util import json_hand

ZH, EN = i18n.catalog("zh"), i18n.catalog("en")


pytestmark = pytest.mark.usefixtures("fresh_store")


def _two_hands(code: str) -> None:
    """Two hands: 李四 wins 3 off 王五, twice."""
    won = {"seat": 1, "discarder": 2, "hand": {"concealed": HAND_A, "winning_tile": "C"}}
    for _ in range(2):
        open_store().append(code, json_hand(open_store(), code, won))


def _run(at) -> None:
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def _choose(at, n: int) -> None:
    """Open the edit of hand `n` and change its winner, discarder and 跟庄 (not saved)."""
    at.number_input(key="tw_edit_n").set_value(n)
    _run(at)
    at.selectbox(key=f"ed_w_{n}").set_value(3)
    _run(at)
    at.selectbox(key=f"ed_d_{n}").set_value(0)
    _run(at)
    at.checkbox(key=f"ed_f_{n}").check()
    _run(at)


def _save(at, n: int) -> None:
    """Tap 保存修改 of hand `n`'s edit (its key: ``tb_edit_N``, ``tb_edit_N_GEN`` after a drop)."""
    key = f"tb_edit_{n}"
    next(b for b in at.button if b.key == key or (b.key or "").startswith(f"{key}_")).click()
    _run(at)


def _reload(code: str, at):
    """A reload of phone `at`: a new session on the address as the browser keeps it (``?table=``,
    its ``?lang=``) and the phone's token as its browser keeps it (a cookie)."""
    again = AppTest.from_file(str(APP), default_timeout=60)
    for k in ("table", "lang"):
        if k in at.query_params:
            again.query_params[k] = at.query_params[k]
    again.session_state["test_cookie"] = at.session_state["draft_token"]
    _run(again)
    return again


def _draft(code: str, at):
    return open_drafts().load(f"edit:{code}:{at.session_state['draft_token']}")


def _said(at) -> str:
    return " ".join(html.unescape(w.value) for w in [*at.warning, *at.error, *at.info])


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_edit_survives_a_reload_and_is_gone_once_saved(lang):
    code = _table()
    _two_hands(code)
    a = _phone(code)
    a.segmented_control(key="lang").set_value(lang)
    _run(a)
    _choose(a, 1)
    assert _draft(code, a)[0]["n"] == 1
    again = _reload(code, a)  # a reload: a new session on the same phone
    words = {"zh": ZH, "en": EN}[lang]
    assert again.number_input(key="tw_edit_n").value == 1  # the same hand ...
    assert again.selectbox(key="ed_w_1").value == 3  # ... with the same choices
    assert again.selectbox(key="ed_d_1").value == 0
    assert again.checkbox(key="ed_f_1").value is True
    assert again.session_state["tw_edit_open"] is True
    assert words["table.edit_restored"].format(n=1) in _said(again)  # and says so
    _save(again, 1)
    hand = open_store().get(code).hands[0]
    assert (hand.winners[0].seat, hand.discarder, hand.follow.followed) == (3, 0, True)
    assert _draft(code, again) is None  # saved: the draft is gone
    # hand 1: 赵六 off 张三, 3; its 跟庄 raises hand 2 x2: 李四 off 王五, 6
    assert _totals(again) == ["-3", "6", "-6", "3"]


def test_a_saved_edit_draws_its_form_anew_and_writes_no_draft_again():
    """Saved, hand 1 is a drawn hand: its form shows it as it is now (保持原样), not the choice
    just saved — else the next run would keep that choice as a draft again."""
    code = _table()
    _two_hands(code)
    a = _phone(code)
    a.number_input(key="tw_edit_n").set_value(1)
    _run(a)
    a.segmented_control(key="ed_kind_1").set_value("drawn")
    _run(a)
    assert _draft(code, a)[0]["form"] == {"ed_kind": "drawn"}
    _save(a, 1)
    assert [h.kind for h in open_store().get(code).hands] == ["drawn", "win"]
    kind = next(c for c in a.segmented_control if c.key and c.key.startswith("ed_kind_1"))
    assert kind.key != "ed_kind_1" and kind.value == "keep"
    a.run()
    assert _draft(code, a) is None


def test_a_dropped_edit_leaves_no_draft_and_a_reload_opens_the_panel_as_new():
    code = _table()
    _two_hands(code)
    a = _phone(code)
    _choose(a, 1)
    _click(a, "tb_edit_drop")
    assert _draft(code, a) is None
    again = _reload(code, a)
    assert again.number_input(key="tw_edit_n").value == 2
    assert again.selectbox(key="ed_w_2").value == 1  # the recorded winner, nothing of the dropped edit
    assert ZH["table.edit_restored"].format(n=1) not in _said(again)


@pytest.mark.parametrize("when", ["before the reload", "after the reload"])
def test_another_phones_edit_meanwhile_is_still_a_conflict_and_the_choices_stay(when):
    """A chooses a new winner for hand 1 and reloads; B changes hand 1 (跟庄) before or after
    A's reload: A's save is refused as a conflict — B's edit is not overwritten — and A's
    choices stay, to save again on the table A shows now."""
    from app.ui.table.db import money_line

    code = _table()
    _two_hands(code)
    a, b = _phone(code), _phone(code)
    _choose(a, 1)

    def b_edits() -> None:  # B: hand 1 was 跟庄 with a dragon
        b.number_input(key="tw_edit_n").set_value(1)
        _run(b)
        for box in ("ed_f_1", "ed_fd_1"):
            b.checkbox(key=box).check()
            _run(b)
        _save(b, 1)
        assert open_store().get(code).hands[0].follow.dragon is True

    if when == "before the reload":
        b_edits()
    again = _reload(code, a)  # A reloads: A's choices are back
    if when == "after the reload":
        b_edits()
    assert again.selectbox(key="ed_w_1").value == 3
    _save(again, 1)
    rec = open_store().get(code)
    assert rec.hands[0].winners[0].seat == 1 and rec.hands[0].follow.dragon  # B's edit stands
    money = money_line(rec.table.seats, rec.ledger().outcomes[0].deltas, str)  # hand 1 as B left it
    assert ZH["table.changed_edit"].format(hand=1, n=2, money=money) in _said(again)
    assert again.selectbox(key="ed_w_1").value == 3  # the edit stays, to save again or drop
    assert _draft(code, again)[0]["form"]["ed_w"] == 3
    _save(again, 1)  # now on the table A shows: saved
    assert open_store().get(code).hands[0].winners[0].seat == 3
    assert _draft(code, again) is None


def test_a_draft_of_a_hand_no_longer_on_the_table_is_dropped_with_a_word():
    code = _table()
    _two_hands(code)
    a = _phone(code)
    _choose(a, 2)
    open_store().undo(code)  # another phone takes hand 2 back
    again = _reload(code, a)
    assert again.number_input(key="tw_edit_n").value == 1
    assert ZH["table.edit_gone"].format(n=2) in _said(again)
    assert _draft(code, again) is None
    again.segmented_control(key="tw_winner").set_value(2)  # a tap elsewhere: still said
    _run(again)
    assert ZH["table.edit_gone"].format(n=2) in _said(again)
    again.checkbox(key="ed_f_1").check()  # another edit begun: said no more
    _run(again)
    assert ZH["table.edit_gone"].format(n=2) not in _said(again)


GOOD = {"v": 1, "n": 2, "begun": 5, "form": {"ed_kind": "drawn", "ed_w": 3, "ed_d": -1, "ed_f": True}}


@pytest.mark.parametrize(
    ("change", "reads"),
    [
        ({}, True),
        ({"begun": None}, True),  # begun on the table the page shows
        ({"v": 2}, False),
        ({"n": 0}, False),
        ({"n": "2"}, False),
        ({"n": True}, False),
        ({"begun": "5"}, False),
        ({"form": []}, False),
        ({"form": {"ed_x": 1}}, False),
        ({"form": {"ed_kind": "win"}}, False),
        ({"form": {"ed_w": None}}, False),
        ({"form": {"ed_w": 4}}, False),
        ({"form": {"ed_d": -2}}, False),
        ({"form": {"ed_d": 0}}, True),
        ({"form": {"ed_f": "yes"}}, False),
        ({"form": {"ed_use": 1}}, False),
    ],
)
def test_a_stored_edit_reads_back_only_when_every_field_can_be(change, reads):
    from app.ui.table.edit_draft import form_of

    data = {**GOOD, **change}
    want = (data["n"], data["begun"], data["form"]) if reads else None
    assert form_of(data) == want


def test_a_draft_that_does_not_read_back_opens_the_panel_as_new():
    code = _table()
    _two_hands(code)
    a = _phone(code)
    open_drafts().save(f"edit:{code}:{a.session_state['draft_token']}", {**GOOD, "form": {"ed_w": "李四"}})
    again = _reload(code, a)
    assert again.number_input(key="tw_edit_n").value == 2
    assert again.selectbox(key="ed_w_2").value == 1
    assert not _said(again)
