"""The chow rule (DECISIONS §1.1, §1.3a "碰或明杠") for every hand scored, the winner's melds and
each payer's; and the golden cases of the chow rule and of the event pairs the play's timing rules out
(tests/data/scoring_cases_chow_and_timing.jsonl, the shared runner format with codes). Hands are
`tests.scoring.util.parse_case` specs."""

from __future__ import annotations

import pytest

from scoring import HandError, Meld, Payer
from tests.scoring.util import check_case, code_of, load_cases, parse_case


def melds(text: str) -> tuple[Meld, ...]:
    """``"pung 777p, chow 678s"`` → melds."""
    return tuple(Meld.of(*part.split()) for part in text.split(",") if part.strip())


BASIC = "123m456p789s345s55p +2m"  # 卡 2m, 门清


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("jj 99s +9s self concealed_kong:1111m pung:777p pung:555s chow:678s", "chow_not_allowed"),
        (
            "xz 99s +9s self dealer concealed_kong:CCCC pung:777p kong:5555s chow:678s",
            "chow_not_allowed",
        ),
        ("jj 234m567p99s +9s chow:678s pung:777p", "chow_not_allowed"),
        ("jj 99s +9s self pung:111m pung:777p pung:555s chow:678s", None),
        ("jj 99s +9s self kong:1111m added_kong:7777p pung:555s chow:678s", None),
        ("jj 99s +9s self concealed_kong:1111m pung:777p pung:555s pung:666s", None),
    ],
)
def test_winner_chow_rule(line, code):
    assert code_of(parse_case(line)) == code


@pytest.mark.parametrize(
    ("payer_melds", "code"),
    [
        ("concealed_kong 9999m, pung 111p, pung 222s, chow 678s", "chow_not_allowed"),
        ("pung 111p, pung 222s, chow 678s", "chow_not_allowed"),
        ("chow 678s", "chow_not_allowed"),
        ("kong 9999m, pung 111p, pung 222s, chow 678s", None),
        ("concealed_kong 9999m, pung 111p", None),
    ],
)
@pytest.mark.parametrize("variant", ["jj", "xz"])
def test_payer_chow_rule(variant, payer_melds, code):
    h = parse_case(f"{variant} {BASIC}", payers=(Payer("b", melds=melds(payer_melds)),))
    assert code_of(h) == code


def test_payer_chow_rule_in_several_winners():
    from scoring import score_winners

    bad = (Payer("d", melds=melds("concealed_kong 9999m, pung 111p, pung 222s, chow 678s")),)
    with pytest.raises(HandError) as e:
        score_winners(
            [parse_case(f"jj {BASIC}", payers=bad), parse_case("jj 123m456p789s345s22m +2m", payers=bad)]
        )
    assert e.value.code == "chow_not_allowed"


# ---- the golden cases of the chow rule and the timing pairs (shared runner format, with codes) ----
CASES = load_cases("scoring_cases_chow_and_timing.jsonl")


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_chow_and_timing_golden_case(case):
    check_case(case)
