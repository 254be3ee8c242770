"""Validation per variant (DECISIONS §0, §1.1, §2): every error names the tile or meld."""

from __future__ import annotations

import pytest

from scoring import HandError, HandInput, Meld, Payer, score
from tests.scoring.util import melds_of, parse_case, payer

BASIC = "234m567p678s99s"  # + pung 777p, win 6s


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("xz 234m567p678s99sEE +E", "wind E (东)"),
        ("jj 123m456p789s345sNN +N", "wind N (北)"),
        ("jj 123m456p789s345sFF +F", "發 (F)"),
        ("xz 111m11m567p678s999s +6s", "five or more copies of 1m"),
        ("jj 123m456p789s345s5p +5p", "wrong tile count: 13"),
        ("jj 123m456p789s345s55p +9m", "winning tile 9m"),
        ("jj 123m456p789s345s56p +5p", "not a winning hand"),
        ("xy 123m456p789s345s56p +5p self", "not a winning"),
    ],
)
def test_invalid_hands(spec, fragment):
    with pytest.raises(HandError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        score(parse_case(spec))


def test_not_complete_message_suggests_the_smallest_fix():
    with pytest.raises(HandError) as e:
        score(parse_case("jj 123m456p789s345s57p +5p"))
    assert "5p instead of 4p" in str(e.value)  # 55 + 567p


def test_winds_are_fine_in_xinyu():
    r = score(parse_case("xy 123m456p789s345sEE +E self"))
    assert r.can_win and r.own == 2


def test_fifth_copy_counts_payers_melds_and_bonus_tiles():
    with pytest.raises(HandError, match="five or more copies of 2m"):
        score(parse_case("jj 123m456p789s345s55p +5p", payers=[payer("b", "kong:2222m")]))
    with pytest.raises(HandError, match="發"):
        score(parse_case(f"jj {BASIC} +6s pung:777p bonus:3", payers=[Payer("b", bonus_tiles=2)]))


@pytest.mark.parametrize(
    ("melds", "fragment"),
    [
        ("pung:778p", "meld 1 (pung 778p): a pung is three identical tiles"),
        ("kong:777p", "a kong is four identical tiles"),
        ("chow:135m", "a chow is three consecutive tiles"),
        ("pung:FFF", "發 (F)"),
    ],
)
def test_meld_shapes(melds, fragment):
    with pytest.raises(HandError) as e:
        score(parse_case(f"jj 234m567p678s99s +6s {melds}"))
    assert fragment in str(e.value)


def test_chow_only_as_the_fourth_meld():
    with pytest.raises(HandError, match="fourth meld"):
        score(parse_case("jj 234m567p99s +9s chow:678s pung:777p"))
    r = score(parse_case("jj 99s +9s pung:111m pung:777p pung:555s chow:678s self"))
    assert r.can_win


def test_xinyu_has_no_chow_and_no_bonus_tiles():
    with pytest.raises(HandError, match="no chow"):
        score(parse_case("xy 99s +9s pung:111m pung:777p pung:555s chow:678s self"))
    with pytest.raises(HandError, match="no bonus tiles"):
        score(parse_case("xy 123m456p789s345sEE +E self bonus:1"))


@pytest.mark.parametrize(
    ("words", "fragment"),
    [
        ("kong_bloom", "self-draw"),
        ("self kong_bloom", "needs a kong"),
        ("self robbing_kong", "self_drawn to false"),
        ("heavenly", "dealer's self-drawn"),
        ("self earthly", "first discard"),
        ("teleport", "unknown event"),
    ],
)
def test_event_consistency(words, fragment):
    with pytest.raises(HandError, match=fragment):
        score(parse_case(f"jj 123m456p789s345s55p +2m {words}"))


def test_ready_declared_is_jiujiang_only():
    with pytest.raises(HandError, match="no place in Xingzi"):
        score(parse_case("xz 123m456p789s345s55p +2m ready_declared"))
    with pytest.raises(HandError, match="Jiujiang rule"):
        score(parse_case(f"xz {BASIC} +6s pung:777p self", payers=[Payer("a", ready_declared=True)] * 3))


def test_payer_count_and_dealers():
    with pytest.raises(HandError, match="one payer"):
        score(parse_case(f"jj {BASIC} +6s pung:777p", payers=[Payer("a"), Payer("b")]))
    with pytest.raises(HandError, match="three payers"):
        score(parse_case(f"jj {BASIC} +6s pung:777p self", payers=[Payer("a")]))
    with pytest.raises(HandError, match="more than one dealer"):
        score(
            parse_case(
                f"xz {BASIC} +6s pung:777p self dealer",
                payers=[Payer("a", is_dealer=True), Payer("b"), Payer("c")],
            )
        )


def test_point_value_must_be_positive():
    with pytest.raises(HandError, match="point_value"):
        score(parse_case(f"jj {BASIC} +6s pung:777p self", point_value=0))


def test_melds_given_as_mappings_are_accepted():
    h = HandInput("jiujiang", BASIC, "6s", True, melds=[{"kind": "pung", "tiles": "777p"}])  # type: ignore[list-item]
    assert score(h).own == 2
    assert melds_of("pung:777p") == (Meld.of("pung", "777p"),)


def test_unsorted_meld_is_normalised():
    chow = Meld("chow", tuple(reversed(Meld.of("chow", "678s").tiles)))
    melds = [*melds_of("pung:111m pung:777p pung:555s"), chow]
    r = score(HandInput("jiujiang", "99s", "9s", True, melds=melds))
    assert r.can_win


def test_point_value_beyond_float_range_through_the_python_api():
    # math.isfinite(10**400) raised OverflowError; 1e308 paid Infinity
    for pv in (10**400, 1e308, 10**12 + 1):
        with pytest.raises(HandError, match="point_value is too large"):
            score(HandInput("jiujiang", "123m456p789s234mCC", "C", self_drawn=True, point_value=pv))
    r = score(HandInput("jiujiang", "123m456p789s234mCC", "C", self_drawn=True, point_value=10**12))
    assert r.own == 4 and [p.amount for p in r.payments] == [4 * 10**12] * 3


def test_too_many_melds_refused_before_parsing_them():
    melds = [Meld("pung", "111m")] * 100_000 + ["junk"]
    with pytest.raises(HandError, match=r"^melds: 100001 given, a hand has at most four$"):
        score(HandInput("jiujiang", "123m456p789s234mCC", "C", self_drawn=True, melds=melds))


def test_robbed_kong_given_as_the_added_kong_it_was_becoming():
    # was: "five or more copies of 2m: 7 appear" (the engine added a second robbed kong)
    data = {
        "variant": "jiujiang",
        "concealed": "123m456p789s111pCC",
        "winning_tile": "2m",
        "self_drawn": False,
        "events": ["robbing_kong"],
        "payers": [{"name": "x", "melds": [{"kind": "added_kong", "tiles": "2222m"}]}],
    }
    r = score(HandInput.from_json(data))
    assert r.own == 20 and [(p.payer, p.eaten, p.amount) for p in r.payments] == [("x", 1, 21)]
    assert r.to_json()["notes"] == ["x's added kong of 2m is the robbed kong"]
    data["payers"] = [{"name": "x", "melds": [{"kind": "kong", "tiles": "2222m"}]}]
    with pytest.raises(HandError) as e:
        score(HandInput.from_json(data))
    assert e.value.code == "inconsistent_event" and str(e.value) == (
        "robbing_kong: x already has a kong (kong) of 2m (二万); only a pung being made an added kong "
        "can be robbed — give that meld as the pung it was"
    )


@pytest.mark.parametrize("self_drawn", [True, False])
def test_an_event_of_the_other_way_of_winning_is_refused(self_drawn):
    """scoring.timing.SELF_DRAWN_EVENTS / DISCARD_EVENTS, the one classification (the app offers by
    it too): an event of the other way of winning is ``inconsistent_event``."""
    from scoring.model import EVENTS
    from scoring.timing import DISCARD_EVENTS, SELF_DRAWN_EVENTS

    assert not SELF_DRAWN_EVENTS & DISCARD_EVENTS and SELF_DRAWN_EVENTS | DISCARD_EVENTS < set(EVENTS)
    melds = [Meld("concealed_kong", "9999s")]
    for e in DISCARD_EVENTS if self_drawn else SELF_DRAWN_EVENTS:
        hand = HandInput("jiujiang", "123m456p789pCC", "C", self_drawn=self_drawn, melds=melds, events=(e,))
        with pytest.raises(HandError) as got:
            score(hand)
        assert got.value.code == "inconsistent_event" and e in str(got.value)
