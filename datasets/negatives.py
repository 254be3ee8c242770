"""Hard negatives for the classifier's `none` class: crops that are not one whole tile.

Three kinds, from a photo's boxes:
- **straddles**: from the centre of a tile to the centre of its neighbour (a box between two tiles);
- **halves**: 40–55% of a tile along its long side (a tile split in two);
- **background**: tile-sized boxes away from every box. With complete labels (synthetic scenes)
  "away" means overlapping boxes by at most 10% of the crop; with partial labels (real photos,
  where unlabelled tiles lie about) a crop must keep a tile's size of clearance from every
  known box, labelled or found by the previous localiser.

    python -m datasets.negatives --data datasets/out/0.6.0/data   # synthetic: cls/none_{train,val}.npz
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from datasets.crops import cut


def _neighbour_straddles(tiles: np.ndarray, rng: np.random.Generator, n: int) -> list[tuple]:
    out = []
    if len(tiles) < 2:
        return out
    c = np.stack([(tiles[:, 0] + tiles[:, 2]) / 2, (tiles[:, 1] + tiles[:, 3]) / 2], 1)
    wh = tiles[:, 2:] - tiles[:, :2]
    for i in rng.permutation(len(tiles)):
        if len(out) >= n:
            break
        d = np.abs(c - c[i])
        for ax in (0, 1):  # 0: neighbour beside, 1: neighbour above/below
            o = 1 - ax
            ok = (d[:, ax] > 0.5 * wh[i, ax]) & (d[:, ax] < 1.6 * wh[i, ax]) & (d[:, o] < 0.3 * wh[i, o])
            js = np.flatnonzero(ok)
            if len(js):
                j = js[np.argmin(d[js, ax])]
                a, b = sorted((c[i, ax], c[j, ax]))
                box = [0.0, 0.0, 0.0, 0.0]
                box[ax], box[ax + 2] = a, b
                box[o] = min(tiles[i, o], tiles[j, o])
                box[o + 2] = max(tiles[i, o + 2], tiles[j, o + 2])
                out.append(tuple(box))
                break
    return out


def _halves(tiles: np.ndarray, rng: np.random.Generator, n: int) -> list[tuple]:
    out = []
    for i in rng.permutation(len(tiles))[:n]:
        x0, y0, x1, y1 = (float(v) for v in tiles[i])
        f = rng.uniform(0.4, 0.55)
        if y1 - y0 >= x1 - x0:  # long side vertical: top or bottom part
            out.append(
                (x0, y0, x1, y0 + f * (y1 - y0)) if rng.random() < 0.5 else (x0, y1 - f * (y1 - y0), x1, y1)
            )
        else:
            out.append(
                (x0, y0, x0 + f * (x1 - x0), y1) if rng.random() < 0.5 else (x1 - f * (x1 - x0), y0, x1, y1)
            )
    return out


def _background(known: np.ndarray, wh: tuple[int, int], rng, n: int, complete: bool) -> list[tuple]:
    w, h = wh
    if len(known):
        size = np.median(known[:, 2:] - known[:, :2], axis=0)
    else:
        size = np.array([0.05 * w, 0.07 * h])
    out = []
    for _ in range(n * 8):
        if len(out) >= n:
            break
        bw, bh = size * rng.uniform(0.6, 1.6) * np.exp(rng.normal(0, 0.15, 2))
        if bw >= w or bh >= h:
            continue
        x0, y0 = rng.uniform(0, w - bw), rng.uniform(0, h - bh)
        box = np.array([x0, y0, x0 + bw, y0 + bh])
        if len(known):
            pad = 0.0 if complete else 1.0
            k = known
            iw = np.minimum(k[:, 2] + pad * size[0], box[2]) - np.maximum(k[:, 0] - pad * size[0], box[0])
            ih = np.minimum(k[:, 3] + pad * size[1], box[3]) - np.maximum(k[:, 1] - pad * size[1], box[1])
            inter = np.clip(iw, 0, None) * np.clip(ih, 0, None)
            if (complete and inter.max() > 0.1 * bw * bh) or (not complete and inter.max() > 0):
                continue
        out.append(tuple(box))
    return out


def negative_boxes(
    tiles: np.ndarray,
    wh: tuple[int, int],
    rng: np.random.Generator,
    complete: bool,
    others: np.ndarray | None = None,
    n: tuple[int, int, int] = (4, 3, 6),
) -> list[tuple]:
    """Boxes (xyxy pixels) that hold no single whole tile.

    Args:
        tiles: `(K, 4)` boxes known to be tiles (straddles and halves are made from them).
        wh: `(w, h)` of the image.
        complete: every tile in the image is in `tiles` (+ `others`).
        others: `(M, 4)` more boxes to keep clear of (e.g. found but unlabelled).
        n: at most this many straddles, halves, background boxes.
    """
    known = tiles if others is None or not len(others) else np.concatenate([tiles, others])
    return (
        _neighbour_straddles(tiles, rng, n[0])
        + _halves(tiles, rng, n[1])
        + _background(known, wh, rng, n[2], complete)
    )


def _read_yolo(p: Path, w: int, h: int) -> np.ndarray:
    rows = (
        [list(map(float, ln.split())) for ln in p.read_text().splitlines() if ln.strip()]
        if p.exists()
        else []
    )
    a = np.array(rows, np.float32).reshape(-1, 5)
    return np.stack(
        [
            (a[:, 1] - a[:, 3] / 2) * w,
            (a[:, 2] - a[:, 4] / 2) * h,
            (a[:, 1] + a[:, 3] / 2) * w,
            (a[:, 2] + a[:, 4] / 2) * h,
        ],
        1,
    )


def synthetic(data: Path, seed: int, split: str) -> int:
    """Negatives from a generated scene set (complete labels) -> `cls/none_{split}.npz`."""
    out = data / "cls" / f"none_{split}.npz"
    if out.exists():
        return len(np.load(out)["y"])
    xs = []
    for i, p in enumerate(sorted((data / "loc" / split / "images").glob("*.jpg"))):
        rng = np.random.default_rng([seed, 7, 0 if split == "train" else 1, i])
        img = cv2.imread(str(p))[:, :, ::-1]
        h, w = img.shape[:2]
        boxes = _read_yolo(data / "loc" / split / "labels" / f"{p.stem}.txt", w, h)
        for b in negative_boxes(boxes, (w, h), rng, complete=True, n=(3, 2, 5)):
            xs.append(cut(img, b, rot_k=int(rng.choice([1, 3]))))
    x = np.stack(xs) if xs else np.zeros((0, 64, 48, 3), np.uint8)
    np.savez(out, x=x, y=np.full(len(x), -1, np.int64))  # -1: the `none` class, index set by the trainer
    return len(x)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", required=True)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    for split in ("train", "val"):
        print(split, synthetic(Path(a.data), a.seed, split), "negatives", flush=True)


if __name__ == "__main__":
    main()
