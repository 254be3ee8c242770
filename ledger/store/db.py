"""Where the ledger lives and how to connect: SQLite by default, any SQLAlchemy URL by ``JXMJ_DB``.

The default is ``<user data dir>/jxmj/ledger.sqlite3`` (platformdirs: ``~/.local/share/jxmj`` on
Linux) in WAL mode, so readers never wait for a writer. ``JXMJ_DB=postgresql+psycopg://user@host/db``
points every phone's app and the CLI at one PostgreSQL database (``pip install 'jxmj[postgres]'``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import quote

import sqlalchemy as sa
from sqlalchemy import event

from ledger.errors import StoreError

__all__ = [
    "BUSY_TIMEOUT_S",
    "CACHE_KIB",
    "ENV",
    "PAGE_SIZE",
    "POOL",
    "WAL_CHECKPOINT_BYTES",
    "default_url",
    "given_url",
    "in_memory",
    "make_engine",
    "read_only_url",
    "read_snapshot",
]

ENV = "JXMJ_DB"
BUSY_TIMEOUT_S = 15.0  # how long a writer waits for another's lock before "busy" (read per engine)
POOL = {"pool_size": 10, "max_overflow": 10, "pool_timeout": 10.0, "pool_recycle": 1800}
"""The connections one process keeps (a database file or server): each of its phones' sessions holds
one only for a short transaction, so 10 kept and 10 more at a burst serve the ~30 phones one
process serves; four processes then stay within PostgreSQL's default 100 connections. A session
that finds none free for 10 s is told ``store_busy`` (``ledger.store.dberror``), not kept waiting."""


CACHE_KIB = 256
"""SQLite's page cache per connection, KiB (SQLite's default: 2,000). A draft writes its photo
(~1.3 MB) through it, so each pooled connection kept a full cache after a burst: 10 kept ×
~2.4 MB = 24 MB of the app's memory not handed back (issue 37, `app.memdump`). The file's pages
stay in the system's cache, so a read past 256 KiB costs a copy, not a disk read."""


PAGE_SIZE = 65536
"""Bytes a page of a new SQLite ledger file (SQLite's default: 4,096). A draft's photo (~2 MB) is
one row over hundreds of overflow pages: storing it took 3.5 ms of CPU with 4 KiB pages, 1.3-2.1 ms
with 64 KiB (issue 37). Set before the file's first table; SQLite ignores it for a file that has
pages already (a WAL file's page size never changes): an existing ledger keeps its own, and nothing
here VACUUMs a user's file to change it. A new ledger's ten tables and indexes take a page each:
640 KB on disk where 4 KiB pages took ~40 KB."""


WAL_CHECKPOINT_BYTES = 4000 * 1024
"""The WAL is copied back into the file once it holds this much (SQLite's default: 1,000 pages,
4 MB at 4 KiB): counted in pages, the default would let a 64 KiB-page file's WAL grow to 64 MB."""


def default_url() -> str:
    """``JXMJ_DB`` when set, else the SQLite file in the user's data directory."""
    url = os.environ.get(ENV, "").strip()
    if url:
        return url
    import platformdirs

    path = Path(platformdirs.user_data_dir("jxmj", appauthor=False)) / "ledger.sqlite3"
    return f"sqlite:///{path}"


def given_url(url: str | None) -> str:
    """``url`` as given (``--db``), else :func:`default_url` when none is given (None).

    Raises :class:`StoreError` ``bad_url`` for an empty or blank ``url`` (``--db ''``): it names
    no ledger, and taking the default one instead would write where nobody asked.
    """
    if url is None:
        return default_url()
    if not url.strip():
        raise StoreError(
            "bad_url",
            f"the ledger URL is empty ({url!r}): give a database URL (--db, else {ENV}; e.g. "
            "sqlite:///ledger.sqlite3), or leave --db out for the default ledger",
        )
    return url


def sqlite_file(url: str | sa.URL) -> str | None:
    """The file path of an SQLite ``url`` as written (not expanded), or None for another database
    or ``:memory:``. Raises ``sqlalchemy.exc.ArgumentError`` for a string that is no URL.

    >>> sqlite_file("sqlite:///ledger.sqlite3"), sqlite_file("sqlite://"), sqlite_file("postgresql://h/db")
    ('ledger.sqlite3', None, None)
    """
    parsed = sa.make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    return parsed.database


def in_memory(url: str | sa.URL) -> bool:
    """Whether ``url`` is an SQLite database in memory: it lives in its connections, so closing
    the idle ones (``Engine.dispose``, as the app does after a burst) would lose it.

    >>> in_memory("sqlite://"), in_memory("sqlite:///ledger.sqlite3"), in_memory("postgresql://h/db")
    (True, False, False)
    """
    return sa.make_url(url).get_backend_name() == "sqlite" and sqlite_file(url) is None


