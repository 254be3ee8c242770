"""Real photos in training: `real_photos_rf` split by source photo, boxes for the localiser, crops
and hard negatives (`none`) for the classifier.

    python -m datasets.real --out datasets/out/0.6.0/real --seed 1 --val-frac 0.2

Layout under OUT:
  split.json                          {photo stem: "train" | "val"}, the seed and the counts
  loc/{train,val}/images|labels/      YOLO, class 0 = tile; class -1 = an ignore region (a box the
                                      0.5.0 localiser finds where nothing is labelled: an unlabelled
                                      tile, discards and walls often are, so never a negative)
  cls/{train,val}.npz                 x uint8 [n, 64, 48, 3], y int64 (index in CLASSIFIER_CLASSES)
  noise.json                          crops dropped as label noise, per (label, 0.5.0 reading)

The set (CC BY 4.0, "Chinese Mahjong Detection", Roboflow Universe, riichimahjongdetection) is
never copied into the repository; see ../shared/data/real_photos_rf/README.md.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

import cv2
import numpy as np

from datasets.crops import cut
from datasets.negatives import negative_boxes
from datasets.tiles import CLASSIFIER_CLASSES, SHARED

NONE = CLASSIFIER_CLASSES.index("none")


def photos(root: Path) -> list[str]:
    """Stems of the photos that have a label file, sorted."""
    return sorted(
        p.stem for p in (root / "images").glob("*.jpg") if (root / "labels" / f"{p.stem}.txt").exists()
    )


def source_of(stem: str) -> str:
    """The source photo a Roboflow export file comes from (`NAME_jpg.rf.HASH` -> `NAME`)."""
    return stem.split(".rf.")[0].removesuffix("_jpg").removesuffix("_jpeg").removesuffix("_png")


def split_by_source(stems: list[str], seed: int, val_frac: float) -> dict[str, str]:
    """Deterministic split: a source photo goes to `val` when sha1(seed:source) falls below `val_frac`.

    >>> s = split_by_source(["a_jpg.rf.1", "a_jpg.rf.2", "b_jpg.rf.3"], 1, 0.5)
    >>> s["a_jpg.rf.1"] == s["a_jpg.rf.2"]  # two versions of one source photo: the same part
    True
    """
    out = {}
    for s in stems:
        h = hashlib.sha1(f"{seed}:{source_of(s)}".encode()).digest()
        out[s] = "val" if int.from_bytes(h[:8], "big") / 2**64 < val_frac else "train"
    return out


def class_map(root: Path) -> dict[int, str]:
    """YOLO class id -> jxmj tile code, from `classes.txt` (`id source_name code` per line)."""
    m = {}
    for ln in (root / "classes.txt").read_text().splitlines():
        parts = ln.split()
        if len(parts) == 3 and not ln.startswith("#"):
            m[int(parts[0])] = parts[2]
    return m


def load(root: Path, stem: str, cmap: dict[int, str]) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """`(rgb, xyxy float32 (K, 4) pixels, codes)` of one photo."""
    img = cv2.imread(str(root / "images" / f"{stem}.jpg"))[:, :, ::-1]
    h, w = img.shape[:2]
    rows = [ln.split() for ln in (root / "labels" / f"{stem}.txt").read_text().splitlines() if ln.strip()]
    xyxy, codes = [], []
    for r in rows:
        c, cx, cy, bw, bh = int(r[0]), *map(float, r[1:5])
        xyxy.append(((cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h))
        codes.append(cmap[c])
    return np.ascontiguousarray(img), np.array(xyxy, np.float32).reshape(-1, 4), codes


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of every box in `a` (N, 4) with every box in `b` (M, 4), xyxy."""
    if len(a) == 0 or len(b) == 0:
        return np.zeros((len(a), len(b)), np.float32)
    iw = np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0])
    ih = np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1])
    inter = np.clip(iw, 0, None) * np.clip(ih, 0, None)
    area = lambda z: (z[:, 2] - z[:, 0]) * (z[:, 3] - z[:, 1])  # noqa: E731
    return inter / np.maximum(area(a)[:, None] + area(b)[None, :] - inter, 1e-6)


def _yolo_line(c: int, box, w: int, h: int) -> str:
    x0, y0, x1, y1 = box
    return f"{c} {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} {(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}"


def _probs(sess, crops: np.ndarray) -> np.ndarray:
    """0.5.0 classifier probabilities, the likelier of 0° and 180° per crop."""
    x = crops.transpose(0, 3, 1, 2).astype(np.float32) / 255.0
    outs = []
    for xx in (x, x[:, :, ::-1, ::-1].copy()):
        z = sess.run(None, {"crops": xx})[0]
        z = np.exp(z - z.max(1, keepdims=True))
        outs.append(z / z.sum(1, keepdims=True))
    return np.where(outs[0].max(1, keepdims=True) >= outs[1].max(1, keepdims=True), outs[0], outs[1])


