"""The drafts' table, ``jxmj_app_drafts`` (in the ledger's database, not in its schema)."""

from __future__ import annotations

import sqlalchemy as sa

__all__ = ["drafts", "metadata"]

metadata = sa.MetaData()
drafts = sa.Table(
    "jxmj_app_drafts",
    metadata,
    sa.Column("key", sa.String(64), primary_key=True),  # "table:CODE:TOKEN", "token:TOKEN", "edit:CODE:TOKEN"
    sa.Column("data", sa.Text, nullable=False),  # JSON: the hand, its conditions, the table's choices
    sa.Column("blob", sa.LargeBinary, nullable=True),  # the photo, when there is one
    sa.Column("updated", sa.String(32), nullable=False),  # ISO 8601, UTC
)
