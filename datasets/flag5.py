"""Flag 5: does an independent reader's agreement clear doubt? Measured with whole sets held out.

    JXMJ_SHARED=/work/shared python -m datasets.flag5 --json datasets/reports/flag5-sets.json

1. Records (`datasets.flag5_records`, cached in `datasets/out/flag5/`): every tile the reader shows
   on `real_sets_dev` (15 sets), the validation split (its sets, `datasets.flag_sets.GROUPING`) and
   `real_rows_public` (never fitted on), with flag 2's score and the text reader's, the pip
   counter's and the suit shape's word on the face (`datasets.flag5_signals`).
2. What each reader says on the tiles flag 2 flags and on those it does not (`readers_table`).
3. Flag 5 (`datasets.flag5_rule`): the readers' parameters and the threshold chosen on all sets
   but one, applied to that one, for each of the 58 sets; pooled: the held-out figures. Then the
   same choice made on all of them (in-sample) and applied to `real_rows_public`.
4. Flag 2 as shipped from the same records (its `uncertain`, the runtime's text check), and flag 5
   as shipped (`flag5_as_shipped`: the models' show threshold, neither of flag 6's additions).
5. Flag 6 (`FLAG6`): flag 5's rule with the geometry flag (`vision.flag_geometry`) among the
   always-flags (`FLAG6_WEAK`: and a weak text renaming kept flagged); its threshold chosen held out
   (`held_out_flag6`) and in-sample (`in_sample_flag6`, what `--write` writes as the show threshold).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, replace
from pathlib import Path

import numpy as np

from datasets.flag5_records import CACHE, PARTS, records
from datasets.flag5_rule import GRID, Rule, choose, flags, held_out, outcomes, readers

TARGET = 0.05
CALIB = ("val", "cn", "riichi")


def shares(wrong: np.ndarray, fl: np.ndarray, m: np.ndarray) -> dict:
    w, r = m & wrong, m & ~wrong
    return {
        "wrong": f"{int((fl & w).sum())}/{int(w.sum())}",
        "right": f"{int((fl & r).sum())}/{int(r.sum())}",
        "wrong_flagged": round(float((fl & w).sum() / max(w.sum(), 1)), 3),
        "right_flagged": round(float((fl & r).sum() / max(r.sum(), 1)), 4),
    }


def by_group(recs: list[dict], wrong: np.ndarray, fl: np.ndarray) -> dict:
    back = np.array([r["read"] == "back" for r in recs], bool)
    g = np.array([r["group"] for r in recs])
    parts = {"sets_dev": np.isin(g, ("cn", "riichi")), "cn": g == "cn", "riichi": g == "riichi"}
    parts.update(val=g == "val", public=g == "public")
    return {k: shares(wrong, fl, m & ~back) for k, m in parts.items() if m.any()}


def readers_table(recs: list[dict], o: dict) -> dict:
    """Per reader: of the tiles flag 2 flags (before the text check), how many right / wrong it
    confirms at each bar; of those it does not flag, how many right / wrong it contradicts."""
    old = np.array([r["old"] for r in recs], bool)
    wrong = o["wrong0"]
    out: dict = {}
    for name, bars in (("text_ok", (0.01, 0.03, 0.1)), ("pip_ok", (0.3, 0.5, 0.7)), ("shape_ok", (0.8, 0.9))):
        for b in bars:
            c, _ = readers(recs, replace(_none(), **{name: b}))
            out[f"{name}>={b}"] = {
                "flagged_confirmed_right": int((old & c & ~wrong).sum()),
                "flagged_confirmed_wrong": int((old & c & wrong).sum()),
            }
    for name, bars in (("text_no", (0.1, 0.3)), ("pip_no", (0.5, 0.7)), ("hand", (True,))):
        for b in bars:
            _, f = readers(recs, replace(_none(), **{name: b}))
            out[f"{name}>={b}"] = {
                "unflagged_contradicted_right": int((~old & f & ~wrong).sum()),
                "unflagged_contradicted_wrong": int((~old & f & wrong).sum()),
            }
    return out


def _none():
    return Rule()


def right_flagged(recs, wrong, fl) -> list[str]:
    return [
        f"{r['set']}:{r['read']}:m{r['logit_margin']:.1f}"
        for r, w, f in zip(recs, wrong, fl, strict=True)
        if f and not w and r["group"] in ("cn", "riichi")
    ]


SHIPPED = Rule(text_ok=0.02, shape_ok=0.8)
"""The rule shipped: each reader at its own module's bar (`vision.text_check.CONFIRM_MIN_SCORE`,
the runner-up's 0.02; `vision.shape_check.SHAPE_MIN_CONF`), only the threshold fitted."""
FLAG6 = SHIPPED
"""Flag 6 as shipped: flag 5's rule with the geometry flag (`vision.flag_geometry`, the records' `geom`)
among the always-flags (`held_out(..., geom=True)`); its threshold refit."""
FLAG6_WEAK = Rule(text_ok=0.02, shape_ok=0.8, text_keep=0.5)
"""The same with a text renaming under `vision.text_check.WEAK_RENAME` kept flagged
(`ReaderConfig.weak_rename`, off by default)."""


