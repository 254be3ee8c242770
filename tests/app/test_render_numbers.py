"""One number formatter: the page writes a number as `scoring.result.json_number` writes it in JSON
and the exports (an int when whole), a float to 6 significant digits."""

from __future__ import annotations

from decimal import Decimal

import pytest

from app.ui.render.html import num
from scoring.result import json_number


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (None, "0"),
        (3.0, "3"),
        (2.5, "2.5"),
        (0.1 * 12, "1.2"),  # no float noise
        (7, "7"),
        (Decimal("2.50"), "2.5"),  # a typed point value of 2.50: as the export writes it
        (Decimal("36.00"), "36"),
        (Decimal("1E+1"), "10"),
        (Decimal("1234567.5"), "1234567.5"),  # never 1.23457e+06
    ],
)
def test_the_page_writes_a_number_as_json_does(value, shown):
    assert num(value) == shown
    if isinstance(value, Decimal | int):
        assert num(value) == str(json_number(value))
