"""A damaged ledger is refused whole (`corrupt_store`): never shown in part, never written on."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from ledger import StoreError, Table
from ledger.store import open_store
from tests.ledger.util import SEATS, drawn, json_hand, read_hands

ROOT = Path(__file__).resolve().parents[2]


def _table(url: str, hands: int) -> str:
    store = open_store(url)
    try:
        return store.create_table(T := Table("xingzi", SEATS), read_hands(T, [drawn()] * hands)).table.code
    finally:
        store.close()


def _sql(url: str, statement: str) -> None:
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text(statement))
    engine.dispose()


def test_a_deleted_hand_is_damage_not_a_renumbered_table(db_url):
    code = _table(db_url, 10)
    _sql(db_url, "DELETE FROM jxmj_hands WHERE position = 5")
    store = open_store(db_url)
    with pytest.raises(StoreError) as e:
        store.get(code)
    assert e.value.code == "corrupt_store"
    assert f"table {code} is damaged" in str(
        e.value
    ) and "hand 5 missing, 9 hands read of 10 recorded" in str(e.value)
    with pytest.raises(StoreError) as e:  # and nothing is recorded after it: not a `conflict` for ever
        store.append(code, json_hand(store, code, drawn()), expected=10)
    assert e.value.code == "corrupt_store"
    store.close()
    _sql(db_url, "UPDATE jxmj_tables SET hand_count = 9")  # the count agrees, the gap remains
    store = open_store(db_url)
    with pytest.raises(StoreError, match="hand 5 missing, 9 hands read of 9 recorded"):
        store.get(code)
    store.close()


def test_fewer_hands_than_the_count_are_refused(db_url):
    code = _table(db_url, 6)
    _sql(db_url, "DELETE FROM jxmj_hands WHERE position > 3")
    store = open_store(db_url)
    with pytest.raises(StoreError, match="hand 4, 5, 6 missing, 3 hands read of 6 recorded") as e:
        store.get(code)
    assert e.value.code == "corrupt_store"
    store.close()


def _flip_index_entry(path: Path, position: int, value: int) -> None:
    """In the hands' primary-key index, make the entry of hand ``position`` say ``value``."""
    with sqlite3.connect(path) as c:
        root = c.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_jxmj_hands_1'"
        ).fetchone()[0]
        size = c.execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(path.read_bytes())
    start = (root - 1) * size
    at = data.find(bytes([4, 9, 1, 1, position, position]), start, start + size)  # (table 1, position, rowid)
    assert at > 0
    data[at + 4] = value
    path.write_bytes(data)


@pytest.mark.parametrize("value", [0x7F, 0])
def test_a_flipped_index_entry_is_refused_whole(tmp_path, value):
    path = tmp_path / "ledger.sqlite3"
    code = _table(f"sqlite:///{path}", 60)
    _flip_index_entry(path, 32, value)
    with pytest.raises(StoreError) as e:
        open_store(f"sqlite:///{path}").get(code)
    assert e.value.code == "corrupt_store"


def test_a_damaged_page_is_found_when_the_store_is_opened_for_writing(tmp_path):
    path = tmp_path / "ledger.sqlite3"
    _table(f"sqlite:///{path}", 60)
    with sqlite3.connect(path) as c:
        root = c.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_jxmj_hands_1'"
        ).fetchone()[0]
        page = c.execute("PRAGMA page_size").fetchone()[0]  # a new ledger's: 64 KiB
    data = bytearray(path.read_bytes())
    data[(root - 1) * page + 3] ^= 0x04  # the index page's cell count: one bit
    path.write_bytes(data)
    with pytest.raises(StoreError) as e:
        open_store(f"sqlite:///{path}")
    assert e.value.code == "corrupt_store" and "is damaged" in str(e.value)
    assert path.read_bytes() == data


def test_text_that_is_not_utf8_is_corrupt_store_in_the_cli(tmp_path):
    path = tmp_path / "ledger.sqlite3"
    code = _table(f"sqlite:///{path}", 3)
    with sqlite3.connect(path) as c:
        c.execute("UPDATE jxmj_tables SET title = CAST(X'C328FF' AS TEXT)")
    proc = subprocess.run(
        [sys.executable, "-m", "app", "table", "--db", f"sqlite:///{path}", "show", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode != 0 and "corrupt_store" in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    assert "internal" not in proc.stdout + proc.stderr
