"""Flag 4: the `uncertain` flag fitted and measured with whole sets held out, in one command.

    JXMJ_SHARED=/work/shared python -m datasets.flag4 --json datasets/reports/flag4-sets.json
    JXMJ_SHARED=/work/shared python -m datasets.flag4 --refit --write models/flag.npz

1. Records (`datasets.flag4_records`, cached in `datasets/out/flag4/`, read again by themselves
   when the models or the reader's code change): `real_sets_dev`, the validation split, and,
   never fitted on, `real_rows_public` and the stand-ins.
2. Per signal its AUC (wrong against right, oriented by `SUSPICION`) on each part.
3. Flag 4 with whole sets held out (`datasets.flag4_fit`) against flag 2 as `jxmj detect` shows
   it (`old`) and flag 2's score recalibrated the held-out way; the pooled held-out figures per
   group, the validation split by set, and the right tiles the held-out flag 4 flags, by reason.
4. `--refit --write PATH`: the model chosen on all the calibration sets, written as a flag file
   (`vision.flagging.FlagModel`, flag 2's prototypes, TTA band and grey views kept) — with
   `--refit`, only when its held-out figures beat the current file's (`better`), unless `--force`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from datasets.flag3_eval import SUSPICION as FLAG3_SUSPICION
from datasets.flag3_eval import always, auc, shares, with_text, wrong_of
from datasets.flag4_fit import CALIB, fit_all, held_out, score
from datasets.flag4_records import CACHE, PARTS, records
from datasets.flag_model import threshold_for

SUSPICION = {**FLAG3_SUSPICION, "pass2": lambda r: r.get("pass2", 0.0)}
"""Each signal oriented so that higher is more suspect; a new reader's signal is one entry."""
TARGET = 0.05
CURVE = (0.03, 0.05, 0.07, 0.1)


def signal_aucs(recs: list[dict]) -> dict:
    parts = {
        "sets_dev": lambda r: r["group"] in ("cn", "riichi"),
        "sets_dev_names": lambda r: r["group"] in ("cn", "riichi") and r["op"] != "extra",
        "val": lambda r: r["group"] == "val",
        "public": lambda r: r["group"] == "public",
    }
    for kind in PARTS[3:]:
        parts[kind] = lambda r, kind=kind: r["group"] == kind
    out = {}
    for part, keep in parts.items():
        rs = [r for r in recs if keep(r)]
        w = wrong_of(rs)
        if not len(rs):
            continue
        row = {n: auc(np.array([f(r) for r in rs], np.float64), w) for n, f in SUSPICION.items()}
        row["tiles"] = f"{int(w.sum())} wrong of {len(rs)}"
        out[part] = row
    return out


def recal(recs: list[dict], target: float) -> np.ndarray:
    """Flag 2's own score (`flag2`) with its threshold chosen on the other sets, per set."""
    unit = np.array([r["set"] for r in recs])
    wrong, alw = wrong_of(recs), always(recs, False)
    s = np.array([r["flag2"] for r in recs])
    out = np.zeros(len(recs), bool)
    for u in sorted(set(unit)):
        o = unit != u
        thr = threshold_for(np.where(alw, -np.inf, s)[o], wrong[o], max(target - alw[o & ~wrong].mean(), 0))
        out[~o] = s[~o] > thr
    return out


def right_flagged(recs: list[dict], flags: np.ndarray) -> dict:
    """The right tiles flagged, by reason: `off_row`, `fifth`, else the model's score."""
    seen, fl = with_text(recs, flags)
    out: dict = {}
    for r, f in zip(seen, fl, strict=True):
        if f and r["op"] == "ok" and r["read"] != "back":
            why = "off_row" if r["off_row"] else "fifth" if r["fifth"] else "score"
            out.setdefault(why, []).append(f"{r['set']}:{r['photo']}:{r['read']}")
    return {k: {"n": len(v), "tiles": v} for k, v in out.items()}


def current(models: Path) -> dict | None:
    """The flag file as it lies in `models` (`vision.flagging`), as `datasets.flag4_fit` models are."""
    from vision.flagging import load_flag_model

    fm = load_flag_model(Path(models))
    if fm is None:
        return None
    return {"features": fm.features, "knee": fm.loc_knee, "weights": fm.weights, "threshold": fm.threshold}


