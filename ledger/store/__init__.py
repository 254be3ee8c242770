"""Ledger storage: SQLAlchemy 2 Core over SQLite (default) or PostgreSQL (``JXMJ_DB``)."""

from ledger.store.db import ENV, default_url
from ledger.store.store import Store, TableRecord, open_store

__all__ = ["ENV", "Store", "TableRecord", "default_url", "open_store"]
