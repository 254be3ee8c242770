"""The ledger store: tables and their hands, every write checked (the app's drafts: `app.drafts`).

Writes are optimistic: a writer says how many hands it saw (``expected``); the table row's
``hand_count`` is compared and bumped in the same statement, so of two phones that both saw N
hands, one records hand N + 1 and the other gets a :class:`ConflictError` ("reload") — a hand
is never lost or doubled (the hands' primary key (table, position) backs this up). Every write
checks the new hand list strictly before it commits (``ledger.book``): an append folds the new
hand onto a replay of the stored ones (the writer's own, when it passes one), an edit replays
from the edited hand on. So a stored ledger always replays. Tables are found only by their code:
nothing lists them.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Literal, overload

import sqlalchemy as sa

from ledger.book import CheckedHands, add_hand, edit_hand
from ledger.codes import new_code, normalize_code
from ledger.errors import ConflictError, LedgerError, LockedError, NotFoundError, StoreError
from ledger.fold import Ledger, replay
from ledger.model import Hand, Table
from ledger.store import dberror, readonly, rows
from ledger.store import schema as S
from ledger.store.db import given_url, make_engine, read_snapshot
from ledger.store.dberror import db_errors
from ledger.store.integrity import check_hands, quick_check

__all__ = ["Store", "TableRecord", "open_store"]


@dataclass(frozen=True)
class TableRecord:
    """A table as stored: the :class:`Table`, its hands in order and its ``revision``."""

    table: Table
    hands: tuple[Hand, ...]
    revision: int

    def ledger(self) -> Ledger:
        """The lenient replay (a hand that no longer scores is marked, never fatal)."""
        return replay(self.table, self.hands, strict=False)


def open_store(url: str | None = None, write: bool = True) -> Store:
    """Open (and migrate) the store at ``url`` (default :func:`ledger.store.default_url`).

    Two processes opening a fresh database at once do not race: the migration takes the
    database's write lock first (:func:`ledger.store.schema.migrate`). Opened for writing
    (``write``), an SQLite file must pass ``PRAGMA quick_check``; opened for reading, an SQLite
    file that cannot be written (read-only media, a full disk) is opened read-only instead
    (:func:`ledger.store.readonly.open_read_only`): it can be shown, and any write is refused
    with ``read_only_store``.
    Raises :class:`StoreError`: ``bad_url`` (also an empty ``url``), ``missing_driver``, ``corrupt_store``,
    ``newer_schema``, ``store_unreachable``, ``disk_full``, ``read_only_store``,
    ``store_io_error``; :class:`ConflictError` when another writer holds the database longer
    than the busy timeout (``ledger.store.db.BUSY_TIMEOUT_S``).
    """
    url = given_url(url)  # None: the default; '' is bad_url
    engine = make_engine(url)
    where = f"the ledger database {sa.make_url(url).render_as_string(hide_password=True)}"
    try:
        _migrate(engine, where, write)
    except StoreError as e:
        engine.dispose()
        if write and e.code == "store_io_error":
            raise readonly.full_disk(e, url, where) from None
        if write and e.code in readonly.FALLBACK and readonly.unwritable(url):
            raise readonly.refused(where) from None
        if write or e.code not in readonly.FALLBACK:
            raise
        return Store(readonly.open_read_only(url, where, e), where, read_only=True)
    return Store(engine, where)


OPEN_RETRIES = 5
"""Opening is tried this often when SQLite answers "busy" at once (connections opening a fresh file
together: one switching it to WAL while another begins) before the busy timeout could apply."""


def _migrate(engine: sa.Engine, where: str, write: bool) -> None:
    """Migrate (and with ``write`` check) the store in one write transaction; an immediate
    ``conflict`` (busy, no wait) is tried again up to :data:`OPEN_RETRIES` times, 50 ms apart."""
    for attempt in range(OPEN_RETRIES):
        started = time.monotonic()
        try:
            with db_errors(where), engine.connect().execution_options(jxmj_write=True) as conn, conn.begin():
                S.migrate(conn)
                if write:
                    quick_check(conn, where)
            return
        except ConflictError:
            if attempt == OPEN_RETRIES - 1 or time.monotonic() - started > 1.0:
                raise  # a writer held the lock for the whole busy timeout: say so
            time.sleep(0.05 * (attempt + 1))


class Store:
    """Tables and their hands (see :func:`open_store`)."""

    def __init__(
        self, engine: sa.Engine, where: str = "the ledger database", read_only: bool = False
    ) -> None:
        self.engine, self.where, self.read_only = engine, where, read_only

    @contextlib.contextmanager
    def _tx(self, write: bool = False) -> Iterator[sa.Connection]:
        if write and self.read_only:
            raise readonly.refused(self.where)
        try:
            with db_errors(self.where), self.engine.connect().execution_options(jxmj_write=write) as conn:
                with conn.begin():
                    if not write:
                        read_snapshot(conn)
                    yield conn
        except StoreError as e:
            if e.code != "store_io_error":
                raise
            raise readonly.full_disk(e, str(self.engine.url), self.where) from None

    def close(self) -> None:
        self.engine.dispose()

    # -- tables -------------------------------------------------------------------------------
    def create_table(self, table: Table, hands: list[Hand] | tuple[Hand, ...] = ()) -> TableRecord:
        """Store a new table with ``hands`` (checked one by one) under a fresh code,
        always: an import's ``table.code`` is never kept (a file could choose any code, even one
        free here); ``table.locked`` is kept. Hands read and checked by ``ledger.read_hands`` (an
        import: :class:`~ledger.book.CheckedHands`) are not scored again."""
        checked: list[Hand] = []
        ledger = hands.replay_of(table) if isinstance(hands, CheckedHands) else None
        if ledger is not None:
            checked = list(hands)
        for given in hands if ledger is None else ():  # each folded once onto those before it
            hand, ledger = add_hand(table, checked, given, before=ledger)
            checked.append(hand)
        with self._tx(write=True) as conn:
            code, tid = self._insert_table(conn, table, len(checked))
            for i, h in enumerate(checked, 1):
                conn.execute(S.hands.insert().values(table_id=tid, position=i, data=_dump(h)))
        return TableRecord(replace(table, code=code), tuple(checked), 0)

    def _insert_table(self, conn: sa.Connection, table: Table, hand_count: int) -> tuple[str, int]:
        """Insert the table's row under a fresh code; returns ``(code, id)``. A code another writer
        takes between the check and the insert (a PostgreSQL read does not wait for the other's
        commit) fails the insert as a duplicate: the savepoint undoes it and another is drawn."""
        seats = json.dumps(table.seats, ensure_ascii=False)
        row = dict(
            title=table.title, variant=table.variant, seats=seats, base=str(table.base),
            house_rules=json.dumps(table.house_rules, ensure_ascii=False),
            created=table.created.isoformat(), locked=table.locked, hand_count=hand_count, revision=0,
        )  # fmt: skip
        for _ in range(8):
            code = new_code()
            if conn.execute(sa.select(S.tables.c.id).where(S.tables.c.code == code)).first() is None:
                try:
                    with conn.begin_nested():
                        return code, conn.execute(
                            S.tables.insert().values(code=code, **row)
                        ).inserted_primary_key[0]  # type: ignore[index]  # one row inserted: its key
                except sa.exc.IntegrityError as e:
                    if dberror.kind(e) != dberror.DUPLICATE:
                        raise
        raise ConflictError("another writer took every table code drawn: try again")

    def get(self, code: str) -> TableRecord:
        """The table with ``code`` and its hands; raises :class:`NotFoundError`."""
        with self._tx() as conn:
            return self._load(conn, normalize_code(code))

    def revision(self, code: str) -> int:
        """The table's ``revision``: bumped by every write (record, edit, undo, lock), so a reader
        holding a :class:`TableRecord` of the same revision holds the table as it is; raises
        :class:`NotFoundError`. One indexed row read, not the hands."""
        with self._tx() as conn:
            return int(self._row(conn, normalize_code(code)).revision)

    def _row(self, conn: sa.Connection, code: str) -> sa.Row[Any]:
        row = conn.execute(sa.select(S.tables).where(S.tables.c.code == code)).first()
        if row is None:
            raise NotFoundError(f"no table has the code {code}: check the code (it is case-insensitive)")
        return row

    def _load(self, conn: sa.Connection, code: str, pending: int = 0) -> TableRecord:
        """The table and its hands, which must be its ``hand_count`` (less the ``pending`` change of
        a write claimed in this transaction) at positions 1..n (else ``corrupt_store``)."""
        row = self._row(conn, code)
        h = S.hands.c
        q = sa.select(h.position, h.data).where(h.table_id == row.id).order_by(h.position)
        try:  # text columns written by jxmj; a value that does not parse is damage, not a bug
            seats, rules = tuple(json.loads(row.seats)), json.loads(row.house_rules)
            stored = conn.execute(q).all()
            texts = [d for _, d in stored]
            created, data = (
                datetime.fromisoformat(row.created),
                rows.decode(row.variant, tuple(map(str, seats)), texts),
            )
        except (ValueError, TypeError, RecursionError) as e:
            raise StoreError("corrupt_store", f"table {code} is damaged in {self.where} ({e})") from None
        check_hands(code, row.hand_count - pending, [p for p, _ in stored], self.where)
        table = Table(
            row.variant, seats, row.base, rules, created, row.code, bool(row.locked), row.title, stored=True
        )  # stored: rule values outside bounds added since it was written still load
        return TableRecord(table, rows.read(table, tuple(map(str, seats)), texts, data), row.revision)

    @overload
    def _write(
        self, conn: sa.Connection, code: str, expected: int | None, delta: int, revision: int | None,
        load: Literal[True] = ...,
    ) -> TableRecord: ...  # fmt: skip
    @overload
    def _write(
        self, conn: sa.Connection, code: str, expected: int | None, delta: int, revision: int | None,
        load: bool,
    ) -> TableRecord | None: ...  # fmt: skip
    def _write(
        self, conn: sa.Connection, code: str, expected: int | None, delta: int, revision: int | None,
        load: bool = True,
    ) -> TableRecord | None:  # fmt: skip
        """Claim the write: bump hand count and revision where they are what the writer saw;
        then the table as it was before the write (``load``), read in the same transaction."""
        t = S.tables.c
        cond = [t.code == code, t.locked.is_(False)]
        for col, seen in ((t.hand_count, expected), (t.revision, revision)):
            if seen is not None:  # a count no column can hold (--expect 10**30) matches nothing
                cond.append(col == seen if 0 <= seen < 2**31 else sa.false())
        done = conn.execute(
            S.tables.update().where(*cond).values(hand_count=t.hand_count + delta, revision=t.revision + 1)
        ).rowcount
        if done != 1:
            row = self._row(conn, code)
            if row.locked:
                raise LockedError(
                    f"table {code} is settled and locked: nothing can be recorded, edited or undone"
                )
            raise ConflictError(
                f"table {code} changed since you loaded it (hands now: {row.hand_count}, you saw: "
                f"{expected if expected is not None else row.hand_count}): reload and try again"
            )
        return self._load(conn, code, pending=delta) if load else None

    def append(
        self, code: str, hand: Hand, expected: int | None = None, revision: int | None = None,
        before: Ledger | None = None,
    ) -> tuple[Hand, Ledger]:  # fmt: skip
        """Record the next hand; returns ``(hand, ledger)``. ``expected``: the hand count the writer saw.

        ``before``: the writer's replay of the table at ``revision`` (``TableRecord.ledger()``;
        ``revision`` is then required). The write is claimed only if the table is still at that
        revision, so ``before`` is the replay of the hands stored, and the new hand is folded onto
        it instead of the table being read and replayed again (``ledger.book.add_hand``).
        """
        code = normalize_code(code)
        if before is not None and (revision is None or before.table.code != code):
            raise ValueError("append(before=...) needs that table's revision the ledger was replayed at")
        with self._tx(write=True) as conn:
            rec = self._write(conn, code, expected, +1, revision, load=before is None)
            row = self._row(conn, code)
            if rec is not None:
                table, hands = rec.table, list(rec.hands)
            elif before is None or row.hand_count - 1 != len(before.outcomes):  # of another revision
                raise ConflictError(f"table {code} changed since you loaded it: reload and try again")
            else:
                table, hands = before.table, [o.hand for o in before.outcomes]
            hand, ledger = add_hand(table, hands, hand, before=before)
            conn.execute(S.hands.insert().values(table_id=row.id, position=len(hands) + 1, data=_dump(hand)))
        return hand, ledger

    def edit(
        self, code: str, number: int, hand: Hand, expected: int | None = None, revision: int | None = None
    ) -> tuple[Hand, Ledger]:
        """Replace hand ``number`` (1-based); every later hand is recomputed. Returns ``(hand, ledger)``."""
        code = normalize_code(code)
        with self._tx(write=True) as conn:
            rec = self._write(conn, code, expected, 0, revision)
            hand, ledger = edit_hand(rec.table, list(rec.hands), number, hand)
            tid = self._row(conn, code).id
            h = S.hands.c
            conn.execute(
                S.hands.update().where(h.table_id == tid, h.position == number).values(data=_dump(hand))
            )
        return hand, ledger

    def undo(self, code: str, expected: int | None = None, revision: int | None = None) -> Ledger:
        """Remove the last hand; returns the ledger without it."""
        code = normalize_code(code)
        with self._tx(write=True) as conn:
            rec = self._write(conn, code, expected, -1, revision)
            if not rec.hands:
                raise LedgerError("no_such_hand", f"table {code} has no hand to undo")
            tid = self._row(conn, code).id
            h = S.hands.c
            conn.execute(S.hands.delete().where(h.table_id == tid, h.position == len(rec.hands)))
            return replay(rec.table, rec.hands[:-1], strict=False)

    def lock(self, code: str, revision: int | None = None) -> TableRecord:
        """Lock a settled table read-only (for good); ``revision``: the one the settlement was read at."""
        code = normalize_code(code)
        with self._tx(write=True) as conn:
            self._write(conn, code, None, 0, revision)
            conn.execute(S.tables.update().where(S.tables.c.code == code).values(locked=True))
            return self._load(conn, code)


def _dump(hand: Hand) -> str:
    return json.dumps(hand.to_json(), ensure_ascii=False, separators=(",", ":"))
