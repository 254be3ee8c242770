"""Flag 2: the `uncertain` flag fitted with whole sets held out (`vision.flagging`).

    python -m datasets.flag_sets --swapped /tmp/refs-swap --hue /tmp/refs-hue --bold /tmp/refs-bold \
        --json datasets/reports/flag-sets-0.6.4.json --write models/flag.npz

The validation part of `real_photos_rf` (seed 1, 0.2, by source photo) grouped by physical set as
`datasets.eval_refs` grouped it (`datasets/reports/refs-0.6.3.json` "grouping": IMG_* one set,
*_family one set, the rest clusters of look, 32 photos alone), plus the same photos with red and
blue swapped (`--swapped`, a copy laid out as real_photos_rf, made with OpenCV, not committed) as
one more set, unlike any in training; `--swapped DIR` makes it there when DIR has no images yet
(`datasets.stand_ins`). Each photo is read by the runtime reader; per matched box
(IoU >= 0.5) its features (`vision.flagging.FEATURES`, the TTA and grey views cut for every box
here, the runtime cuts them only below `tta_band`) and the view embeddings are kept. `--hue DIR`
and `--bold DIR`: the hue and bold-ink stand-ins (`datasets.stand_ins`), read the same way and
only reported on (the model fitted on everything, on a set it never saw).

Leave one set out: for each set, the prototypes are the class means of the other plain sets'
labelled views, the logistic model is fitted on the other sets (plain and swapped, the held-out
set's swapped copy left out too; for the swapped set: the plain sets only), its threshold flags
`--target-right` of the fitting tiles' right reads, and it is applied to the held-out set, with
the hand's fifth-copy rule (`vision.flagging.fifth_copies`). Reported per set and pooled, with the
flag as shipped before (`uncertain` of the reader without `flag.npz`). The shipped model: fitted
on everything (prototypes from the plain photos only). Labels: as audited by eye
(`datasets.audit`: three wrong labels put right, one unclear box left out); `--no-audit`: the raw
labels (flag 2 was first fitted and reported on them, datasets/reports/model-history.md).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from datasets.audit import audited_records
from datasets.flag_model import fit_logistic, threshold_for
from datasets.flag_records import collect
from datasets.stand_ins import stand_in_copy
from datasets.tiles import SHARED
from vision.flagging import FEATURES, FlagModel, feature_matrix, proto_sim, prototypes

GROUPING = Path(__file__).parent / "reports" / "refs-0.6.3.json"
TARGETS = (0.02, 0.025, 0.03, 0.05, 0.07)


def _protos(recs: list[dict], n_cls: int) -> np.ndarray:
    e = [v for r in recs if r["label_id"] >= 0 for v in r["emb"]]
    lab = [r["label_id"] for r in recs if r["label_id"] >= 0 for _ in r["emb"]]
    return prototypes(np.array(e), np.array(lab), n_cls)


def feats(recs: list[dict], protos: np.ndarray, band: float, grey: bool = False) -> np.ndarray:
    sims = np.array(
        [proto_sim(np.array(r["emb"]), [0] * len(r["emb"]), np.array([r["cls"]]), protos)[0] for r in recs]
    )
    lm = np.array([r["logit_margin"] for r in recs])
    tta = np.array([min(r["tta"], r["grey"]) if grey else r["tta"] for r in recs])
    tta = np.where(lm < band, tta, np.nan)
    return feature_matrix(lm, [r["agree"] for r in recs], sims, tta)


def fit(recs: list[dict], protos: np.ndarray, band: float, target: float, grey: bool = False) -> FlagModel:
    x = feats(recs, protos, band, grey)
    y = np.array([r["label"] != r["read"] for r in recs])
    mu, sd = x.mean(0), x.std(0) + 1e-6
    w = fit_logistic((x - mu) / sd, y.astype(float), l2=1.0)
    w = np.concatenate([[w[0] - (w[1:] * mu / sd).sum()], w[1:] / sd])  # in raw feature units
    s = x @ w[1:] + w[0]
    fifth = np.array([r["fifth"] for r in recs])
    plain = np.array([r["tag"] == "plain" for r in recs])  # the threshold: on the training-like sets
    s, y, fifth = s[plain], y[plain], fifth[plain]
    thr = threshold_for(np.where(fifth, -np.inf, s), y, max(target - fifth[~y].mean(), 0.0))
    return FlagModel(protos, w, thr, band, grey)


def shares(recs: list[dict], flags: np.ndarray) -> dict:
    wrong = np.array([r["label"] != r["read"] for r in recs], bool)
    flags = flags & ~np.array([r["back"] for r in recs], bool)
    return {
        "tiles": len(recs),
        "wrong": int(wrong.sum()),
        "wrong_flagged": round(float(flags[wrong].mean()), 3) if wrong.any() else None,
        "right_flagged": round(float(flags[~wrong].mean()), 4) if (~wrong).any() else None,
    }


def apply(model: FlagModel, recs: list[dict]) -> np.ndarray:
    return model.flags(feats(recs, model.prototypes, model.tta_band, model.grey)) | np.array(
        [r["fifth"] for r in recs], bool
    )


def held_out_model(
    recs: list[dict], unit: str, n_cls: int, band: float, target: float, grey: bool = False
) -> FlagModel:
    """The model for set `unit` held out: fitted on the other sets (plain and swapped, the
    held-out photos' own swapped copies left out; for `"swapped"`: the plain sets only), the
    prototypes from the fitting plain sets."""
    if unit == "swapped":
        train = [r for r in recs if r["tag"] == "plain"]
    else:
        stems = {r["stem"] for r in recs if r["set"] == unit}
        train = [r for r in recs if r["set"] != unit and not (r["tag"] == "swapped" and r["stem"] in stems)]
    return fit(train, _protos([r for r in train if r["tag"] == "plain"], n_cls), band, target, grey)


def leave_sets_out(recs: list[dict], n_cls: int, band: float, target: float, grey: bool = False) -> dict:
    units = sorted({r["set"] for r in recs})
    per, pool_r, pool_f = {}, [], []
    for u in units:
        test = [r for r in recs if r["set"] == u]
        fl = apply(held_out_model(recs, u, n_cls, band, target, grey), test)
        per[u] = {"before": shares(test, np.array([r["old"] for r in test])), "after": shares(test, fl)}
        pool_r += test
        pool_f.append(fl)
    plain = [i for i, r in enumerate(pool_r) if r["tag"] == "plain"]
    f = np.concatenate(pool_f)
    old = np.array([r["old"] for r in pool_r])
    return {
        "pooled": {"before": shares(pool_r, old), "after": shares(pool_r, f)},
        "plain_sets": {
            "before": shares([pool_r[i] for i in plain], old[plain]),
            "after": shares([pool_r[i] for i in plain], f[plain]),
        },
        "swapped": per.get("swapped"),
        "per_set": {u: v for u, v in per.items() if v["after"]["wrong"]},
    }


def main(argv=None) -> int:
    from vision.reader import TileReader

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="models")
    ap.add_argument("--swapped", help="the red/blue-swapped copy of real_photos_rf")
    ap.add_argument("--band", type=float, default=4.0, help="TTA below this logit margin")
    ap.add_argument(
        "--grey",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the box's views made grey join the TTA views (vision.flagging.grey_views)",
    )
    ap.add_argument(
        "--target-right",
        type=float,
        default=0.025,
        help="the threshold flags this share of the fitting sets' right tiles",
    )
    ap.add_argument(
        "--hue", help="the hue stand-in (datasets.stand_ins, made when missing): reported on, never fitted on"
    )
    ap.add_argument(
        "--bold", help="the bold-ink stand-in (datasets.stand_ins, made when missing): reported on only"
    )
    ap.add_argument(
        "--audit",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="labels as datasets/reports/val-label-audit.json judged them (datasets.audit)",
    )
    ap.add_argument("--cache", help="records (pickle): read when present, else written")
    ap.add_argument("--json")
    ap.add_argument("--write", help="write the model fitted on everything here (models/flag.npz)")
    a = ap.parse_args(argv)
    import pickle

    if a.cache and Path(a.cache).exists():
        recs = pickle.loads(Path(a.cache).read_bytes())
    else:
        reader = TileReader(a.models)
        reader.classifier.flag_model = None  # the flag as before, the features recomputed here
        grouping = json.loads(GROUPING.read_text())["grouping"]
        recs = collect(reader, SHARED / "data" / "real_photos_rf", "plain", grouping)
        if a.swapped:
            if not (Path(a.swapped) / "images").is_dir():
                stand_in_copy(SHARED / "data" / "real_photos_rf", Path(a.swapped), "swap")
            recs += collect(reader, Path(a.swapped), "swapped", grouping)
        if a.hue:
            if not (Path(a.hue) / "images").is_dir():
                stand_in_copy(SHARED / "data" / "real_photos_rf", Path(a.hue), "hue")
            recs += [{**r, "set": "hue"} for r in collect(reader, Path(a.hue), "report", grouping)]
        if a.bold:
            if not (Path(a.bold) / "images").is_dir():
                stand_in_copy(SHARED / "data" / "real_photos_rf", Path(a.bold), "bold")
            recs += [{**r, "set": "bold"} for r in collect(reader, Path(a.bold), "report", grouping)]
        if a.cache:
            Path(a.cache).write_bytes(pickle.dumps(recs))
    from vision.modelfiles import open_model

    classes = list(open_model(Path(a.models) / "classifier.onnx", "classify", 1).classes)
    n_cls = len(classes)
    if a.audit:
        recs = audited_records(recs, classes)
    reported = [r for r in recs if r["tag"] == "report"]
    recs = [r for r in recs if r["tag"] != "report"]
    report = {
        "features": list(FEATURES),
        "band": a.band,
        "grey": a.grey,
        "target_right": a.target_right,
        "labels": "audited" if a.audit else "raw",
    }
    report["curve"] = {}
    for t in TARGETS:
        h = leave_sets_out(recs, n_cls, a.band, t, a.grey)
        report["curve"][f"{t:g}"] = {
            k: h[k]["after"] for k in ("plain_sets", "swapped", "pooled") if h.get(k)
        }
    report["held_out"] = leave_sets_out(recs, n_cls, a.band, a.target_right, a.grey)
    lm = np.array([r["logit_margin"] for r in recs])
    report["tta_share"] = round(float((lm < a.band).mean()), 3)
    plain = [r for r in recs if r["tag"] == "plain"]
    model = fit(recs, _protos(plain, n_cls), a.band, a.target_right, a.grey)
    report["shipped"] = {
        "weights": [round(float(v), 4) for v in model.weights],
        "threshold": round(model.threshold, 4),
    }
    for kind in ("hue", "bold"):  # the model fitted on everything, on a stand-in it never saw
        rs = [r for r in reported if r["set"] == kind]
        if rs:
            old = np.array([r["old"] for r in rs])
            report[kind] = {"before": shares(rs, old), "after": shares(rs, apply(model, rs))}
    print(json.dumps(report, indent=1))
    if a.json:
        Path(a.json).write_text(json.dumps(report, indent=1) + "\n")
    if a.write:
        model.save(Path(a.write))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
