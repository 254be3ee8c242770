"""A new SQLite ledger file has 64 KiB pages (a draft's 2 MB photo in fewer, larger pages); a file
made before keeps its own page size and still opens, is written and read (never VACUUMed)."""

from __future__ import annotations

import sqlite3

from ledger import Table
from ledger.store import db, open_store
from tests.ledger.util import SEATS, drawn, json_hand


def _page_size(path) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute("PRAGMA page_size").fetchone()[0]


def _checkpoint_pages(url: str) -> int:
    with db.make_engine(url).connect() as conn:  # as the app's connections are set up
        return conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar()


def _a_hand_kept(url: str) -> None:
    store = open_store(url)
    code = store.create_table(Table("jiujiang", SEATS)).table.code
    store.append(code, json_hand(store, code, drawn()), expected=0)
    store.close()
    assert [h.kind for h in open_store(url).get(code).hands] == ["drawn"]


def test_a_new_ledger_file_has_64_kib_pages(tmp_path):
    path = tmp_path / "new.sqlite3"
    _a_hand_kept(f"sqlite:///{path}")
    assert db.PAGE_SIZE == 65536 and _page_size(path) == 65536
    assert _checkpoint_pages(f"sqlite:///{path}") == 62  # the WAL still copied back at ~4 MB, not 64 MB


def test_a_ledger_file_of_4_kib_pages_opens_and_keeps_them(tmp_path):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as conn:  # as every ledger was made before: SQLite's default pages, WAL
        conn.execute("PRAGMA page_size=4096")
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE before_jxmj (x)")
    _a_hand_kept(f"sqlite:///{path}")
    assert _page_size(path) == 4096 and _checkpoint_pages(f"sqlite:///{path}") == 1000
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM before_jxmj").fetchone() == (0,)
