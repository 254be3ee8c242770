"""Sets a payer shows by count (吃炮, DECISIONS §1.5): laid out as melds inside the engine."""

from __future__ import annotations

import pytest

from scoring import HandError, HandInput, Meld, Payer, score, score_json
from scoring.model import SET_KEYS
from scoring.payer_sets import PAYER_SETS, lay_out


def hand(*payers: Payer, **kw) -> HandInput:
    return HandInput("jiujiang", "123m456p789s234m99p", "9p", False, payers=payers, **kw)


def eaten(h: HandInput) -> list[tuple[str, int | None, str]]:
    return [(i.key, i.points, i.reason_zh) for i in score(h).payments[0].eaten_items]


def test_a_count_scores_as_the_meld_it_is_laid_out_as():
    by_count = hand(Payer("d", dragon_pungs=1, kongs=1, bonus_tiles=1))
    by_melds = hand(Payer("d", bonus_tiles=1, melds=(Meld.of("pung", "CCC"), Meld.of("kong", "6666s"))))
    assert eaten(by_count) == eaten(by_melds)
    assert [k for k, _, _ in eaten(by_count)] == ["bonus_tile", "dragon_set", "kong"]
    assert score(by_count).to_json() == score(by_melds).to_json()


def test_the_first_free_tile_is_taken_and_given_melds_come_after():
    held = [0] * 34
    held[26] = 1  # the winner shows a 9s: no suited kong of 9s
    (p,) = lay_out(
        (Payer("d", dragon_pungs=1, dragon_kongs=1, kongs=1, melds=(Meld.of("pung", "111m"),)),), held
    )
    assert [m.code for m in p.melds] == ["CCC", "PPPP", "8888s", "111m"]
    assert (p.dragon_pungs, p.dragon_kongs, p.kongs) == (0, 0, 0)


def test_sets_beyond_four_copies_are_refused():
    with pytest.raises(HandError) as e:
        score(hand(Payer("d", dragon_pungs=2, dragon_kongs=1)))
    assert e.value.code == "payer_sets_impossible" and "dragon kong" in str(e.value)


def test_counts_in_json_and_their_type():
    base = {
        "variant": "jiujiang",
        "concealed": "123m456p789s234m99p",
        "winning_tile": "9p",
        "self_drawn": False,
    }
    out = score_json({**base, "payers": [{"name": "d", "dragon_kongs": 1}]})
    assert out["payments"][0]["eaten_items"][0]["reason_zh"] == "d的中明杠"
    with pytest.raises(HandError) as e:
        score_json({**base, "payers": [{"name": "d", "kongs": 5}]})
    assert e.value.code == "bad_field" and "kongs must be a whole number from 0 to 4" in str(e.value)


def test_the_counted_sets_are_the_payer_fields_in_order():
    assert tuple(ps.key for ps in PAYER_SETS) == SET_KEYS
    assert all(getattr(Payer(), key) == 0 for key in SET_KEYS)
