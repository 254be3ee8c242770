"""Flag 3 measured with whole sets held out: each signal's separating power, the model over them
and flag 2 side by side (`datasets.flag3_records` makes the records).

    python -m datasets.flag3_fit /tmp/flag3-records.json /tmp/flag3-standins.json \
        --json datasets/reports/flag3-sets.json --write models/flag.npz

- `auc`: per signal (`SUSPICION`: oriented so that higher is more suspect), the area under the ROC
  curve of wrong against right tiles — on real_sets_dev (wrong: a wrong name or a phantom box;
  and wrong names alone), on the validation split (wrong names: only matched boxes there), and for
  the text signals on the character tiles alone (those the text reader reads).
- **flag 3** (`flag3`): flag 2's score (its logistic model, fitted on the validation split,
  `datasets.flag_sets`) plus the box's own facts: `a * (knee - min(loc, knee)) + b * size_all`
  (the localiser's score below a knee: on sets never trained on a wrong tile is often a box the
  localiser doubts too, and a sure box stays as flag 2 has it; a box off the others' size). The
  weights `a`, `knee`, `b` (`GRID_LOC` x `GRID_KNEE` x `GRID_SIZE`) and the threshold are
  **calibration with whole sets held out**: for each set (the validation split's sets and
  real_sets_dev's 15) chosen on all the other sets (both sources) — the threshold flags `target`
  of their right tiles (the always-flags counted), the pair catching the most of their wrong
  tiles — and applied to the held-out set; the pooled held-out figures are the honest ones. The
  shipped file (`--write`) has them chosen on all the sets: that is calibration on all of
  real_sets_dev. Flagged: score above the threshold, or an always-flag: `off_row` (flag_eval
  counts it), a fifth copy, and (`+hand`, the app's `app.photo_check`, not in `jxmj detect`) a
  runner-up that makes the hand whole; then the text rule (`with_text`), as the player sees it.
- `flag3_val_logistic`: the other way tried, a logistic model over `FEATURES` fitted on the
  validation split only (a validation set held out left out of its own fit), its threshold
  chosen the same held-out way: the box features tell nothing there (the validation records are
  matched boxes: no phantoms), and it does no better than flag 2.
- `flag2_shipped`: the detections' `uncertain` as `jxmj detect` shows them (flag 2, the text
  rule, `off_row`), `flag2_recal`: flag 2's own score with its threshold chosen the held-out way
  (is flag 3 better than recalibrating flag 2?).
- `reported`: real_rows_public and the stand-ins (`datasets.stand_ins`), never calibrated on:
  flag 2 as shipped and flag 3 as shipped.
- `box_errors`: the wrong tiles split into wrong names (`sub`), phantoms (`extra`) and missed
  tiles (`miss`, no box: no flag can show them).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import numpy as np

from datasets.flag3_eval import (
    BAND,
    FEATURES,
    TARGETS,
    always,
    box_errors,
    held_out,
    matrix,
    shares,
    signal_aucs,
    with_text,
    wrong_of,
)
from datasets.flag_model import fit_logistic, threshold_for


def fit(recs: list[dict], names=FEATURES) -> np.ndarray:
    """Logistic weights (bias first, raw units) of wrong on `names`, fitted on `recs`."""
    x, y = matrix(recs, names), wrong_of(recs).astype(float)
    mu, sd = x.mean(0), x.std(0) + 1e-6
    w = fit_logistic((x - mu) / sd, y, l2=1.0)
    return np.concatenate([[w[0] - (w[1:] * mu / sd).sum()], w[1:] / sd])


CALIB = ("val", "cn", "riichi")
"""The groups the thresholds are chosen on (with the set held out); the others are only reported."""


GRID_LOC = (0.0, 4.0, 8.0, 16.0, 24.0)
GRID_KNEE = (0.4, 0.5, 0.6, 0.7, 1.0)
GRID_SIZE = (0.0, 1.0, 2.0)
"""The box weights tried: flag 3 = flag 2's score + a * (knee - min(loc, knee)) + b * size_all."""


def box_score(recs: list[dict], a: float, knee: float, b: float) -> np.ndarray:
    """Flag 3's score (module docstring) per record, up to a constant (`-a * min(loc, knee)`)."""
    f2 = np.array([r["flag2"] for r in recs])
    loc = np.array([r["loc"] for r in recs])
    size = np.array([r["size_all"] for r in recs])
    return f2 - a * np.minimum(loc, knee) + b * size


def calibrate_box(recs: list[dict], fit_on: np.ndarray, target: float, hand: bool = False) -> tuple:
    """`(a, knee, b, threshold)` chosen on the records `fit_on` (a bool mask): per choice of box
    weights the threshold flagging `target` of their right tiles (the always-flags counted), the
    choice that catches the most of their flaggable wrong tiles (ties: the fewer right tiles
    flagged, then the smaller weights)."""
    wrong, alw = wrong_of(recs), always(recs, hand)
    back = np.array([r["read"] == "back" for r in recs], bool)
    tgt = max(target - alw[fit_on & ~wrong].mean(), 0.0)
    best = None
    for a in GRID_LOC:
        for knee in GRID_KNEE if a else (1.0,):
            for b in GRID_SIZE:
                s = box_score(recs, a, knee, b)
                thr = threshold_for(np.where(alw, -np.inf, s)[fit_on], wrong[fit_on], tgt)
                f = ((s > thr) | alw) & fit_on & ~back
                key = (-int((f & wrong).sum()), int((f & ~wrong).sum()), a + b, -knee)
                if best is None or key < best[0]:
                    best = (key, a, knee, b, thr)
    return best[1:]


