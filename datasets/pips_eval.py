"""Measure the pip counter (`vision.pips`) and its rule (`vision.pips_check`) on real crops.

Reads the records of `datasets.pips_records` (real_sets_dev and the val split of real_photos_rf)
and reports: per true class, how often the count is right, None, and the classifier right; where
one is right and the other wrong; and the rule on the flagged tiles at each threshold, with the
threshold chosen leaving each physical set out in turn (the others' best: most tiles put right
or cleared right less those put wrong or cleared wrong, the higher threshold on a tie).

    python -m datasets.pips_eval /tmp/sets.pkl /tmp/rf.pkl --json datasets/reports/pips.json
"""

from __future__ import annotations

import argparse
import json
import pickle
import time
from collections import Counter, defaultdict
from pathlib import Path

from vision.detection import Detection
from vision.pip_layouts import PipCount
from vision.pips import count_pips
from vision.pips_check import decide, pip_suit

THRESHOLDS = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 1.01)


def _det(r: dict) -> Detection:
    return Detection(
        xyxy=(0, 0, 1, 1), tile=r["cls"], conf=r["conf"], uncertain=r["uncertain"], second=r["second"]
    )


def accuracy(recs: list[dict]) -> dict:
    """Per true suit class `[n, count right, count None, classifier right]`, and the crossing."""
    per: dict = defaultdict(lambda: [0, 0, 0, 0])
    cross: Counter = Counter()
    for r in recs:
        t, c = r["truth"], r["count"]
        if len(t) != 2 or t[1] not in "ps":
            continue
        ok = c is not None and c[0] == int(t[0])
        p = per[t]
        p[0], p[1], p[2], p[3] = p[0] + 1, p[1] + ok, p[2] + (c is None), p[3] + (r["cls"] == t)
        cross[
            f"count {'right' if ok else 'wrong/None'}, classifier {'right' if r['cls'] == t else 'wrong'}"
        ] += 1
    total = [sum(v[i] for v in per.values()) for i in range(4)]
    return {"per_class": dict(sorted(per.items())), "total": total, "cross": dict(cross)}


def outcomes(recs: list[dict], th: float) -> Counter:
    """What the rule does to the flagged tiles it counts at threshold `th`."""
    out: Counter = Counter()
    for r in recs:
        d = _det(r)
        if not d.uncertain or pip_suit(d) is None:
            continue
        c = r["count"]
        new = decide(d, PipCount(c[0], c[1], 0.0) if c else None, th)
        was, now = d.tile == r["truth"], new.tile == r["truth"]
        key = (
            "put right"
            if not was and now
            else "put wrong"
            if was and not now
            else ("cleared right" if now else "cleared wrong")
            if new.uncertain != d.uncertain
            else "kept"
        )
        out[key] += 1
        out["counted"] += 1
    return out


def gain(o: Counter) -> int:
    return o["put right"] + o["cleared right"] - 3 * (o["put wrong"] + o["cleared wrong"])


def leave_sets_out(recs: list[dict]) -> dict:
    sets = sorted({r["set"] for r in recs})
    chosen, pooled = {}, Counter()
    for s in sets:
        rest = [r for r in recs if r["set"] != s]
        th = max(THRESHOLDS, key=lambda t: (gain(outcomes(rest, t)), t))
        chosen[s] = th
        pooled += outcomes([r for r in recs if r["set"] == s], th)
    return {"threshold_per_held_out_set": chosen, "pooled_held_out": dict(pooled)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("sets", type=Path)
    ap.add_argument("rf", type=Path)
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    report: dict = {}
    pooled = []
    for tag, path in (("real_sets_dev", a.sets), ("real_photos_rf_val", a.rf)):
        recs = pickle.loads(path.read_bytes())
        t0 = time.perf_counter()
        for r in recs:
            suit = pip_suit(_det(r)) or (r["truth"][1] if r["truth"][1:] in ("p", "s") else None)
            c = count_pips(r["face"], suit) if suit else None
            r["count"] = (c.count, c.conf) if c else None
            r["set"] = f"{tag}:{r['set']}"
            del r["face"]
        ms = (time.perf_counter() - t0) * 1000 / max(len(recs), 1)
        report[tag] = {
            "accuracy": accuracy(recs),
            "ms_per_face": round(ms, 3),
            "rule_by_threshold": {str(t): dict(outcomes(recs, t)) for t in THRESHOLDS},
        }
        pooled += recs
        print(tag, json.dumps(report[tag]["accuracy"]["total"]), report[tag]["accuracy"]["cross"])
        for t in THRESHOLDS:
            print(" ", t, dict(outcomes(recs, t)))
    report["leave_one_set_out"] = leave_sets_out(pooled)
    print(json.dumps(report["leave_one_set_out"], indent=1))
    if a.json:
        a.json.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
