"""The engine compares every reading of a hand (计大不计小, DECISIONS §1.3) but writes the
reasons of a pattern (English and Chinese) for the reading it keeps only: a pattern's
``reason`` is asked once per score, however many readings hold it."""

from __future__ import annotations

import dataclasses

import pytest

from scoring import score
from scoring.items import FAN, PAO
from tests.scoring.util import parse_case

CASES = [  # registry, pattern, hand (two readings: 111 222 333 or 123 123 123), its value
    (PAO, "half_flush", "jj 111222333pCC +3p pung:PPP", 10),
    (PAO, "full_flush", "jj 111222333m456m99m +3m", 20),
    (FAN, "full_flush", "xy 111222333m456m99m +3m self", 4),
]


@pytest.mark.parametrize(("reg", "key", "spec", "value"), CASES, ids=[f"{c[2][:2]}-{c[1]}" for c in CASES])
def test_a_patterns_reason_is_written_for_the_kept_reading_only(monkeypatch, reg, key, spec, value):
    asked = []

    def reason(r):
        asked.append(r)
        return ("spy reason", "探针理由")

    monkeypatch.setitem(reg, key, dataclasses.replace(reg[key], reason=reason))
    r = score(parse_case(spec))
    assert r.readings == 2
    (item,) = [i for i in r.items if i.key == key]
    assert (item.reason, item.reason_zh) == ("spy reason", "探针理由")
    assert (item.points if reg is PAO else item.multiplier) == value
    assert len(asked) == 1


def test_an_add_on_patterns_reason_is_written_once_and_says_on_top(monkeypatch):
    """红旗飘飘 in 九江 is +10 on top (DECISIONS §1.3a); two readings of the hand hold it."""
    asked = []

    def reason(r):
        asked.append(r)
        return ("both dragons", "中白")

    monkeypatch.setitem(PAO, "red_flag", dataclasses.replace(PAO["red_flag"], reason=reason))
    r = score(parse_case("jj 11112233s +1s pung:CCC pung:PPP self"))
    assert r.readings == 2
    (item,) = [i for i in r.items if i.key == "red_flag"]
    assert (item.points, item.reason, item.reason_zh) == (10, "both dragons: +10 on top", "中白：另加 10 炮")
    assert len(asked) == 1
