"""Models judged through the run-time reader on real photos: box recall / precision at IoU 0.5,
names of matched boxes, false positives per photo, and how well the `uncertain` flag catches
wrong reads. Evaluation only; nothing here is fitted.

    python -m datasets.eval_real --models models datasets/out/0.6.0/models --real datasets/out/0.6.0/real

Sets (each skipped when absent):
- `val`: the validation part of our `real_photos_rf` split (`datasets.real`, by source photo).
  Its labels are partial (discards and walls are often unlabelled), so precision is a lower bound.
- `val_small`: the same photos, each pasted into a 4x larger frame (far tiles: tests the second
  localizer pass, `--no-refine` turns it off).
- `riichi`: `riichi_table_photo` (72 approximately aligned boxes).
- `collages`: `tile_crops_mit/collages_val` (first `--collages-limit` images).
- `rows`: `real_rows_public` rows (tile accuracy and rows exact as `tools/eval_rows.py` counts them),
  with the flag figures: the share of wrong tiles flagged and of right tiles flagged.
- `rows_upside_down`: the same photos turned 180° (read from the JPEG decoded at reduced size).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import numpy as np

from datasets.eval_report import RIICHI
from datasets.eval_runtime import _eval_rows_module, align
from datasets.real import class_map, iou_matrix, load
from datasets.tiles import _MIT_TO_OURS, CLASSES, SHARED


def _boxes(items, reader) -> dict:
    """items: `(rgb, gt_xyxy (K,4), gt_codes)`; greedy matching by IoU >= 0.5, strongest first."""
    n_gt = n_pred = n_match = n_right = n_rej = 0
    flag = Counter()
    conf = Counter()
    for img, gt, codes in items:
        res = reader.detect(img)
        dets = res.detections
        n_gt, n_pred, n_rej = n_gt + len(codes), n_pred + len(dets), n_rej + len(res.rejected)
        if not dets or not len(gt):
            continue
        for i, j in matches(dets, gt):
            n_match += 1
            ok = dets[i].tile == codes[j]
            n_right += ok
            flag[("right" if ok else "wrong", dets[i].uncertain)] += 1
            if not ok:
                conf[f"{codes[j]}->{dets[i].tile}"] += 1
    n = len(items)
    return {
        "photos": n,
        "boxes": n_gt,
        "box_recall": round(n_match / max(1, n_gt), 4),
        "box_precision": round(n_match / max(1, n_pred), 4),
        "tile_accuracy_of_matched": round(n_right / max(1, n_match), 4),
        "end_to_end": round(n_right / max(1, n_gt), 4),
        "false_positives_per_photo": round((n_pred - n_match) / max(1, n), 2),
        "rejected_per_photo": round(n_rej / max(1, n), 2),
        **_flag_shares(flag),
        "top_confusions": dict(conf.most_common(10)),
    }


def matches(dets, gt: np.ndarray) -> list[tuple[int, int]]:
    """`(detection index, label index)` pairs: greedy by IoU >= 0.5, the strongest detection first."""
    iou = iou_matrix(np.array([d.xyxy for d in dets], np.float32), gt)
    used: set[int] = set()
    out = []
    for i in np.argsort([-d.conf for d in dets]):
        j = next((j for j in np.argsort(-iou[i]) if iou[i, j] >= 0.5 and j not in used), None)
        if j is not None:
            used.add(int(j))
            out.append((int(i), int(j)))
    return out


def _flag_shares(flag: Counter) -> dict:
    wrong = flag[("wrong", True)] + flag[("wrong", False)]
    right = flag[("right", True)] + flag[("right", False)]
    return {
        "wrong_tiles": wrong,
        "wrong_flagged": round(flag[("wrong", True)] / max(1, wrong), 3),
        "right_flagged": round(flag[("right", True)] / max(1, right), 3),
    }


def val_items(real: Path) -> list:
    root = SHARED / "data" / "real_photos_rf"
    split = json.loads((real / "split.json").read_text())["split"]
    cmap = class_map(root)
    return [load(root, s, cmap) for s, sp in sorted(split.items()) if sp == "val"]


def small_items(items: list, factor: int = 4, seed: int = 1) -> list:
    """Each photo pasted at a seeded place into a `factor` x larger frame of its mean colour: the
    same tiles, `factor` x smaller relative to the frame (a whole-table photo's far tiles)."""
    rng = np.random.default_rng(seed)
    out = []
    for img, gt, codes in items:
        h, w = img.shape[:2]
        big = np.empty((h * factor, w * factor, 3), np.uint8)
        big[:] = img.reshape(-1, 3).mean(0).astype(np.uint8)
        y, x = int(rng.integers(0, h * (factor - 1))), int(rng.integers(0, w * (factor - 1)))
        big[y : y + h, x : x + w] = img
        out.append((big, gt + np.array([x, y, x, y], np.float32), codes))
    return out


def riichi_items() -> list:
    import cv2

    d = SHARED / "data/riichi_table_photo"
    path = next((d / "images").glob("*.jpg"))
    img = np.ascontiguousarray(cv2.imread(str(path))[:, :, ::-1])
    h, w = img.shape[:2]
    boxes, codes = [], []
    for ln in (d / "labels_yolo_aligned.txt").read_text().splitlines():
        if ln.strip():
            name, cx, cy, bw, bh = ln.split()
            name = RIICHI.get(name, name)
            name = "5" + name[2] if name.startswith("r5") else name
            cx, cy, bw, bh = float(cx) * w, float(cy) * h, float(bw) * w, float(bh) * h
            boxes.append((cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2))
            codes.append(name)
    return [(img, np.array(boxes, np.float32), codes)]


def collage_items(limit: int | None) -> list:
    import cv2

    d = SHARED / "data/tile_crops_mit/collages_val"
    out = []
    for p in sorted((d / "images").glob("*.jpg"))[:limit]:
        lab = d / "labels" / (p.stem + ".txt")
        if not lab.exists():
            continue
        img = np.ascontiguousarray(cv2.imread(str(p))[:, :, ::-1])
        h, w = img.shape[:2]
        rows = [ln.split() for ln in lab.read_text().splitlines() if ln.strip()]
        boxes = [
            (
                (float(r[1]) - float(r[3]) / 2) * w,
                (float(r[2]) - float(r[4]) / 2) * h,
                (float(r[1]) + float(r[3]) / 2) * w,
                (float(r[2]) + float(r[4]) / 2) * h,
            )
            for r in rows
        ]
        out.append(
            (
                img,
                np.array(boxes, np.float32).reshape(-1, 4),
                [CLASSES[_MIT_TO_OURS[int(r[0])]] for r in rows],
            )
        )
    return out


def rows(reader, upside_down: bool = False) -> dict:
    """`real_rows_public` as `tools/eval_rows.py` reads it, plus the flag figures per aligned tile.
    `upside_down`: every photo turned 180° first (the hand seen from across the table; rows and
    their tiles then run the other way)."""
    from vision.image import open_image

    er = _eval_rows_module()
    d = SHARED / "data" / "real_rows_public"
    labels = json.loads((d / "labels.json").read_text(encoding="utf-8"))
    n_rows = exact = n_tiles = edits = 0
    flag: Counter = Counter()
    errors: Counter = Counter()
    for name, lab in sorted(labels.items()):
        loaded = open_image(d / "images" / name, min_side=reader.config.decode_min_side or None)
        if upside_down:
            loaded = loaded.pixels[::-1, ::-1].copy()  # (decoded size: both versions alike)
            lab = {
                "rows": [r[::-1] for r in lab["rows"]],
                "row_bbox": [[1 - b[2], 1 - b[3], 1 - b[0], 1 - b[1]] for b in lab["row_bbox"]],
            }
        res = reader.detect(loaded)
        dets = [{"xyxy": list(t.xyxy), "tile": t.tile, "k": k} for k, t in enumerate(res.detections)]
        got = er.read_rows(dets, lab["row_bbox"], res.width, res.height)
        # the same rows again, as detections (read_rows sorts by centre x)
        by_row = [[] for _ in lab["row_bbox"]]
        for dd in dets:
            r = er.read_rows([dd], lab["row_bbox"], res.width, res.height)
            for i, rr in enumerate(r):
                if rr:
                    by_row[i].append(dd)
        for i, (want, seen) in enumerate(zip(lab["rows"], got, strict=False)):
            if all(t == "X" for t in want):
                continue
            e = er.edit_distance(want, seen)
            n_rows, exact, n_tiles, edits = (
                n_rows + 1,
                exact + (e == 0),
                n_tiles + len(want),
                edits + min(e, len(want)),
            )
            ordered = sorted(by_row[i], key=lambda dd: (dd["xyxy"][0] + dd["xyxy"][2]) / 2)
            j = 0
            for w, g in align(want, seen):
                if g is None:
                    if w is not None:
                        errors[w] += 1
                    continue
                det = res.detections[ordered[j]["k"]]
                j += 1
                if w is not None:
                    flag[("right" if w == g else "wrong", det.uncertain)] += 1
                if w != g and w is not None:
                    errors[w] += 1
    return {
        "rows": n_rows,
        "rows_exact": exact,
        "tiles": n_tiles,
        "tile_accuracy": round(1 - edits / max(1, n_tiles), 4),
        "errors_by_true_class": dict(errors.most_common()),
        **_flag_shares(flag),
    }


def main(argv=None) -> int:
    from vision.reader import ReaderConfig, TileReader

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--models", nargs="+", default=["models"])
    ap.add_argument("--real", default="datasets/out/0.6.0/real")
    ap.add_argument("--sets", nargs="*", default=["val", "riichi", "collages", "rows"])
    ap.add_argument("--collages-limit", type=int, default=80)
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument("--no-refine", action="store_true", help="without the second localizer pass")
    a = ap.parse_args(argv)
    if not (SHARED / "data").is_dir():
        print(f"{SHARED}/data is not here (set JXMJ_SHARED): nothing to evaluate")
        return 0
    makers = {
        "val": lambda: val_items(Path(a.real)),
        "val_small": lambda: small_items(val_items(Path(a.real))),
        "riichi": riichi_items,
        "collages": lambda: collage_items(a.collages_limit),
    }
    out: dict = {}
    for m in a.models:
        reader = TileReader(m, ReaderConfig(refine_min_gain=0) if a.no_refine else None)
        out[m] = {}
        for s in a.sets:
            if s in ("rows", "rows_upside_down"):
                out[m][s] = rows(reader, upside_down=s == "rows_upside_down")
            else:
                out[m][s] = _boxes(makers[s](), reader)
            print(m, s, json.dumps(out[m][s]), flush=True)
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