def build(out: Path, seed: int, val_frac: float, models: Path, jitter_crops: int, drop_p: float) -> dict:
    import onnxruntime as ort

    from vision.reader import TileReader

    root = SHARED / "data" / "real_photos_rf"
    cmap = class_map(root)
    stems = photos(root)
    split = split_by_source(stems, seed, val_frac)
    reader = TileReader(models)
    sess = ort.InferenceSession(str(models / "classifier.onnx"), providers=["CPUExecutionProvider"])
    old_classes = reader.classifier.classes
    rng = np.random.default_rng([seed, 6])
    xs: dict[str, list] = {"train": [], "val": []}
    ys: dict[str, list] = {"train": [], "val": []}
    noise: dict[str, int] = {}
    stats = {"photos": {"train": 0, "val": 0}, "boxes": {"train": 0, "val": 0}, "ignored": 0, "dropped": 0}
    for sp in ("train", "val"):
        for sub in ("images", "labels"):
            (out / "loc" / sp / sub).mkdir(parents=True, exist_ok=True)
    for i, stem in enumerate(stems):
        sp = split[stem]
        img, xyxy, codes = load(root, stem, cmap)
        h, w = img.shape[:2]
        stats["photos"][sp] += 1
        stats["boxes"][sp] += len(codes)
        found = np.array([d.xyxy for d in reader.detect(img).detections], np.float32).reshape(-1, 4)
        # a found box that matches no label: apart from every label it may be an unlabelled tile
        # (ignored); overlapping a label it is a split, shifted or straddling box (a negative)
        iou = iou_matrix(found, xyxy)
        unmatched = iou.max(1) < 0.3 if len(xyxy) else np.ones(len(found), bool)
        touches = iou.max(1) > 0 if len(xyxy) else np.zeros(len(found), bool)
        unlabelled, splits = found[unmatched & ~touches], found[unmatched & touches]
        stats["ignored"] += len(unlabelled)
        stats["split_negatives"] = stats.get("split_negatives", 0) + min(len(splits), 5)
        lines = [_yolo_line(0, b, w, h) for b in xyxy] + [_yolo_line(-1, b, w, h) for b in unlabelled]
        cv2.imwrite(
            str(out / "loc" / sp / "images" / f"{i:04d}.jpg"), img[:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, 95]
        )
        (out / "loc" / sp / "labels" / f"{i:04d}.txt").write_text("\n".join(lines) + "\n")
        # tile crops: the box as labelled, plus jittered copies (train only)
        exact = np.stack([cut(img, b) for b in xyxy]) if len(xyxy) else np.zeros((0, 64, 48, 3), np.uint8)
        keep = np.ones(len(codes), bool)
        if len(codes) and sp == "train":
            p = _probs(sess, exact)
            top = p.argmax(1)
            for k, code in enumerate(codes):
                lab = old_classes.index(code)
                if top[k] != lab and p[k, top[k]] > drop_p and p[k, lab] < 0.01:
                    keep[k] = False
                    key = f"{code}->{old_classes[top[k]]}"
                    noise[key] = noise.get(key, 0) + 1
            stats["dropped"] += int((~keep).sum())
        for k, code in enumerate(codes):
            if not keep[k]:
                continue
            y = CLASSIFIER_CLASSES.index(code)
            xs[sp].append(exact[k])
            ys[sp].append(y)
            if sp == "train":
                x0, y0, x1, y1 = xyxy[k]
                bw, bh = x1 - x0, y1 - y0
                for _ in range(jitter_crops):
                    d = rng.normal(0, 0.05, 4) * np.array([bw, bh, bw, bh])
                    xs[sp].append(
                        cut(img, (x0 + d[0], y0 + d[1], x1 + d[2], y1 + d[3]), rot_k=int(rng.choice([1, 3])))
                    )
                    ys[sp].append(y)
        # hard negatives where no tile can be (see datasets.negatives)
        negs = negative_boxes(xyxy, (w, h), rng, complete=False, others=unlabelled)
        for b in negs + [tuple(b) for b in splits[rng.permutation(len(splits))[:5]]]:
            xs[sp].append(cut(img, b, rot_k=int(rng.choice([1, 3]))))
            ys[sp].append(NONE)
        if i % 50 == 0:
            print(f"photo {i}/{len(stems)} {stats}", flush=True)
    (out / "cls").mkdir(parents=True, exist_ok=True)
    for sp in ("train", "val"):
        np.savez(out / "cls" / f"{sp}.npz", x=np.stack(xs[sp]), y=np.array(ys[sp], np.int64))
        stats[f"crops_{sp}"] = len(ys[sp])
        stats[f"none_{sp}"] = int(np.sum(np.array(ys[sp]) == NONE))
    (out / "split.json").write_text(
        json.dumps({"seed": seed, "val_frac": val_frac, "stats": stats, "split": split}, indent=1)
    )
    (out / "noise.json").write_text(json.dumps(dict(sorted(noise.items(), key=lambda kv: -kv[1])), indent=1))
    return stats


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default="datasets/out/real")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--val-frac", type=float, default=0.2)
    ap.add_argument("--models", default="models", help="the previous models: noise filter and ignore regions")
    ap.add_argument("--jitter-crops", type=int, default=3)
    ap.add_argument(
        "--drop-p", type=float, default=0.95, help="drop a crop the old classifier reads otherwise at >= this"
    )
    a = ap.parse_args(argv)
    out = Path(a.out)
    if (out / "split.json").exists():
        print(f"{out} exists; delete it to rebuild", flush=True)
        return 0
    print(build(out, a.seed, a.val_frac, Path(a.models), a.jitter_crops, a.drop_p), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
