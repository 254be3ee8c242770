"""The pip counter's yardstick (`datasets.pips_eval`) on hand-made records."""

from __future__ import annotations

from datasets.pips_eval import accuracy, leave_sets_out, outcomes


def rec(truth, cls, second, count, conf, s="A", uncertain=True):
    return {
        "truth": truth,
        "cls": cls,
        "second": second,
        "conf": 0.5,
        "uncertain": uncertain,
        "count": (count, conf) if count else None,
        "set": s,
    }


def test_outcomes_name_what_the_rule_does():
    recs = [
        rec("2p", "4p", "2p", 2, 0.9),  # the runner-up counted: put right
        rec("4p", "4p", "2p", 2, 0.9),  # a wrong count of the runner-up: put wrong
        rec("6p", "6p", "8p", 6, 0.9),  # agreement on a right tile: cleared right
        rec("9p", "6p", "8p", 6, 0.9),  # agreement on a wrong tile: cleared wrong
        rec("5s", "5s", None, 3, 0.9),  # neither: kept
        rec("5s", "5s", None, 5, 0.9, uncertain=False),  # not flagged: not counted
        rec("E", "E", "3m", None, 0.0),  # no suit: not counted
    ]
    got = outcomes(recs, 0.7)
    assert dict(got) == {
        "put right": 1,
        "put wrong": 1,
        "cleared right": 1,
        "cleared wrong": 1,
        "kept": 1,
        "counted": 5,
    }
    assert dict(outcomes(recs, 0.95)) == {"kept": 5, "counted": 5}  # below the threshold: nothing


def test_leave_sets_out_chooses_on_the_other_sets():
    helpful = [rec("2p", "4p", "2p", 2, 0.8, s) for s in ("A", "B")]
    harmful = [rec("4p", "4p", "2p", 2, 0.6, "C")]
    out = leave_sets_out(helpful + harmful)
    assert out["threshold_per_held_out_set"]["C"] == 0.8  # A and B: acting from 0.8 only helps
    # A held out: B helps up to 0.8, C hurts up to 0.6; 0.7 and 0.8 gain alike, the higher is kept
    assert out["threshold_per_held_out_set"]["A"] == 0.8
    assert out["pooled_held_out"]["put right"] == 2
    assert "put wrong" not in out["pooled_held_out"]  # C's wrong count (0.6) is below 0.8


def test_accuracy_per_class():
    recs = [rec("4p", "4p", None, 4, 0.9), rec("4p", "2p", None, None, 0.0), rec("E", "E", None, None, 0.0)]
    got = accuracy(recs)
    assert got["per_class"] == {"4p": [2, 1, 1, 1]}
    assert got["total"] == [2, 1, 1, 1]
