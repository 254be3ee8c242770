"""The 新余 cap (DECISIONS §2): the reading is chosen by its uncapped product, then capped, and the
cap says so in the item and the text. Hands are `tests.scoring.util.parse_case` lines."""

from __future__ import annotations

from scoring import format_text, score
from tests.scoring.util import amounts, mults, parse_case


def test_cap_keeps_the_largest_uncapped_reading():
    r = score(parse_case("xy EEESSSWWWNNFFF +F self rule:cap=8"))
    assert mults(r) == {"concealed": 2, "all_pungs": 2, "all_honours": 8, "cap": 0.25}
    assert r.own == 8 and amounts(r) == [8, 8, 8]
    cap = next(i for i in r.items if i.key == "cap")
    assert cap.reason_zh == "封顶 8（原为 32）" and cap.reason == "capped at 8 (was 32)"


def test_capped_hand_says_so_in_the_text():
    r = score(parse_case("xy EEESSSWWWNNFFF +F self rule:cap=8"))
    assert "封顶 8（原为 32）" in format_text(r, "zh") and "capped at 8 (was 32)" in format_text(r, "en")


def test_cap_not_reached_adds_no_item():
    r = score(parse_case("xy EEESSSWWWNNFFF +F self rule:cap=32"))
    assert r.own == 32 and "cap" not in mults(r)
