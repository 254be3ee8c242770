"""Hostile table input: a value echoed in an error is cut to about 80 characters; the title fits."""

from __future__ import annotations

import pytest

from ledger import LedgerError, Table
from ledger.book import add_hand
from ledger.codes import normalize_code
from ledger.exchange import table_from_export
from scoring import Payer
from tests.ledger.util import SEATS, read_hand

LONG = "x" * 100_000


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (lambda: Table("jiujiang", SEATS).seat(LONG), "unknown_seat"),
        (lambda: Table("jiujiang", (LONG, "b", "c", "d")), "bad_seats"),
        (lambda: Table("jiujiang", ("", "b", "c", LONG)), "bad_seats"),
        (lambda: Table("jiujiang", SEATS, base="9" * 100_000), "bad_money"),
        (lambda: Table(LONG, SEATS), "unknown_variant"),
        (lambda: normalize_code(LONG), "bad_code"),
    ],
)
def test_an_echoed_value_is_cut(make, code):
    with pytest.raises(LedgerError) as e:
        make()
    assert e.value.code == code and len(str(e.value)) < 300 and "…" in str(e.value)


def test_a_title_over_80_characters_is_refused_not_cut_later():
    assert Table("jiujiang", SEATS, title="周" * 80).title == "周" * 80
    with pytest.raises(LedgerError, match="the title is at most 80 characters, not 81") as e:
        Table("jiujiang", SEATS, title="周" * 81)
    assert e.value.code == "bad_title"


@pytest.mark.parametrize(
    ("kongs", "fragment"),
    [
        ({"²": {"exposed": 1}}, "unknown seat '²'"),  # a digit int() cannot read: was an internal error
        ({"张三": {"exposed": 1}, "0": {"exposed": 1}}, "张三's kongs are given twice"),  # one was dropped
    ],
)
def test_bad_kong_seats_are_named(kongs, fragment):
    with pytest.raises(LedgerError, match=fragment):
        add_hand(
            Table("xinyu", SEATS), [], read_hand(Table("xinyu", SEATS), [], {"kind": "drawn", "kongs": kongs})
        )


DIGITS = ("1", "2", "3", "4")  # seat names that are digits: the seat named "2" is seat 1


@pytest.mark.parametrize(
    ("kongs", "seat"),
    [
        ({"2": {"exposed": 1}}, 1),  # a key is a seat written as text: the seat named "2" (was seat 2)
        ({"0": {"exposed": 1}}, 0),  # no seat is named "0": seat 0, as Table.seat reads it
        ([{"seat": 2, "exposed": 1}], 2),  # the list form: the number 2 is seat 2
        ([{"seat": "2", "exposed": 1}], 1),  # ... the text "2" the seat named "2"
    ],
)
def test_kong_seats_are_read_as_table_seat_reads_a_seat(kongs, seat):
    table = Table("xinyu", DIGITS)
    hand, _ = add_hand(table, [], read_hand(table, [], {"kind": "drawn", "kongs": kongs}))
    assert hand.kongs == {seat: (1, 0)}
    assert hand.to_json()["kongs"] == [{"seat": seat, "exposed": 1, "concealed": 0}]
    again, _ = add_hand(
        table, [], read_hand(table, [], hand.to_json())
    )  # the stored form reads back as the same seat
    assert again.kongs == hand.kongs


@pytest.mark.parametrize(
    ("kongs", "fragment"),
    [
        ([{"seat": 1, "exposed": 1}, {"seat": "2", "exposed": 1}], "2's kongs are given twice"),
        ([{"exposed": 1}], 'kongs are [{"seat": seat, ...}, ...] (docs/ledger-json.md)'),
        ([{"seat": 1, "exposed": 1, "melded": 1}], 'kongs of 2 are {"exposed": n, "concealed": n}'),
        ("2", 'kongs are [{"seat"'),
    ],
)
def test_bad_kong_lists_are_named(kongs, fragment):
    with pytest.raises(LedgerError) as e:
        add_hand(
            Table("xinyu", DIGITS),
            [],
            read_hand(Table("xinyu", DIGITS), [], {"kind": "drawn", "kongs": kongs}),
        )
    assert e.value.code == "bad_hand" and fragment in e.value.message


def _won(eaten):
    hand = {"concealed": "123m456p789s234mCC", "winning_tile": "C"}
    return {"kind": "win", "discarder": 2, "winners": [{"seat": 1, "eaten": eaten, "hand": hand}]}


@pytest.mark.parametrize(
    ("eaten", "seat"),
    [
        ([{"seat": 2, "bonus_tiles": 1}], 2),
        ([{"seat": "3", "bonus_tiles": 1}], 2),
        ({"3": {"bonus_tiles": 1}}, 2),
    ],
)
def test_eaten_seats_are_read_as_table_seat_reads_a_seat(eaten, seat):
    """吃炮 facts by seat: the number 2 is seat 2, the text "3" the seat named 3 (index 2; the
    stored form keyed the index as text and int() read any key: a name was an internal error)."""
    table = Table("jiujiang", DIGITS)
    hand, _ = add_hand(table, [], read_hand(table, [], _won(eaten)))
    assert hand.winners[0].eaten == {seat: Payer(bonus_tiles=1)}
    assert hand.to_json()["winners"][0]["eaten"] == [{"seat": seat, "bonus_tiles": 1}]
    assert (
        add_hand(table, [], read_hand(table, [], hand.to_json()))[0].winners[0].eaten == hand.winners[0].eaten
    )


