"""A table's references in the store (`ledger.store.refs`), on SQLite and PostgreSQL: round trip,
per model, per table, the cap, undo, locks, bounds, and the v4 -> v5 migration."""

from __future__ import annotations

import json
import struct

import pytest
import sqlalchemy as sa

from ledger import LedgerError, LockedError, NotFoundError, Table
from ledger.store import open_store, schema
from ledger.store import refs as R
from tests.ledger.util import SEATS, drawn, json_hand

MODEL = "0.6.1/0123456789abcdef"


def ref(tile: str, *values: float, model: str = MODEL) -> R.TableRef:
    """A one-view reference of `len(values)` floats."""
    return R.TableRef(tile, model, len(values), struct.pack(f"<{len(values)}f", *values))


def floats(r: R.TableRef) -> list[float]:
    return list(struct.unpack(f"<{len(r.views) // 4}f", r.views))


def _table(store) -> str:
    return store.create_table(Table("jiujiang", SEATS)).table.code


def test_refs_round_trip_per_model_and_never_to_another_table(store, db_url):
    a, b = _table(store), _table(store)
    two_views = R.TableRef("6m", MODEL, 2, struct.pack("<4f", 0.6, 0.8, -0.8, 0.6))
    assert R.add_refs(store, a, 1, [ref("1m", 1.0, 0.0), two_views, ref("C", 0.0, 1.0, model="other")]) == 3
    assert R.ref_state(store, b) == (0, 0)
    store.close()
    store = open_store(db_url)  # a fresh connection
    got = R.table_refs(store, a.lower(), MODEL)  # codes are case-insensitive
    assert [(r.tile, r.dim, floats(r)) for r in got] == [
        ("1m", 2, [1.0, 0.0]),
        ("6m", 2, pytest.approx([0.6, 0.8, -0.8, 0.6])),
    ]  # the other model's embedding is left out
    assert [r.tile for r in R.table_refs(store, a, "other")] == ["C"]
    assert R.table_refs(store, b, MODEL) == []  # table b learned nothing of table a's set
    n, last = R.ref_state(store, a, MODEL)
    assert n == 2 and last > 0 and R.ref_state(store, a)[0] == 3
    with pytest.raises(NotFoundError):
        R.table_refs(store, "K7QM9ACXTRE", MODEL)
    store.close()


def test_the_cap_drops_the_oldest(store, monkeypatch):
    monkeypatch.setattr(R, "MAX_TABLE_REFS", 5)
    code = _table(store)
    R.add_refs(store, code, 1, [ref("1m", float(k)) for k in range(4)])
    assert R.add_refs(store, code, 2, [ref("2m", float(k)) for k in range(4, 7)]) == 5
    got = R.table_refs(store, code, MODEL)
    assert [(r.tile, floats(r)) for r in got] == [
        ("1m", [2.0]), ("1m", [3.0]), ("2m", [4.0]), ("2m", [5.0]), ("2m", [6.0])
    ]  # fmt: skip


def test_the_cap_is_that_of_one_read():
    from vision.refs import MAX_REFS

    assert R.MAX_TABLE_REFS == MAX_REFS == 2000


def test_a_hand_recorded_again_replaces_what_the_undone_one_left(store):
    code = _table(store)
    R.add_refs(store, code, 1, [ref("1m", 1.0)])
    R.add_refs(store, code, 2, [ref("2m", 1.0), ref("3m", 1.0)])
    R.add_refs(store, code, 2, [ref("4m", 1.0)])  # hand 2 undone, corrected, recorded again
    assert [r.tile for r in R.table_refs(store, code, MODEL)] == ["1m", "4m"]
    R.drop_refs(store, code, 2)  # hand 2 undone for good
    assert [r.tile for r in R.table_refs(store, code, MODEL)] == ["1m"]


def test_bounds_and_locks_refuse_and_write_nothing(store):
    code = _table(store)
    bad = [
        R.TableRef("1m", MODEL, 3, b"\0" * 8),  # not (views, 3) floats
        R.TableRef("1m", MODEL, 2, b"\0" * 8 * (R.MAX_VIEWS + 1)),
        R.TableRef("1m", MODEL, R.MAX_DIM + 1, b"\0" * 4 * (R.MAX_DIM + 1)),
        R.TableRef("", MODEL, 1, b"\0" * 4),
        R.TableRef("1m", "m" * (R.MAX_MODEL + 1), 1, b"\0" * 4),
    ]
    for r in bad:
        with pytest.raises(LedgerError) as e:
            R.add_refs(store, code, 1, [ref("9m", 1.0), r])
        assert e.value.code == "bad_ref"
    with pytest.raises(LedgerError, match="at most 80"):
        R.add_refs(store, code, 1, [ref("1m", 1.0)] * (R.MAX_REFS_PER_HAND + 1))
    assert R.ref_state(store, code) == (0, 0)
    store.append(code, json_hand(store, code, drawn()), expected=0)
    store.lock(code)
    with pytest.raises(LockedError):
        R.add_refs(store, code, 2, [ref("1m", 1.0)])


def test_v4_ledger_is_migrated_to_v5_and_keeps_its_hands(db_url):
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:  # a ledger as the release before the references wrote it
        schema.migrate(conn, target=4)
        conn.execute(schema.tables.insert().values(
            code="K7QM9ACXTRE", title="", variant="jiujiang", seats=json.dumps(SEATS), base="1",
            house_rules="{}", created="2026-11-30T20:00:00+00:00", locked=False, hand_count=0, revision=0,
        ))  # fmt: skip
        assert "jxmj_refs" not in sa.inspect(conn).get_table_names()
    store = open_store(db_url)
    store.append("K7QM9ACXTRE", json_hand(store, "K7QM9ACXTRE", drawn()), expected=0)
    assert R.add_refs(store, "K7QM9ACXTRE", 2, [ref("1m", 1.0)]) == 1
    store.close()
    with engine.begin() as conn:
        assert conn.execute(sa.select(schema.schema.c.version)).scalar() == schema.LATEST == 5
    engine.dispose()


def test_a_jxmj_before_v5_refuses_a_ledger_with_references(db_url, monkeypatch):
    from ledger import StoreError

    open_store(db_url).close()  # written by this jxmj: v5
    monkeypatch.setattr(schema, "LATEST", 4)
    with pytest.raises(StoreError, match="schema version 5, newer than this jxmj reads") as e:
        open_store(db_url)
    assert e.value.code == "newer_schema"


def test_refs_go_with_their_table(db_url):
    """A table deleted from the database takes its references with it (the foreign key)."""
    store = open_store(db_url)
    code = _table(store)
    R.add_refs(store, code, 1, [ref("1m", 1.0)])
    with store.engine.begin() as conn:
        conn.execute(schema.tables.delete().where(schema.tables.c.code == code))
        assert conn.execute(sa.select(sa.func.count()).select_from(schema.refs)).scalar() == 0
    store.close()
