"""Flag 5's rule over records (`datasets.flag5_rule`, issue 35 item 5): a reader's agreement clears
a right tile flag 2 flags, so the show threshold chosen with whole sets held out can keep a wrong
one flagged; every tile reads as flag 2 has it read (the text check on flag 2's flags). Records
built by hand, no ../shared."""

from __future__ import annotations

import numpy as np

from datasets.flag5_rule import Rule, choose, flags, held_out, outcomes, readers

THR2 = -1.8


def rec(set_: str, read: str, label: str, score: float, group: str = "cn", **kw) -> dict:
    base = {"set": set_, "group": group, "op": "ok" if read == label else "sub", "read": read}
    base.update(label=label, second=None, flag2=score, off_row=False, fifth=False, hand_second=False)
    return {**base, "t5_best": None, "t5_score": 0.0, "shape_suit": None, "shape_conf": 0.0, **kw}


def sets() -> list[dict]:
    """Per set (one of each source per pair): a wrong 5s read 4s at score -1.0 (no reader sees it);
    a right 南 at -0.5 whose text reads 南 weakly (0.05); a right 6p at -0.6 whose shapes are
    circles; 30 sure right tiles."""
    out = []
    for k in range(6):
        group = "val" if k % 2 else "cn"
        s = f"set{k}"
        out.append(rec(s, "4s", "5s", -1.0, group))
        out.append(rec(s, "S", "S", -0.5, group, t5_best="S", t5_score=0.05))
        out.append(rec(s, "6p", "6p", -0.6, group, shape_suit="p", shape_conf=0.95))
        out += [rec(s, "1m", "1m", -5.0 - i / 10, group) for i in range(30)]
    return out


def test_agreement_clears_the_right_tiles_so_the_wrong_one_stays_flagged_held_out():
    recs = sets()
    o = outcomes(recs, THR2)
    none = np.zeros(len(recs), bool)
    wrong, fl = flags(o, none, none, THR2)  # flag 2: 3 of 33 flagged per set, 2 of them right
    assert int((fl & ~wrong).sum()) == 12 and int((fl & wrong).sum()) == 6
    grid = {k: (v,) for k, v in vars(Rule(text_ok=0.02, shape_ok=0.8)).items() if k != "threshold"}
    w, f, _chosen = held_out(recs, 0.05, THR2, grid)
    assert int((f & w).sum()) == 6 and int((f & ~w).sum()) == 0  # every wrong one, no right one
    plain = {k: (None,) if k != "hand" else (False,) for k in grid}
    w0, f0, _ = held_out(recs, 0.05, THR2, plain)  # without the readers: 2 right flags in 32 > 5 %
    assert int((f0 & w0).sum()) == 0  # the threshold must rise above the wrong tile's score


def test_a_reader_that_names_another_tile_clears_nothing():
    recs = [
        rec("a", "S", "S", -0.5, t5_best="N", t5_score=0.05),
        rec("a", "6p", "6p", -0.6, shape_suit="s", shape_conf=0.95),
    ]
    cleared, forced = readers(recs, Rule(text_ok=0.02, shape_ok=0.8))
    assert not cleared.any() and not forced.any()
    rule = choose(recs, outcomes(recs, THR2), np.ones(2, bool), 1.0, {"text_ok": (0.02,), "shape_ok": (0.8,)})
    assert rule.threshold == THR2  # flag 2's threshold is the floor


def test_flag6_flags_a_doubled_box_and_a_weak_renaming_above_any_threshold():
    """Flag 6 over records: a phantom 4s boxed on a tile already boxed (sure: score -6, `geom`) and
    R3's 9m read right, renamed 8m by the text at 0.13 (wrong once renamed), are flagged with the
    geometry among the always-flags and a renaming under 0.5 kept; flag 5's rule shows neither."""
    phantom = {**rec("a", "4s", "4s", -6.0, geom=True), "op": "extra", "label": None}
    nine = rec("a", "9m", "9m", -1.0, second="8m", t5_best="8m", t5_score=0.13)
    recs = [phantom, nine, rec("a", "1m", "1m", -5.0)]
    none = np.zeros(3, bool)
    wrong, fl = flags(outcomes(recs, THR2, geom=True), none, none, 0.0, keep=0.5)
    assert wrong.tolist() == [True, True, False] and fl.tolist() == [True, True, False]
    wrong, fl = flags(outcomes(recs, THR2), none, none, 0.0)
    assert wrong.tolist() == [True, True, False] and not fl.any()
    strong = rec("a", "9m", "8m", -1.0, second="8m", t5_best="8m", t5_score=0.8)
    _w, fl = flags(outcomes([strong], THR2, geom=True), none[:1], none[:1], 0.0, keep=0.5)
    assert not fl.any()  # a sure renaming is no doubt
