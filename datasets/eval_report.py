"""Evaluation report for the shipped ONNX models.

    python -m datasets.eval_report --models models --data datasets/out/data --out datasets/out/report.json

- synthetic validation crops: classifier accuracy and per-class confusion;
- real rows (`eval_rows.py` on real_rows_public, the judge): rows exact, tile accuracy, per-class errors,
  through the reference predictor and through the run-time reader;
- tile_crops_mit/collages_val and riichi_table_photo: box recall/precision at IoU 0.5, accuracy of the
  matched boxes' names, end-to-end recall (other styles; no target).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

from datasets.eval_runtime import align as _align
from datasets.eval_runtime import evaluate as evaluate_runtime
from datasets.eval_runtime import iou as _iou
from datasets.predict import Predictor, load_rgb
from datasets.tiles import _MIT_TO_OURS, CLASSES, SHARED

RIICHI = {
    "ton": "E",
    "tou": "E",
    "nan": "S",
    "sha": "W",
    "pe": "N",
    "chun": "C",
    "hatu": "F",
    "hatsu": "F",
    "haku": "P",
}


def synthetic_val(models, data):
    from datasets.train_cls import load_split

    x, y = load_split(data, "val")
    p = Predictor(models)
    H, W = p.crop_hw
    if x.shape[1:3] != (H, W):
        import cv2

        x = np.stack([cv2.resize(c, (W, H), interpolation=cv2.INTER_AREA) for c in x])
    preds = []
    for i in range(0, len(x), 256):
        xb = x[i : i + 256].transpose(0, 3, 1, 2).astype(np.float32) / 255
        preds.append(p.cls.run(None, {"crops": xb})[0].argmax(1))
    pr = np.concatenate(preds)
    names = list(p.classes)  # the model's classes (0.6.0 on: the tile classes, then `none`)
    n = len(names)
    conf = np.zeros((n, n), np.int64)
    np.add.at(conf, (y, pr), 1)
    per_class = {
        names[i]: {
            "n": int(conf[i].sum()),
            "acc": round(float(conf[i, i] / max(1, conf[i].sum())), 4),
            "top_confusions": {
                names[j]: int(conf[i, j]) for j in np.argsort(-conf[i])[:3] if j != i and conf[i, j]
            },
        }
        for i in range(n)
        if conf[i].sum() or i < len(CLASSES)
    }
    return {"crops": len(y), "accuracy": round(float((pr == y).mean()), 4), "per_class": per_class}


def real_rows(models, out_json, reduce=1):
    d = SHARED / "data/real_rows_public"
    cmd = f"{sys.executable} -m datasets.predict --models {models} --reduce {reduce}"
    t = time.time()
    r = subprocess.run(
        [
            sys.executable,
            str(SHARED / "tools/eval_rows.py"),
            str(d / "labels.json"),
            str(d / "images"),
            "--cmd",
            cmd,
            "--json",
            out_json,
        ],
        capture_output=True,
        text=True,
    )
    summary = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr[-500:]
    res = json.loads(Path(out_json).read_text())
    errors = Counter()
    subs = Counter()
    missed, extra = Counter(), Counter()
    for rows in res["per_image"].values():
        for row in rows:
            for w, g in _align(row["want"].split(), row["got"].split()):
                if w is None:
                    extra[g] += 1
                elif g is None:
                    missed[w] += 1
                    errors[w] += 1
                elif w != g:
                    subs[f"{w}->{g}"] += 1
                    errors[w] += 1
    return {
        "summary": summary,
        "rows": res["rows"],
        "rows_exact": res["rows_exact"],
        "tile_accuracy": round(res["tile_accuracy"], 4),
        "median_s_per_image_subprocess": round(res["median_s"], 2),
        "errors_by_true_class": dict(errors.most_common()),
        "substitutions": dict(subs.most_common()),
        "missed": dict(missed.most_common()),
        "extra": dict(extra.most_common()),
        "wall_s": round(time.time() - t, 1),
    }


def timing(models, reduce=1):
    """In-process latency per real photo: decode (EXIF, RGB), localise, classify; medians in ms."""
    d = SHARED / "data/real_rows_public/images"
    p = Predictor(models)
    rows = []
    for path in sorted(d.glob("*.jpg")):
        t0 = time.perf_counter()
        img = load_rgb(path, reduce)
        t1 = time.perf_counter()
        boxes = p.localize(img)
        t2 = time.perf_counter()
        p.classify(img, boxes)
        t3 = time.perf_counter()
        rows.append((t1 - t0, t2 - t1, t3 - t2, t3 - t0))
    med = [round(1000 * statistics.median(c), 1) for c in zip(*rows, strict=True)]
    return {
        "reduce": reduce,
        "decode_ms": med[0],
        "localize_ms": med[1],
        "classify_ms": med[2],
        "total_ms": med[3],
    }


def box_eval(pred: Predictor, items):
    """items: list of (image path, [(tile, x0, y0, x1, y1)]). Greedy IoU>=0.5 matching."""
    n_gt = n_pred = n_match = n_correct = 0
    times = []
    conf = Counter()
    for path, gts in items:
        img = load_rgb(path)
        t = time.perf_counter()
        dets = pred.detect(img)["detections"]
        times.append(time.perf_counter() - t)
        n_gt += len(gts)
        n_pred += len(dets)
        used = set()
        for tile, *g in gts:
            best, bi = 0.5, None
            for i, d in enumerate(dets):
                if i in used:
                    continue
                v = _iou(g, d["xyxy"])
                if v >= best:
                    best, bi = v, i
            if bi is not None:
                used.add(bi)
                n_match += 1
                n_correct += dets[bi]["tile"] == tile
                if dets[bi]["tile"] != tile:
                    conf[f"{tile}->{dets[bi]['tile']}"] += 1
    return {
        "images": len(items),
        "boxes": n_gt,
        "box_recall": round(n_match / max(1, n_gt), 4),
        "box_precision": round(n_match / max(1, n_pred), 4),
        "name_accuracy_of_matched": round(n_correct / max(1, n_match), 4),
        "end_to_end_recall": round(n_correct / max(1, n_gt), 4),
        "median_ms_per_image_in_process": round(1000 * statistics.median(times), 1) if times else None,
        "top_confusions": dict(conf.most_common(12)),
    }


def collages(pred, limit=None):
    d = SHARED / "data/tile_crops_mit/collages_val"
    items = []
    for p in sorted((d / "images").glob("*.jpg"))[:limit]:
        lab = d / "labels" / (p.stem + ".txt")
        if not lab.exists():
            continue
        W, H = 1280, 1280
        gts = []
        for ln in lab.read_text().split("\n"):
            if not ln.strip():
                continue
            c, cx, cy, w, h = ln.split()
            cx, cy, w, h = float(cx) * W, float(cy) * H, float(w) * W, float(h) * H
            gts.append((CLASSES[_MIT_TO_OURS[int(c)]], cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
        items.append((p, gts))
    return box_eval(pred, items)


def riichi(pred):
    d = SHARED / "data/riichi_table_photo"
    img = next((d / "images").glob("*.jpg"))
    W = H = 2153
    gts = []
    for ln in (d / "labels_yolo_aligned.txt").read_text().splitlines():
        if not ln.strip():
            continue
        name, cx, cy, w, h = ln.split()
        name = RIICHI.get(name, name)
        if name.startswith("r5"):
            name = "5" + name[2]
        cx, cy, w, h = float(cx) * W, float(cy) * H, float(w) * W, float(h) * H
        gts.append((name, cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
    return box_eval(pred, [(img, gts)])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--models", default="models")
    ap.add_argument("--data", default="datasets/out/data")
    ap.add_argument("--out", default="datasets/out/report.json")
    ap.add_argument("--skip", nargs="*", default=[], choices=["synthetic", "rows", "collages", "riichi"])
    ap.add_argument("--collages-limit", type=int)
    a = ap.parse_args(argv)
    if not (SHARED / "data").is_dir():
        print(f"{SHARED}/data is not here (set JXMJ_SHARED): real rows, riichi and collages skipped")
        a.skip = [*a.skip, "rows", "riichi", "collages"]
    rep = {}
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    if "rows" not in a.skip:
        rep["real_rows_public"] = real_rows(a.models, str(out.with_suffix(".rows.json")))
        print("real rows:", rep["real_rows_public"]["summary"], flush=True)
        # the run-time reader (what `jxmj detect` runs), in process
        r = evaluate_runtime(a.models)
        rep["real_rows_runtime"] = {k: v for k, v in r.items() if k != "per_image"}
        summary = f"{r['rows_exact']}/{r['rows']} rows exact, tile accuracy {r['tile_accuracy']}"
        print(f"real rows, runtime: {summary}", flush=True)
        rep["real_rows_public_reduce2"] = real_rows(a.models, str(out.with_suffix(".rows2.json")), reduce=2)
        print("real rows (JPEG decoded at 1/2):", rep["real_rows_public_reduce2"]["summary"], flush=True)
        rep["timing"] = [timing(a.models, 1), timing(a.models, 2)]
        print("timing:", rep["timing"], flush=True)
    if "synthetic" not in a.skip:
        rep["synthetic_val"] = synthetic_val(a.models, a.data)
        print("synthetic val crops accuracy:", rep["synthetic_val"]["accuracy"], flush=True)
    pred = Predictor(a.models)
    if "riichi" not in a.skip:
        rep["riichi_table_photo"] = riichi(pred)
        print(
            "riichi:",
            {k: v for k, v in rep["riichi_table_photo"].items() if k != "top_confusions"},
            flush=True,
        )
    if "collages" not in a.skip:
        rep["collages_val"] = collages(pred, a.collages_limit)
        print(
            "collages_val:",
            {k: v for k, v in rep["collages_val"].items() if k != "top_confusions"},
            flush=True,
        )
    out.write_text(json.dumps(rep, ensure_ascii=False, indent=1))
    print(out)


if __name__ == "__main__":
    main()
