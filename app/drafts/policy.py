"""The drafts' policy (``jxmj_app_drafts``): issued tokens only, an expiry, a cap.

- **Issued tokens.** A phone's token (its browser's cookie; its single-hand page and its hands on tables)
  opens a draft only when the server issued that token (:func:`issue`: a fresh random code,
  stored at once as an empty ``token:TOKEN`` draft) and a draft of it still lives
  (:func:`known`); any other token — one chosen by someone else and sent round as a link —
  opens nothing, and the page issues a fresh one.
- **Expiry.** A draft (with its photo) not saved for :func:`ttl_seconds` (``$JXMJ_DRAFT_HOURS``,
  default 24 hours) is gone: never read again, and deleted by the next save.
- **Quotas.** One phone's drafts (its token's keys) hold at most :data:`PHONE_BYTES`: a save that
  would pass it deletes that phone's own drafts saved longest ago. All drafts together hold at most
  :data:`MAX_DRAFTS_BYTES` (a photo counted with each draft naming it): a save that would pass it
  deletes only *idle* drafts (not saved for :data:`IDLE_S`), oldest first, and when that is not
  enough the save is refused (``drafts_full``) — a stranger's uploads never push out a phone that
  is entering a hand. (Photos are bounded before they are stored: `app.drafts.photo`; new tokens
  are rate-limited per client: `app.drafts.ratelimit`.)
- **Photos** (``jxmj_app_photos``, stored once by hash) go when no draft names them (:func:`sweep`),
  except those saved in the last :data:`PHOTO_GRACE_S` (another process may be saving a draft
  that names one in a transaction this one cannot see yet).
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa

from app.drafts.table import drafts, photos
from ledger.codes import new_code
from ledger.errors import LedgerError

__all__ = [
    "ENV_HOURS",
    "IDLE_S",
    "MAX_DRAFTS_BYTES",
    "PHONE_BYTES",
    "PHOTO_GRACE_S",
    "RECLAIM_BYTES",
    "expired",
    "issue",
    "known",
    "make_room",
    "now_cutoff",
    "owner",
    "purge",
    "reclaim",
    "sweep",
    "ttl_seconds",
]

ENV_HOURS = "JXMJ_DRAFT_HOURS"
DEFAULT_HOURS = 24.0
MAX_DRAFTS_BYTES = 512 * 2**20  # all phones' drafts together
PHONE_BYTES = 32 * 2**20  # one phone's drafts together (a draft alone: ≤ 24 MiB, its photo ≤ 8 MiB)
IDLE_S = 15 * 60.0  # a draft not saved for this long may go to make room for another phone's
PHOTO_GRACE_S = 120.0
RECLAIM_BYTES = 32 * 2**20  # free pages an SQLite file keeps before `reclaim` gives them back


def ttl_seconds() -> float:
    """How long a draft lives after its last save: ``$JXMJ_DRAFT_HOURS`` hours (default 24)."""
    try:
        hours = float(os.environ.get(ENV_HOURS, DEFAULT_HOURS))
    except ValueError:
        hours = DEFAULT_HOURS
    return max(0.0, hours) * 3600.0 if hours == hours else DEFAULT_HOURS * 3600.0  # NaN: the default


def now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


def _cutoff(at: datetime | None = None) -> str:
    return ((at or now()) - timedelta(seconds=ttl_seconds())).isoformat()


def now_cutoff() -> str:
    """The oldest save time (ISO 8601, UTC) of a draft that has not expired."""
    return _cutoff()


def expired(updated: str, at: datetime | None = None) -> bool:
    """Whether a draft last saved at ``updated`` (ISO 8601, UTC) has expired."""
    return updated < _cutoff(at)


def purge(conn: sa.Connection) -> None:
    """Delete every expired draft."""
    conn.execute(drafts.delete().where(drafts.c.updated < _cutoff()))


def owner(key: str) -> str:
    """The phone token a draft key belongs to (its last part: ``table:CODE:TOKEN``, ``token:TOKEN``)."""
    return key.rsplit(":", 1)[-1]


def make_room(conn: sa.Connection, key: str, size: int) -> None:
    """Make room for ``size`` more bytes under ``key``: the phone's own other drafts saved longest
    ago go while it would pass :data:`PHONE_BYTES`; then other drafts idle for :data:`IDLE_S`,
    oldest first, while all would pass :data:`MAX_DRAFTS_BYTES`. Still no room:
    ``LedgerError("drafts_full")`` (the caller's transaction, deletions included, rolls back)."""
    d, p = drafts.c, photos.c
    length = sa.func.length(d.data) + sa.func.coalesce(sa.func.length(d.blob), 0)
    length = length + sa.func.coalesce(sa.func.length(p.blob), 0)
    phone, others = owner(key), drafts.outerjoin(photos, d.photo == p.sha256)
    mine = sa.or_(d.key == phone, d.key.endswith(f":{phone}", autoescape=True))  # owner(d.key) == phone
    used, total = conn.execute(  # the usual save: room for it, told by one row (issue 37: every
        # draft listed on every save cost ~0.013 s of a photo's CPU with 400 drafts stored)
        sa.select(sa.func.sum(sa.case((mine, length), else_=0)), sa.func.sum(length))
        .select_from(others)
        .where(d.key != key)
    ).one()
    if (used or 0) + size <= PHONE_BYTES and (total or 0) + size <= MAX_DRAFTS_BYTES:
        return
    rows = conn.execute(
        sa.select(d.key, d.updated, length.label("n"))
        .select_from(others)
        .where(d.key != key)
        .order_by(d.updated, d.key)  # oldest first
    ).all()
    gone = set()
    used = sum(r.n for r in rows if owner(r.key) == phone)
    for r in rows:
        if used + size <= PHONE_BYTES:
            break
        if owner(r.key) == phone:
            conn.execute(drafts.delete().where(d.key == r.key))
            used -= r.n
            gone.add(r.key)
    total = sum(r.n for r in rows if r.key not in gone)
    idle = (now() - timedelta(seconds=IDLE_S)).isoformat()
    for r in rows:
        if total + size <= MAX_DRAFTS_BYTES or r.updated >= idle:
            break
        if r.key not in gone:
            conn.execute(drafts.delete().where(d.key == r.key))
            total -= r.n
    if total + size > MAX_DRAFTS_BYTES:
        raise LedgerError("drafts_full", f"the drafts are full ({MAX_DRAFTS_BYTES // 2**20} MiB, none idle)")


def sweep(conn: sa.Connection) -> None:
    """Delete the photos no draft names, but those saved in the last :data:`PHOTO_GRACE_S`."""
    named = sa.select(drafts.c.photo).where(drafts.c.photo.is_not(None))
    since = (now() - timedelta(seconds=PHOTO_GRACE_S)).isoformat()
    conn.execute(photos.delete().where(photos.c.sha256.not_in(named), photos.c.updated < since))
    reclaim(conn)


def reclaim(conn: sa.Connection) -> None:
    """SQLite: give the file's free pages back to the disk once they pass :data:`RECLAIM_BYTES`
    (``PRAGMA incremental_vacuum``; a ledger file is made with ``auto_vacuum=INCREMENTAL``,
    ``ledger.store.db``). Drafts' photos come and go: without it a file stays as large as its
    busiest evening (one kept 400 MB free of 970 MB). A file made before keeps its size (nothing
    here VACUUMs a user's file). PostgreSQL: nothing (its autovacuum reuses the space)."""
    if conn.dialect.name != "sqlite" or conn.exec_driver_sql("PRAGMA auto_vacuum").scalar() != 2:
        return
    free = conn.exec_driver_sql("PRAGMA freelist_count").scalar() or 0
    page = conn.exec_driver_sql("PRAGMA page_size").scalar() or 4096
    if free * page >= RECLAIM_BYTES:
        for _ in range(free):  # Python's sqlite3 steps the pragma once: a page a statement (~60 µs)
            conn.exec_driver_sql("PRAGMA incremental_vacuum").close()


def known(conn: sa.Connection, token: str) -> bool:
    """Whether ``token`` (a normalized code) was issued and a draft of it has not expired: its
    ``token:TOKEN`` or one of its tables' ``table:CODE:TOKEN``."""
    d = drafts.c
    mine = sa.or_(d.key == f"token:{token}", sa.and_(d.key.like("table:%"), d.key.like(f"%:{token}")))
    return conn.execute(sa.select(d.key).where(mine, d.updated >= _cutoff()).limit(1)).first() is not None


def issue(conn: sa.Connection) -> str:
    """A fresh phone token, stored as an empty draft (so it is known as issued)."""
    for _ in range(8):
        token = new_code()
        key = f"token:{token}"
        if conn.execute(sa.select(drafts.c.key).where(drafts.c.key == key)).first() is None:
            conn.execute(drafts.insert().values(key=key, data="{}", blob=None, updated=now().isoformat()))
            return token
    raise RuntimeError("no free draft token in 8 draws")  # 51 random bits: never
