"""Hostile table input: a value echoed in an error is cut to about 80 characters; the title fits."""

from __future__ import annotations

import pytest

from ledger import LedgerError, Table
from ledger.codes import normalize_code
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
