"""Database errors by kind, on SQLite and PostgreSQL: read from the driver's error code
(ledger.store.dberror), never from the message text — a path or database name that says
"locked" or "malformed" is no such error."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest
import sqlalchemy as sa

from ledger import ConflictError, StoreError, Table
from ledger.store import db, open_store, schema
from tests.ledger.util import SEATS, drawn, json_hand

BUSY = "the ledger is busy with another writer: try again"


def _with_query(url: str, **query: str) -> str:
    return sa.make_url(url).update_query_dict(query).render_as_string(hide_password=False)


def test_a_malformed_file_is_corrupt_store_and_left_as_it_was(tmp_path):
    path = tmp_path / "ledger.sqlite3"
    store = open_store(f"sqlite:///{path}")
    store.create_table(Table("xingzi", SEATS))
    store.close()  # the last connection checkpoints the WAL into the file
    data = path.read_bytes()
    page = {1: 65536}.get(size := int.from_bytes(data[16:18], "big"), size)  # the header's (1: 64 KiB)
    damaged = data[:page] + b"Z" * (len(data) - page)  # page 1 (the schema) intact, every table page not
    path.write_bytes(damaged)
    with pytest.raises(StoreError, match=r"is damaged or not a jxmj ledger \(database disk image") as e:
        open_store(f"sqlite:///{path}")
    assert e.value.code == "corrupt_store"
    assert path.read_bytes() == damaged


@pytest.fixture
def quick(db_url, monkeypatch):
    """``db_url`` whose writers give up on another's lock after about 0.1 s (not 15 s)."""
    monkeypatch.setattr(db, "BUSY_TIMEOUT_S", 0.1)  # SQLite
    return _with_query(db_url, options="-c lock_timeout=100") if db_url.startswith("postgresql") else db_url


def _hold_write_lock(url: str):
    """Another writer, mid-transaction: it holds the table rows and the migration lock.
    Returns the function that ends it."""
    if url.startswith("sqlite"):
        conn = sqlite3.connect(sa.make_url(url).database, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        return conn.close
    engine = sa.create_engine(url)
    conn = engine.connect()
    conn.execute(sa.text("LOCK TABLE jxmj_tables IN ACCESS EXCLUSIVE MODE"))
    conn.execute(sa.select(sa.func.pg_advisory_xact_lock(schema.MIGRATION_LOCK)))
    return lambda: (conn.close(), engine.dispose())


def test_a_locked_database_is_busy_not_unreachable(quick):
    store = open_store(quick)
    code = store.create_table(Table("xingzi", SEATS)).table.code
    release = _hold_write_lock(quick)
    try:
        for write in (lambda: store.append(code, json_hand(store, code, drawn())), lambda: open_store(quick)):
            with pytest.raises(ConflictError, match=BUSY) as e:
                write()
            assert e.value.code == "conflict"
    finally:
        release()
    store.append(code, json_hand(store, code, drawn()))  # the lock gone, the same store writes
    assert len(store.get(code).hands) == 1
    store.close()


def test_a_lock_held_on_and_on_is_busy_after_the_busy_timeout_by_default(db_url, monkeypatch):
    # no lock_timeout in the URL: a PostgreSQL writer waited for another's lock for ever (SQLite:
    # BUSY_TIMEOUT_S); now both give up after BUSY_TIMEOUT_S with "busy". The holder lets go
    # after 20 s, so a writer that still waits gets through and the test fails, not hangs.
    monkeypatch.setattr(db, "BUSY_TIMEOUT_S", 0.5)
    store = open_store(db_url)
    code = store.create_table(Table("xingzi", SEATS)).table.code
    release = _hold_write_lock(db_url)
    timer = threading.Timer(20, release)
    timer.start()
    started = time.monotonic()
    try:
        with pytest.raises(ConflictError, match=BUSY):
            store.append(code, json_hand(store, code, drawn()))
        assert time.monotonic() - started < 10
    finally:
        timer.cancel()
        release()
    assert len(store.get(code).hands) == 0
    store.close()


@pytest.mark.parametrize("word", ["locked", "malformed", "not a database"])
def test_an_unreachable_server_is_unreachable_whatever_its_path_says(tmp_path, word):
    pytest.importorskip("psycopg", reason="needs psycopg (the postgres extra)")
    url = _with_query("postgresql+psycopg://jxmj@/ledger", host=str(tmp_path / word))  # no server there
    with pytest.raises(StoreError, match=f"^the ledger database postgresql.*{word}") as e:
        open_store(url)
    assert e.value.code == "store_unreachable"


def test_a_missing_database_named_locked_is_unreachable(db_url):
    if not db_url.startswith("postgresql"):
        pytest.skip("needs a PostgreSQL server that says which database it lacks")
    missing = sa.make_url(db_url).set(database="jxmj_locked_malformed").render_as_string(hide_password=False)
    with pytest.raises(StoreError, match="jxmj_locked_malformed") as e:
        open_store(missing)
    assert e.value.code == "store_unreachable"


def test_processes_opening_a_fresh_database_at_once_all_open_it(db_url):
    barrier, results = threading.Barrier(4), []

    def opener():
        barrier.wait()
        try:
            open_store(db_url).close()
            results.append("ok")
        except Exception as e:  # the test names what went wrong, not a thread's traceback
            results.append(f"{type(e).__name__}: {e}")

    threads = [threading.Thread(target=opener) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == ["ok"] * 4
    engine = sa.create_engine(db_url)
    with engine.connect() as conn:
        assert conn.execute(sa.select(schema.schema.c.version)).scalars().all() == [schema.LATEST]
    engine.dispose()


def test_an_import_whose_code_another_writer_takes_meanwhile_gets_a_fresh_code(db_url):
    store = open_store(db_url)
    row = dict(code="K7QM9ACXTRE", title="", variant="xingzi", seats='["a","b","c","d"]', base="1",
               house_rules="{}", created="2026-12-01T20:00:00+00:00", locked=False, hand_count=0,
               revision=0)  # fmt: skip
    engine = sa.create_engine(db_url)
    other = engine.connect()
    if db_url.startswith("sqlite"):
        other.exec_driver_sql("BEGIN IMMEDIATE")  # SQLite: the import waits for the write lock
    other.execute(schema.tables.insert().values(**row))  # PostgreSQL: its insert waits on the code
    done: list = []

    def import_it():
        try:
            done.append(store.create_table(Table("xinyu", SEATS, code=row["code"])))
        except Exception as e:  # named by the assert below, not a thread's traceback
            done.append(e)

    thread = threading.Thread(target=import_it)
    thread.start()
    time.sleep(0.5)  # the import has read the code as free and waits for the other writer
    other.commit()
    thread.join()
    other.close()
    engine.dispose()
    assert len(done) == 1 and not isinstance(done[0], Exception), done
    assert done[0].table.code != row["code"]
    assert store.get(row["code"]).table.seats == ("a", "b", "c", "d")
    assert store.get(done[0].table.code).table.seats == SEATS
    store.close()