def box_held_out(recs: list[dict], target: float, hand: bool = False) -> tuple[np.ndarray, dict]:
    """Flag 3's model flags with each set held out (its box weights and threshold chosen on the
    other sets), and the weights chosen per set."""
    unit = np.array([r["set"] for r in recs])
    out, chosen = np.zeros(len(recs), bool), {}
    for u in sorted(set(unit)):
        a, knee, b, thr = calibrate_box(recs, unit != u, target, hand)
        chosen[u] = (a, knee, b)
        s = box_score(recs, a, knee, b)
        out[unit == u] = s[unit == u] > thr
    return out, chosen


def report(recs: list[dict], misses: list[dict], target: float) -> dict:
    calib = [r for r in recs if r["group"] in CALIB]
    val = [r for r in calib if r["group"] == "val"]
    models = {u: fit([r for r in val if r["set"] != u]) for u in {r["set"] for r in val}}
    w_all = fit(val)
    x = matrix(calib)

    def flag3(u: str) -> np.ndarray:
        w = models.get(u, w_all)
        return x @ w[1:] + w[0]

    f2 = np.array([r["flag2"] for r in calib])
    f3, chosen = box_held_out(calib, target)
    rules = {
        "flag2_shipped": (np.array([r["old"] for r in calib], bool), False),
        "flag2_recal": (held_out(calib, lambda u: f2, target, False), False),
        "flag3_val_logistic": (held_out(calib, flag3, target, False), False),
        "flag3": (f3, False),
        "flag3+hand": (box_held_out(calib, target, True)[0], True),
    }
    groups = {g: np.array([r["group"] == g for r in calib], bool) for g in ("cn", "riichi", "val")}
    groups["sets_dev"] = groups["cn"] | groups["riichi"]
    out: dict = {}
    per_set: dict = {}
    for name, (model_flags, hand) in rules.items():
        seen, fl = with_text(calib, model_flags, hand)
        out[name] = {g: shares([seen[i] for i in np.flatnonzero(m)], fl[m]) for g, m in groups.items()}
        if name in ("flag2_shipped", "flag3"):
            for u in sorted({r["set"] for r in calib}):
                m = np.array([r["set"] == u for r in calib])
                per_set.setdefault(u, {})[name] = shares([seen[i] for i in np.flatnonzero(m)], fl[m])
    # flag 3 calibrated on all the calibration sets (as shipped), on the other groups
    a, knee, b, thr = calibrate_box(calib, np.ones(len(calib), bool), target)
    others: dict = {}
    for g in sorted({r["group"] for r in recs} - set(CALIB)):
        rs = [r for r in recs if r["group"] == g]
        old = with_text(rs, np.array([r["old"] for r in rs], bool))
        new = with_text(rs, box_score(rs, a, knee, b) > thr)
        others[g] = {"flag2_shipped": shares(*old), "flag3_shipped": shares(*new)}
    return {
        "val_logistic_weights": [round(float(v), 4) for v in w_all],
        "box_weights": {"loc": -a, "loc_knee": knee, "size_all": b},
        "threshold": round(thr, 4),
        "chosen_per_set (loc, knee, size)": {
            ",".join(map(str, k)): n for k, n in Counter(chosen.values()).most_common()
        },
        "held_out": out,
        "per_set": {u: v for u, v in per_set.items() if any(x["wrong"] != "0/0" for x in v.values())},
        "reported": others,
        "_box": (a, knee, b, thr),
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("records", nargs="+", help="datasets.flag3_records files (the stand-ins in another)")
    ap.add_argument("--target-right", type=float, default=0.05)
    ap.add_argument("--json")
    ap.add_argument("--write", help="the model fitted on everything, as a flag file (flag.npz)")
    ap.add_argument("--prototypes", default="models/flag.npz", help="flag 2's file: its prototypes")
    a = ap.parse_args(argv)
    recs, misses = [], []
    for path in a.records:
        data = json.loads(Path(path).read_text())
        recs, misses = recs + data["records"], misses + data["misses"]
    out = {"features": list(FEATURES), "target_right": a.target_right}
    out["box_errors"] = box_errors(recs, misses)
    out["auc"] = signal_aucs(recs)
    rep = report(recs, misses, a.target_right)
    out.update({k: v for k, v in rep.items() if not k.startswith("_")})
    out["curve"] = {f"{t:g}": report(recs, misses, t)["held_out"] for t in TARGETS}
    text = json.dumps(out, indent=1)
    print(text)
    if a.json:
        Path(a.json).write_text(text + "\n")
    if a.write:
        to_flag_file(*rep["_box"], Path(a.prototypes), Path(a.write))
    return 0


def to_flag_file(a: float, knee: float, b: float, threshold: float, flag2_from: Path, path: Path) -> None:
    """Write flag 3 as the runtime reads it: flag 2's file (prototypes, weights, TTA band, grey
    views) with the box weights added (`loc` -a at `knee`, `size_all` b, `aspect_all` 0) and the
    threshold."""
    from vision.flagging import BOX_FEATURES, FlagModel, load_flag_model

    old = load_flag_model(flag2_from.parent)
    assert old is not None and old.tta_band == BAND
    w = np.array([*old.weights[:5], -a, b, 0.0])  # flag 2's part (of a flag-3 file: its first five)
    names = (*old.features[:4], *BOX_FEATURES)
    FlagModel(old.prototypes, w, threshold, old.tta_band, old.grey, names, knee).save(path)


if __name__ == "__main__":
    raise SystemExit(main())
