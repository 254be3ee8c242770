"""The `uncertain` flag measured honestly: fitted on some validation photos, reported on the others.

    python -m datasets.flag_cv --models models --real datasets/out/0.6.0/real --json /tmp/flag_cv.json

The shipped flag (`datasets.calibrate`) was fitted on the validation crops of `real_photos_rf`
and reported on the same photos. Here the photos of our validation part are split by photo
(`--folds` folds, by `sha1(name)`; 2 folds = fit on one half, report on the other, and swap). In
each fold the rule is fitted on the training photos only and applied to the held-out photos'
reader boxes (the reader's own boxes matched to a label at IoU >= 0.5, strongest first, as
`datasets.eval_real` counts). Rules:
- `margin_crops`: `datasets.calibrate.fit_flag` on the labelled boxes' crops (the shipped recipe);
- `margin_reader`: the same rule fitted on the reader's own matched boxes;
- `logistic`: `datasets.flag_model` over the reader's features (margin, 0°/180° agreement,
  localizer score, box size relative to its row's median), the wrong/right threshold at
  `--target-right` of the training photos' right reads.
Every rule is combined, as at run time, with `vision.reading.beyond_the_set` (a tile read more
often than a set holds is flagged whatever its margin; nothing to fit). `margin_reader_set` fits
the margin on the reader's boxes with those flags counted against `--target-right`, so the two
rules together stay within it (the other rules fit the margin alone). `logit_margin_reader_set`
is the same with the logit margin `log(p1 / p2)` as the score (0.6.2 on).
Labels: the set's own, and (`--audit`) with the verdicts of `datasets/reports/val-label-audit.json`
applied (a box whose label was judged wrong takes the audited tile; `unclear` boxes are left out).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

import numpy as np

from datasets.audit import AUDIT, apply_audit
from datasets.calibrate import SCORES, effective_margin, fit_flag
from datasets.flag_data import as_reading, beyond_flags, collect
from datasets.flag_model import FEATURES, features, fit_logistic, threshold_for
from datasets.tiles import SHARED


def fold_of(name: str, folds: int) -> int:
    return int(hashlib.sha1(name.encode()).hexdigest(), 16) % folds


def _shares(wrong: np.ndarray, flagged: np.ndarray) -> dict:
    return {
        "wrong": int(wrong.sum()),
        "right": int((~wrong).sum()),
        "wrong_flagged": round(float(flagged[wrong].mean()) if wrong.any() else 0.0, 3),
        "right_flagged": round(float(flagged[~wrong].mean()) if (~wrong).any() else 0.0, 3),
    }


def cross_validate(recs: list[dict], folds: int, target: float) -> dict:
    """Per rule: the pooled held-out figures and each fold's."""
    reader = [r for r in recs if r["kind"] == "reader"]
    crops = [r for r in recs if r["kind"] == "crop"]
    rules = {
        "margin_crops": [],
        "margin_reader": [],
        "logistic": [],
        "margin_reader_set": [],
        "logit_margin_reader_set": [],
    }
    pooled = {k: ([], []) for k in rules}
    for f in range(folds):
        test = [r for r in reader if fold_of(r["photo"], folds) == f]
        fit_c = [r for r in crops if fold_of(r["photo"], folds) != f]
        fit_r = [r for r in reader if fold_of(r["photo"], folds) != f]
        wrong = np.array([r["label"] != r["read"] for r in test])
        for rule in rules:
            flagged = _fit_apply(rule, fit_c if rule == "margin_crops" else fit_r, test, target)
            flagged = flagged | beyond_flags(test)  # every rule, as the runtime adds the set rule
            photos = len({r["photo"] for r in test})
            rules[rule].append({"fold": f, "photos": photos, **_shares(wrong, flagged)})
            pooled[rule][0].append(wrong)
            pooled[rule][1].append(flagged)
    out = {}
    for rule, (w, fl) in pooled.items():
        out[rule] = {"pooled": _shares(np.concatenate(w), np.concatenate(fl)), "folds": rules[rule]}
    return out


def _fit_apply(rule: str, fit: list[dict], test: list[dict], target: float) -> np.ndarray:
    if rule == "logistic":
        x, y = features(fit), np.array([r["label"] != r["read"] for r in fit], float)
        w = fit_logistic(x, y)
        s_fit = features(fit) @ w[1:] + w[0]
        thr = threshold_for(s_fit, y.astype(bool), target)
        return features(test) @ w[1:] + w[0] > thr
    r = as_reading(fit)
    y = np.array([0 if a["label"] == a["read"] else 1 for a in fit])
    always = beyond_flags(fit) if rule.endswith("_set") else None  # set-rule flags counted in the fit
    score = "logit_margin" if rule.startswith("logit_margin") else "margin"
    rule_fit = fit_flag({**r, "cls": np.zeros(len(fit), int)}, y, -1, target, always, score)  # cls 0: right
    eff = effective_margin(as_reading(test), rule_fit["disagree_factor"], score)
    return eff < rule_fit[SCORES[score][0]]


def in_sample(recs: list[dict]) -> dict:
    """The shipped flag as it stands (the runtime's `uncertain`) on all validation reader boxes."""
    reader = [r for r in recs if r["kind"] == "reader"]
    wrong = np.array([r["label"] != r["read"] for r in reader])
    return _shares(wrong, np.array([r["uncertain"] for r in reader]))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--models", default="models")
    ap.add_argument("--real", default="datasets/out/0.6.0/real")
    ap.add_argument("--folds", type=int, nargs="+", default=[2, 5])
    ap.add_argument("--target-right", type=float, default=0.05)
    ap.add_argument("--cache", help="records json: read when present, else written")
    ap.add_argument("--json", help="write the figures here")
    a = ap.parse_args(argv)
    if a.cache and Path(a.cache).exists():
        recs = json.loads(Path(a.cache).read_text())
    else:
        if not (SHARED / "data").is_dir() or not (Path(a.real) / "split.json").exists():
            print("real_photos_rf or the split is not here: nothing to measure")
            return 0
        recs = collect(a.models, Path(a.real))
        if a.cache:
            Path(a.cache).write_text(json.dumps(recs))
    out = {"features": list(FEATURES), "labels": {}}
    sets = {"raw": recs}
    if AUDIT.exists():
        sets["audited"] = apply_audit(recs, json.loads(AUDIT.read_text())["verdicts"])
    for lab, rs in sets.items():
        out["labels"][lab] = {"shipped_in_sample": in_sample(rs)}
        for k in a.folds:
            out["labels"][lab][f"{k}_fold"] = cross_validate(rs, k, a.target_right)
    print(json.dumps(out, indent=1))
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
