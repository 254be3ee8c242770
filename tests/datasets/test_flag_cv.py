"""`datasets.flag_cv`: the flag fitted on some photos and measured on the others; the audit applied."""

import numpy as np
import pytest

from datasets import flag_cv, flag_data
from datasets.calibrate import fit_flag
from datasets.flag_model import features, fit_logistic, threshold_for


def _recs(n_photos=20, per=30, seed=0):
    """Reader and crop records: wrong reads have margins below 0.3, right ones above 0.5."""
    rng = np.random.default_rng(seed)
    out = []
    for p in range(n_photos):
        for b in range(per):
            wrong = b < 2
            m = rng.uniform(0.0, 0.3) if wrong else rng.uniform(0.5, 1.0)
            for kind in ("reader", "crop"):
                out.append(
                    {
                        "kind": kind,
                        "photo": f"photo{p}",
                        "box": b,
                        "label": "1m",
                        "read": "2m" if wrong else "1m",
                        "margin": m,
                        "agree": True,
                        "p": 0.5 + m / 2,
                        "score": 0.8,
                        "size_rel": 1.0,
                        "uncertain": m < 0.4,
                    }
                )
    return out


@pytest.mark.parametrize(
    "rule", ["margin_crops", "margin_reader", "logistic", "margin_reader_set", "logit_margin_reader_set"]
)
def test_separable_reads_are_caught_on_held_out_photos(rule):
    res = flag_cv.cross_validate(_recs(), 2, 0.05)[rule]
    assert res["pooled"]["wrong"] == 40 and res["pooled"]["right"] == 560
    assert res["pooled"]["wrong_flagged"] == 1.0
    assert res["pooled"]["right_flagged"] <= 0.08  # 5% holds on the fitting photos, not exactly here
    assert sum(f["photos"] for f in res["folds"]) == 20


def test_the_set_rule_catches_confident_misreads_held_out():
    recs = _recs()
    for r in recs:  # one photo's confident misreads, beyond the set (a split 4p read as 2p)
        if r["photo"] == "photo3" and r["read"] != r["label"]:
            r["margin"], r["beyond_set"] = 0.95, True
    res = flag_cv.cross_validate(recs, 2, 0.05)
    assert res["margin_reader_set"]["pooled"]["wrong_flagged"] == 1.0
    assert res["margin_reader"]["pooled"]["wrong_flagged"] == 1.0  # every rule adds the set rule


def test_set_rule_flags_count_against_the_target_when_fitting():
    right = np.linspace(0.5, 1.0, 100)  # margins of 100 right reads, 5 wrong ones at 0.1
    r = {"margin": np.r_[right, [0.1] * 5], "agree": np.ones(105, bool), "cls": np.zeros(105, int)}
    y = np.r_[np.zeros(100, int), np.ones(5, int)]
    alone = fit_flag(r, y, -1, 0.05)
    always = np.zeros(105, bool)
    always[[99, 98, 97, 96]] = True  # 4 right reads flagged by the set rule
    both = fit_flag(r, y, -1, 0.05, always)
    assert alone["right_flagged"] == both["right_flagged"] == 0.05
    assert both["flag_margin"] < alone["flag_margin"]  # room for 1 margin flag instead of 5
    assert both["wrong_flagged"] == alone["wrong_flagged"] == 1.0


def test_held_out_photos_are_never_fitted_on():
    recs = _recs()
    held = [r for r in recs if flag_cv.fold_of(r["photo"], 2) == 0]
    for r in held:  # poison the held-out fold: were it fitted on, its wrong reads would set the margin
        if r["read"] != r["label"]:
            r["margin"] = 0.99
    res = flag_cv.cross_validate(recs, 2, 0.05)["margin_reader"]["folds"]
    assert res[0]["wrong_flagged"] == 0.0  # margin fitted on fold 1 alone: 0.99 is not flagged


def test_audit_relabels_and_drops_unclear():
    recs = _recs(2, 3)
    audit = [
        {"photo": "photo0", "box": 0, "verdict": "label_wrong", "true": "2m"},
        {"photo": "photo0", "box": 1, "verdict": "unclear"},
        {"photo": "photo1", "box": 0, "verdict": "reader_wrong"},
    ]
    out = flag_cv.apply_audit(recs, audit)
    assert len(out) == len(recs) - 2  # the unclear box's reader and crop records
    assert [r["label"] for r in out if r["photo"] == "photo0" and r["box"] == 0] == ["2m", "2m"]
    assert flag_cv.in_sample(out)["wrong"] == 2  # photo1 boxes 0 and 1; photo0 box 0 is right now


def test_logistic_orders_low_margins_first():
    recs = [r for r in _recs() if r["kind"] == "reader"]
    x, y = features(recs), np.array([r["label"] != r["read"] for r in recs])
    w = fit_logistic(x, y.astype(float))
    s = x @ w[1:] + w[0]
    assert w[1] < 0 and s[y].min() > s[~y].max()
    t = threshold_for(s, y, 0.05)
    assert (s[~y] > t).mean() <= 0.05 and (s[y] > t).all()


def test_skips_cleanly_without_the_shared_data(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(flag_cv, "SHARED", tmp_path)
    assert flag_cv.main(["--real", str(tmp_path)]) == 0
    assert "nothing to measure" in capsys.readouterr().out


def test_the_logit_margin_spares_right_reads_whose_probability_is_spread():
    # 100 right reads: p1 0.7..0.8 with the rest spread over many classes (p2 0.01..0.03);
    # 10 wrong reads: p1 0.85..0.9 with a clear second class (p2 0.08..0.12). By p1 - p2 the
    # wrong reads look as sure as the right ones; by log(p1 / p2) they are all below them.
    rng = np.random.default_rng(2)
    p1 = np.r_[rng.uniform(0.7, 0.8, 100), rng.uniform(0.85, 0.9, 10)]
    p2 = np.r_[rng.uniform(0.01, 0.03, 100), rng.uniform(0.08, 0.12, 10)]
    y = np.r_[np.zeros(100, int), np.ones(10, int)]
    r = {"margin": p1 - p2, "logit_margin": np.log(p1 / p2), "agree": np.ones(110, bool)}
    r["cls"] = np.zeros(110, int)
    by_prob = fit_flag(r, y, -1, 0.05)
    by_logit = fit_flag(r, y, -1, 0.05, score="logit_margin")
    assert by_logit["wrong_flagged"] == 1.0 and by_logit["right_flagged"] <= 0.05
    assert by_prob["wrong_flagged"] <= 0.5 and by_prob["right_flagged"] <= 0.05
    assert "flag_margin" not in by_logit and by_logit["flag_logit_margin"] > float(np.log(0.9 / 0.08))


def test_logit_margin_of_old_records_comes_from_p_and_margin():
    assert flag_data.logit_margin({"p": 0.9, "margin": 0.8}) == pytest.approx(np.log(9.0))
    assert flag_data.logit_margin({"p": 0.9, "margin": 0.8, "logit_margin": 1.5}) == 1.5
