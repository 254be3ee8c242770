"""The store on SQLite and PostgreSQL: round trip, optimistic concurrency, locks, drafts, schema."""

from __future__ import annotations

import json
import threading

import pytest
import sqlalchemy as sa

from ledger import ConflictError, LedgerError, LockedError, NotFoundError, StoreError, Table
from ledger.codes import ALPHABET, BITS, LENGTH, new_code
from ledger.exchange import export_json, table_from_export
from ledger.store import open_store, schema
from scoring import Payer
from tests.ledger.util import SEATS, drawn, json_hand, totals, win


def _table(store, variant="jiujiang", **kw):
    return store.create_table(Table(variant, SEATS, **kw)).table.code


def test_round_trip(store, db_url):
    code = _table(store, base="0.5", house_rules={"ledger": {"drawn.window": 3}}, title="周五")
    store.append(code, json_hand(store, code, win("1<2", follow="followed")), expected=0)
    store.append(code, json_hand(store, code, drawn()), expected=1)
    store.append(
        code, json_hand(store, code, win("1*", payers=[{"name": "王五", "bonus_tiles": 2}])), expected=2
    )
    store.close()
    rec = open_store(db_url).get(code.lower())  # a fresh connection; codes are case-insensitive
    assert rec.table.seats == SEATS and rec.table.title == "周五" and str(rec.table.base) == "0.5"
    assert rec.table.house_rules == {"ledger": {"drawn.window": 3}}
    assert [h.kind for h in rec.hands] == ["win", "drawn", "win"]
    assert rec.hands[0].follow.followed and rec.hands[2].winners[0].eaten == {2: Payer(bonus_tiles=2)}
    ledger = rec.ledger()
    # hand 3: x2 (跟庄 hold for dealer 1, 黄庄 window); self-draw 4 炮; 王五's two 發 eaten (+2)
    assert [o.raise_ for o in ledger.outcomes] == [1, 2, 2]
    assert totals(ledger) == [-4, 1.5 + 4 + 4 + 6, -1.5 - 6, -4]
    assert rec.revision == 3


def test_export_import_restores_a_table(store):
    code = _table(store, variant="xingzi")
    store.append(code, json_hand(store, code, win("0*")))
    store.append(code, json_hand(store, code, {"kind": "false_win", "declarer": 2}))
    # dealer 0 self-draws 4 炮 x2 from each (+24); 王五 炸糊: 10 to each other player
    exported = json.loads(json.dumps(export_json(store.get(code).ledger())))
    table, hands = table_from_export(exported)
    rec = store.create_table(table, hands)
    assert rec.table.code != code  # the exported code is taken: a fresh one is drawn
    assert (
        export_json(rec.ledger())["totals"]
        == exported["totals"]
        == {"张三": 34, "李四": 2, "王五": -38, "赵六": 2}
    )
    for bad, msg in [({"format": "x"}, "format"), ({**exported, "hands": {}}, "hands"),
                     ({**exported, "table": {**exported["table"], "seats": ["a"]}}, "4 seats")]:  # fmt: skip
        with pytest.raises(LedgerError, match=msg) as e:
            store.create_table(*table_from_export(bad))
        assert e.value.code in ("bad_import", "bad_seats")


def test_an_import_always_gets_a_new_code(store, tmp_path):
    code = _table(store)
    store.append(code, json_hand(store, code, drawn()))
    exported = export_json(store.get(code).ledger())
    elsewhere = open_store(f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}")  # where every code is free
    for wanted in (code, "33333333333", "K7QM9ACXTRE"):  # the table's, a chosen one, the README's
        data = {**exported, "table": {**exported["table"], "code": wanted}}
        rec = elsewhere.create_table(*table_from_export(data))
        assert rec.table.code != wanted and len(elsewhere.get(rec.table.code).hands) == 1
        with pytest.raises(NotFoundError):
            elsewhere.get(wanted)
    elsewhere.close()


