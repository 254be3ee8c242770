"""The event pairs the play's timing rules out (DECISIONS §1.3a; docs/score-json.md lists
`scoring.timing.IMPOSSIBLE`): each refused as `inconsistent_event`, the pairs the timing allows still
scored. Hands are `tests.scoring.util.parse_case` specs."""

from __future__ import annotations

from pathlib import Path

import pytest

from scoring import HandError, Meld, Payer, score
from scoring.timing import IMPOSSIBLE
from tests.scoring.util import parse_case

BASIC = "123m456p789s345s55p +2m"  # 卡 2m, 门清


def melds(text: str) -> tuple[Meld, ...]:
    """``"pung 777p, chow 678s"`` → melds."""
    return tuple(Meld.of(*part.split()) for part in text.split(",") if part.strip())


_DEALER_THREE = (Payer("a"), Payer("b"), Payer("c"))
TIMING = [  # (first, second, hand line, payers): each row of IMPOSSIBLE, once
    ("heavenly", "ready_declared", f"jj {BASIC} self dealer heavenly ready_declared", None),
    (
        "robbing_kong",
        "last_tile",
        f"xz {BASIC} robbing_kong last_tile",
        (Payer("b", melds=melds("pung 222m")),),
    ),
    (
        "heavenly",
        "payer_melds",
        f"xz {BASIC} self dealer heavenly",
        (Payer("a", melds=melds("pung CCC")), Payer("b"), Payer("c")),
    ),
    (
        "heavenly",
        "payer_ready_declared",
        f"jj {BASIC} self dealer heavenly",
        (Payer("a", ready_declared=True), Payer("b"), Payer("c")),
    ),
    (
        "earthly",
        "payer_exposed_melds",
        f"jj {BASIC} earthly",
        (Payer("d", is_dealer=True, melds=melds("pung 999s")),),
    ),
    (
        "earthly",
        "payer_ready_declared",
        f"jj {BASIC} earthly",
        (Payer("d", is_dealer=True, ready_declared=True),),
    ),
]


def test_every_impossible_pair_has_a_case():
    assert sorted((a, b) for a, b, *_ in TIMING) == sorted((a, b) for a, b, *_ in IMPOSSIBLE)


@pytest.mark.parametrize(
    ("first", "second", "line", "payers"), TIMING, ids=[f"{a}+{b}" for a, b, *_ in TIMING]
)
def test_impossible_pairs_are_refused(first, second, line, payers):
    with pytest.raises(HandError) as e:
        score(parse_case(line, payers=payers))
    assert e.value.code == "inconsistent_event"
    assert first in str(e.value) and "DECISIONS §1.3a" in str(e.value)


@pytest.mark.parametrize(
    ("line", "payers", "own"),
    [  # pairs the timing allows: still scored
        ("jj 123m456p345s55p +2m self kong_bloom last_tile concealed_kong:9999s", None, 32),
        (f"jj {BASIC} earthly ready_declared", (Payer("d", is_dealer=True),), 25),
        (f"xz {BASIC} earthly", (Payer("d", is_dealer=True, melds=melds("concealed_kong 8888m")),), 11),
        (f"jj {BASIC} kong_discard last_tile", (Payer("d", melds=melds("kong 9999m")),), 30),
    ],
)
def test_pairs_the_timing_allows(line, payers, own):
    assert score(parse_case(line, payers=payers)).own == own


def test_impossible_pairs_are_documented():
    doc = (Path(__file__).resolve().parents[2] / "docs" / "score-json.md").read_text("utf-8")
    for first, second, *_ in IMPOSSIBLE:
        assert f"`{first}` + `{second}`" in doc
