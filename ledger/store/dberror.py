"""What a database error means, read from the driver's error code, never from its message text.

A message is no key: PostgreSQL translates its messages (``lc_messages``), and a message may
quote a path, host or database name (a socket folder named ``locked``). So the kind is read
structurally, on the driver's exception (SQLAlchemy's wrapper keeps it as ``.orig``):

- sqlite3 (Python >= 3.11): ``sqlite_errorcode``, whose low byte is the primary result code:
  ``SQLITE_NOTADB`` / ``SQLITE_CORRUPT`` are :data:`DAMAGED`, ``SQLITE_BUSY`` / ``SQLITE_LOCKED``
  :data:`BUSY` (the extended codes, e.g. ``SQLITE_BUSY_SNAPSHOT``, share their primary's byte);
  the extended ``SQLITE_CONSTRAINT_UNIQUE`` / ``_PRIMARYKEY`` are :data:`DUPLICATE`;
  ``SQLITE_READONLY`` :data:`READ_ONLY`, ``SQLITE_FULL`` :data:`FULL`, ``SQLITE_IOERR`` :data:`IO`.
- psycopg (PostgreSQL): ``sqlstate`` (SQLSTATE, PostgreSQL appendix A): ``55P03``
  lock_not_available, ``40001`` serialization_failure and ``40P01`` deadlock_detected are
  :data:`BUSY`; ``23505`` unique_violation is :data:`DUPLICATE`; ``53100`` disk_full is
  :data:`FULL`, ``25006`` read_only_sql_transaction :data:`READ_ONLY`.

Anything else (no code: a refused connection, a missing file) is :data:`OTHER`.

>>> import sqlite3
>>> db = sqlite3.connect(":memory:")
>>> _ = db.execute("CREATE TABLE t (code TEXT UNIQUE)").execute("INSERT INTO t VALUES ('K7')")
>>> for sql in ("INSERT INTO t VALUES ('K7')", "SELECT * FROM nothing"):
...     try:
...         db.execute(sql)
...     except sqlite3.Error as e:
...         print(kind(e), e.sqlite_errorname)
duplicate SQLITE_CONSTRAINT_UNIQUE
other SQLITE_ERROR
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator

import sqlalchemy as sa

from ledger.errors import ConflictError, LedgerError, StoreError

__all__ = ["BUSY", "DAMAGED", "DUPLICATE", "FULL", "IO", "OTHER", "READ_ONLY", "db_errors", "kind"]

DAMAGED, BUSY, DUPLICATE, OTHER = "damaged", "busy", "duplicate", "other"
READ_ONLY, FULL, IO = "read_only", "full", "io"

_SQLITE = {
    sqlite3.SQLITE_NOTADB: DAMAGED,
    sqlite3.SQLITE_CORRUPT: DAMAGED,
    sqlite3.SQLITE_BUSY: BUSY,
    sqlite3.SQLITE_LOCKED: BUSY,
    sqlite3.SQLITE_READONLY: READ_ONLY,
    sqlite3.SQLITE_FULL: FULL,
    sqlite3.SQLITE_IOERR: IO,
}
_SQLITE_EXTENDED = {
    sqlite3.SQLITE_CONSTRAINT_UNIQUE: DUPLICATE,
    sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY: DUPLICATE,
}
_SQLSTATE = {
    "55P03": BUSY,
    "40001": BUSY,
    "40P01": BUSY,
    "23505": DUPLICATE,
    "53100": FULL,
    "25006": READ_ONLY,
}


def kind(error: object) -> str:
    """:data:`DAMAGED`, :data:`BUSY`, :data:`DUPLICATE` or :data:`OTHER` for ``error`` (a driver
    exception, or SQLAlchemy's wrapper of one)."""
    orig = getattr(error, "orig", None) or error
    code = getattr(orig, "sqlite_errorcode", None)
    if isinstance(code, int):
        return _SQLITE_EXTENDED.get(code) or _SQLITE.get(code & 0xFF, OTHER)
    state = getattr(orig, "sqlstate", None)
    return _SQLSTATE.get(state, OTHER) if isinstance(state, str) else OTHER


@contextlib.contextmanager
def db_errors(where: str) -> Iterator[None]:
    """Driver errors under ``where`` (the database, as the message names it) as :class:`LedgerError`
    by their :func:`kind`: ``corrupt_store``, busy (``conflict``) or ``store_unreachable``; an
    integrity error is a hand recorded first by another writer (``conflict``); text that is not
    UTF-8 is ``corrupt_store``."""
    try:
        yield
    except LedgerError:
        raise
    except sa.exc.TimeoutError:  # no connection free in the pool in time: every one is in use
        raise StoreError("store_busy", f"{where} is busy (all its connections in use): try again") from None
    except sa.exc.IntegrityError:
        raise ConflictError("another phone recorded the same hand first: reload the table") from None
    except UnicodeDecodeError:  # SQLite text decoded strictly (ledger.store.db): damage, not a bug
        raise StoreError(
            "corrupt_store", f"{where} is damaged (text that is not UTF-8); nothing was changed"
        ) from None
    except (sa.exc.DBAPIError, sqlite3.Error) as e:
        text, what = str(getattr(e, "orig", e)), kind(e)
        if what == DAMAGED:
            raise StoreError(
                "corrupt_store", f"{where} is damaged or not a jxmj ledger ({text}); nothing was changed"
            ) from None
        if what == BUSY:
            raise ConflictError("the ledger is busy with another writer: try again") from None
        if what == FULL:
            raise StoreError(
                "disk_full", f"the disk holding {where} is full: free some space and try again"
            ) from None
        if what == READ_ONLY:
            raise StoreError(
                "read_only_store",
                f"{where} is read-only (read-only media or file): it can be shown, not changed",
            ) from None
        if what == IO:
            raise StoreError(
                "store_io_error", f"{where} cannot be read or written (disk I/O error): {text}"
            ) from None
        raise StoreError("store_unreachable", f"{where}: {text}") from None