def test_two_writers_never_lose_or_double_a_hand(store, db_url):
    code = _table(store)
    store.append(code, json_hand(store, code, drawn()))
    other = open_store(db_url)
    barrier = threading.Barrier(2)
    results: list = []

    def write(s):
        barrier.wait()
        try:
            s.append(code, json_hand(s, code, win("1<2")), expected=1)
            results.append("ok")
        except ConflictError as e:
            results.append(e.code)

    threads = [threading.Thread(target=write, args=(s,)) for s in (store, other)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["conflict", "ok"]
    assert len(store.get(code).hands) == 2
    # without an expected count both land, one after the other: never lost, never doubled
    threads = [
        threading.Thread(target=lambda s=s: s.append(code, json_hand(s, code, drawn())))
        for s in (store, other)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [h.kind for h in store.get(code).hands] == ["drawn", "win", "drawn", "drawn"]
    other.close()


def test_conflict_and_locked_messages(store):
    code = _table(store, variant="xingzi")
    store.append(code, json_hand(store, code, drawn()))
    with pytest.raises(
        ConflictError, match=r"changed since you loaded it \(hands now: 1, you saw: 0\): reload"
    ):
        store.append(code, json_hand(store, code, drawn()), expected=0)
    with pytest.raises(ConflictError):
        store.undo(code, revision=0)
    store.lock(code)
    for write in (
        lambda: store.append(code, json_hand(store, code, drawn())),
        lambda: store.undo(code),
        lambda: store.edit(code, 1, json_hand(store, code, drawn(), 1)),
    ):
        with pytest.raises(LockedError, match="settled and locked"):
            write()
    assert store.get(code).table.locked and len(store.get(code).hands) == 1


def test_edit_and_undo_in_the_store(store):
    code = _table(store)
    for h in (win("1<2"), win("1<2", follow="followed"), win("1<2")):
        store.append(code, json_hand(store, code, h))
    _, ledger = store.edit(code, 1, json_hand(store, code, drawn(), 1), expected=3)
    assert [o.raise_ for o in ledger.outcomes] == [1, 2, 2]
    assert [o.raise_ for o in store.get(code).ledger().outcomes] == [1, 2, 2]
    assert store.undo(code, expected=3).next_raise == 2
    assert len(store.get(code).hands) == 2
    with pytest.raises(LedgerError, match="hand 3: unknown seat 5"):
        store.append(code, json_hand(store, code, {"seat": 5, "hand": {}}))
    assert len(store.get(code).hands) == 2  # a refused write changes nothing


def test_codes_are_unguessable_and_never_listed(store):
    assert BITS >= 50 and LENGTH == 11 and not set("0O1IL5S2ZBG") & set(ALPHABET)
    assert len({new_code() for _ in range(2000)}) == 2000
    with pytest.raises(NotFoundError, match="no table has the code") as e:
        store.get(new_code())
    assert e.value.code == "table_not_found"
    assert not [m for m in dir(store) if "list" in m or "all" in m]


def test_a_corrupt_file_is_a_clear_error(tmp_path):
    path = tmp_path / "ledger.sqlite3"
    path.write_bytes(b"not a database at all\n" * 100)
    with pytest.raises(StoreError, match="is damaged or not a jxmj ledger") as e:
        open_store(f"sqlite:///{path}")
    assert e.value.code == "corrupt_store"
    assert path.read_bytes() == b"not a database at all\n" * 100  # nothing was changed


def test_newer_schema_is_refused_and_old_schema_is_migrated(db_url):
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:  # a ledger from release 1: schema v1, one table with one hand
        schema.migrate(conn, target=1)
        tid = conn.execute(schema.tables.insert().values(
            code="K7QM9ACXTRE", title="", variant="jiujiang", seats=json.dumps(SEATS), base="1",
            house_rules="{}", created="2026-11-30T20:00:00+00:00", locked=False, hand_count=1, revision=1,
        )).inserted_primary_key[0]  # fmt: skip
        conn.execute(schema.hands.insert().values(table_id=tid, position=1, data=json.dumps(drawn())))
    store = open_store(db_url)
    assert [h.kind for h in store.get("K7QM9ACXTRE").hands] == ["drawn"]
    assert schema.drafts.name in sa.inspect(store.engine).get_table_names()  # v2's (app.drafts moves it)
    store.close()
    with engine.begin() as conn:
        assert conn.execute(sa.select(schema.schema.c.version)).scalar() == schema.LATEST == 5
        conn.execute(schema.schema.update().values(version=99))
    with pytest.raises(StoreError, match="schema version 99, newer than this jxmj reads") as e:
        open_store(db_url)
    assert e.value.code == "newer_schema"
    engine.dispose()


DIGITS = ("1", "2", "3", "4")  # seat names that are digits: the seat named "2" is seat 1


def test_v3_stores_seats_by_index_in_lists_so_a_seat_named_2_is_not_seat_2(db_url):
    """Schema v2 rows keyed 新余 kongs and 吃炮 facts by the index as text ({"2": ...} was seat 2,
    the one named "3"); v3 rewrites them as [{"seat": 2, ...}], which no parser reads as a name."""
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:
        schema.migrate(conn, target=2)
        tid = conn.execute(schema.tables.insert().values(
            code="K7QM9ACXTRE", title="", variant="xinyu", seats=json.dumps(DIGITS), base="1",
            house_rules="{}", created="2026-11-30T20:00:00+00:00", locked=False, hand_count=2, revision=2,
        )).inserted_primary_key[0]  # fmt: skip
        melds = [{"kind": "kong", "tiles": "9999p"}]
        hand = {"concealed": "123m456p789s234mEE", "winning_tile": "E"}
        old = [  # as v2 wrote them: kongs and 吃炮 facts keyed by the index as text
            {"kind": "drawn", "kongs": {"2": {"exposed": 1, "concealed": 0}}},
            {
                "kind": "win",
                "winners": [{"seat": 1, "hand": hand, "eaten": {"2": {"melds": melds}}}],
                "discarder": None,
            },
        ]
        for position, data in enumerate(old, 1):
            text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
            conn.execute(schema.hands.insert().values(table_id=tid, position=position, data=text))
    store = open_store(db_url)
    hands = store.get("K7QM9ACXTRE").hands
    assert hands[0].kongs == {2: (1, 0)}
    assert hands[1].winners[0].to_json()["eaten"] == [{"seat": 2, "melds": melds}]
    _, ledger = store.append(
        "K7QM9ACXTRE",
        json_hand(store, "K7QM9ACXTRE", {"kind": "drawn", "kongs": {"2": {"exposed": 1}}}),
        expected=2,
    )
    assert ledger.table.seats[1] == "2" and ledger.outcomes[-1].hand.kongs == {1: (1, 0)}  # by name
    store.close()
    with engine.begin() as conn:
        query = sa.select(schema.hands.c.data).order_by(schema.hands.c.position)
        rows = [json.loads(r) for r in conn.execute(query).scalars()]
        assert [r.get("kongs") for r in rows] == [
            [{"seat": 2, "exposed": 1, "concealed": 0}],
            None,
            [{"seat": 1, "exposed": 1, "concealed": 0}],
        ]
        assert rows[1]["winners"][0]["eaten"] == [{"seat": 2, "melds": melds}]
    engine.dispose()


def test_bad_urls(tmp_path):
    with pytest.raises(StoreError, match=r"is not a database URL \(--db, else JXMJ_DB") as e:
        open_store("not a url")
    assert e.value.code == "bad_url"
    with pytest.raises(StoreError, match=r"x\\udcff.db' is not a database URL") as e:  # was internal
        open_store(f"sqlite:///{tmp_path}/x\udcff.db")  # JXMJ_DB=$'sqlite:///x\xff.db'
    assert e.value.code == "bad_url"
    with pytest.raises(StoreError, match="no database driver") as e:
        open_store("nosuchdb://x/y")
    assert e.value.code == "missing_driver"


def test_default_url_follows_jxmj_db(monkeypatch, tmp_path):
    from ledger.store import default_url

    monkeypatch.setenv("JXMJ_DB", "postgresql+psycopg://u@h/db")
    assert default_url() == "postgresql+psycopg://u@h/db"
    monkeypatch.delenv("JXMJ_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_url() == f"sqlite:///{tmp_path}/jxmj/ledger.sqlite3"


@pytest.mark.parametrize(
    "column, value",
    [("seats", "xx"), ("house_rules", "{"), ("created", "nope"), ("hand", "{")],
)
def test_a_damaged_row_is_corrupt_store(store, db_url, column, value):
    code = _table(store)
    store.append(code, json_hand(store, code, drawn()), expected=0)
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:
        if column == "hand":
            conn.execute(schema.hands.update().values(data=value))
        else:
            conn.execute(schema.tables.update().values({column: value}))
    engine.dispose()
    with pytest.raises(StoreError, match=f"table {code} is damaged in the ledger database") as e:
        store.get(code)
    assert e.value.code == "corrupt_store"


@pytest.mark.parametrize("version", [0, -1])
def test_a_schema_version_below_one_is_corrupt_store(db_url, version):
    open_store(db_url).close()
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(schema.schema.update().values(version=version))
    with pytest.raises(StoreError, match=f"schema version {version} is no version") as e:
        open_store(db_url)
    assert e.value.code == "corrupt_store"
    engine.dispose()


@pytest.mark.parametrize("expected", [-1, 10**30])
def test_an_impossible_hand_count_is_a_conflict(store, expected):
    code = _table(store)
    with pytest.raises(ConflictError, match=f"hands now: 0, you saw: {expected}"):
        store.append(code, json_hand(store, code, drawn()), expected=expected)
    assert store.get(code).hands == ()
