"""Train the CenterNet-style localiser on the generated YOLO scenes, with checkpoints and resume.

python -m datasets.train_loc --data datasets/out/data --out datasets/out/loc --size 384 --iters 2000
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch.nn import functional as F

from datasets.nets import Localizer
from datasets.onnx_init import freeze_bn, load_onnx
from datasets.trainloop import add_common_args, resume, save_checkpoint, set_lr, setup_run


def read_labels(p: Path) -> np.ndarray:
    if not p.exists():
        return np.zeros((0, 5), np.float32)
    rows = [list(map(float, ln.split())) for ln in p.read_text().splitlines() if ln.strip()]
    return np.array(rows, np.float32).reshape(-1, 5)


def letterbox_random(img, labels, size, rng, train=True, zoom_p=0.0):
    """Scale/shift the image into a size x size canvas (pad 114). labels: cls cx cy w h normalised."""
    h, w = img.shape[:2]
    f = size / max(h, w)
    zoom = train and len(labels) and rng.random() < zoom_p  # close-ups: tiles up to ~a third of the frame
    if zoom:
        k = int(rng.integers(len(labels)))
        target = rng.uniform(0.08, 0.35) * size  # tile width in the canvas
        f = max(f, target / max(labels[k, 3] * w, 1e-3))
    elif train:
        f *= rng.uniform(0.55, 1.6) if rng.random() < 0.6 else 1.0
    nw, nh = max(1, round(w * f)), max(1, round(h * f))
    im = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR)
    canvas = np.full((size, size, 3), 114, np.uint8)
    if zoom:
        ox = int(size / 2 - labels[k, 1] * nw + rng.uniform(-0.4, 0.4) * size)
        oy = int(size / 2 - labels[k, 2] * nh + rng.uniform(-0.4, 0.4) * size)
    elif train:
        ox = int(rng.integers(min(0, size - nw), max(0, size - nw) + 1))
        oy = int(rng.integers(min(0, size - nh), max(0, size - nh) + 1))
    else:
        ox, oy = (size - nw) // 2, (size - nh) // 2
    sx0, sy0 = max(0, -ox), max(0, -oy)
    dx0, dy0 = max(0, ox), max(0, oy)
    cw, ch = min(nw - sx0, size - dx0), min(nh - sy0, size - dy0)
    canvas[dy0 : dy0 + ch, dx0 : dx0 + cw] = im[sy0 : sy0 + ch, sx0 : sx0 + cw]
    boxes = []
    for c, cx, cy, bw, bh in labels:
        x0 = (cx - bw / 2) * nw + ox
        x1 = (cx + bw / 2) * nw + ox
        y0 = (cy - bh / 2) * nh + oy
        y1 = (cy + bh / 2) * nh + oy
        # keep boxes mostly inside
        ix0, iy0, ix1, iy1 = max(x0, 0), max(y0, 0), min(x1, size), min(y1, size)
        if ix1 - ix0 < 0.6 * (x1 - x0) or iy1 - iy0 < 0.6 * (y1 - y0):
            if ix1 > ix0 and iy1 > iy0:
                boxes.append((-1, ix0, iy0, ix1, iy1))  # ignore region
            continue
        boxes.append((int(c), ix0, iy0, ix1, iy1))
    return canvas, boxes


def targets(boxes, size, nc=2, stride=4):
    g = size // stride
    heat = np.zeros((nc, g, g), np.float32)
    reg = np.zeros((4, g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    ignore = np.zeros((g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for c, x0, y0, x1, y1 in boxes:
        if c < 0:
            ignore[int(y0 / stride) : math.ceil(y1 / stride), int(x0 / stride) : math.ceil(x1 / stride)] = 1
            continue
        cx, cy = (x0 + x1) / 2 / stride, (y0 + y1) / 2 / stride
        bw, bh = (x1 - x0) / stride, (y1 - y0) / stride
        ix, iy = min(int(cx), g - 1), min(int(cy), g - 1)
        sx, sy = max(0.5, bw / 6), max(0.5, bh / 6)
        gauss = np.exp(-((xx - ix) ** 2) / (2 * sx * sx) - ((yy - iy) ** 2) / (2 * sy * sy))
        heat[c] = np.maximum(heat[c], gauss)
        heat[c, iy, ix] = 1.0
        reg[:, iy, ix] = (cx - ix, cy - iy, math.log(max(bw, 0.1)), math.log(max(bh, 0.1)))
        mask[iy, ix] = 1
    return heat, reg, mask, ignore


def focal(pred_logit, gt, ignore):
    p = torch.sigmoid(pred_logit).clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = 1 - pos
    keep = 1 - ignore.unsqueeze(1)
    pos_l = torch.log(p) * (1 - p) ** 2 * pos
    neg_l = torch.log(1 - p) * p**2 * (1 - gt) ** 4 * neg * keep
    n = pos.sum().clamp(min=1)
    return -(pos_l.sum() + neg_l.sum()) / n


class Data:
    def __init__(self, root: Path, size: int, seed: int, zoom_p: float = 0.0):
        self.zoom_p = zoom_p
        self.imgs = sorted((root / "images").glob("*.jpg"))
        self.root = root
        self.size = size
        self.seed = seed

    def batch(self, idx, rng, train=True):
        ims, hs, rs, ms, igs = [], [], [], [], []
        for i in idx:
            p = self.imgs[i]
            img = cv2.imread(str(p))[:, :, ::-1]
            lab = read_labels(self.root / "labels" / (p.stem + ".txt"))
            if train and rng.random() < 0.5:
                img = img[:, ::-1]
                lab[:, 1] = 1 - lab[:, 1]
            canvas, boxes = letterbox_random(
                np.ascontiguousarray(img), lab, self.size, rng, train, self.zoom_p
            )
            h, r, m, ig = targets(boxes, self.size)
            ims.append(canvas)
            hs.append(h)
            rs.append(r)
            ms.append(m)
            igs.append(ig)
        x = torch.from_numpy(np.stack(ims)).permute(0, 3, 1, 2).float() / 255
        return x, *(torch.from_numpy(np.stack(v)) for v in (hs, rs, ms, igs))


def loss_fn(model, batch):
    x, heat, reg, mask, ignore = batch
    ph, pr = model(x)
    lh = focal(ph, heat, ignore)
    m = mask.unsqueeze(1)
    n = mask.sum().clamp(min=1)
    loff = (F.l1_loss(pr[:, :2], reg[:, :2], reduction="none") * m).sum() / n
    lwh = (F.l1_loss(pr[:, 2:], reg[:, 2:], reduction="none") * m).sum() / n
    return lh + loff + lwh, (lh.item(), loff.item(), lwh.item())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--size", type=int, default=384)
    add_common_args(ap, out="datasets/out/loc", iters=2000, bs=16, lr=2e-3, width=16, ckpt_every=100)
    ap.add_argument("--zoom-p", type=float, default=0.0, help="share of close-up crops (big tiles)")
    ap.add_argument("--init-onnx", help="start from this localizer.onnx (fine-tune)")
    ap.add_argument("--extra-data", help="a second YOLO set (e.g. real photos: DIR/loc/train)")
    ap.add_argument("--extra-frac", type=float, default=0.5, help="share of each batch from --extra-data")
    ap.add_argument("--warmup", type=int, default=50)
    a = ap.parse_args(argv)
    out = setup_run(a)
    data = Data(Path(a.data) / "loc" / "train", a.size, a.seed, a.zoom_p)
    extra = Data(Path(a.extra_data) / "loc" / "train", a.size, a.seed, a.zoom_p) if a.extra_data else None
    print(f"train scenes {len(data.imgs)} + extra {len(extra.imgs) if extra else 0}", flush=True)
    model = Localizer(2, a.width)
    if a.init_onnx:
        print(
            "init from",
            a.init_onnx,
            load_onnx(model, a.init_onnx, torch.rand(1, 3, a.size, a.size)),
            flush=True,
        )
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=5e-4)
    ck = out / "last.pt"
    start = resume(ck, model, opt)
    rng = np.random.default_rng([a.seed, start])
    n_extra = round(a.bs * a.extra_frac) if extra else 0
    t0 = time.time()
    model.train()
    if a.init_onnx:
        freeze_bn(model)
    for it in range(start, a.iters):
        lr = set_lr(opt, a.lr, it, a.iters, warmup=a.warmup)
        batch = data.batch(rng.integers(0, len(data.imgs), a.bs - n_extra), rng)
        if n_extra:
            more = extra.batch(rng.integers(0, len(extra.imgs), n_extra), rng)
            batch = tuple(torch.cat([u, v]) for u, v in zip(batch, more, strict=True))
        loss, parts = loss_fn(model, batch)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 10.0)
        opt.step()
        if it % 20 == 0:
            print(
                f"it {it} loss {loss.item():.3f} heat {parts[0]:.3f} off {parts[1]:.3f} wh {parts[2]:.3f} "
                f"lr {lr:.5f} {time.time() - t0:.0f}s",
                flush=True,
            )
        if (it + 1) % a.ckpt_every == 0 or it + 1 == a.iters:
            save_checkpoint(ck, model, opt, it + 1, a.width)
    torch.save({"model": model.state_dict(), "width": a.width, "size": a.size}, out / "final.pt")


if __name__ == "__main__":
    main()
