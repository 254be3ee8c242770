"""The score → ledger path is typed: a recorded winner holds the engine's types, the fold scores
HandInputs (cached on them) in Decimal money, and the JSON a hand was entered as is kept as it was."""

from __future__ import annotations

import json
from decimal import Decimal

import sqlalchemy as sa

from ledger import Context, Table, add_hand, parse_hand, replay, score_input
from ledger import fold as fold_module
from ledger.exchange import export_json, table_from_export
from ledger.recorded import RecordedHand
from ledger.store import rows, schema
from scoring import HandInput, Meld, Payer
from scoring.tiles import Tile
from tests.ledger.util import SEATS, drawn, json_hand, read_hand, read_hands, win

ODD = {"concealed": "CC 234m 123m456p789s", "winning_tile": "C", "_note": "as typed", "melds": []}
EATEN = [{"seat": 2, "melds": [{"kind": "kong", "tiles": "9p9p9p9p"}], "bonus_tiles": 1}]


def test_a_parsed_winner_holds_the_engines_types():
    table = Table("jiujiang", SEATS, 1)
    data = {"kind": "win", "discarder": 2, "winners": [{"seat": 1, "hand": ODD, "eaten": EATEN}]}
    w = parse_hand(table, data, Context(1)).winners[0]
    assert isinstance(w.hand, RecordedHand) and w.hand.winning_tile is Tile.C
    assert w.hand.concealed == tuple(
        sorted(HandInput("jiujiang", "123m234m456p789sCC", "C", False).concealed)
    )
    assert w.eaten == {2: Payer(bonus_tiles=1, melds=(Meld.of("kong", "9999p"),))}


def test_the_json_a_hand_was_entered_as_is_written_back_as_it_was():
    table = Table("jiujiang", SEATS, 1)
    data = {"kind": "win", "discarder": 2, "winners": [{"seat": 1, "hand": ODD, "eaten": EATEN}]}
    _, ledger = add_hand(table, [], read_hand(table, [], data))
    written = export_json(ledger)["hands"][0]["winners"][0]
    assert written == {
        "seat": 1,
        "hand": ODD,
        "eaten": [{"seat": 2, **{k: v for k, v in EATEN[0].items() if k != "seat"}}],
    }


def test_the_fold_scores_a_hand_input_with_the_decimal_point_value():
    table = Table("xingzi", SEATS, "0.3")
    hand, ledger = add_hand(table, [], read_hand(table, [], win("1<2")))
    hi = score_input(table, hand, hand.winners[0], ledger.outcomes[0].dealer, Decimal("0.3"))
    assert isinstance(hi, HandInput) and hi.point_value == Decimal("0.3")
    assert [p.name for p in hi.payers] == ["王五"]
    paid = ledger.outcomes[0].results[0].payments[0].amount
    assert type(paid) is Decimal and ledger.outcomes[0].deltas[1] == paid == Decimal("0.9")


def test_a_replay_again_scores_from_the_cache_keyed_on_the_typed_inputs():
    table = Table("jiujiang", SEATS, 1)
    hands = [add_hand(table, [], read_hand(table, [], win("1<2")))[0]]
    replay(table, hands)
    before = fold_module._score.cache_info()
    replay(table, hands)
    after = fold_module._score.cache_info()
    assert after.hits == before.hits + 1 and after.misses == before.misses


def test_a_stored_hand_that_no_longer_reads_opens_marked(store):
    table = store.create_table(T := Table("jiujiang", SEATS, 1), read_hands(T, [win("1<2")])).table
    bad = {
        "kind": "win",
        "discarder": 2,
        "winners": [{"seat": 1, "hand": {"concealed": "5z", "winning_tile": "C"}}],
    }
    with store.engine.begin() as conn:
        tid = conn.execute(sa.select(schema.tables.c.id)).scalar_one()
        conn.execute(schema.hands.insert().values(table_id=tid, position=2, data=json.dumps(bad)))
        conn.execute(schema.tables.update().values(hand_count=2))
    rec = store.get(table.code)
    assert rec.hands[1].winners[0].hand is None and rec.hands[1].winners[0].problem.code == "ambiguous_honour"
    outcome = rec.ledger().outcomes[1]
    assert (
        outcome.error.startswith("hand 2: 李四's hand: honours in 'z' notation")
        and outcome.deltas == (0,) * 4
    )
    assert export_json(rec.ledger())["hands"][1]["winners"][0]["hand"] == bad["winners"][0]["hand"]


def test_a_table_read_again_parses_only_rows_it_has_not_read(store):
    rec = store.create_table(T := Table("jiujiang", SEATS, 1), read_hands(T, [win("1<2"), drawn()]))
    first = store.get(rec.table.code).hands
    store.append(rec.table.code, json_hand(store, rec.table.code, win("3*")))
    again = store.get(rec.table.code).hands
    assert again[0] is first[0] and again[1] is first[1] and len(again) == 3
    assert len(rows._HANDS) >= 3


def test_eaten_sets_by_count_are_stored_as_counts_and_pay_as_their_melds():
    table = Table("jiujiang", SEATS, 1)
    counted = [{"seat": 2, "dragon_pungs": 1, "kongs": 1}]
    melds = [{"seat": 2, "melds": [{"kind": "pung", "tiles": "CCC"}, {"kind": "kong", "tiles": "6666s"}]}]
    hand = {"concealed": "123m456p789s234m99p", "winning_tile": "9p"}
    by_count = add_hand(
        table,
        [],
        read_hand(
            table,
            [],
            {"kind": "win", "discarder": 2, "winners": [{"seat": 1, "hand": hand, "eaten": counted}]},
        ),
    )
    by_melds = add_hand(
        table,
        [],
        read_hand(
            table, [], {"kind": "win", "discarder": 2, "winners": [{"seat": 1, "hand": hand, "eaten": melds}]}
        ),
    )
    assert by_count[0].winners[0].eaten == {2: Payer(dragon_pungs=1, kongs=1)}
    assert by_count[0].to_json()["winners"][0]["eaten"] == counted
    assert (
        by_count[1].outcomes[0].deltas == by_melds[1].outcomes[0].deltas == (0, 5, -5, 0)
    )  # 3 own + 中 pung 1 + kong 1


def test_an_export_with_sets_by_count_imports_as_it_was(store):
    counted = [{"seat": 2, "dragon_kongs": 1}]
    hand = {"concealed": "123m456p789s234m99p", "winning_tile": "9p"}
    data = {"kind": "win", "discarder": 2, "winners": [{"seat": 1, "hand": hand, "eaten": counted}]}
    rec = store.create_table(T := Table("xingzi", SEATS, 1), read_hands(T, [data]))
    export = export_json(rec.ledger())
    again = store.create_table(*table_from_export(json.loads(json.dumps(export))))
    assert export_json(again.ledger())["hands"] == export["hands"]
    assert again.hands[0].winners[0].eaten == {2: Payer(dragon_kongs=1)}
