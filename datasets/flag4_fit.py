"""Flag 4 fitted and measured with whole sets held out (`datasets.flag4` runs it).

The model is the runtime's (`vision.flagging.FlagModel`): a logistic score over the features the
reader computes for every box (`runtime_matrix`: flag 2's four, then the box's own facts), the
flag `score > threshold`, then the always-flags (`off_row`, a fifth copy) and the text rule
(`datasets.flag3_eval.with_text`) as the player sees them. Unlike flag 2 (fitted on the validation
split alone) and flag 3 (flag 2 plus two box weights), flag 4 is fitted on the calibration sets of
both sources — the validation split's sets and `real_sets_dev`'s 15 — each group weighted alike
(`balance`: the 15 unseen sets count as much as the 43 familiar ones).

**Whole sets held out** (`held_out`): for each set of the calibration groups (`CALIB`), the
configuration (`CONFIGS`: features and the `loc` knee), the weights and the threshold are chosen
on all the other sets — the threshold flags `target` of their right tiles, the always-flags
counted; the configuration catching most of their wrong tiles at it — and applied to the held-out
set. The pooled held-out flags are the figures reported. The shipped file is the same choice made
on all the calibration sets (`fit_all`): real_rows_public and the stand-ins are never fitted on.
"""

from __future__ import annotations

import numpy as np

from datasets.flag3_eval import BAND, CLIP, always, wrong_of
from datasets.flag_model import threshold_for

CALIB = ("val", "cn", "riichi")
BASE = ("logit_margin", "disagree", "proto_sim", "tta_margin")
"""`vision.flagging.FEATURES`, in its order (the runtime's file must start with them)."""
GROUPS = (("val",), ("cn", "riichi"))
"""The threshold holds `target` on each alike: the familiar sets and the unseen ones."""
KNEES = (1.0, 0.6)


def configs_for(recs: list[dict]) -> list[tuple[tuple[str, ...], float]]:
    """`(features, loc_knee)` tried: flag 2's four, then with the localiser's score, then with
    every other feature the runtime computes for a box (`vision.flagging.BOX_FEATURES`: a
    reader's signal the runtime learns to compute joins here by itself) that the records hold."""
    from vision.flagging import BOX_FEATURES

    more = tuple(n for n in BOX_FEATURES if n != "loc" and recs and n in recs[0])
    out = [(BASE, 1.0)]
    for knee in KNEES:
        out += [((*BASE, "loc"), knee)] + ([((*BASE, "loc", *more), knee)] if more else [])
    return out


def runtime_matrix(recs: list[dict], names, knee: float = 1.0) -> np.ndarray:
    """`(n, len(names))` float64: each record's features as `FlagModel.matrix` sees them at run
    time (`logit_margin` clipped at `CLIP`; `tta_margin` the TTA margin only below `BAND`, never
    above the box's own margin; `loc` taken as `min(loc, knee)`).

    >>> r = {"logit_margin": 20.0, "agree": False, "proto_sim": 0.9, "tta": -1.0, "loc": 0.8}
    >>> runtime_matrix([r], (*BASE, "loc"), 0.6).tolist()
    [[12.0, 1.0, 0.9, 12.0, 0.6]]
    """
    cols = {
        "logit_margin": lambda r: min(r["logit_margin"], CLIP),
        "disagree": lambda r: 0.0 if r["agree"] else 1.0,
        "proto_sim": lambda r: r["proto_sim"],
        "tta_margin": lambda r: min(r["logit_margin"], CLIP, r["tta"] if r["logit_margin"] < BAND else CLIP),
        "loc": lambda r: min(r["loc"], knee),
    }
    get = lambda n: cols.get(n, lambda r: float(r.get(n, 0.0)))  # noqa: E731  (a box fact as recorded)
    return np.array([[get(n)(r) for n in names] for r in recs], np.float64).reshape(-1, len(names))


def balance(recs: list[dict]) -> np.ndarray:
    """Per record a weight: the validation split and real_sets_dev (cn + riichi) count alike."""
    dev = np.array([r["group"] in ("cn", "riichi") for r in recs], bool)
    w = np.ones(len(recs))
    if dev.any() and (~dev).any():
        w[dev] = (~dev).sum() / dev.sum()
    return w


