"""Issue 37, memory returned after a burst: what `app.memdump` found held 60 s after 64 phones
(the database pools' idle connections, each with SQLite's page cache and prepared statements)
is let go by `photo_gate.reclaim`; and the debugging switch itself (`JXMJ_MEMDUMP`)."""

from __future__ import annotations

import os
import signal
import time

import pytest
import sqlalchemy as sa

from app import memdump, photo_gate
from ledger.store import db


@pytest.fixture
def releasers(monkeypatch):
    got: list = []
    monkeypatch.setattr(photo_gate, "_releasers", got)
    return got


def test_reclaim_runs_what_registered_first_and_survives_a_failing_one(releasers, monkeypatch):
    order = []
    monkeypatch.setattr(photo_gate.gc, "collect", lambda *a: order.append("collect") or 0)
    monkeypatch.setattr(photo_gate, "trim", lambda: order.append("trim") or True)

    def broken():
        order.append("broken")
        raise RuntimeError("gone")

    photo_gate.on_reclaim(broken)
    photo_gate.on_reclaim(lambda: order.append("dispose"))
    assert photo_gate.reclaim() is True
    assert order == ["broken", "dispose", "collect", "trim"]


def test_an_sqlite_connection_keeps_a_small_page_cache(tmp_path):
    """SQLite's default is 2,000 KiB per connection: a draft's photo filled it, and the pool
    kept 10 of them after a burst."""
    engine = db.make_engine(f"sqlite:///{tmp_path / 'l.sqlite3'}")
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA cache_size").scalar() == -256 == -db.CACHE_KIB
    engine.dispose()


@pytest.mark.parametrize("module", ["app.ui.drafting", "app.ui.table.db"])
def test_the_apps_stores_close_their_idle_connections_on_reclaim(module, releasers, tmp_path, monkeypatch):
    import importlib

    page = importlib.import_module(module)
    monkeypatch.setenv("JXMJ_DB", f"sqlite:///{tmp_path / 'l.sqlite3'}")
    page._open.clear()
    try:
        store = page.store()
        with store.engine.connect() as conn:
            conn.execute(sa.text("SELECT 1"))
        assert store.engine.pool.checkedin() == 1  # kept idle after the transaction
        assert len(releasers) == 1
        photo_gate.reclaim()
        assert store.engine.pool.checkedin() == 0  # closed: its memory goes back
        with store.engine.connect() as conn:  # and the store still works
            assert conn.execute(sa.text("SELECT 2")).scalar() == 2
    finally:
        page._open.clear()


def test_the_memory_report_names_the_heaps_and_the_objects():
    text = memdump.report()
    assert text.startswith("== ") and "VmRSS=" in text
    for part in ("heap: arena", "python: ", "sqlite: ", "gc: "):
        assert part in text


def test_the_switch_is_off_unless_set(monkeypatch):
    before = signal.getsignal(signal.SIGUSR1)
    assert memdump.install({}) is False
    assert signal.getsignal(signal.SIGUSR1) is before


def test_sigusr1_appends_a_report_when_set(tmp_path):
    out = tmp_path / "mem.txt"
    before = signal.getsignal(signal.SIGUSR1)
    try:
        assert memdump.install({memdump.ENV: str(out)}) is True
        os.kill(os.getpid(), signal.SIGUSR1)
        deadline = time.monotonic() + 30
        while not (out.exists() and out.read_text().endswith("\n")) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        signal.signal(signal.SIGUSR1, before)
    assert out.read_text().count("== ") == 1 and "heap: arena" in out.read_text()


def test_a_database_in_memory_keeps_its_connections(releasers, monkeypatch):
    """Closing the idle connections of an SQLite database in memory would lose it."""
    from app.ui import drafting

    assert db.in_memory("sqlite://") and not db.in_memory("sqlite:///x.sqlite3")
    monkeypatch.setenv("JXMJ_DB", "sqlite://")
    drafting._open.clear()
    try:
        drafting.store()
    finally:
        drafting._open.clear()
    assert releasers == []
