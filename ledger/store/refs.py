"""A table's references: tiles of its own set that a player confirmed, kept with the table.

When a hand read from a photo is recorded at a table, every photo tile of it becomes a reference
of that table's set with its true code (the name the player gave a tile he renamed): the app
stores, per tile, the classifier's embedding of each view of its crop (`vision.refembed`) and the
model that made it, never the photo. Later photos at that table are read with them
(`vision.refs`); an embedding of another model is never used (`table_refs(model=...)`).

Bounds: at most `MAX_TABLE_REFS` per table (the oldest dropped), `MAX_REFS_PER_HAND` per hand,
each at most `MAX_VIEWS` views of at most `MAX_DIM` floats. A reference names the hand position
it came from: recording a hand at position N first drops what an undone hand N left
(`add_refs`), and `drop_refs` takes them back with the hand.

Plain bytes here (float32 little-endian, `(views, dim)`): the ledger does not depend on numpy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from ledger.codes import normalize_code
from ledger.errors import LedgerError, LockedError, NotFoundError
from ledger.store import schema as S

if TYPE_CHECKING:
    from ledger.store.store import Store

__all__ = [
    "MAX_DIM",
    "MAX_REFS_PER_HAND",
    "MAX_TABLE_REFS",
    "MAX_VIEWS",
    "TableRef",
    "add_refs",
    "drop_refs",
    "ref_state",
    "table_refs",
]

MAX_TABLE_REFS = 2000
"""References kept per table (`vision.refs.MAX_REFS`, what one read takes); the oldest go first."""
MAX_REFS_PER_HAND = 80
"""References one recorded hand may add (several winners on one discard, each ≤ 18 tiles)."""
MAX_VIEWS = 4
"""Views per reference (the reader cuts one or two)."""
MAX_DIM = 1024
"""Floats per view (the 0.6.3 classifier's embedding has 168)."""
MAX_TILE = 8
MAX_MODEL = 80


@dataclass(frozen=True, slots=True)
class TableRef:
    """One reference: `tile` its true code, `model` the classifier that embedded it, `dim` floats
    per view, `views` float32 little-endian bytes of `(len(views) // (4 * dim), dim)`."""

    tile: str
    model: str
    dim: int
    views: bytes

    def check(self) -> None:
        """Raises `LedgerError` (`bad_ref`) unless this reference is within the bounds."""
        ok = (
            isinstance(self.tile, str) and 0 < len(self.tile) <= MAX_TILE
            and isinstance(self.model, str) and 0 < len(self.model) <= MAX_MODEL
            and isinstance(self.dim, int) and 0 < self.dim <= MAX_DIM
            and isinstance(self.views, bytes) and len(self.views) % (4 * self.dim) == 0
            and 0 < len(self.views) // (4 * self.dim) <= MAX_VIEWS
        )  # fmt: skip
        if not ok:
            raise LedgerError("bad_ref", f"a reference of tile {str(self.tile)[:MAX_TILE]!r} is malformed")


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def _table(conn: sa.Connection, code: str) -> sa.Row[Any, Any]:  # (id, locked)
    row = conn.execute(sa.select(S.tables.c.id, S.tables.c.locked).where(S.tables.c.code == code)).first()
    if row is None:
        raise NotFoundError(f"no table has the code {code}: check the code (it is case-insensitive)")
    return row


def add_refs(store: Store, code: str, hand: int, refs: Sequence[TableRef]) -> int:
    """Keep `refs`, confirmed by recorded hand `hand` (its 1-based position), with table `code`;
    what an earlier hand at that position or after left (an undone hand) is dropped first, and
    beyond `MAX_TABLE_REFS` the oldest. Returns how many the table keeps now.

    Raises `NotFoundError`, `LockedError`, `LedgerError` (`bad_ref`: a reference out of bounds,
    or more than `MAX_REFS_PER_HAND`); nothing is written then."""
    code = normalize_code(code)
    if len(refs) > MAX_REFS_PER_HAND:
        raise LedgerError("bad_ref", f"{len(refs)} references from one hand: at most {MAX_REFS_PER_HAND}")
    for ref in refs:
        ref.check()
    r = S.refs.c
    with store._tx(write=True) as conn:
        row = _table(conn, code)
        if row.locked:
            raise LockedError(f"table {code} is settled and locked: it learns nothing more")
        conn.execute(S.refs.delete().where(r.table_id == row.id, r.hand >= hand))
        if refs:
            now = _now()
            conn.execute(
                S.refs.insert(),
                [
                    dict(table_id=row.id, hand=hand, tile=x.tile, model=x.model, dim=x.dim, views=x.views,
                         created=now)
                    for x in refs
                ],
            )  # fmt: skip
        edge = conn.execute(
            sa.select(r.id).where(r.table_id == row.id).order_by(r.id.desc()).offset(MAX_TABLE_REFS).limit(1)
        ).scalar()
        if edge is not None:  # the oldest beyond the cap
            conn.execute(S.refs.delete().where(r.table_id == row.id, r.id <= edge))
        return int(conn.execute(sa.select(sa.func.count()).where(r.table_id == row.id)).scalar_one())


def drop_refs(store: Store, code: str, hand: int) -> None:
    """Forget the references of hand `hand` and after (the hand was undone)."""
    code = normalize_code(code)
    r = S.refs.c
    with store._tx(write=True) as conn:
        row = _table(conn, code)
        conn.execute(S.refs.delete().where(r.table_id == row.id, r.hand >= hand))


def table_refs(store: Store, code: str, model: str) -> list[TableRef]:
    """The references of table `code` embedded by `model`, oldest first (those of another model
    are left out: its embeddings mean nothing to this one). Raises `NotFoundError`."""
    code = normalize_code(code)
    r = S.refs.c
    with store._tx() as conn:
        row = _table(conn, code)
        q = sa.select(r.tile, r.dim, r.views).where(r.table_id == row.id, r.model == model).order_by(r.id)
        return [TableRef(t, model, d, bytes(v)) for t, d, v in conn.execute(q)]


def ref_state(store: Store, code: str, model: str | None = None) -> tuple[int, int]:
    """`(count, newest id)` of table `code`'s references (of `model` when given; `(0, 0)`: none):
    one indexed read, which changes whenever the references do. Raises `NotFoundError`."""
    code = normalize_code(code)
    r = S.refs.c
    with store._tx() as conn:
        row = _table(conn, code)
        cond = [r.table_id == row.id] + ([r.model == model] if model is not None else [])
        n, last = conn.execute(sa.select(sa.func.count(), sa.func.max(r.id)).where(*cond)).one()
    return int(n), int(last or 0)
