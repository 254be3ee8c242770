"""The app's draft store (`app.drafts`) on SQLite, and on PostgreSQL when ``JXMJ_TEST_PG`` is set:
a table of its own beside the ledger's, drafts moved from the ledger's old table, nothing lost."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.drafts import KEEP, open_drafts, policy
from app.drafts import store as D
from ledger import LedgerError
from ledger.store import open_store, schema
from tests.ledger.conftest import fresh_url


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A fresh, empty database URL of each kind, the drafts' table dropped too."""
    yield from fresh_url(request, tmp_path, (D.metadata,))


def test_drafts_round_trip(db_url):
    open_store(db_url).close()
    store = open_drafts(db_url)
    assert store.load("table:X:A") is None
    store.save("table:X:A", {"tiles": "123m", "fixes": [1, 2]}, b"\xff\xd8photo")
    store.save("table:X:A", {"tiles": "456p"}, b"jpeg")
    assert store.load("table:X:A") == ({"tiles": "456p"}, b"jpeg")
    store.save("table:X:A", {"tiles": "789s"}, KEEP)  # the photo stays
    assert store.load("table:X:A") == ({"tiles": "789s"}, b"jpeg")
    store.save("table:X:B", {"x": 1}, KEEP)  # another phone's: its own
    assert store.load("table:X:B") == ({"x": 1}, None)
    assert store.load("table:X:A") == ({"tiles": "789s"}, b"jpeg")
    store.delete("table:X:A")
    assert store.load("table:X:A") is None
    with pytest.raises(LedgerError, match="larger than 24 MiB"):
        store.save("token:T", {}, b"x" * (25 * 2**20))
    store.close()


def test_drafts_of_an_older_release_move_to_their_own_table(db_url):
    ledger = open_store(db_url)  # the ledger's schema still has v2's jxmj_drafts
    with ledger.engine.begin() as conn:
        conn.execute(schema.drafts.insert().values(key="table:K7QM9ACXTRE", data='{"v": 1}', blob=b"jpg",
                                                   updated=policy.now().isoformat()))  # fmt: skip
    store = open_drafts(db_url)
    assert store.load("table:K7QM9ACXTRE") == ({"v": 1}, b"jpg")
    with ledger.engine.begin() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(schema.drafts)).scalar() == 0
    assert store.take("table:K7QM9ACXTRE", "table:K7QM9ACXTRE:PHONE1") is True  # the first phone's now
    assert store.take("table:K7QM9ACXTRE", "table:K7QM9ACXTRE:PHONE2") is False
    assert store.load("table:K7QM9ACXTRE:PHONE1") == ({"v": 1}, b"jpg")
    open_drafts(db_url).close()  # opened again: nothing moved twice, nothing lost
    assert store.load("table:K7QM9ACXTRE:PHONE1") == ({"v": 1}, b"jpg")
    store.close()
    ledger.close()
