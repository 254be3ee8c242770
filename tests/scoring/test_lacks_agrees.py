"""One rule, one place (issue 38): for every pattern of every variant, its why-not says "missing"
exactly when its predicate fails in every reading of the hand (before exclusions, replacing
patterns and 计大不计小), on random valid hands (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring import HandError, HandInput, Meld, load_rules
from scoring.engine import score_checked
from scoring.items import HandFacts, registry
from scoring.items.lacks import Facts, reason_of
from scoring.model import VARIANTS
from scoring.readings import readings
from scoring.tiles import format_tiles
from scoring.validate import validate
from tests.scoring.util import parse_case

SETTINGS = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@st.composite
def winning_hands(draw, variant: str) -> HandInput:
    """A valid complete hand of ``variant``: four sets and a pair (some laid down as melds) or seven
    pairs, drawn from all kinds, one suit, one suit with honours or honours only (the flushes),
    with any of the variant's events."""
    rules = load_rules(variant)
    kinds = list(rules.tile_kinds)
    honours = [k for k in kinds if k >= 27]
    pools = [kinds, honours, *([k for k in kinds if k // 9 == s] for s in range(3))]
    pools += [[*p, *honours] for p in pools[2:]]
    pool = draw(st.sampled_from(pools))
    counts = [0] * 34
    melds: list[Meld] = []
    if draw(st.integers(0, 3)) == 0 and len(pool) >= 4:  # seven pairs, a quad now and then
        for t in draw(st.lists(st.sampled_from(pool), min_size=7, max_size=7)):
            counts[t] += 2
    else:
        for _ in range(4):
            t = draw(st.sampled_from(pool))
            run = t < 27 and t % 9 <= 6 and {t + 1, t + 2} <= set(pool) and draw(st.booleans())
            kind = draw(st.sampled_from(["stand", "stand", "pung", "kong", "concealed_kong", "chow"]))
            if run:
                if kind == "chow" and variant != "xinyu" and not melds:
                    melds.append(Meld.of("chow", format_tiles([t, t + 1, t + 2])))
                else:
                    for u in (t, t + 1, t + 2):
                        counts[u] += 1
            elif kind in ("pung", "kong", "concealed_kong"):
                n = 3 if kind == "pung" else 4
                melds.append(Meld.of(kind, format_tiles([t] * n)))
            else:
                counts[t] += 3
        counts[draw(st.sampled_from(pool))] += 2
    held = list(counts)
    for m in melds:
        for t in m.tiles:
            held[int(t)] += 1
    assume(max(held) <= 4)
    tiles = [t for t in range(34) for _ in range(counts[t])]
    win = draw(st.sampled_from(sorted(set(tiles))))
    self_drawn = rules.self_draw_only or draw(st.booleans())
    events = draw(st.lists(st.sampled_from(rules.events), max_size=1)) if rules.events else []
    try:
        return HandInput(
            variant=variant,
            concealed=format_tiles(tiles),
            winning_tile=format_tiles([win]),
            self_drawn=self_drawn,
            melds=tuple(melds),
            events=tuple(events),
            winner_is_dealer=draw(st.booleans()),
        )
    except HandError:
        assume(False)
        raise


def disagreements(hand: HandInput) -> dict[str, tuple[bool, object]]:
    """Pattern key → (its predicate holds in some reading, what its why-not says), where the two
    disagree. Empty: the hand is refused before its patterns (an input check)."""
    try:
        checked = validate(hand)
        result = score_checked(checked)
    except HandError:
        return {}
    rules = checked.rules
    found = readings(checked, HandFacts.of_hand(checked))
    facts = Facts.of(checked, result)
    reg = registry(rules.family)
    out = {}
    for key in rules.patterns:
        holds = any(reg[key].holds(r) for r in found)
        said = reason_of(rules, key).missing(facts)
        if holds != (said is None):
            out[key] = (holds, said)
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_why_not_says_missing_exactly_when_the_predicate_fails(variant):
    @SETTINGS
    @given(winning_hands(variant))
    def check(hand):
        assert disagreements(hand) == {}, hand

    check()


@pytest.mark.parametrize(
    "line",
    [
        "jj 111m234m567m888m99m +9m",  # 1 to 9 held, but no reading has 123 456 789 as runs
        "xy 111m234m567m888m99m +9m self",
        "xy 11223344556677m +7m self",  # seven pairs and a standard reading: 门清 in the standard one
    ],
)
def test_the_found_disagreements_stay_fixed(line):
    assert disagreements(parse_case(line)) == {}
