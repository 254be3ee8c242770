"""Flag 3's fitting side (`datasets.flag3_hand`, `datasets.flag3_fit`): the hand-level signal, the
text rule as the player meets it, and thresholds chosen with the set held out. Hands are one line."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.flag3_eval import SUSPICION, auc, held_out, with_text
from datasets.flag3_hand import hand_breakers


def hand(line: str) -> tuple[list[str], list[str | None]]:
    """`1m 2m 6p/9p ...`: each tile read as written, `code/second` with its runner-up."""
    toks = line.split()
    return [t.split("/")[0] for t in toks], [t.split("/")[1] if "/" in t else None for t in toks]


def test_a_tile_breaking_the_hand_whose_runner_up_makes_it_whole_flags():
    codes, seconds = hand("1m/7m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s 9p 6p/9p")
    assert hand_breakers(codes, seconds) == [False] * 13 + [True]


def test_a_whole_hand_or_a_runner_up_that_does_not_help_flags_nothing():
    whole, seconds = hand("1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s 9p 9p/6p")
    assert not any(hand_breakers(whole, seconds))
    broken, seconds = hand("1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s 9p 6p/1s")
    assert not any(hand_breakers(broken, seconds))


@pytest.mark.parametrize(
    "line",
    [
        "1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s 6p/9p",  # 13 tiles: no winning shape to check
        "1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s ? 9p 6p/9p",  # a tile no one could read: named first
    ],
)
def test_no_hand_check_without_a_whole_hands_count(line):
    assert not any(hand_breakers(*hand(line)))


def test_seven_pairs_count_as_whole():
    codes, seconds = hand("1m 1m 3p 3p 5s 5s E E C C 7m 7m 9s 8s/9s")
    assert hand_breakers(codes, seconds)[-1] is True


def rec(op="ok", read="3m", label="3m", text=0.0, best=None, off_row=False, set_="a", **kw) -> dict:
    return {
        "op": op, "read": read, "label": label, "text_score": text, "text_best": best,
        "off_row": off_row, "fifth": False, "hand_second": False, "set": set_, **kw,
    }  # fmt: skip


def test_the_text_decides_a_flagged_character_tile_and_clears_its_flag():
    recs = [
        rec("sub", read="5m", label="6m", text=0.8, best="6m"),  # flagged, read right by the text
        rec("ok", text=0.9, best="3m"),  # flagged, the text agrees: the flag goes
        rec("sub", read="5m", label="6m", text=0.05, best="6m"),  # too faint to decide: stays
        rec("sub", read="5m", label="6m", text=0.8, best="6m"),  # not flagged: the text is not read
        rec("ok", off_row=True),  # off the rows: flag_eval counts it flagged
    ]
    seen, flags = with_text(recs, np.array([True, True, True, False, False]))
    assert flags.tolist() == [False, False, True, False, True]
    assert [r["op"] for r in seen] == ["ok", "ok", "sub", "sub", "ok"]
    assert seen[0]["read"] == "6m" and recs[0]["read"] == "5m"  # the records themselves untouched


def test_a_held_out_sets_threshold_comes_from_the_other_sets_only():
    recs = [rec(set_="a") for _ in range(10)] + [rec(set_="b") for _ in range(10)]
    scores = np.r_[np.arange(10.0), np.arange(10.0) + 100]  # set b scores far higher
    flags = held_out(recs, lambda u: scores, 0.1, False)
    assert flags[:10].sum() == 0  # a's threshold from b: above all of a
    assert flags[10:].all()  # b's threshold from a: below all of b


def test_auc_and_the_signals_point_the_same_way():
    assert auc(np.array([3.0, 2.0, 1.0, 0.0]), np.array([True, True, False, False])) == 1.0
    assert auc(np.array([1.0, 1.0]), np.array([True, False])) == 0.5
    sure, unsure = {"logit_margin": 9.0, "agree": True}, {"logit_margin": 0.2, "agree": False}
    for name in ("logit_margin", "disagree"):
        assert SUSPICION[name](unsure) > SUSPICION[name](sure)
