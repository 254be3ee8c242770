"""Issue 36 items 9-11 (DECISIONS §1.3a, §2 new bullets): a payer's counted sets are melds,
地胡 + 杠上流泪 is scored, and the 新余 cap caps the reading chosen uncapped. Hands are
`tests.scoring.util.parse_case` lines; the golden cases (shared runner format, with codes) are
in tests/data/scoring_cases_issue36.jsonl."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring import HandError, Payer, format_text, score, score_json
from tests.scoring.util import amounts, melds_of, mults, parse_case, points

BASIC = "123m456p789s345s55p +2m"  # 卡 2m alone, 门清: 平胡 1 + 1 + 1 = 3


def code_of(line: str, **kw) -> str | None:
    try:
        score(parse_case(line, **kw))
    except HandError as e:
        return e.code
    return None


# ---- item 9: a payer's counted sets are melds (the four-meld limit, the chow rule) ----
@pytest.mark.parametrize(
    ("counts", "melds", "code", "pays"),
    [
        ({"dragon_pungs": 1}, "pung:111p pung:222s chow:678s", None, 4),  # 中 pung eaten +1
        ({"kongs": 1}, "pung:111p pung:222s chow:678s", None, 4),  # exposed kong eaten +1
        ({"dragon_kongs": 1}, "pung:111p pung:222s chow:678s", None, 6),  # exposed 中 kong +3
        ({"concealed_kongs": 1}, "pung:111p pung:222s chow:678s", "chow_not_allowed", None),
        ({"dragon_concealed_kongs": 1}, "pung:111p pung:222s chow:678s", "chow_not_allowed", None),
        ({"kongs": 1}, "pung:111p pung:222s pung:333s pung:444p", "too_many_melds", None),
        ({"concealed_kongs": 1}, "pung:111p pung:222s pung:333s pung:444p", "too_many_melds", None),
        ({"dragon_pungs": 2, "kongs": 3}, "", "too_many_melds", None),
        ({"dragon_pungs": 2, "kongs": 2}, "", None, 3 + 1 + 1 + 10 + 1 + 1),  # 中 白 pungs: 红旗飘飘
    ],
)
@pytest.mark.parametrize("variant", ["jj", "xz"])
def test_payer_counted_sets_are_melds(variant, counts, melds, code, pays):
    payers = (Payer("b", melds=melds_of(melds), **counts),)
    assert code_of(f"{variant} {BASIC}", payers=payers) == code
    if code is None:
        assert amounts(score(parse_case(f"{variant} {BASIC}", payers=payers))) == [pays]


def test_payer_counted_sets_message_names_the_payer_and_the_count():
    payers = (Payer("b", kongs=1, melds=melds_of("pung:111p pung:222s pung:333s pung:444p")),)
    with pytest.raises(HandError) as e:
        score(parse_case(f"jj {BASIC}", payers=payers))
    assert "payer 'b'" in str(e.value) and "5 sets" in str(e.value)


def test_counted_sets_in_several_winners_checked_too():
    from scoring import score_winners

    bad = (Payer("d", concealed_kongs=1, melds=melds_of("pung:111p pung:222s chow:678s")),)
    with pytest.raises(HandError) as e:
        score_winners(
            [parse_case(f"jj {BASIC}", payers=bad), parse_case("jj 123m456p789s345s22m +2m", payers=bad)]
        )
    assert e.value.code == "chow_not_allowed"


PUNGS = "pung:222m pung:333p pung:444s"

# ---- item 10: 地胡 + 杠上流泪 (the dealer's concealed kong from his first 14) ----
DEALER_KONG = (Payer("d", is_dealer=True, melds=melds_of("concealed_kong:9999m")),)


def test_earthly_with_kong_discard_jiujiang_example():
    r = score(parse_case(f"jj {BASIC} earthly kong_discard", payers=DEALER_KONG))
    assert points(r) == {"earthly": 20, "kong_discard": 10, "closed_wait": 5}
    assert r.own == 35 and amounts(r) == [37] and r.payments[0].eaten == 2  # the kong eaten


def test_earthly_with_kong_discard_xingzi_dealer_pays_double():
    r = score(parse_case(f"xz {BASIC} earthly kong_discard", payers=DEALER_KONG))
    assert points(r) == {"earthly": 10, "kong_discard": 10, "closed_wait": 1}
    assert amounts(r) == [(21 + 2) * 2]


@pytest.mark.parametrize(
    ("line", "payers"),
    [
        (f"jj {BASIC} earthly kong_discard", (Payer("d", is_dealer=True, melds=melds_of("kong:9999m")),)),
        (f"jj {BASIC} earthly robbing_kong", (Payer("d", is_dealer=True, melds=melds_of("pung:222m")),)),
        (f"jj {BASIC} earthly last_tile", None),
        (f"xz 55p +5p self dealer heavenly kong_bloom concealed_kong:1111s {PUNGS}", None),
    ],
)
def test_earthly_and_heavenly_still_refused_with_the_rest(line, payers):
    assert code_of(line, payers=payers) == "inconsistent_event"


# ---- item 11: 新余 cap: the reading chosen by its uncapped product, then capped ----
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


# ---- the golden cases of these rule changes (shared runner format, with codes) ----
CASES = [
    json.loads(line)
    for line in (Path(__file__).resolve().parents[1] / "data" / "scoring_cases_issue36.jsonl")
    .read_text("utf-8")
    .splitlines()
    if line.strip()
]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_issue36_golden_case(case):
    exp = case["expect"]
    if exp.get("error"):
        with pytest.raises(HandError) as e:
            score_json(case["input"])
        assert e.value.code == exp["code"]
        return
    out = score_json(case["input"])
    assert out["can_win"] is exp["can_win"] and out["own"] == exp["own"]
    keys = sorted({i["key"] for i in out["items"] if i.get("points", 0) != 0 or i.get("multiplier", 1) != 1})
    assert keys == exp["keys"] and [p["amount"] for p in out["payments"]] == exp["payments"]
