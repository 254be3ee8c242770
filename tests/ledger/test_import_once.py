"""An import scores each hand once (issue 37): `read_hands` checks each hand as it reads it and the
store keeps that strict replay instead of folding every hand again — counted in hands the fold
scored (`ledger.fold._money`), on `jxmj table import` and the ledger's own API."""

from __future__ import annotations

import json

from app import cli
from ledger import Table
from ledger.exchange import export_json, table_from_export
from ledger.store import open_store
from tests.ledger.test_extend import folded  # noqa: F401 (fixture)
from tests.ledger.util import SEATS, drawn, read_hands, win

HANDS = [win("1<2"), drawn("followed"), win("0*"), win("3,2<1"), drawn(), win("2<3")]


def _export() -> dict:
    table = Table("jiujiang", SEATS, 1)
    from ledger import replay

    return json.loads(json.dumps(export_json(replay(table, read_hands(table, HANDS)))))


def test_an_import_scores_each_hand_once(store, folded):  # noqa: F811
    exported = _export()
    folded[0] = 0
    table, hands = table_from_export(exported)
    rec = store.create_table(table, hands)
    assert folded[0] == len(HANDS)  # before: 2 x 6, read and checked, then checked again to store
    assert export_json(store.get(rec.table.code).ledger())["totals"] == exported["totals"]


def test_jxmj_table_import_scores_each_hand_once(tmp_path, monkeypatch, capsys, folded):  # noqa: F811
    monkeypatch.setenv("JXMJ_DB", f"sqlite:///{tmp_path / 'l.sqlite3'}")
    path = tmp_path / "e.json"
    path.write_text(json.dumps(_export()), encoding="utf-8")
    folded[0] = 0
    assert cli.main(["table", "import", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hands"] == len(HANDS) and folded[0] == len(HANDS)  # before: 12
    assert len(open_store().get(out["code"]).hands) == len(HANDS)


def test_hands_changed_after_they_were_read_are_checked_and_stored_as_they_are(store, folded):  # noqa: F811
    table, hands = table_from_export(_export())
    hands[0] = read_hands(table, [drawn()])[0]  # hand 1 now a 黄庄: the replay kept is not theirs
    folded[0] = 0
    rec = store.create_table(table, hands)
    assert folded[0] == len(HANDS)  # every hand checked again
    stored = store.get(rec.table.code).ledger()
    assert stored.outcomes[0].hand.kind == "drawn" and stored.outcomes[1].raise_ == 2  # x2 after it
    table, hands = table_from_export(_export())
    other = Table("jiujiang", SEATS, 2)  # the hands read at base 1, stored at base 2: checked again
    folded[0] = 0
    code = store.create_table(other, hands).table.code
    assert folded[0] == len(HANDS)
    totals = export_json(store.get(code).ledger())["totals"]
    assert totals == {k: 2 * v for k, v in _export()["totals"].items()}
