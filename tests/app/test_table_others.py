"""Two phones on one table: while one enters a hand, the other's 牌局 page says so in one line —
the winner's name when that phone has chosen one, else "another phone" — never about its own
hand, and no longer once the hand is recorded or that draft is old."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from app.ui import i18n
from ledger import Table
from ledger.store import open_store
from tests.app.conftest import APP

ZH, EN = i18n.catalog("zh"), i18n.catalog("en")
SEATS = ("张三", "李四", "王五", "赵六")
HAND_A = "123m456p789s234mCC"


def _open(code: str, lang: str = "zh") -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["table"], at.query_params["lang"] = code, lang
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _line(at) -> list[str]:
    return [c.value for c in at.caption if 'id="jx-others"' in c.value]


def _type(at, tiles: str) -> None:
    at.text_input(key="typed").input(tiles)
    at.button(key="btn_typed").click()
    at.run()


def test_the_other_phone_is_named_by_its_winner_and_never_your_own():
    code = open_store().create_table(Table("jiujiang", SEATS)).table.code
    a, b = _open(code), _open(code, "en")
    assert _line(a) == _line(b) == []  # two phones that only opened the table: nothing entered
    _type(a, HAND_A)
    b.run()
    assert _line(b) == [f'<span id="jx-others">{EN["table.other_phone_anon"]}</span>']  # no winner yet
    a.segmented_control(key="tw_winner").set_value(1)
    a.run()
    assert _line(a) == []  # its own hand: never
    b.run()
    assert _line(b) == [f'<span id="jx-others">{EN["table.other_phone"].format(who="李四")}</span>']
    _type(b, HAND_A)  # now both enter a hand: each sees the other only
    a.run()
    assert _line(a) == [f'<span id="jx-others">{ZH["table.other_phone_anon"]}</span>']
    a.segmented_control(key="tw_how").set_value(2)
    a.run()
    a.button(key="tb_record").click()  # a's hand recorded: its draft is gone
    a.run()
    assert len(open_store().get(code).hands) == 1
    b.run()
    assert _line(b) == []


def test_a_draft_saved_long_ago_is_a_phone_put_away(monkeypatch):
    from datetime import timedelta

    from app.drafts import policy

    code = open_store().create_table(Table("jiujiang", SEATS)).table.code
    a = _open(code)
    _type(a, HAND_A)
    later = policy.now() + timedelta(minutes=6)
    monkeypatch.setattr(policy, "now", lambda: later)
    b = _open(code)
    assert _line(b) == []
