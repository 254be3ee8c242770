"""A phone's references: the tiles of its own set it confirmed on the score page, kept under its
token beside its drafts (``jxmj_app_refs``), as `ledger.store.refs` keeps a table's.

A hand read from a photo that scored teaches its photo tiles when the phone takes its next photo
(`app.ui.score.learn`); that phone's later photos are read with them. Each hand's references are
one `batch` (undone together: `drop`). Bounds: at most :data:`MAX_PHONE_REFS` references per
phone and model (the oldest dropped), `ledger.store.refs.MAX_REFS_PER_HAND` per hand, each within
`TableRef.check`'s. They expire with the phone's drafts: only a token with a live draft is read
(`app.ui.drafting.phone_token`), and every write deletes the references of tokens none of whose
drafts lives (`app.drafts.policy.ttl_seconds`).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from app.drafts import policy
from app.drafts.store import DraftStore
from app.drafts.table import drafts, phone_refs
from ledger.errors import LedgerError
from ledger.store.refs import MAX_REFS_PER_HAND, TableRef

__all__ = ["MAX_PHONE_REFS", "add", "drop", "refs_of", "state"]

MAX_PHONE_REFS = 200
"""References kept per phone and model (about eleven hands); the oldest go first."""


def _purge(conn: sa.Connection) -> None:
    """Delete the references of every token none of whose drafts lives (`policy.known`'s keys)."""
    d, r = drafts.c, phone_refs.c
    alive = sa.select(d.key).where(
        d.updated >= policy.now_cutoff(),
        sa.or_(d.key == sa.literal("token:") + r.token, d.key.like(sa.literal("table:%:") + r.token)),
    )
    conn.execute(phone_refs.delete().where(~alive.exists()))


def _taught(conn: sa.Connection, token: str, refs: Sequence[TableRef]) -> bool:
    """Phone `token` keeps every one of `refs` already, byte for byte: the same hand taught again
    (after a reload, or in a second tab, the session knows not that it was; the same photo reads
    the same)."""
    r = phone_refs.c
    models = sorted({x.model for x in refs})
    q = sa.select(r.tile, r.model, r.views).where(r.token == token, r.model.in_(models))
    kept = {(t, m, bytes(v)) for t, m, v in conn.execute(q)}
    return all((x.tile, x.model, bytes(x.views)) in kept for x in refs)


def add(store: DraftStore, token: str, refs: Sequence[TableRef]) -> int:
    """Keep `refs`, taught by one hand, under phone `token`; beyond :data:`MAX_PHONE_REFS` of a
    model the oldest go. Returns the batch to `drop` them by (0: nothing kept, or all of them kept
    already: the hand was taught). Raises `LedgerError` (`bad_ref`: one out of bounds, or more
    than `MAX_REFS_PER_HAND`): nothing written."""
    if len(refs) > MAX_REFS_PER_HAND:
        raise LedgerError("bad_ref", f"{len(refs)} references from one hand: at most {MAX_REFS_PER_HAND}")
    for ref in refs:
        ref.check()
    r = phone_refs.c
    with store._tx(write=True) as conn:
        _purge(conn)
        if not refs or _taught(conn, token, refs):
            return 0
        batch = int(conn.execute(sa.select(sa.func.coalesce(sa.func.max(r.batch), 0))).scalar_one()) + 1
        now = policy.now().isoformat()
        rows = [
            dict(token=token, batch=batch, tile=x.tile, model=x.model, dim=x.dim, views=x.views, created=now)
            for x in refs
        ]
        conn.execute(phone_refs.insert(), rows)
        for model in sorted({x.model for x in refs}):
            mine = (r.token == token, r.model == model)
            q = sa.select(r.id).where(*mine).order_by(r.id.desc()).offset(MAX_PHONE_REFS).limit(1)
            edge = conn.execute(q).scalar()
            if edge is not None:  # the oldest beyond the cap
                conn.execute(phone_refs.delete().where(*mine, r.id <= edge))
        return batch


def drop(store: DraftStore, token: str, batch: int) -> None:
    """Forget the references phone `token` learned in `batch` (the player undid them)."""
    r = phone_refs.c
    with store._tx(write=True) as conn:
        conn.execute(phone_refs.delete().where(r.token == token, r.batch == batch))


def refs_of(store: DraftStore, token: str, model: str) -> list[TableRef]:
    """Phone `token`'s references embedded by `model`, oldest first."""
    r = phone_refs.c
    q = sa.select(r.tile, r.dim, r.views).where(r.token == token, r.model == model).order_by(r.id)
    with store._tx() as conn:
        return [TableRef(t, model, d, bytes(v)) for t, d, v in conn.execute(q)]


def state(store: DraftStore, token: str) -> tuple[int, int]:
    """`(count, newest id)` of phone `token`'s references (every model's; `(0, 0)`: none): one
    indexed read, which changes whenever they do."""
    r = phone_refs.c
    with store._tx() as conn:
        n, last = conn.execute(sa.select(sa.func.count(), sa.func.max(r.id)).where(r.token == token)).one()
    return int(n), int(last or 0)
