"""The files `jxmj table` writes: `export -o FILE` (CSV, JSON) and `settle --png FILE` (the
settlement picture), atomically, never onto the ledger database's own files."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

__all__ = ["store_files", "write_file"]


def store_files(store) -> list[str]:
    """The files of an SQLite store (the database, its WAL, shared memory and journal)."""
    from ledger.store.db import sqlite_file

    database = sqlite_file(store.engine.url)
    return [] if database is None else [database + suffix for suffix in ("", "-wal", "-shm", "-journal")]


def _opened(target, data: str | bytes):
    """`target` (a path or a descriptor) opened to write `data`: text as UTF-8, bytes as they are."""
    if isinstance(data, bytes):
        return open(target, "wb")
    return open(target, "w", encoding="utf-8", newline="")


def write_file(path: str, data: str | bytes, protect: Sequence[str] = ()) -> None:
    """Write `data` (text as UTF-8, or bytes) to `path` atomically: a temporary file beside it,
    renamed over it (a full disk leaves the previous file whole); a path that exists and is no
    regular file (`/dev/stdout`, a pipe) is written as it is. Refused: a file of `protect` (the
    ledger's own files)."""
    from app.jsonin import short
    from ledger import LedgerError

    if not path:  # Path("") is the working folder: refused by name, never "written" nowhere
        raise LedgerError("output_not_written", "cannot write a file with an empty name: give one")
    out = Path(path)
    for f in protect:
        try:
            same = out.resolve() == Path(f).resolve() or (out.exists() and os.path.samefile(out, f))
        except OSError:
            same = False
        if same:
            raise LedgerError(
                "output_is_store",
                f"{short(path)} is a file of the ledger database itself: export to another file",
            )
    tmp = None
    try:
        if out.exists() and not out.is_file():  # a device or a pipe: nothing to replace
            with _opened(out, data) as fh:
                fh.write(data)
            return
        fd, tmp = tempfile.mkstemp(prefix=f".{out.name}-", suffix=".tmp", dir=out.parent)
        with _opened(fd, data) as fh:
            fh.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # as an ordinary new file, not mkstemp's 0600
        os.replace(tmp, out)
    except OSError as e:  # a folder, a missing folder, a full disk: named, never "internal"
        if tmp:
            Path(tmp).unlink(missing_ok=True)
        raise LedgerError("output_not_written", f"cannot write {short(path)}: {e.strerror or e}") from None
