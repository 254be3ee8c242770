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


def _rows(store, sql: str) -> list:
    with store.engine.connect() as conn:
        return [tuple(r) for r in conn.execute(sa.text(sql))]


def test_a_photo_is_stored_once_and_a_drafts_write_is_its_json_alone(db_url, monkeypatch):
    """Issue 37: two phones' drafts of one photo, and every save after the first, write the
    photo no more; it goes when no draft names it."""
    open_store(db_url).close()
    store = open_drafts(db_url)
    photo = b"\xff\xd8" + bytes(range(256)) * 4000  # ~1 MB
    store.save("table:X:A", {"tiles": "123m"}, photo)
    store.save("table:X:B", {"tiles": "456p"}, photo)  # the same photo on another phone
    assert _rows(store, "SELECT count(*), sum(length(blob)) FROM jxmj_app_photos") == [(1, len(photo))]
    sizes = _rows(store, "SELECT key, length(data), blob IS NULL, photo FROM jxmj_app_drafts ORDER BY key")
    digest = D.hashlib.sha256(photo).hexdigest()
    assert sizes == [("table:X:A", 17, True, digest), ("table:X:B", 17, True, digest)]
    with store.engine.begin() as conn:
        conn.execute(sa.text("UPDATE jxmj_app_photos SET updated = '2000-01-01T00:00:00+00:00'"))
    store.save("table:X:A", {"tiles": "789s"}, KEEP)  # a rerun: the JSON alone
    assert _rows(store, "SELECT updated FROM jxmj_app_photos") == [("2000-01-01T00:00:00+00:00",)]
    assert store.load("table:X:A") == ({"tiles": "789s"}, photo)
    assert store.load("table:X:B") == ({"tiles": "456p"}, photo)
    store.delete("table:X:A")
    assert _rows(store, "SELECT count(*) FROM jxmj_app_photos") == [(1,)]  # B still names it
    store.save("table:X:B", {"tiles": "456p"}, None)  # B's photo dropped: nobody names it
    assert _rows(store, "SELECT count(*) FROM jxmj_app_photos") == [(0,)]
    monkeypatch.setattr(policy, "PHOTO_GRACE_S", 3600.0)
    store.save("table:X:C", {}, b"new")
    store.delete("table:X:C")  # saved just now: kept a while (another process may name it)
    assert _rows(store, "SELECT count(*) FROM jxmj_app_photos") == [(1,)]
    store.close()


def test_drafts_of_a_release_before_photos_gain_their_column(db_url):
    open_store(db_url).close()
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "CREATE TABLE jxmj_app_drafts (key VARCHAR(64) PRIMARY KEY, data TEXT NOT NULL,"
                " blob BYTEA, updated VARCHAR(32) NOT NULL)".replace(
                    "BYTEA", "BYTEA" if engine.dialect.name == "postgresql" else "BLOB"
                )
            )
        )
        conn.execute(sa.text("INSERT INTO jxmj_app_drafts VALUES ('table:X:A', '{}', :b, :t)"),
                     {"b": b"old photo", "t": policy.now().isoformat()})  # fmt: skip
    engine.dispose()
    store = open_drafts(db_url)
    assert store.load("table:X:A") == ({}, b"old photo")  # kept in its own row, read as before
    store.save("table:X:A", {"n": 1}, KEEP)
    assert store.load("table:X:A") == ({"n": 1}, b"old photo")
    store.save("table:X:A", {"n": 2}, b"new photo")
    assert store.load("table:X:A") == ({"n": 2}, b"new photo")
    store.close()


def _sweep_plan(engine) -> str:
    named = "SELECT photo FROM jxmj_app_drafts WHERE photo IS NOT NULL"
    query = f"DELETE FROM jxmj_app_photos WHERE sha256 NOT IN ({named}) AND updated < '2000'"
    with engine.connect() as conn:
        return " ".join(str(row[-1]) for row in conn.execute(sa.text(f"EXPLAIN QUERY PLAN {query}")))


def test_the_sweep_finds_old_photos_by_an_index_not_through_every_blob(tmp_path):
    """Issue 37: a photo's ``updated`` lies after its blob, so the sweep after each new photo read
    every stored photo's pages (23 ms with 200 MB stored); an index answers it, in a new database
    and in one whose photos' table an older release made."""
    for name, older in (("new", False), ("older", True)):
        url = f"sqlite:///{tmp_path / name}.sqlite3"
        if older:
            engine = sa.create_engine(url)
            with engine.begin() as conn:
                conn.execute(sa.text("CREATE TABLE jxmj_app_photos (sha256 VARCHAR(64) PRIMARY KEY,"
                                     " blob BLOB NOT NULL, updated VARCHAR(32) NOT NULL)"))  # fmt: skip
            engine.dispose()
        open_drafts(url).close()
        engine = sa.create_engine(url)
        plan = _sweep_plan(engine)
        engine.dispose()
        assert "USING INDEX ix_jxmj_app_photos_updated" in plan, (name, plan)


@pytest.mark.parametrize(("reclaim_at", "given_back"), [(0, True), (2**40, False)])
def test_an_sqlite_file_gives_its_free_pages_back(tmp_path, monkeypatch, reclaim_at, given_back):
    """A new ledger file is made with auto_vacuum=INCREMENTAL; once drafts' photos are gone and
    the free pages pass `RECLAIM_BYTES`, the next sweep hands them back to the disk."""
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    open_store(url).close()
    store = open_drafts(url)
    monkeypatch.setattr(policy, "PHOTO_GRACE_S", -1.0)  # every photo no draft names goes at once
    monkeypatch.setattr(policy, "RECLAIM_BYTES", reclaim_at)
    rng = __import__("random").Random(7)
    for k in range(4):
        store.save(f"token:T{k}", {"k": k}, rng.randbytes(2 * 2**20))
    for k in range(4):
        store.delete(f"token:T{k}")
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA auto_vacuum").scalar() == 2  # INCREMENTAL
        free = conn.exec_driver_sql("PRAGMA freelist_count").scalar()
        pages = conn.exec_driver_sql("PRAGMA page_count").scalar()
        size = pages * conn.exec_driver_sql("PRAGMA page_size").scalar()
    store.close()
    if given_back:
        assert free == 0 and size < 2 * 2**20  # four 2 MiB photos came and went
    else:
        assert free * 65536 >= 6 * 2**20 and size > 8 * 2**20