def read_only_url(url: str, immutable: bool = False) -> str | None:
    """``url`` of an SQLite file opened read-only (``mode=ro``; ``immutable``: without locks or
    the WAL, for read-only media), or None for any other database."""
    database = sqlite_file(url)
    if database is None:
        return None
    path = Path(database).expanduser().resolve()
    query = "mode=ro" + ("&immutable=1" if immutable else "")
    return f"sqlite:///file:{quote(str(path))}?{query}&uri=true"


def make_engine(url: str, read_only: bool = False) -> sa.Engine:
    """An engine for ``url`` (``read_only``: a URL of :func:`read_only_url`, opened without the WAL
    switch); raises :class:`StoreError` for a bad URL or a missing driver."""
    try:
        url.encode("utf-8")  # a non-UTF-8 byte of the environment (\udcff) no driver can open
        parsed = sa.make_url(url)
    except (sa.exc.ArgumentError, UnicodeEncodeError):
        raise StoreError(
            "bad_url", f"{url!r} is not a database URL (--db, else {ENV}; e.g. sqlite:///ledger.sqlite3)"
        ) from None
    if parsed.get_backend_name() == "postgresql" and parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")  # psycopg 3, not the legacy psycopg2
    sqlite = parsed.get_backend_name() == "sqlite"
    if sqlite and parsed.database and parsed.database != ":memory:" and not read_only:
        try:
            Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StoreError(
                "store_unreachable", f"cannot create the folder of the ledger {parsed.database}: {e}"
            ) from None
    try:
        pool = {} if sqlite and parsed.database in (None, "", ":memory:") else POOL  # one connection
        pool = {**pool, "pool_pre_ping": True} if parsed.get_backend_name() == "postgresql" else pool
        engine = sa.create_engine(parsed, connect_args={"timeout": BUSY_TIMEOUT_S} if sqlite else {}, **pool)
    except (sa.exc.NoSuchModuleError, ModuleNotFoundError) as e:
        hint = " (pip install 'jxmj[postgres]')" if parsed.get_backend_name() == "postgresql" else ""
        raise StoreError("missing_driver", f"no database driver for {parsed.drivername}{hint}: {e}") from None
    if sqlite:
        _sqlite_events(engine, round(BUSY_TIMEOUT_S * 1000), read_only)
    elif parsed.get_backend_name() == "postgresql" and "lock_timeout" not in str(parsed.query):
        _lock_timeout(engine, round(BUSY_TIMEOUT_S * 1000))
    return engine


def read_snapshot(conn: sa.Connection) -> None:
    """Make the transaction just begun on ``conn`` read one snapshot, whatever commits meanwhile:
    a table's row and its hands are then read as of one moment, never a hand count of one commit
    and the hands of the next (which the integrity check would call damage). PostgreSQL's default,
    READ COMMITTED, takes a snapshot per statement: the transaction is made REPEATABLE READ, READ
    ONLY (a read-only one never fails to serialize). SQLite's WAL reader keeps the snapshot of its
    first read until the transaction ends already."""
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")


def _lock_timeout(engine: sa.Engine, ms: int) -> None:
    """PostgreSQL waits for a lock for ever by default: give up after ``ms`` (SQLSTATE 55P03, read
    as busy), as SQLite's busy timeout does, unless the URL sets ``lock_timeout`` itself
    (``?options=-c%20lock_timeout%3D100``)."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:  # the driver's connection
        with dbapi_conn.cursor() as cur:
            cur.execute(f"SET lock_timeout = {max(1, int(ms))}")  # 0 would be for ever
        dbapi_conn.commit()


def _utf8(raw: bytes) -> str:
    """SQLite text as str, strictly: bytes that are not UTF-8 (a damaged file) raise
    ``UnicodeDecodeError``, which ``ledger.store.dberror.db_errors`` reports as ``corrupt_store``."""
    return raw.decode("utf-8")


def _sqlite_events(engine: sa.Engine, busy_ms: int, read_only: bool = False) -> None:
    """WAL, foreign keys, and BEGIN IMMEDIATE for writes (a writer takes the lock before it reads,
    so two phones never both read hand count N and both write hand N + 1)."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:  # the driver's connection
        dbapi_conn.isolation_level = None  # SQLAlchemy's "begin" below issues BEGIN itself
        cur = dbapi_conn.cursor()
        if not read_only:
            cur.execute(f"PRAGMA page_size={PAGE_SIZE}")  # a new, empty file only: before WAL
            if not cur.execute("PRAGMA page_count").fetchone()[0]:  # a new file (an old one: never written)
                cur.execute("PRAGMA auto_vacuum=INCREMENTAL")  # `app.drafts.policy.reclaim`
            cur.execute("PRAGMA journal_mode=WAL")
            page = cur.execute("PRAGMA page_size").fetchone()[0]  # the file's own (an old one: 4 KiB)
            cur.execute(f"PRAGMA wal_autocheckpoint={max(1, WAL_CHECKPOINT_BYTES // page)}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute(f"PRAGMA busy_timeout={busy_ms}")
        cur.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        cur.close()
        dbapi_conn.text_factory = _utf8

    @event.listens_for(engine, "begin")
    def _begin(conn: sa.Connection) -> None:
        write = conn.get_execution_options().get("jxmj_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")
