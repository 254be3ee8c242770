"""Damage the database engine does not report itself: the store refuses a damaged ledger whole.

A flipped bit in an index page can make SQLite return part of a table's hands without an
error, and a deleted row leaves the others numbered 1..n with a gap. So:

- :func:`check_hands` — on every load, the hands read must be exactly ``hand_count`` rows at
  positions 1..n, else ``corrupt_store`` (a table is never shown or extended in part). The row
  and its hands are read in one transaction that sees one snapshot (a write's, which holds the
  table's row; a reader's, :func:`ledger.store.db.read_snapshot`), so another process's commit
  between the two reads is never taken for damage;
- :func:`quick_check` — when a store is opened for writing (``open_store``), SQLite's
  ``PRAGMA quick_check`` (every page and index of the file, without the slower cross-checks of
  ``integrity_check``) must say ``ok``; PostgreSQL checks its pages itself;
- text that is not UTF-8 is damage too: SQLite's text is decoded strictly
  (``ledger.store.db``) and ``ledger.store.dberror.db_errors`` reports it as ``corrupt_store``.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from ledger.errors import StoreError

__all__ = ["check_hands", "quick_check"]


def check_hands(code: str, hand_count: int, positions: Sequence[int], where: str) -> None:
    """Raise ``corrupt_store`` unless ``positions`` (as read, in order) are 1..``hand_count``."""
    if list(positions) == list(range(1, hand_count + 1)):
        return
    missing = sorted(set(range(1, hand_count + 1)) - set(positions))
    named = ", ".join(map(str, missing[:5])) + (" …" if len(missing) > 5 else "")
    said = f"hand {named} missing, " if missing else ""
    raise StoreError(
        "corrupt_store",
        f"table {code} is damaged in {where}: {said}{len(positions)} hands read of {hand_count} recorded "
        "(nothing was shown or changed; restore the file from a copy)",
    )


def quick_check(conn: sa.Connection, where: str) -> None:
    """SQLite's ``PRAGMA quick_check`` on ``conn``'s database; ``corrupt_store`` unless ``ok``."""
    if conn.dialect.name != "sqlite":
        return
    rows = [r[0] for r in conn.exec_driver_sql("PRAGMA quick_check(5)")]
    if rows != ["ok"]:
        raise StoreError(
            "corrupt_store",
            f"{where} is damaged ({'; '.join(map(str, rows))}): nothing was changed; restore it from a copy",
        )