@pytest.mark.parametrize(
    ("eaten", "fragment"),
    [
        ({"张三": {"bonus_tiles": 1}}, "unknown seat '张三'"),  # was int('张三'): an internal error
        ({"3": {"bonus_tile": 1}}, "吃炮 facts of 3 are some of bonus_tiles, melds, ready_declared"),
        ({"3": 1}, "吃炮 facts of 3 are some of"),
        ({"4": {"bonus_tiles": 1}}, "吃炮 facts for 4, who does not pay 2"),
        ("3", 'are [{"seat": seat, ...}, ...]'),
    ],
)
def test_bad_eaten_is_named(eaten, fragment):
    with pytest.raises(LedgerError) as e:
        add_hand(Table("jiujiang", DIGITS), [], read_hand(Table("jiujiang", DIGITS), [], _won(eaten)))
    assert fragment in e.value.message


def test_a_version_1_export_keyed_kongs_by_the_index_and_still_imports_so():
    """jxmj wrote {"2": ...} for seat 2 in version 1 exports; version 2 writes the list."""
    table = {"variant": "xinyu", "seats": list(DIGITS)}
    hands = [{"kind": "drawn", "kongs": {"2": {"exposed": 1, "concealed": 0}, "1": [0, 1]}}]
    data = {"format": "jxmj-table", "version": 1, "table": table, "hands": hands}
    t, got = table_from_export(data)
    hand, _ = add_hand(t, [], read_hand(t, [], got[0]))
    assert hand.kongs == {2: (1, 0), 1: (0, 1)}
    t, got = table_from_export({**data, "version": 2})  # version 2: a key is a seat as text
    assert add_hand(t, [], read_hand(t, [], got[0]))[0].kongs == {1: (1, 0), 0: (0, 1)}
    with pytest.raises(LedgerError, match="this jxmj reads versions 1 and 2"):
        table_from_export({**data, "version": 3})


def test_a_version_1_export_whose_facts_name_a_seat_of_their_own_is_refused_not_moved():
    """{"2": {"seat": 1, ...}} in a hand-edited version 1 file: the facts went to seat 1 silently."""
    table = {"variant": "jiujiang", "seats": list(DIGITS)}
    hand = {"concealed": "123m456p789s234mEE", "winning_tile": "E"}
    eaten = {"2": {"seat": 1, "bonus_tiles": 2}}
    won = {"kind": "win", "winners": [{"seat": 0, "hand": hand, "eaten": eaten}], "discarder": 2}
    with pytest.raises(LedgerError, match="吃炮 facts of 3 are some of bonus_tiles"):  # read at the import
        table_from_export({"format": "jxmj-table", "version": 1, "table": table, "hands": [won]})


@pytest.mark.parametrize(
    ("field", "value", "fragment"),
    [("locked", "no", "locked must be true or false"), ("title", "周" * 81, "at most 80 characters")],
)
def test_an_import_takes_no_guess(field, value, fragment):
    data = {"format": "jxmj-table", "version": 1, "hands": [], "table": {"variant": "xinyu", "seats": SEATS}}
    data["table"][field] = value
    with pytest.raises(LedgerError, match=fragment) as e:
        table_from_export(data)
    assert e.value.code == "bad_import"


NFD_E, NFC_E = "e\u0301", "\u00e9"  # é typed as e + a combining acute, and as one character


@pytest.mark.parametrize(
    "seats",
    [
        (NFD_E, NFC_E, "c", "d"),  # the same name to the eye: the settlement read "é → é 36"
        ("Ａ", "A", "c", "d"),  # a full-width letter is the letter (NFKC)
    ],
)
def test_seat_names_that_read_as_one_are_refused(seats):
    with pytest.raises(LedgerError, match="seat names must differ") as e:
        Table("jiujiang", seats)
    assert e.value.code == "bad_seats"


def test_a_seat_name_is_kept_in_one_form_and_found_in_either():
    table = Table("jiujiang", (NFD_E, "b", "c", "d"))
    assert table.seats == (NFC_E, "b", "c", "d")
    assert (table.seat(NFD_E), table.seat(NFC_E), table.seat(f" {NFD_E} ")) == (0, 0, 0)
    hand = {"seat": 1, "discarder": NFD_E, "hand": {"concealed": "123m456p789s234mCC", "winning_tile": "C"}}
    hand["hand"]["payers"] = [{"name": NFD_E, "bonus_tiles": 1}]  # was payers_contradict_seats
    assert add_hand(table, [], read_hand(table, [], hand))[0].winners[0].eaten == {0: Payer(bonus_tiles=1)}


def test_a_stored_seat_name_keeps_its_form_and_is_found_in_either():
    table = Table("jiujiang", (NFD_E, NFC_E, "c", "d"), stored=True)  # stored before: still opens
    assert table.seats[:2] == (NFD_E, NFC_E) and table.seat(NFC_E) == 0
    assert Table("jiujiang", (NFD_E, "b", "c", "d"), stored=True).seat(NFC_E) == 0


@pytest.mark.parametrize("name", ["\u0301", " \u0301\u20dd ", "\u3164", "\ufe0f"])
def test_a_new_seat_name_that_shows_nothing_is_bad_seats_a_stored_one_still_opens(name):
    with pytest.raises(LedgerError, match=r"seat 1's name \(U\+[0-9A-F]{4}.*\) shows nothing") as e:
        Table("jiujiang", ("a", name, "c", "d"))
    assert e.value.code == "bad_seats"
    assert Table("jiujiang", ("a", name, "c", "d"), stored=True).seats[1] == name.strip()
