"""The ledger database schema and its migrations (a version table, no Alembic needed yet).

``jxmj_schema.version`` says which migrations a database has had. :func:`migrate` brings an
older database up to :data:`LATEST` inside one transaction, so a future release opens old
ledgers; a newer database (written by a later jxmj) is refused with a clear message.

- v1: ``jxmj_tables`` (one row per table: code, seats, base, house rules, hand count,
  revision, locked) and ``jxmj_hands`` (one row per recorded hand, JSON, keyed by position).
- v2: ``jxmj_drafts``: the hand in progress per table, or per URL token for the single-hand page
  (the app now keeps drafts in a table of its own, `app.drafts`, and moves these into it).
- v3: a stored hand's 新余 ``kongs`` and its winners' 吃炮 facts (``eaten``) become
  ``[{"seat": index, ...}]``; v1-v2 keyed them by the index as text (``{"2": {...}}``), which a
  seat named "2" read as another seat (:func:`ledger.model.by_index`).
- v4: a winner's 吃炮 facts may hold sets by count (``dragon_pungs`` …, scoring.payer_sets);
  nothing is rewritten, but a jxmj before v4 cannot read those facts, so it refuses the database
  as newer instead of failing table by table.
- v5: ``jxmj_refs``: the table's references, tiles of its own set a player confirmed by
  recording a photo hand (``ledger.store.refs``): per tile its code, the hand's position, and the
  classifier's embedding of its crop with the model that made it (no photo is kept).
"""

from __future__ import annotations

import json
from collections.abc import Callable

import sqlalchemy as sa

from ledger.errors import StoreError
from ledger.model import by_index

__all__ = ["LATEST", "drafts", "hands", "metadata", "migrate", "refs", "schema", "tables"]

metadata = sa.MetaData()

schema = sa.Table("jxmj_schema", metadata, sa.Column("version", sa.Integer, nullable=False))

tables = sa.Table(
    "jxmj_tables",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("code", sa.String(16), nullable=False, unique=True),
    sa.Column("title", sa.String(80), nullable=False, default=""),
    sa.Column("variant", sa.String(16), nullable=False),
    sa.Column("seats", sa.Text, nullable=False),  # JSON list of four names
    sa.Column("base", sa.String(24), nullable=False),  # Decimal as text: exact money
    sa.Column("house_rules", sa.Text, nullable=False, default="{}"),
    sa.Column("created", sa.String(32), nullable=False),  # ISO 8601, UTC
    sa.Column("locked", sa.Boolean, nullable=False, default=False),
    sa.Column("hand_count", sa.Integer, nullable=False, default=0),  # optimistic concurrency
    sa.Column("revision", sa.Integer, nullable=False, default=0),  # bumped by every write
)

hands = sa.Table(
    "jxmj_hands",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("jxmj_tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("position", sa.Integer, primary_key=True),  # 1-based; the primary key forbids a doubled hand
    sa.Column("data", sa.Text, nullable=False),  # the stored hand JSON (ledger.model.Hand.to_json)
)

drafts = sa.Table(
    "jxmj_drafts",
    metadata,
    sa.Column("key", sa.String(64), primary_key=True),  # "table:CODE" or "token:TOKEN"
    sa.Column("data", sa.Text, nullable=False),  # JSON: fixes, conditions
    sa.Column("blob", sa.LargeBinary, nullable=True),  # the photo, when there is one
    sa.Column("updated", sa.String(32), nullable=False),
)

refs = sa.Table(
    "jxmj_refs",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),  # order of learning: oldest first
    sa.Column("table_id", sa.Integer, sa.ForeignKey("jxmj_tables.id", ondelete="CASCADE"), nullable=False),
    sa.Column("hand", sa.Integer, nullable=False),  # position of the recorded hand it came from
    sa.Column("tile", sa.String(8), nullable=False),  # the true tile code (as the player left it)
    sa.Column("model", sa.String(80), nullable=False),  # the classifier that made the embedding
    sa.Column("dim", sa.Integer, nullable=False),  # D: floats per view
    sa.Column("views", sa.LargeBinary, nullable=False),  # float32 little-endian, (views, D)
    sa.Column("created", sa.String(32), nullable=False),
    sa.Index("jxmj_refs_table", "table_id", "model", "id"),
)


def _v1(conn: sa.Connection) -> None:
    for t in (schema, tables, hands):
        t.create(conn)


def _v2(conn: sa.Connection) -> None:
    drafts.create(conn)


def _v3(conn: sa.Connection) -> None:
    h = hands.c
    cond = h.data.contains('"kongs"') | h.data.contains('"eaten"')
    for row in conn.execute(sa.select(h.table_id, h.position, h.data).where(cond)).all():
        text = json.dumps(by_index(json.loads(row.data)), ensure_ascii=False, separators=(",", ":"))
        if text != row.data:
            where = (h.table_id == row.table_id) & (h.position == row.position)
            conn.execute(hands.update().where(where).values(data=text))


def _v4(conn: sa.Connection) -> None:
    """Nothing to rewrite: the version alone tells an older jxmj that facts by count may appear."""


def _v5(conn: sa.Connection) -> None:
    refs.create(conn)


#: MIGRATIONS[v] brings a database from version v - 1 to v.
MIGRATIONS: dict[int, Callable[[sa.Connection], None]] = {1: _v1, 2: _v2, 3: _v3, 4: _v4, 5: _v5}
LATEST = max(MIGRATIONS)


def version_of(conn: sa.Connection) -> int:
    """The schema version of the database behind ``conn`` (0 = empty database)."""
    names = set(sa.inspect(conn).get_table_names())
    if schema.name not in names:
        if names & {tables.name, hands.name, drafts.name, refs.name}:
            raise StoreError(
                "corrupt_store", "the database has jxmj tables but no schema version: it is damaged"
            )
        return 0
    v = conn.execute(sa.select(schema.c.version)).scalar()
    if not isinstance(v, int):
        raise StoreError("corrupt_store", "the database's schema version is missing: it is damaged")
    if v < 1:
        raise StoreError("corrupt_store", f"the database's schema version {v} is no version: it is damaged")
    return v


#: pg_advisory_xact_lock key of the migration (any fixed 64-bit number: "jxmj" in ASCII)
MIGRATION_LOCK = 0x6A786D6A


def migrate(conn: sa.Connection, target: int = LATEST) -> int:
    """Run the missing migrations up to ``target`` on ``conn`` (inside its transaction).

    Migrations of one database never overlap, so two processes opening a fresh database at once
    do not both create its tables: on PostgreSQL the transaction first takes an advisory lock
    (:data:`MIGRATION_LOCK`, held until it ends); on SQLite the store's write transaction
    (``BEGIN IMMEDIATE``) already holds the database's write lock before it reads the version.
    """
    if conn.dialect.name == "postgresql":
        conn.execute(sa.select(sa.func.pg_advisory_xact_lock(MIGRATION_LOCK)))
    v = version_of(conn)
    if v > LATEST:
        raise StoreError(
            "newer_schema",
            f"this ledger database has schema version {v}, newer than this jxmj reads ({LATEST}): "
            "upgrade jxmj to open it (nothing was changed)",
        )
    for step in range(v + 1, target + 1):
        MIGRATIONS[step](conn)
        if step == 1:
            conn.execute(schema.insert().values(version=1))
        else:
            conn.execute(schema.update().values(version=step))
    return max(v, target)