def fixed(rule: Rule) -> dict:
    """A grid of one rule: only the threshold is chosen."""
    return {k: (getattr(rule, k),) for k in GRID}


def report(recs: list[dict], target: float, thr2: float, show: float | None = None) -> tuple[dict, Rule]:
    calib = [r for r in recs if r["group"] in CALIB]
    public = [r for r in recs if r["group"] == "public"]
    o, op = outcomes(calib, thr2), outcomes(public, thr2)
    none, pnone = np.zeros(len(calib), bool), np.zeros(len(public), bool)
    w2, f2 = flags(o, none, none, thr2)
    out: dict = {"target_right": target, "flag2_threshold": thr2, "flag2_shipped": by_group(calib, w2, f2)}
    if public:
        out["flag2_shipped"]["public"] = by_group(public, *flags(op, pnone, pnone, thr2))["public"]
    out["readers"] = readers_table(calib, o)
    if show is not None:  # today's flag 5 as shipped: its show threshold, no geometry, no keep
        out["flag5_as_shipped"] = by_group(calib, *flags(o, *readers(calib, SHIPPED), show))
        if public:
            pub5 = flags(op, *readers(public, SHIPPED), show)
            out["flag5_as_shipped"]["public"] = by_group(public, *pub5)["public"]
    variants = {"threshold_only": fixed(Rule()), "shipped_rule": fixed(SHIPPED), "grid": GRID}
    variants.update(flag6=fixed(FLAG6), flag6_weak_rename=fixed(FLAG6_WEAK))
    held = {}
    for name, grid in variants.items():
        w5, f5, chosen = held_out(calib, target, thr2, grid, geom=name.startswith("flag6"))
        held[name] = (w5, f5)
        out[f"held_out_{name}"] = {**by_group(calib, w5, f5), "chosen_per_set": chosen}
    o, op = outcomes(calib, thr2, geom=True), outcomes(public, thr2, geom=True)
    rule = choose(calib, o, np.ones(len(calib), bool), target, fixed(FLAG6))
    wi, fi = flags(o, *readers(calib, rule), rule.threshold, rule.text_keep)
    out["in_sample_flag6"] = by_group(calib, wi, fi)
    if public:
        pub = flags(op, *readers(public, rule), rule.threshold, rule.text_keep)
        out["in_sample_flag6"]["public"] = by_group(public, *pub)["public"]
    out["shipped"] = asdict(rule)
    out["right_flagged_sets_dev"] = {
        "flag2": right_flagged(calib, w2, f2),
        "held_out_shipped_rule": right_flagged(calib, *held["shipped_rule"]),
        "held_out_flag6": right_flagged(calib, *held["flag6"]),
    }
    return out, rule


def write(rule: Rule, models: Path, path: Path) -> None:
    """The current flag file with the rule's threshold as its `show_threshold` (flag 5)."""
    from dataclasses import replace as dc_replace

    from vision.flagging import load_flag_model

    fm = load_flag_model(models)
    if fm is None:
        raise SystemExit(f"{models}: no flag file")
    dc_replace(fm, show_threshold=float(rule.threshold)).save(path)


def main(argv=None) -> int:
    from vision.flagging import load_flag_model

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="models")
    ap.add_argument("--cache", default=str(CACHE))
    ap.add_argument("--cached", action="store_true", help="use the cached records whatever their fingerprint")
    ap.add_argument("--target-right", type=float, default=TARGET)
    ap.add_argument("--json")
    ap.add_argument("--write", help="write the flag file with flag 6's rule's show threshold here")
    a = ap.parse_args(argv)
    if a.cached:
        recs = [r for p in PARTS for r in json.loads((Path(a.cache) / f"{p}.json").read_text())["records"]]
    else:
        recs, _misses = records(Path(a.models), PARTS, Path(a.cache))
    fm = load_flag_model(Path(a.models))
    assert fm is not None, "flag 5 is measured against flag 2's file"
    rep, rule = report(recs, a.target_right, fm.threshold, fm.show)
    out = {"grid": {k: list(vs) for k, vs in GRID.items()}, **rep}
    text = json.dumps(out, indent=1, ensure_ascii=False)
    print(text)
    if a.json:
        Path(a.json).write_text(text + "\n")
    if a.write:
        write(rule, Path(a.models), Path(a.write))
        print(f"written {a.write}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
