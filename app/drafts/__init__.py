"""The app's hands in progress, kept beside the ledger (same database, a table of their own)."""

from app.drafts.store import KEEP, MAX_DRAFT_BYTES, DraftStore, open_drafts

__all__ = ["KEEP", "MAX_DRAFT_BYTES", "DraftStore", "open_drafts"]
