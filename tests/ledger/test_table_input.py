"""Hostile table input: a value echoed in an error is cut to about 80 characters; the title fits."""

from __future__ import annotations

import pytest

from ledger import LedgerError, Table
from ledger.book import add_hand
from ledger.codes import normalize_code
from ledger.exchange import table_from_export
from tests.ledger.util import SEATS

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
        add_hand(Table("xinyu", SEATS), [], {"kind": "drawn", "kongs": kongs})


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
