"""The records `datasets.flag_cv` and `datasets.calibrate` fit the `uncertain` flag on.

`collect` reads every validation photo with the reader and keeps, per matched box (and per
labelled crop), its label, its reading and the scores a flag rule may use. `as_reading` turns
records into the arrays `datasets.calibrate.fit_flag` takes.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np


def collect(models: str, real: Path, crops: bool = True) -> list[dict]:
    """One record per matched reader box and (with `crops`) per labelled box of every validation photo."""
    from datasets.eval_real import matches, val_items
    from vision.layout import rows_of
    from vision.reader import TileReader
    from vision.reading import beyond_the_set

    reader = TileReader(models)
    classes = list(reader.classifier.classes)
    split = json.loads((real / "split.json").read_text())["split"]
    names = [s for s, sp in sorted(split.items()) if sp == "val"]
    seen: dict = {}
    orig, read = reader.classifier.classify, reader._read

    def capture(loaded, xyxy, scores, class_ids, timing, **kw):
        out = read(loaded, xyxy, scores, class_ids, timing, **kw)  # the boxes after `vision.splits`
        seen["xyxy"], seen["r"] = out[0] / np.float32(loaded.scale), out[3]
        return out

    reader._read = capture
    out = []
    from vision.image import LoadedImage

    for name, (img, gt, codes) in zip(names, val_items(real), strict=True):
        if crops and len(gt):  # the labelled boxes as crops (the recipe's calibration crops)
            r = orig(LoadedImage.from_array(img), gt.astype(np.float32), {"decode": 0.0})
            for j in range(len(gt)):
                if classes[r.cls[j]] != "none":
                    out.append(_rec("crop", name, j, codes[j], classes[r.cls[j]], r, j, 1.0, 1.0, gt[j]))
        seen.clear()
        res = reader.detect(img)
        dets = res.detections
        if not dets or not len(gt):
            continue
        inside = [i for i, d in enumerate(dets) if not d.off_row]
        beyond = dict(zip(inside, beyond_the_set([dets[i].tile for i in inside]), strict=True))
        key = {tuple(np.round(b, 2)): k for k, b in enumerate(seen["xyxy"])}
        rel = np.ones(len(dets))
        for row in rows_of(dets):
            med = np.median([max(dets[i].width, dets[i].height) for i in row])
            for i in row:
                rel[i] = max(dets[i].width, dets[i].height) / med
        for i, j in matches(dets, gt):
            d, k = dets[i], key[tuple(np.round(np.array(dets[i].xyxy, np.float32), 2))]
            score = d.conf / max(float(seen["r"].p[k]), 1e-9)
            rec = _rec("reader", name, int(j), codes[j], d.tile, seen["r"], k, score, rel[i], d.xyxy)
            rec["uncertain"] = bool(d.uncertain)
            rec["beyond_set"] = bool(beyond.get(i, False))
            out.append(rec)
    return out


def _rec(kind, name, j, label, read, r, k, score, rel, xyxy) -> dict:
    return {
        "kind": kind,
        "photo": name,
        "box": int(j),
        "label": label,
        "read": read,
        "margin": float(r.margin[k]),
        "logit_margin": float(r.logit_margin[k]),
        "agree": bool(r.agree[k]),
        "p": float(r.p[k]),
        "score": float(score),
        "size_rel": float(rel),
        "xyxy": [round(float(v), 1) for v in xyxy],
    }


def beyond_flags(recs: list[dict]) -> np.ndarray:
    """Per record: did `vision.reading.beyond_the_set` flag it (False for records made before it)."""
    return np.array([r.get("beyond_set", False) for r in recs], bool)


def as_reading(recs: list[dict]) -> dict:
    return {
        "margin": np.array([r["margin"] for r in recs]),
        "logit_margin": np.array([logit_margin(r) for r in recs]),
        "agree": np.array([r["agree"] for r in recs]),
    }


def logit_margin(rec: dict) -> float:
    """A record's `log(p1 / p2)`: recorded, or (records made before it was) from `p` and `margin`.

    >>> round(logit_margin({"p": 0.8, "margin": 0.77}), 3)  # log(0.8 / 0.03)
    3.283
    """
    if "logit_margin" in rec:
        return float(rec["logit_margin"])
    return float(np.log(rec["p"] / max(rec["p"] - rec["margin"], 1e-9)))
