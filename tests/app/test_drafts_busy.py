"""Nothing lost silently under load (issue 37): a draft the database refuses is tried again, and
still refused is said on the page in the page's words (never 出了点问题), the hand kept and saved
on a later run; a pool with no free connection is the coded ``store_busy``."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from streamlit.testing.v1 import AppTest

from app.drafts import open_drafts
from app.drafts.store import DraftStore
from app.ui import drafting, i18n
from ledger import ConflictError, StoreError
from ledger.store.dberror import db_errors
from tests.app.conftest import APP

TILES = "111m234p567s789s55m"


def _stored(key: str) -> list[str]:
    """The concealed tiles of the draft under `key` ([] for the token's empty draft: the sample a
    new phone opens on is not written)."""
    got = open_drafts().load(key)
    return [t["code"] for t in (got[0].get("hand") or {}).get("concealed", [])] if got else []


def test_a_pool_with_no_free_connection_is_store_busy():
    engine = sa.create_engine(
        "sqlite://", pool_size=1, max_overflow=0, pool_timeout=0.05, poolclass=sa.QueuePool
    )
    held = engine.connect()
    try:
        with pytest.raises(StoreError) as e, db_errors("the test database"):
            engine.connect()
    finally:
        held.close()
    assert e.value.code == "store_busy"
    assert i18n.catalog("zh")["ledger.store_busy"].startswith("账本数据库正忙")


def test_a_draft_refused_is_tried_again_then_said_and_the_hand_kept(monkeypatch):
    monkeypatch.setattr(drafting, "RETRY_S", (0.0, 0.0))
    real_save, tries = DraftStore.save, []

    def busy(self, key, data, blob=None, digest=None):
        tries.append(key)
        raise ConflictError("the ledger is busy with another writer: try again")

    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    monkeypatch.setattr(DraftStore, "save", busy)
    at.text_input(key="typed").input(TILES)
    at.button(key="btn_typed").click()
    at.run()
    assert len(tries) == 3 and len(set(tries)) == 1  # tried three times, under this phone's key
    assert [x.value for x in at.toast] == ["没能保存草稿，刷新会丢：请稍候再试。"]
    assert not at.exception and not [e for e in at.error if "出了点问题" in e.value]
    held = [t.code for t in at.session_state.hip.hand.concealed]
    assert held == ["1m", "1m", "1m", "2p", "3p", "4p", "5s", "6s", "7s", "7s", "8s", "9s", "5m", "5m"]
    key = tries[0]
    assert _stored(key) != held  # the store still has what it had before (no hand: the sample is not written)
    monkeypatch.setattr(DraftStore, "save", real_save)  # the database answers again
    at.run()
    assert not at.toast
    assert _stored(key) == held  # saved by the next run


def test_the_pool_is_sized_for_one_process_phones(tmp_path):
    from ledger.store.db import POOL, make_engine

    engine = make_engine(f"sqlite:///{tmp_path / 'l.sqlite3'}")
    assert (engine.pool.size(), engine.pool._max_overflow, engine.pool._timeout) == (10, 10, 10.0)
    assert POOL["pool_size"] + POOL["max_overflow"] == 20
    engine.dispose()