def report(recs: list[dict], misses: list[dict], target: float, now: dict) -> tuple[dict, dict]:
    """The held-out figures (module docstring); `now` the current flag file (`current`): what
    `jxmj detect` shows today, computed from the records (`old` is the same where the records were
    read with that file)."""
    calib = [r for r in recs if r["group"] in CALIB]
    f4, chosen = held_out(calib, target)
    rules = {
        "flag2_shipped": score(calib, now) > now["threshold"],
        "flag2_recal": recal(calib, target),
        "flag4": f4,
    }
    groups = {g: np.array([r["group"] == g for r in calib], bool) for g in CALIB}
    groups["sets_dev"] = groups["cn"] | groups["riichi"]
    out: dict = {"held_out": {}, "val_by_set": {}}
    for name, flags in rules.items():
        seen, fl = with_text(calib, flags)
        part = lambda m, seen=seen, fl=fl: shares([seen[i] for i in np.flatnonzero(m)], fl[m])  # noqa: E731
        out["held_out"][name] = {g: part(m) for g, m in groups.items()}
        for u in sorted({r["set"] for r in calib if r["group"] == "val"}):
            m = np.array([r["set"] == u for r in calib])
            if wrong_of([calib[i] for i in np.flatnonzero(m)]).any() or fl[m].any():
                out["val_by_set"].setdefault(u, {})[name] = part(m)
    out["chosen_per_set"] = chosen
    out["curve"] = {}
    for t in CURVE:  # the held-out trade-off: wrong flagged at each target of right flagged
        seen, fl = with_text(calib, held_out(calib, t)[0])
        out["curve"][f"{t:g}"] = {
            g: {
                k: v
                for k, v in shares([seen[i] for i in np.flatnonzero(m)], fl[m]).items()
                if k in ("wrong", "right")
            }
            for g, m in groups.items()
        }
    dev = np.array([r["group"] != "val" for r in calib], bool)
    dev_recs = [r for r in calib if r["group"] != "val"]
    out["right_flagged_sets_dev"] = {
        n: right_flagged(dev_recs, rules[n][dev]) for n in ("flag2_shipped", "flag4")
    }
    model = fit_all(calib, target)
    out["shipped_choice"] = {
        "features": list(model["features"]),
        "loc_knee": model["knee"],
        "weights": [round(float(v), 4) for v in model["weights"]],
        "threshold": round(float(model["threshold"]), 4),
    }
    reported = {}
    for g in sorted({r["group"] for r in recs} - set(CALIB)):
        rs = [r for r in recs if r["group"] == g]
        old = with_text(rs, score(rs, now) > now["threshold"])
        new = with_text(rs, score(rs, model) > model["threshold"])
        reported[g] = {"flag2_shipped": shares(*old), "flag4": shares(*new)}
    out["reported"] = reported
    out["misses"] = {g: sum(m["group"] == g for m in misses) for g in ("cn", "riichi", "public")}
    return out, model


def better(rep: dict) -> tuple[bool, str]:
    """Flag 4 beats flag 2 as shipped: on real_sets_dev held out it catches at least as many wrong
    tiles at fewer right ones, or more at no more; the validation split's held-out figures and
    real_rows_public's right flagged no worse."""
    h = rep["held_out"]

    def nums(s: dict) -> tuple[int, int]:
        return int(s["wrong"].split("/")[0]), int(s["right"].split("/")[0])

    (w4, r4), (w2, r2) = nums(h["flag4"]["sets_dev"]), nums(h["flag2_shipped"]["sets_dev"])
    (v4w, v4r), (v2w, v2r) = nums(h["flag4"]["val"]), nums(h["flag2_shipped"]["val"])
    pub = rep["reported"].get("public")
    p4, p2 = (nums(pub["flag4"])[1], nums(pub["flag2_shipped"])[1]) if pub else (0, 0)
    dev = (w4 >= w2 and r4 < r2) or (w4 > w2 and r4 <= r2)
    ok = dev and v4w >= v2w and v4r <= v2r and p4 <= p2
    why = f"real_sets_dev {w4}/{r4} vs {w2}/{r2}; val {v4w}/{v4r} vs {v2w}/{v2r}; public right {p4} vs {p2}"
    return ok, why


def write(model: dict, prototypes_from: Path, path: Path) -> None:
    """Write `model` as the runtime reads it, the prototypes, TTA band and grey views of the
    flag file `prototypes_from` kept."""
    from vision.flagging import FlagModel, load_flag_model

    old = load_flag_model(prototypes_from.parent)
    if old is None:
        raise SystemExit(f"{prototypes_from}: no flag file to take the prototypes from")
    fm = FlagModel(
        old.prototypes,
        np.asarray(model["weights"], np.float64),
        float(model["threshold"]),
        old.tta_band,
        old.grey,
        tuple(model["features"]),
        float(model["knee"]),
    )
    fm.save(path)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="models")
    ap.add_argument("--parts", nargs="+", default=list(PARTS))
    ap.add_argument("--cache", default=str(CACHE))
    ap.add_argument("--fresh", action="store_true", help="read every photo again, whatever the cache")
    ap.add_argument("--target-right", type=float, default=TARGET)
    ap.add_argument("--json", help="write the report here")
    ap.add_argument("--refit", action="store_true", help="write only a model that beats the current file")
    ap.add_argument("--force", action="store_true", help="with --refit: write it anyway")
    ap.add_argument("--write", help="the flag file to write (models/flag.npz)")
    a = ap.parse_args(argv)
    recs, misses = records(Path(a.models), a.parts, Path(a.cache), a.fresh)
    out = {"target_right": a.target_right, "auc": signal_aucs(recs)}
    now = current(Path(a.models))
    now_flags = score(recs, now) > now["threshold"]
    same = np.mean([r["old"] == bool(f) for r, f in zip(recs, now_flags, strict=True)])
    out["current_file_vs_records_old"] = round(float(same), 4)
    rep, model = report(recs, misses, a.target_right, now)
    out.update(rep)
    ok, why = better(rep)
    out["beats_flag2"] = {"ok": ok, "why": why}
    text = json.dumps(out, indent=1, ensure_ascii=False)
    print(text)
    if a.json:
        Path(a.json).write_text(text + "\n")
    if a.write:
        if a.refit and not ok and not a.force:
            print(f"not written: flag 4 does not beat the current file ({why})")
            return 1
        write(model, Path(a.models) / "flag.npz", Path(a.write))
        print(f"written {a.write}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
