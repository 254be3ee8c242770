"""Store fixtures: every store test runs on SQLite, and on PostgreSQL when ``JXMJ_TEST_PG`` holds
its URL (`.ci/run` starts a throw-away cluster and sets it; without it the PostgreSQL runs skip)."""

from __future__ import annotations

import os

import pytest

PG_ENV = "JXMJ_TEST_PG"


def _clean_pg(url: str, extra: tuple = ()) -> None:
    from ledger.store import schema
    from ledger.store.db import make_engine

    engine = make_engine(url)
    for metadata in (*extra, schema.metadata):
        metadata.drop_all(engine)
    engine.dispose()


def fresh_url(request, tmp_path, extra: tuple = ()):
    """The body of a `db_url` fixture (``yield from``): an empty SQLite file, or the PostgreSQL
    database of `PG_ENV` emptied before and after (the ledger's tables and those of `extra`, a
    tuple of SQLAlchemy metadata)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
        return
    url = os.environ.get(PG_ENV)
    if not url:
        pytest.skip(f"needs PostgreSQL: set {PG_ENV} to a database URL (.ci/run does)")
    _clean_pg(url, extra)
    yield url
    _clean_pg(url, extra)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A fresh, empty database URL of each kind."""
    yield from fresh_url(request, tmp_path)


@pytest.fixture
def store(db_url):
    from ledger.store import open_store

    s = open_store(db_url)
    yield s
    s.close()
