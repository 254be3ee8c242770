"""A payer's counted sets are melds (DECISIONS §1.3a, §2): the four-meld limit and the chow rule
hold for them as for laid-out melds; and the golden cases of these rules, of 地胡 + 杠上流泪 and of the
新余 cap (tests/data/scoring_cases_counted_sets_and_cap.jsonl, the shared runner format with codes).
Hands are `tests.scoring.util.parse_case` lines."""

from __future__ import annotations

import pytest

from scoring import HandError, Payer, score
from tests.scoring.util import amounts, check_case, code_of, load_cases, melds_of, parse_case

BASIC = "123m456p789s345s55p +2m"  # 卡 2m alone, 门清: 平胡 1 + 1 + 1 = 3


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


# ---- the golden cases of counted sets, 地胡 + 杠上流泪 and the cap (shared runner format, with codes) ----
CASES = load_cases("scoring_cases_counted_sets_and_cap.jsonl")


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_counted_sets_and_cap_golden_case(case):
    check_case(case)
