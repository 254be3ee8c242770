"""Drafts: each phone's hand in progress, so a reload or a locked phone loses nothing.

One table, ``jxmj_app_drafts``, in the ledger's database but not in the ledger's schema: the
ledger's tables hold what was played, this one what a phone is entering. A key names whose
draft it is: ``table:CODE:TOKEN`` (one phone's hand on a table; the phone's token is its
browser's cookie, `app.ui.drafting`), ``token:TOKEN`` (the single-hand page; made empty when the server issues
the token), ``edit:CODE:TOKEN`` (the phone's unsaved change to a recorded hand of a table,
`app.ui.table.edit_draft`). Only issued tokens open a draft, drafts expire, all of them are capped
(:mod:`app.drafts.policy`). A draft's photo is stored once, by the hash of its bytes, in
``jxmj_app_photos`` (`app.drafts.table`): the draft names it, so saving a hand again writes its JSON
alone. Opening the store creates the tables once (and the ``photo`` column drafts of earlier
releases lack) and moves the drafts older releases kept in the ledger's ``jxmj_drafts`` into it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import sqlalchemy as sa

from app.drafts import policy
from app.drafts.photo import bounded
from app.drafts.table import drafts, metadata, phone_refs, photos, photos_updated
from ledger.errors import LedgerError, StoreError
from ledger.store.db import default_url, make_engine
from ledger.store.dberror import db_errors

__all__ = ["KEEP", "MAX_DRAFT_BYTES", "DraftStore", "drafts", "metadata", "open_drafts", "photos"]

MAX_DRAFT_BYTES = 24 * 2**20  # a phone photo plus its fixes; more is refused, not stored
KEEP = object()  # save: leave the stored photo as it is
OLD = "jxmj_drafts"  # where releases before this one kept drafts (ledger schema v2)
LOCK = 0x6A786D64  # pg_advisory_xact_lock key of the table's creation ("jxmd")


def open_drafts(url: str | None = None, engine: sa.Engine | None = None) -> DraftStore:
    """The draft store of the database at ``url`` (default: the ledger's), or on ``engine``;
    creates its table on first use (two processes at once do not race: SQLite's write lock,
    PostgreSQL's advisory lock) and moves the ledger's old drafts into it. Raises
    :class:`ledger.StoreError` as :func:`ledger.store.open_store` does."""
    url = url or default_url()
    engine = engine or make_engine(url)
    where = f"the ledger database {sa.make_url(url).render_as_string(hide_password=True)}"
    store = DraftStore(engine, where)
    with store._tx(write=True) as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(sa.select(sa.func.pg_advisory_xact_lock(LOCK)))
        names = set(sa.inspect(conn).get_table_names())
        if drafts.name not in names:
            drafts.create(conn)
            if OLD in names:  # drafts kept by an older release: moved, not lost
                cols = ["key", "data", "blob", "updated"]
                old = sa.table(OLD, *map(sa.column, cols))
                conn.execute(drafts.insert().from_select(cols, sa.select(*(old.c[c] for c in cols))))
                conn.execute(old.delete())
        elif "photo" not in {c["name"] for c in sa.inspect(conn).get_columns(drafts.name)}:
            conn.execute(sa.text(f"ALTER TABLE {drafts.name} ADD COLUMN photo VARCHAR(64)"))
        if photos.name not in names:
            photos.create(conn)  # with its index
        else:
            photos_updated.create(conn, checkfirst=True)
        if phone_refs.name not in names:
            phone_refs.create(conn)  # a phone's learned tiles (`app.drafts.refs`), with its index
    return store


class DraftStore:
    """Drafts by key (see the module docstring)."""

    def __init__(self, engine: sa.Engine, where: str = "the ledger database") -> None:
        self.engine, self.where = engine, where

    @contextlib.contextmanager
    def _tx(self, write: bool = False) -> Iterator[sa.Connection]:
        with db_errors(self.where), self.engine.connect().execution_options(jxmj_write=write) as conn:
            with conn.begin():
                yield conn

    def save(self, key: str, data: dict[str, Any], blob: Any = None, digest: str | None = None) -> None:
        """Keep the hand in progress under ``key``; ``blob``: the photo's bytes, None for none, or
        :data:`KEEP` to leave the stored photo as it is; a photo is stored bounded
        (`app.drafts.photo.bounded`: a large one re-encoded, one that does not decode dropped).
        ``digest``: the sha256 (hex) of ``blob`` when the caller has it (a photo read hashes its
        bytes: ``app.ui.state.photo.Photo.digest``), else it is hashed here; it names only the
        bytes given, never a re-encoded copy.
        Larger than :data:`MAX_DRAFT_BYTES`: ``LedgerError("draft_too_large")``, nothing stored.
        Expired drafts are deleted first, then room is made within the phone's and all drafts'
        quotas (:func:`app.drafts.policy.make_room`; no room: ``LedgerError("drafts_full")``)."""
        text = json.dumps(data, ensure_ascii=False)
        size = len(text.encode()) + (len(blob) if isinstance(blob, bytes) else 0)
        if size > MAX_DRAFT_BYTES:
            raise LedgerError("draft_too_large", f"the draft is larger than {MAX_DRAFT_BYTES // 2**20} MiB")
        if isinstance(blob, bytes):
            kept = bounded(blob)
            digest = digest if kept is blob and digest else None
            blob = kept
            size = len(text.encode()) + (len(blob) if blob else 0)
        d, now = drafts.c, policy.now().isoformat()
        digest = (digest or hashlib.sha256(blob).hexdigest()) if isinstance(blob, bytes) else None
        with self._tx(write=True) as conn:
            policy.purge(conn)
            policy.make_room(conn, key, size)
            if blob is KEEP:
                if conn.execute(drafts.update().where(d.key == key).values(data=text, updated=now)).rowcount:
                    return
            if digest:
                _put_photo(conn, digest, blob, now)
            row = {"data": text, "blob": None, "photo": digest, "updated": now}
            if not conn.execute(drafts.update().where(d.key == key).values(**row)).rowcount:
                conn.execute(drafts.insert().values(key=key, **row))  # one statement for a draft kept
            policy.sweep(conn)

    def load(self, key: str) -> tuple[dict[str, Any], bytes | None] | None:
        """The draft under ``key`` as ``(data, blob)``, or None (none, or expired). A stored value
        that does not parse is damage: ``StoreError("corrupt_store")``."""
        d, p = drafts.c, photos.c
        query = sa.select(d.data, d.blob, d.updated, p.blob.label("photo"))
        query = query.select_from(drafts.outerjoin(photos, d.photo == p.sha256)).where(d.key == key)
        with self._tx() as conn:
            row = conn.execute(query).first()
        if row is None or policy.expired(row.updated):
            return None
        try:
            return json.loads(row.data), row.photo or row.blob
        except (ValueError, RecursionError) as e:  # written by jxmj: a value that does not parse is damage
            raise StoreError("corrupt_store", f"the draft {key} is damaged in {self.where} ({e})") from None

    def recent(self, prefix: str, but: str, seconds: float) -> list[dict[str, Any]]:
        """The data of the drafts whose key starts with ``prefix`` (``"table:CODE:"``: the phones'
        hands on one table), other than ``but`` (this phone's), saved in the last ``seconds``;
        newest first, at most 20; a draft that does not parse is left out."""
        d = drafts.c
        since = (policy.now() - timedelta(seconds=seconds)).isoformat()
        query = (
            sa.select(d.data)
            .where(d.key.startswith(prefix, autoescape=True), d.key != but, d.updated >= since)
            .order_by(d.updated.desc())
            .limit(20)
        )
        with self._tx() as conn:
            rows = conn.execute(query).scalars().all()
        out = []
        for text in rows:
            try:
                data = json.loads(text)
            except (ValueError, RecursionError):
                continue  # someone else's damaged draft is not this page's error
            if isinstance(data, dict):
                out.append(data)
        return out

    def issue(self) -> str:
        """A fresh phone token, stored as issued (:func:`app.drafts.policy.issue`)."""
        with self._tx(write=True) as conn:
            return policy.issue(conn)

    def known(self, token: str) -> bool:
        """Whether the server issued ``token`` and a draft of it lives (:func:`app.drafts.policy.known`)."""
        with self._tx() as conn:
            return policy.known(conn, token)

    def take(self, old: str, key: str) -> bool:
        """Move the draft under ``old`` to ``key`` when ``key`` has none (a table's one shared draft
        of earlier releases becomes the first phone's own); True when it moved."""
        d = drafts.c
        with self._tx(write=True) as conn:
            if conn.execute(sa.select(d.key).where(d.key == key)).first() is not None:
                return False
            return bool(conn.execute(drafts.update().where(d.key == old).values(key=key)).rowcount)

    def delete(self, key: str) -> None:
        with self._tx(write=True) as conn:
            conn.execute(drafts.delete().where(drafts.c.key == key))
            policy.sweep(conn)

    def close(self) -> None:
        self.engine.dispose()


def _put_photo(conn: sa.Connection, digest: str, blob: bytes, now: str) -> None:
    """Store the photo `digest` once: written when new, else only its time renewed (its bytes
    are not even sent to the database again)."""
    if conn.execute(photos.update().where(photos.c.sha256 == digest).values(updated=now)).rowcount:
        return
    name = conn.dialect.name
    if name in ("postgresql", "sqlite"):
        from sqlalchemy.dialects import postgresql, sqlite

        insert = postgresql.insert if name == "postgresql" else sqlite.insert
        new = insert(photos).values(sha256=digest, blob=blob, updated=now)
        conn.execute(new.on_conflict_do_update(index_elements=[photos.c.sha256], set_={"updated": now}))
        return
    conn.execute(photos.insert().values(sha256=digest, blob=blob, updated=now))
