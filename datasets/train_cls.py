"""Train the crop classifier on generated crops (datasets/out/data/cls), with checkpoints and resume.

python -m datasets.train_cls --data datasets/out/data --out datasets/out/cls --iters 3000
"""

from __future__ import annotations

import argparse
import glob
import json
import time
from pathlib import Path

import numpy as np
import torch
from torch.nn import functional as F

from datasets.nets import TileClassifier
from datasets.tiles import CLASSES
from datasets.trainloop import add_common_args, resume, save_checkpoint, set_lr


def load_split(data, split):
    xs, ys = [], []
    for f in sorted(glob.glob(str(Path(data) / "cls" / split / "shard_*[0-9].npz"))):
        z = np.load(f)
        xs.append(z["x"])
        ys.append(z["y"])
    if not xs:
        raise SystemExit(f"no crops under {data}/cls/{split}")
    return np.concatenate(xs), np.concatenate(ys)


def augment(x: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    """x float [B,3,H,W] 0..1."""
    b, _, h, w = x.shape
    r = lambda *s: torch.rand(*s, generator=g)  # noqa: E731
    # low resolution (small tiles in the photo)
    if r(1).item() < 0.4:
        f = 0.3 + 0.6 * r(1).item()
        x = F.interpolate(x, size=(max(8, int(h * f)), max(6, int(w * f))), mode="area")
        x = F.interpolate(x, size=(h, w), mode="bilinear", align_corners=False)
    # shift
    dx, dy = (torch.randint(-3, 4, (2,), generator=g)).tolist()
    x = torch.roll(x, (dy, dx), (2, 3))
    # colour: gain per channel, brightness, contrast, gamma
    gain = 1 + (r(b, 3, 1, 1) - 0.5) * 0.3
    bright = 1 + (r(b, 1, 1, 1) - 0.5) * 0.6
    x = x * gain * bright
    mean = x.mean((1, 2, 3), keepdim=True)
    x = (x - mean) * (1 + (r(b, 1, 1, 1) - 0.5) * 0.6) + mean
    x = x.clamp(0, 1) ** (1 + (r(b, 1, 1, 1) - 0.5) * 0.5)
    gray = (r(b, 1, 1, 1) < 0.05).float()
    x = x * (1 - gray) + x.mean(1, keepdim=True) * gray
    flip = r(b) < 0.08
    x[flip] = torch.flip(x[flip], (2, 3))
    x = x + torch.randn(x.shape, generator=g) * 0.03 * r(b, 1, 1, 1)
    return x.clamp(0, 1)


def to_tensor(xu8: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(xu8).permute(0, 3, 1, 2).float() / 255.0


def evaluate(model, x, y, bs=512):
    model.eval()
    preds = []
    with torch.no_grad():
        for i in range(0, len(x), bs):
            preds.append(model(to_tensor(x[i : i + bs])).argmax(1).numpy())
    model.train()
    p = np.concatenate(preds)
    n = len(CLASSES)
    conf = np.zeros((n, n), np.int64)
    np.add.at(conf, (y, p), 1)
    return float((p == y).mean()), conf


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    add_common_args(ap, out="datasets/out/cls", iters=3000, bs=128, lr=3e-3, width=24, ckpt_every=200)
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    x, y = load_split(a.data, "train")
    try:
        xv, yv = load_split(a.data, "val")
    except SystemExit:
        xv, yv = x[:0], y[:0]
    print(
        f"train crops {len(x)}, val {len(xv)}; per class min {np.bincount(y, minlength=36).min()}", flush=True
    )
    model = TileClassifier(len(CLASSES), a.width)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=5e-4)
    ck = out / "last.pt"
    start = resume(ck, model, opt)
    g = torch.Generator().manual_seed(a.seed + start)
    rs = np.random.default_rng([a.seed, start])
    # class-balanced sampling
    counts = np.bincount(y, minlength=len(CLASSES)).astype(np.float64)
    wts = 1.0 / np.maximum(counts[y], 1)
    wts /= wts.sum()
    t0 = time.time()
    model.train()
    for it in range(start, a.iters):
        lr = set_lr(opt, a.lr, it, a.iters, warmup=100)
        idx = rs.choice(len(x), a.bs, p=wts)
        xb = augment(to_tensor(x[idx]), g)
        yb = torch.from_numpy(y[idx])
        loss = F.cross_entropy(model(xb), yb, label_smoothing=0.05)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if it % 50 == 0:
            print(f"it {it} loss {loss.item():.3f} lr {lr:.5f} {time.time() - t0:.0f}s", flush=True)
        if (it + 1) % a.ckpt_every == 0 or it + 1 == a.iters:
            save_checkpoint(ck, model, opt, it + 1, a.width)
    if len(xv):
        acc, conf = evaluate(model, xv, yv)
        print(f"val accuracy {acc:.4f}", flush=True)
        (out / "val_confusion.json").write_text(
            json.dumps({"accuracy": acc, "classes": CLASSES, "confusion": conf.tolist()})
        )
    torch.save({"model": model.state_dict(), "width": a.width}, out / "final.pt")


if __name__ == "__main__":
    main()
