"""The tables a server process shows, replayed once per revision for all its phones (issue 37:
8 phones opening a 2,000-hand table each replayed it) and never stale: a write through another
`Store` on the same database, or another process (`jxmj table`), shows on the next run. And the
history: the newest hands first, a page at a time."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time

import pytest
import streamlit as st

from app.ui.state.table_cache import TableCache
from app.ui.table import history
from ledger.store import open_store
from tests.app.conftest import ROOT
from tests.app.test_table_page import HAND_A, _click, _enter, _open, _table
from tests.app.test_table_replay import _hands, _tap
from tests.ledger.conftest import PG_ENV
from tests.ledger.test_extend import folded  # noqa: F401 (fixture)
from tests.ledger.util import json_hand

STORED = 12


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, monkeypatch, ledger_db):
    """The page's database: the test's SQLite file, and PostgreSQL when ``JXMJ_TEST_PG`` is set."""
    url = ledger_db
    if request.param == "postgresql":
        url = os.environ.get(PG_ENV)
        if not url:
            pytest.skip(f"needs PostgreSQL: set {PG_ENV} to a database URL (.ci/run does)")
        monkeypatch.setenv("JXMJ_DB", url)
    st.cache_resource.clear()  # the process's stores and tables: none kept from another test
    yield url
    st.cache_resource.clear()


def _stored(n: int = STORED) -> str:
    code, store = _table(), open_store()
    for i in range(n):
        won = {"seat": 1, "discarder": 2, "hand": {"concealed": "123m456p789s234mCC", "winning_tile": "C"}}
        store.append(code, json_hand(store, code, {"kind": "drawn"} if i % 3 else won))
    return code


def test_phones_of_one_process_share_one_replay_of_a_table(db, folded):  # noqa: F811
    code = _stored()
    folded[0] = 0
    one = _open(code)
    assert _hands(one) == STORED and folded[0] == STORED  # the first phone reads and replays it
    two, three = _open(code), _open(code)
    assert _hands(two) == _hands(three) == STORED and folded[0] == STORED  # before: 3 x 12
    _enter(one, HAND_A, winner=1, discarder=2)
    _click(one, "tb_record")
    folded[0] = 0
    _tap(two)  # the write's own replay, kept for every phone
    assert _hands(two) == STORED + 1 and folded[0] == 0


def test_a_write_through_another_store_shows_on_the_next_run(db, folded):  # noqa: F811
    code = _stored()
    one, two = _open(code), _open(code)
    other = open_store(db)  # another server's store: its own engine on the same database
    other.append(code, json_hand(other, code, {"kind": "drawn"}))
    folded[0] = 0
    _tap(one)
    _tap(two)
    assert _hands(one) == _hands(two) == STORED + 1
    assert folded[0] == STORED + 1  # read and replayed once, for both phones
    before = [m.value for m in one.metric]
    other.edit(code, 1, json_hand(other, code, {"kind": "drawn"}, 1))  # same count, new revision
    _tap(one)
    now = [str(int(x)) for x in other.get(code).ledger().totals]
    assert [m.value for m in one.metric] == now != before  # hand 1's win gone, every later raise moved
    other.undo(code)
    _tap(two)
    assert _hands(two) == STORED
    other.close()


def test_a_hand_recorded_by_another_process_shows_on_the_next_run(db):
    code = _stored(3)
    at = _open(code)
    env = {**os.environ, "JXMJ_DB": db, "LC_ALL": "C.UTF-8"}
    cmd = [sys.executable, "-m", "app", "table", "drawn", code]  # `jxmj table drawn CODE`
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    _tap(at)
    assert _hands(at) == 4
    assert re.search(r"4\. ", " ".join(e.label for e in at.expander))  # hand 4 in the history


def test_the_history_shows_the_newest_hands_first_and_older_ones_page_by_page():
    code = _stored(23)
    at = _open(code)

    def numbers() -> list[int]:
        return [int(m.group(1)) for e in at.expander if (m := re.match(r"(\d+)\. ", e.label))]

    assert history.PAGE == 10 and numbers() == list(range(23, 13, -1))
    at.number_input(key="tw_hist_page").set_value(2).run()
    assert numbers() == list(range(13, 3, -1))
    at.number_input(key="tw_hist_page").set_value(3).run()
    assert numbers() == [3, 2, 1]


def test_one_session_reads_a_table_while_the_others_wait_for_it():
    cache, rec = TableCache(), open_store().get(_stored(2))
    reads: list[int] = []

    def read():
        reads.append(1)
        time.sleep(0.2)  # a 2,000-hand table read and replayed
        return rec, rec.ledger()

    got: list = []
    threads = [
        threading.Thread(target=lambda: got.append(cache.load("u", rec.table.code, rec.revision, read)))
        for _ in range(8)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert len(reads) == 1 and cache.calls == 1 and len(got) == 8 and all(g is got[0] for g in got)
    assert cache.get("u", rec.table.code, rec.revision + 1) is None  # written since: read again
    assert cache.get("other", rec.table.code, rec.revision) is None  # another database


def test_the_cache_keeps_the_latest_revision_of_a_few_tables():
    cache, rec = TableCache(size=2), open_store().get(_stored(1))
    code, led = rec.table.code, rec.ledger()
    newer = type(rec)(rec.table, rec.hands, rec.revision + 1)
    cache.put("u", newer, led)
    cache.put("u", rec, led)  # a slow reader's older revision does not replace the newer one
    assert cache.get("u", code, rec.revision + 1) is not None and cache.get("u", code, rec.revision) is None
    cache.put("v", rec, led)
    cache.put("w", rec, led)  # three tables in a cache of two: the least recently shown goes
    assert cache.get("u", code, rec.revision + 1) is None and cache.get("w", code, rec.revision) is not None
