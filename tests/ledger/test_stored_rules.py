"""A table stored before today's house-rule bounds (ledger.rules.INT_RANGES) still loads, shows,
settles, exports and imports: the bounds check new input (a new table's house rules), never stored
data (the database's rows, an export jxmj wrote).
The rows are written directly, as a jxmj without the bounds wrote them (any whole number >= 0)."""

from __future__ import annotations

import json

import pytest

from ledger import LedgerError, Table
from ledger.exchange import export_json, table_from_export
from ledger.store import open_store, schema
from tests.ledger.util import SEATS, drawn, json_hand, totals, win


def _stored(store, rules: dict) -> str:
    """A table whose stored house rules are ``{"ledger": rules}``, bounds or not."""
    code = store.create_table(Table("jiujiang", SEATS)).table.code
    with store.engine.begin() as conn:
        t = schema.tables
        conn.execute(t.update().where(t.c.code == code).values(house_rules=json.dumps({"ledger": rules})))
    return code


def test_a_stored_raise_of_100_loads_records_and_round_trips(store, db_url):
    code = _stored(store, {"drawn.raise": 100})
    store.append(code, json_hand(store, code, win("1<2")), expected=0)
    store.append(code, json_hand(store, code, drawn()), expected=1)
    store.append(code, json_hand(store, code, win("2<3")), expected=2)  # x100 from the 黄庄: 3 炮 x 100
    rec = open_store(db_url).get(code)
    assert rec.table.house_rules == {"ledger": {"drawn.raise": 100}}
    ledger = rec.ledger()
    assert [(o.raise_, o.error) for o in ledger.outcomes] == [(1, None), (1, None), (100, None)]
    assert totals(ledger) == [0, 3, 297, -300]
    exported = json.loads(json.dumps(export_json(ledger), ensure_ascii=False))
    assert exported["table"]["house_rules"] == {"ledger": {"drawn.raise": 100}}
    table, hands = table_from_export(exported)  # the export reads back whole (it was refused)
    again = store.create_table(table, hands)
    assert again.table.house_rules == rec.table.house_rules and again.table.code != code
    assert export_json(again.ledger())["hands"] == exported["hands"]
    with pytest.raises(LedgerError, match=r"drawn\.raise = 100") as e:
        Table("jiujiang", SEATS, house_rules={"ledger": {"drawn.raise": 100}})
    assert e.value.code == "bad_rule"


def test_a_hand_over_the_largest_point_value_is_marked_not_the_table(store, db_url):
    code = _stored(store, {"drawn.raise": 10**13, "drawn.window": 2000})
    store.append(code, json_hand(store, code, win("1<2")), expected=0)
    store.append(code, json_hand(store, code, drawn()), expected=1)
    with pytest.raises(LedgerError) as e:  # hand 3 would be 3 x 10^13 per 炮: refused, named
        store.append(code, json_hand(store, code, win("2<3")), expected=2)
    assert "hand 3" in e.value.message and e.value.code == "bad_point_value"
    rec = store.get(code)
    ledger = rec.ledger()
    assert [o.error for o in ledger.outcomes] == [None, None] and ledger.next_raise == 10**13
    out = export_json(ledger)
    assert out["next"]["raise"] == 10**13 and out["table"]["house_rules"]["ledger"]["drawn.window"] == 2000


def test_jxmj_table_shows_settles_and_exports_a_stored_table(store, db_url, monkeypatch, capsys, tmp_path):
    from app import cli

    code = _stored(store, {"drawn.raise": 100})
    store.append(code, json_hand(store, code, drawn()), expected=0)
    monkeypatch.setenv("JXMJ_DB", db_url)

    def jx(*args: str):
        rc = cli.main(["table", *args])
        return rc, json.loads(capsys.readouterr().out)

    rc, out = jx("show", code)
    assert rc == 0 and out["next"]["raise"] == 100
    assert out["table"]["house_rules"] == {"ledger": {"drawn.raise": 100}}
    assert jx("settle", code)[0] == 0
    f = tmp_path / "t.json"
    assert jx("export", code, "-o", str(f))[0] == 0
    assert json.loads(f.read_text(encoding="utf-8"))["next"]["point_value"] == 100
    rc, out = jx("import", str(f))  # an export jxmj wrote imports (it was refused: bad_import)
    assert rc == 0 and out["hands"] == 1 and out["code"] != code
    rc, again = jx("show", out["code"])
    assert again["table"]["house_rules"] == {"ledger": {"drawn.raise": 100}} and again["next"]["raise"] == 100
    assert again["hands"] == json.loads(f.read_text(encoding="utf-8"))["hands"]
    rules = json.dumps({"ledger": {"drawn.raise": 100}})
    rc, out = jx("new", "--variant", "jiujiang", "--seats", *SEATS, "--rules", rules)
    assert rc == 2 and out["code"] == "bad_rule" and "from 1 to 16" in out["error"]


@pytest.mark.parametrize(
    ("rules", "fragment"),
    [
        ({"drawn.rasie": 2}, "drawn.rasie"),  # an unknown key
        ({"drawn.raise": "100"}, "drawn.raise = '100' is not allowed: use a whole number >= 0"),
        ({"drawn.raise": -1}, "drawn.raise = -1 is not allowed: use a whole number >= 0"),
        ({"drawn.raise": 2.5}, "drawn.raise = 2.5 is not allowed"),
    ],
)
def test_an_import_still_refuses_what_no_jxmj_stored(rules, fragment):
    """Read as stored data is not unchecked: keys, types and whole numbers >= 0 (what every jxmj
    stored) are still required of an imported file."""
    table = {"variant": "jiujiang", "seats": list(SEATS), "house_rules": {"ledger": rules}}
    data = {"format": "jxmj-table", "version": 1, "hands": [], "table": table}
    with pytest.raises(LedgerError) as e:
        table_from_export(data)
    assert e.value.code == "bad_import" and fragment in e.value.message


def test_the_app_imports_an_export_of_a_stored_table(store):
    """The 牌局 page's 导入 reads an upload as `jxmj table import` reads a file."""
    from app.ui.table.settle_view import read_export

    code = _stored(store, {"drawn.raise": 100})
    store.append(code, json_hand(store, code, drawn()), expected=0)
    raw = json.dumps(export_json(store.get(code).ledger()), ensure_ascii=False).encode("utf-8")
    rec = store.create_table(*table_from_export(read_export(raw)))
    assert rec.table.house_rules == {"ledger": {"drawn.raise": 100}} and rec.ledger().next_raise == 100
