"""Error codes: stable, documented, and carried by every HandError and every "cannot win" result."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scoring import REASON_CODES, HandError, HandInput, Meld, errors, score, score_json

DOC = (Path(__file__).resolve().parents[2] / "docs" / "score-json.md").read_text("utf-8")


def test_every_code_is_documented_and_nothing_else():
    table = set(re.findall(r"^\| `([a-z_]+)` \|", DOC.split("### Error codes", 1)[1], re.M))
    assert table == set(errors.CODES)
    assert len(errors.CODES) == len(set(errors.CODES))
    for code in REASON_CODES:
        assert f"`{code}`" in DOC


@pytest.mark.parametrize(
    ("hand", "code"),
    [
        ({"variant": "jiujiang", "concealed": "123m456p789s345s55p", "winning_tile": "5p"}, "bad_field"),
        (dict(variant="jiujiang", concealed="123m456p789s345s56p", winning_tile="5p"), "not_complete"),
        (dict(variant="jiujiang", concealed="123m456p789s345sEE", winning_tile="E"), "tile_not_in_variant"),
        (dict(variant="xingzi", concealed="123m456p789s345sFF", winning_tile="F"), "bonus_tile_in_hand"),
        (dict(variant="xinyu", concealed="11111m456p789s345s", winning_tile="1m"), "fifth_copy"),
        (dict(variant="xinyu", concealed="123m456p789s345s5", winning_tile="5p"), "unknown_tile"),
        (dict(variant="xinyu", concealed="123m456p789s345s", winning_tile="5p"), "wrong_tile_count"),
    ],
)
def test_hand_errors_carry_a_code(hand, code):
    with pytest.raises(HandError) as e:
        score_json({"self_drawn": True, **hand} if "self_drawn" not in hand and code != "bad_field" else hand)
    assert e.value.code == code and str(e.value) == e.value.message


@pytest.mark.parametrize(
    ("variant", "concealed", "win", "code"),
    [
        ("jiujiang", "234m567p678s99s", "6s", "below_minimum"),
        ("xinyu", "123m456p789s345sEE", "E", "self_draw_only"),
    ],
)
def test_cannot_win_results_carry_a_reason_code(variant, concealed, win, code):
    melds = (Meld.of("pung", "777p"),) if variant == "jiujiang" else ()
    r = score(HandInput(variant, concealed, win, self_drawn=False, melds=melds))
    assert (r.can_win, r.reason_code, r.to_json()["reason_code"]) == (False, code, code)
    ok = score(HandInput(variant, concealed, win, self_drawn=True, melds=melds))
    assert ok.can_win and ok.reason_code is None


@pytest.mark.parametrize(
    ("hand", "name"),
    [
        (dict(variant="jiujiang", concealed="123m456p789s345sEE", winning_tile="E"), "Jiujiang"),
        (dict(variant="xingzi", concealed="123m456p789s345sFF", winning_tile="F"), "Xingzi"),
        (
            dict(variant="xinyu", concealed="123m456p789s55p", winning_tile="5p", melds=[["chow", "345s"]]),
            "Xinyu",
        ),
    ],
)
def test_messages_name_the_variant_as_players_do(hand, name):
    """The sentence shown on the app's English page says "Jiujiang", never the id `jiujiang`."""
    melds = [{"kind": k, "tiles": t} for k, t in hand.pop("melds", [])]
    with pytest.raises(HandError) as e:
        score_json({"self_drawn": True, **hand, "melds": melds})
    assert name in e.value.message
    assert not re.search(r"\b(jiujiang|xingzi|xinyu)\b", e.value.message), e.value.message


def test_a_reason_names_the_variant_as_players_do():
    r = score(HandInput("xinyu", "123m456p789s345sEE", "E", self_drawn=False))
    assert r.reason_code == "self_draw_only" and r.reason.startswith("Xinyu is won by self-draw only")