def fit_weights(x: np.ndarray, y: np.ndarray, w: np.ndarray, l2: float = 1.0) -> np.ndarray:
    """Logistic weights (bias first, raw units) of `y` on `x`, each row weighted `w`: Newton steps
    on standardised features with L2 `l2` (`datasets.flag_model.fit_logistic` with row weights)."""
    mu, sd = x.mean(0), x.std(0) + 1e-6
    z = (x - mu) / sd
    a = np.hstack([np.ones((len(z), 1)), z])
    v = np.zeros(a.shape[1])
    reg = np.full(a.shape[1], l2)
    reg[0] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(a @ v)))
        g = a.T @ (w * (p - y)) + reg * v
        h = (a * (w * p * (1 - p))[:, None]).T @ a + np.diag(reg) + 1e-9 * np.eye(len(v))
        v = v - np.linalg.solve(h, g)
    return np.concatenate([[v[0] - (v[1:] * mu / sd).sum()], v[1:] / sd])


def group_threshold(s: np.ndarray, recs: list[dict], rows: np.ndarray, target: float) -> float:
    """The lowest threshold on `s` flagging at most `target` of the right tiles of `rows` in each
    group (`GROUPS`) alike, the always-flags counted: the strictest of the groups' thresholds. A
    threshold fitted to the pool would sit where the familiar sets' many sure tiles put it and flag
    far more than `target` of an unseen set's right tiles (their margins are lower)."""
    wrong, alw = wrong_of(recs), always(recs, False)
    thr = -np.inf
    for members in GROUPS:
        m = rows & np.array([r["group"] in members for r in recs], bool)
        if not (m & ~wrong).any():
            continue
        tgt = max(target - alw[m & ~wrong].mean(), 0.0)
        thr = max(thr, threshold_for(np.where(alw, -np.inf, s)[m], wrong[m], tgt))
    return float(thr)


def choose(recs: list[dict], fit_on: np.ndarray, target: float, configs=None) -> dict:
    """The configuration, weights and threshold chosen on the records `fit_on` (module docstring):
    per configuration (`configs`, default `configs_for(recs)`) the weights fitted there, the
    threshold `group_threshold`; the one catching most of their wrong tiles (ties: fewer right,
    then fewer features)."""
    wrong, alw = wrong_of(recs), always(recs, False)
    back = np.array([r["read"] == "back" for r in recs], bool)
    fit_rows = fit_on & ~back
    weight = balance([recs[i] for i in np.flatnonzero(fit_rows)])
    best = None
    for names, knee in configs or configs_for(recs):
        x = runtime_matrix(recs, names, knee)
        wts = fit_weights(x[fit_rows], wrong[fit_rows].astype(float), weight)
        s = x @ wts[1:] + wts[0]
        thr = group_threshold(s, recs, fit_rows, target)
        f = ((s > thr) | alw) & fit_rows
        key = (-int((f & wrong).sum()), int((f & ~wrong).sum()), len(names), -knee)
        if best is None or key < best["key"]:
            best = {"key": key, "features": names, "knee": knee, "weights": wts, "threshold": thr}
    return best


def score(recs: list[dict], model: dict) -> np.ndarray:
    x = runtime_matrix(recs, model["features"], model["knee"])
    return x @ model["weights"][1:] + model["weights"][0]


def held_out(recs: list[dict], target: float) -> tuple[np.ndarray, dict]:
    """The model's flags with each set held out (module docstring) and the configuration chosen
    per set (`"features|knee"`: how many sets chose it)."""
    unit = np.array([r["set"] for r in recs])
    out, chosen = np.zeros(len(recs), bool), {}
    for u in sorted(set(unit)):
        m = choose(recs, unit != u, target)
        out[unit == u] = (score(recs, m) > m["threshold"])[unit == u]
        key = f"{'+'.join(m['features'][4:]) or 'flag 2 features'}|{m['knee']:g}"
        chosen[key] = chosen.get(key, 0) + 1
    return out, chosen


def fit_all(recs: list[dict], target: float) -> dict:
    """The shipped choice: configuration, weights and threshold chosen on all `recs`."""
    return choose(recs, np.ones(len(recs), bool), target)
