"""Reading a ledger that cannot be written: read-only media, a read-only file, a full disk.

SQLite needs to write even to read a WAL database (its ``-shm`` index, the WAL switch), so a
ledger on a CD, a read-only mount or a full disk could not even be shown. A store opened for
reading whose normal open fails so (:data:`FALLBACK`) is opened again read-only — ``mode=ro``,
then ``immutable=1`` (no locks, no WAL: media nobody writes to) — and every write on it is
refused with ``read_only_store``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import sqlalchemy as sa

from ledger.errors import StoreError
from ledger.store import schema as S
from ledger.store.db import make_engine, read_only_url
from ledger.store.dberror import db_errors

__all__ = ["FALLBACK", "full_disk", "open_read_only", "refused", "unwritable"]

FALLBACK = ("read_only_store", "disk_full", "store_io_error", "store_unreachable")
"""The codes of a failed normal open after which a reader tries the file read-only."""


def unwritable(url: str) -> bool:
    """Whether ``url`` is an SQLite file on a read-only file system, or a file or folder this
    process may not write."""
    database = sa.make_url(url).database if read_only_url(url) else None
    path = Path(database).expanduser() if database else None
    if path is None or not path.is_file():
        return False
    try:
        if os.statvfs(path).f_flag & os.ST_RDONLY:
            return True
    except OSError:
        return False
    return not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK))


def full_disk(error: StoreError, url: str, where: str) -> StoreError:
    """``error`` as ``disk_full`` when it is an I/O error of an SQLite file whose disk has less
    than 1 MiB free (SQLite reports a -shm or WAL write that ran out of space as an I/O error)."""
    database = sa.make_url(str(url)).database if error.code == "store_io_error" else None
    if not database or database == ":memory:" or database.startswith("file:"):
        return error
    try:
        free = shutil.disk_usage(Path(database).expanduser().parent).free
    except OSError:
        return error
    if free >= 2**20:
        return error
    return StoreError("disk_full", f"the disk holding {where} is full: free some space and try again")


def refused(where: str) -> StoreError:
    return StoreError(
        "read_only_store",
        f"{where} is open read-only (read-only media or a full disk): it can be shown, not changed",
    )


def open_read_only(url: str, where: str, why: StoreError) -> sa.Engine:
    """An engine on the store at ``url`` opened read-only, its schema at the latest version (the
    caller makes it a read-only `Store`), or ``why`` raised again when that fails too (not SQLite,
    no such file, or unreadable)."""
    database = sa.make_url(url).database
    if read_only_url(url) is None or not database or not Path(database).expanduser().is_file():
        raise why
    for immutable in (False, True):
        ro = read_only_url(url, immutable)
        assert ro is not None  # an SQLite file: checked above
        engine = make_engine(ro, read_only=True)
        try:
            with db_errors(where), engine.connect() as conn, conn.begin():
                version = S.version_of(conn)
        except StoreError:
            engine.dispose()
            continue
        if version != S.LATEST:
            engine.dispose()
            if version > S.LATEST:
                raise StoreError(
                    "newer_schema",
                    f"this ledger database has schema version {version}, newer than this jxmj reads "
                    f"({S.LATEST}): upgrade jxmj to open it (nothing was changed)",
                )
            raise StoreError(
                "read_only_store",
                f"{where} needs an upgrade to schema version {S.LATEST} that cannot be written here "
                "(read-only media or a full disk): open it once where it can be written",
            )
        return engine
    raise why
