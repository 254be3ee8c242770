"""Generate the synthetic data set: scenes as YOLO data (localiser) and tile crops (classifier).

    python -m datasets.gen --out datasets/out/data --scenes 3000 --val 200 --seed 1 --workers 2

Layout under OUT:
  loc/{train,val}/images/NNNNNN.jpg   scene, longer side ``--save-side`` px
  loc/{train,val}/labels/NNNNNN.txt   YOLO: class cx cy w h (normalised); 0 = tile, 1 = back
  cls/{train,val}/shard_NNNN.npz      x uint8 [n, H, W, 3] crops as the runtime cuts them, y int64 [n]
Each scene i is drawn from its own generator seeded with (seed, i): any subset is reproducible.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import time
from pathlib import Path

import cv2
import numpy as np

from datasets.crops import crop_for_classifier
from datasets.render_options import set_render_options
from datasets.scenes import make_scene
from datasets.tiles import BACK

CROP_HW = (64, 48)


def _one_shard(args):
    out, split, shard, idx0, n, seed, save_side, crop_hw, crops_per_tile = args
    loc_img = Path(out) / "loc" / split / "images"
    loc_lab = Path(out) / "loc" / split / "labels"
    cls_dir = Path(out) / "cls" / split
    done = cls_dir / f"shard_{shard:04d}.npz"
    if done.exists():
        return shard, 0
    xs, ys = [], []
    for i in range(idx0, idx0 + n):
        rng = np.random.default_rng([seed, 0 if split == "train" else 1, i])
        img, boxes = make_scene(rng)
        h, w = img.shape[:2]
        f = save_side / max(h, w)
        small = cv2.resize(img, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
        cv2.imwrite(str(loc_img / f"{i:06d}.jpg"), small[:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, 90])
        lines = []
        for b in boxes:
            x0, y0, x1, y1 = b.xyxy
            c = 1 if b.cls == BACK else 0
            lines.append(
                f"{c} {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} {(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}"
            )
            if min(x1 - x0, y1 - y0) < 10:
                continue
            for _ in range(crops_per_tile):
                xs.append(crop_for_classifier(img, b, rng, crop_hw))
                ys.append(b.cls)
        (loc_lab / f"{i:06d}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
    tmp = cls_dir / f"shard_{shard:04d}.tmp.npz"
    np.savez(tmp, x=np.stack(xs) if xs else np.zeros((0, *crop_hw, 3), np.uint8), y=np.array(ys, np.int64))
    tmp.rename(done)
    return shard, len(ys)


def generate(
    out, scenes, val, seed, workers=2, save_side=640, crop_hw=CROP_HW, shard_size=50, crops_per_tile=1
):
    out = Path(out)
    jobs = []
    for split, total in (("train", scenes), ("val", val)):
        for sub in ("loc/{}/images", "loc/{}/labels", "cls/{}"):
            (out / sub.format(split)).mkdir(parents=True, exist_ok=True)
        for shard, idx0 in enumerate(range(0, total, shard_size)):
            n = min(shard_size, total - idx0)
            jobs.append((str(out), split, shard, idx0, n, seed, save_side, tuple(crop_hw), crops_per_tile))
    t = time.time()
    if workers > 1:
        with mp.get_context("fork").Pool(workers) as pool:
            for shard, n in pool.imap_unordered(_one_shard, jobs):
                print(f"shard {shard} crops {n} ({time.time() - t:.0f}s)", flush=True)
    else:
        for j in jobs:
            shard, n = _one_shard(j)
            print(f"shard {shard} crops {n} ({time.time() - t:.0f}s)", flush=True)


def parse_render(items: list[str]) -> dict:
    """`["brush_fonts=true", "glyph_variation=0.7"]` -> `{"brush_fonts": True, "glyph_variation": 0.7}`.

    Raises ValueError on an item without `=` or a value that is neither a bool nor a number.
    """
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"{item!r} is not KEY=VALUE")
        low = value.strip().lower()
        if low in ("true", "false"):
            out[key.strip()] = low == "true"
        else:
            try:
                out[key.strip()] = float(value)
            except ValueError:
                raise ValueError(f"{item!r}: the value must be true, false or a number") from None
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default="datasets/out/data")
    ap.add_argument("--scenes", type=int, default=3000)
    ap.add_argument("--val", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--save-side", type=int, default=640)
    ap.add_argument("--crops-per-tile", type=int, default=1)
    ap.add_argument(
        "--render",
        nargs="*",
        default=[],
        metavar="KEY=VALUE",
        help="renderer switches, `RenderOptions` (brush_fonts=true glyph_variation=0.7)",
    )
    a = ap.parse_args(argv)
    try:
        opts = set_render_options(**parse_render(a.render))
    except (TypeError, ValueError) as e:
        ap.error(f"--render: {e}")
    print("render options:", opts, flush=True)
    generate(a.out, a.scenes, a.val, a.seed, a.workers, a.save_side, crops_per_tile=a.crops_per_tile)


if __name__ == "__main__":
    main()
