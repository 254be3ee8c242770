"""The drafts' tables, ``jxmj_app_drafts``, its photos ``jxmj_app_photos`` and the phones' learned
tiles ``jxmj_app_refs`` (in the ledger's database, not in its schema)."""

from __future__ import annotations

import sqlalchemy as sa

__all__ = ["drafts", "metadata", "phone_refs", "photos", "photos_updated"]

metadata = sa.MetaData()
drafts = sa.Table(
    "jxmj_app_drafts",
    metadata,
    sa.Column("key", sa.String(64), primary_key=True),  # "table:CODE:TOKEN", "token:TOKEN", "edit:CODE:TOKEN"
    sa.Column("data", sa.Text, nullable=False),  # JSON: the hand, its conditions, the table's choices
    sa.Column("blob", sa.LargeBinary, nullable=True),  # the photo, as drafts before jxmj_app_photos kept it
    sa.Column("updated", sa.String(32), nullable=False),  # ISO 8601, UTC
    sa.Column("photo", sa.String(64), nullable=True),  # its photo: jxmj_app_photos.sha256
)
photos = sa.Table(
    "jxmj_app_photos",
    metadata,
    sa.Column("sha256", sa.String(64), primary_key=True),  # of the bytes: a photo is stored once
    sa.Column("blob", sa.LargeBinary, nullable=False),
    sa.Column("updated", sa.String(32), nullable=False),  # ISO 8601, UTC: last saved with a draft
)
"""Each draft's photo, by the hash of its bytes: written once, when a draft first names it (a
rerun's draft write is then the hand's JSON alone; two phones' drafts of one photo share it), and
deleted when no draft names it any more (:func:`app.drafts.policy.sweep`)."""
photos_updated = sa.Index("ix_jxmj_app_photos_updated", photos.c.updated)
"""The sweep's way to the photos past their grace (issue 37): ``updated`` lies after each row's
blob, so without it every sweep read every stored photo's pages (23 ms a new photo with 154
photos, 200 MB, stored; 0.03 ms with it); made by `open_drafts` where an older release's table
lacks it."""
phone_refs = sa.Table(
    "jxmj_app_refs",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),  # oldest first
    sa.Column("token", sa.String(32), nullable=False, index=True),  # the phone's (its drafts')
    sa.Column("batch", sa.Integer, nullable=False),  # the hand that taught it: undone together
    sa.Column("tile", sa.String(8), nullable=False),
    sa.Column("model", sa.String(80), nullable=False),
    sa.Column("dim", sa.Integer, nullable=False),
    sa.Column("views", sa.LargeBinary, nullable=False),  # float32 little-endian (views, dim)
    sa.Column("created", sa.String(32), nullable=False),  # ISO 8601, UTC
)
"""A phone's references (`app.drafts.refs`): the tiles of its photo hands scored on the score page,
as `ledger.store.refs` keeps a table's."""
