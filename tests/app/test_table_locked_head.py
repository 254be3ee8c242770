"""A locked (settled) table has no next hand: its header names no next dealer and no raise
pending for it ("第 3 把：李四 坐庄。升级 ×2（第 2 把黄庄）。" was shown under the lock), in zh and en."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from app.ui import i18n
from ledger.store import open_store
from tests.app.conftest import APP
from tests.app.test_table_page import HAND_A, SEATS, _table
from tests.ledger.util import json_hand

ZH, EN = i18n.catalog("zh"), i18n.catalog("en")
DRAWN = {"kind": "drawn", "follow": {"followed": False, "dragon": False, "second": False}}


pytestmark = pytest.mark.usefixtures("fresh_store")


def _page(code: str, lang: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["table"] = code
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _next_line(at) -> list[str]:
    return [m.value for m in at.markdown if 'id="jx-next"' in m.value]


@pytest.mark.parametrize(("lang", "words"), [("zh", ZH), ("en", EN)])
def test_a_locked_table_shows_no_next_hand_and_no_raise_for_it(lang, words):
    code = _table()
    store = open_store()
    store.append(
        code,
        json_hand(
            store, code, {"seat": 1, "discarder": 2, "hand": {"concealed": HAND_A, "winning_tile": "C"}}
        ),
    )
    store.append(
        code, json_hand(store, code, DRAWN)
    )  # 黄庄: the next hand would be 第 3 把 at x2, 李四 (the winner) dealing
    raised = words["table.raised"].split("{")[0].strip()  # "升级 ×" / "Raised ×"
    before = _page(code, lang)
    [line] = _next_line(before)  # the open table: the next hand, its dealer and its raise
    assert 'data-raise="2"' in line and 'data-dealer="1"' in line and raised in line
    assert words["table.next"].format(n=3, dealer=SEATS[1]) in line
    assert [m.label for m in before.metric][1] == f"{SEATS[1]} · {words['table.dealer_mark']}"
    store.lock(code)
    after = _page(code, lang)
    assert words["table.locked"] in [i.value for i in after.info]
    assert _next_line(after) == []
    assert not [m.value for m in after.markdown if raised in m.value]
    assert [m.label for m in after.metric] == list(SEATS)  # no 庄 mark: no one deals next
    assert [m.value for m in after.metric] == ["0", "3", "-3", "0"]  # the totals are still shown


def test_locking_says_it_once():
    """Issue 36 item 13: 锁定 said "本桌已结算锁定" twice, as the page's alert and as a toast."""
    from tests.app.test_table_page import _click, _open

    code = _table()
    at = _open(code)
    _click(at, "tb_drawn")
    at.checkbox(key="tw_lock_sure").check()
    at.run()
    _click(at, "tb_lock")
    said = [*(i.value for i in at.info), *(t.value for t in at.toast), *(s.value for s in at.success)]
    assert said.count(ZH["table.locked"]) == 1
