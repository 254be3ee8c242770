"""The page protocol every hand page runs, written once (`app.ui.hand.protocol.hand_page`), and
`session.bind_choice`: the 牌局 page's `TableChoices` bound to widgets like `bind` binds `cond`."""

from __future__ import annotations

import pytest

from app.ui.hand import protocol, session
from app.ui.state import Conditions, EditHand, keys
from app.ui.state.progress import HandInProgress, TableChoices


@pytest.fixture
def steps(monkeypatch):
    """The session as a dict, and every step of the protocol recorded in order."""
    ss: dict = {}
    monkeypatch.setattr(session, "ss", ss)
    done: list[str] = []
    draft: dict = {"back": False}

    def restore(key):
        done.append(f"restore {key}")
        if draft["back"]:
            session.hip().start(EditHand(), Conditions(variant="xinyu"))
        return draft["back"]

    monkeypatch.setattr(protocol.drafting, "restore", restore)
    monkeypatch.setattr(protocol.drafting, "save", lambda key: done.append(f"save {key}"))
    monkeypatch.setattr(protocol, "take_new_photos", lambda before=None: done.append("photo"))
    monkeypatch.setattr(session, "sync_from_widgets", lambda: done.append("sync"))
    return ss, done, draft


def _begin(done):
    def begin():
        done.append("begin")
        session.start(EditHand(), Conditions(variant="jiujiang"))

    return begin


def test_a_page_without_a_draft_begins_reads_the_photo_syncs_draws_and_saves(steps):
    ss, done, _ = steps
    with protocol.hand_page("score", "token:A", _begin(done)) as h:
        done.append("draw")
        assert h is ss[keys.HIP] and h.ns == "score" and h.cond.variant == "jiujiang"
    assert done == ["restore token:A", "begin", "photo", "sync", "draw", "save token:A"]


def test_a_draft_read_back_is_not_begun_again_and_is_told_to_the_page(steps):
    _, done, draft = steps
    draft["back"] = True
    seen: list[HandInProgress] = []
    with protocol.hand_page("table:T", "table:T:A", _begin(done), restored=seen.append) as h:
        done.append("draw")
    assert seen == [h] and h.cond.variant == "xinyu" and h.ns == "table:T"
    assert done == ["restore table:T:A", "photo", "sync", "draw", "save table:T:A"]
    done.clear()
    with protocol.hand_page("table:T", "table:T:A", _begin(done), restored=seen.append):
        pass  # the next run: the hand is started, no draft read
    assert done == ["photo", "sync", "save table:T:A"] and len(seen) == 1


def test_a_page_that_leaves_by_an_exception_saves_no_draft(steps):
    _, done, _ = steps
    with pytest.raises(RuntimeError), protocol.hand_page("score", "token:A", _begin(done)):
        raise RuntimeError("st.rerun")
    assert "save token:A" not in done and done[-1] == "sync"


def test_a_table_choice_is_drawn_from_the_model_and_written_back(monkeypatch):
    ss: dict = {}
    monkeypatch.setattr(session, "ss", ss)
    session.use("table:T")
    session.hip().table = TableChoices(winner=2)
    drawn = {}

    def widget(label, key):
        drawn[key] = ss[key]  # what the browser is sent: the model's value
        return None  # the player cleared it

    assert session.bind_choice("winner", widget, "Winner") is None
    assert drawn == {"tw_winner": 2} and session.hip().table.winner is None
    ss["tw_winner"] = 3  # a tap: the widget's key holds the value, kept over the model's
    assert session.bind_choice("winner", lambda label, key: ss[key], "Winner") == 3
    assert session.hip().table.winner == 3


def test_a_choice_the_widget_holds_otherwise_is_shown_set_again_and_taken_back(monkeypatch):
    ss: dict = {}
    monkeypatch.setattr(session, "ss", ss)
    session.use("table:T")
    session.hip().table = TableChoices(winner=1, discarder=None)
    options = ["self", 0, 2, 3]
    how = {"key": "how", "shown": lambda d: d if d in options else "self", "fits": lambda v: v in options}
    how["taken"] = lambda v: v if isinstance(v, int) else None

    def widget(label, opts, key):
        return ss[key]

    assert session.bind_choice("discarder", widget, "How", options, **how) is None
    assert ss["tw_how"] == "self" and "tw_discarder" not in ss  # 自摸 shown as the widget's own value
    ss["tw_how"] = 2  # a tap on seat 2
    assert session.bind_choice("discarder", widget, "How", options, **how) == 2
    ss["tw_how"] = 1  # seat 1 became the winner: no longer offered, set again from the model (2)
    assert session.bind_choice("discarder", widget, "How", options, **how) == 2 and ss["tw_how"] == 2
