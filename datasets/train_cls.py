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
from datasets.onnx_init import freeze_bn, load_onnx
from datasets.tiles import CLASSES, CLASSIFIER_CLASSES
from datasets.trainloop import add_common_args, resume, save_checkpoint, set_lr, setup_run


def load_split(data, split):
    xs, ys = [], []
    for f in sorted(glob.glob(str(Path(data) / "cls" / split / "shard_*[0-9].npz"))):
        z = np.load(f)
        xs.append(z["x"])
        ys.append(z["y"])
    if not xs:
        raise SystemExit(f"no crops under {data}/cls/{split}")
    return np.concatenate(xs), np.concatenate(ys)


_YIQ = torch.tensor([[0.299, 0.587, 0.114], [0.596, -0.274, -0.322], [0.211, -0.523, 0.312]])
_RGB = torch.linalg.inv(_YIQ)


def recolour(x: torch.Tensor, g: torch.Generator, hue_p: float, perm_p: float) -> torch.Tensor:
    """Change the inks as another set's differ: `x` float `[B, 3, H, W]` 0..1. A `hue_p` share of
    the crops get their chroma (YIQ's I, Q) turned by a random angle and scaled by 0.5-1.5, the
    luma kept (the shape of the numerals and pips stays); a `perm_p` share their channels
    permuted (red <-> blue and the like). Returns a new tensor of the same shape, clipped to 0..1.

    >>> g = torch.Generator().manual_seed(0)
    >>> x = torch.rand(4, 3, 8, 6, generator=g)
    >>> bool(torch.equal(recolour(x, g, 0.0, 0.0), x))
    True
    >>> y = recolour(x, g, 1.0, 0.0)
    >>> luma = lambda t: (t * _YIQ[0].view(1, 3, 1, 1)).sum(1)
    >>> float((luma(y) - luma(x)).abs().max()) < 0.35
    True
    """
    b = x.shape[0]
    if hue_p > 0:
        on = torch.rand(b, generator=g) < hue_p
        th = torch.rand(b, generator=g) * 2 * torch.pi
        sc = 0.5 + torch.rand(b, generator=g)
        rot = torch.zeros(b, 3, 3)
        rot[:, 0, 0] = 1
        rot[:, 1, 1], rot[:, 1, 2] = sc * torch.cos(th), -sc * torch.sin(th)
        rot[:, 2, 1], rot[:, 2, 2] = sc * torch.sin(th), sc * torch.cos(th)
        m = _RGB @ rot @ _YIQ
        m[~on] = torch.eye(3)
        x = torch.einsum("bij,bjhw->bihw", m, x).clamp(0, 1)
    if perm_p > 0:
        perms = torch.tensor([[0, 1, 2], [2, 1, 0], [1, 0, 2], [0, 2, 1], [1, 2, 0], [2, 0, 1]])
        on = torch.rand(b, generator=g) < perm_p
        pick = torch.randint(1, 6, (b,), generator=g)
        idx = torch.where(on[:, None], perms[pick], perms[0])
        x = torch.gather(x, 1, idx[:, :, None, None].expand(-1, -1, *x.shape[2:]))
    return x


_RED, _GREEN, _BLUE = (float(torch.atan2(_YIQ[2, c], _YIQ[1, c])) for c in range(3))


def _band(angle: torch.Tensor, centre: float, half: float) -> torch.Tensor:
    """1 at hue `centre` (radians, YIQ), falling to 0 at `half` either side."""
    d = torch.remainder(angle - centre + torch.pi, 2 * torch.pi) - torch.pi
    return (1 - d.abs() / half).clamp(min=0)


def inks(x: torch.Tensor, g: torch.Generator, p: float) -> torch.Tensor:
    """Change the inks as real sets differ, for a `p` share of the crops (`x` float `[B, 3, H, W]`
    0..1), one change each, the face (low chroma) kept: the red inks made black (a mainland set's
    black 萬 numerals; chroma to 0, luma x0.55), the greens and blues turned toward each other by
    30-110° (blue bamboo, green dots), or every ink's chroma scaled 0.3-1.4 (faded, vivid).

    >>> g = torch.Generator().manual_seed(0)
    >>> x = torch.rand(6, 3, 8, 6, generator=g)
    >>> bool(torch.equal(inks(x, g, 0.0), x))
    True
    >>> face = torch.full((4, 3, 2, 2), 0.9)  # a plain ivory face has no ink to change
    >>> bool(torch.allclose(inks(face, g, 1.0), face, atol=1e-5))
    True
    """
    b = x.shape[0]
    if p <= 0:
        return x
    yiq = torch.einsum("ij,bjhw->bihw", _YIQ, x)
    y, i, q = yiq[:, 0], yiq[:, 1], yiq[:, 2]
    chroma, angle = torch.sqrt(i * i + q * q), torch.atan2(q, i)
    inked = ((chroma - 0.06) / 0.08).clamp(0, 1)  # an ivory face is 0.02-0.06
    on = torch.rand(b, generator=g) < p
    kind = torch.randint(0, 3, (b,), generator=g)
    sel = lambda k: (on & (kind == k)).float().view(b, 1, 1)  # noqa: E731
    red = _band(angle, _RED, 0.8) * inked * sel(0)
    chroma, y = chroma * (1 - red), y * (1 - 0.45 * red)
    turn = (0.52 + 1.4 * torch.rand(b, generator=g)) * torch.where(
        torch.rand(b, generator=g) < 0.5, -1.0, 1.0
    )
    gb = torch.maximum(_band(angle, _GREEN, 0.9), _band(angle, _BLUE, 0.9)) * inked * sel(1)
    angle = angle + gb * turn.view(b, 1, 1)
    scale = 0.3 + 1.1 * torch.rand(b, generator=g)
    chroma = chroma * (1 + (scale.view(b, 1, 1) - 1) * inked * sel(2))
    yiq = torch.stack([y, chroma * torch.cos(angle), chroma * torch.sin(angle)], 1)
    return torch.einsum("ij,bjhw->bihw", _RGB, yiq).clamp(0, 1)


def augment(
    x: torch.Tensor,
    g: torch.Generator,
    rot180: float = 0.08,
    hue_p: float = 0.0,
    perm_p: float = 0.0,
    ink_p: float = 0.0,
) -> torch.Tensor:
    """x float [B,3,H,W] 0..1; `rot180`: share of crops turned upside down; `hue_p`, `perm_p`:
    the inks changed (`recolour`); `ink_p`: as real sets' inks differ (`inks`)."""
    b, _, h, w = x.shape
    r = lambda *s: torch.rand(*s, generator=g)  # noqa: E731
    x = inks(recolour(x, g, hue_p, perm_p), g, ink_p)
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
    flip = r(b) < rot180
    x[flip] = torch.flip(x[flip], (2, 3))
    x = x + torch.randn(x.shape, generator=g) * 0.03 * r(b, 1, 1, 1)
    return x.clamp(0, 1)


def grey(x: torch.Tensor) -> torch.Tensor:
    """Each pixel's mean of the three channels in all three, as the reader's grey views
    (`vision.flagging.grey_views`): `x` float `[B, 3, H, W]` 0..1 -> the same shape; a grey
    reader sees no ink's colour, only its shape (and the same for any order of the channels).

    >>> x = torch.zeros(1, 3, 2, 2); x[:, 0] = 0.9; x[:, 1] = 0.3
    >>> [round(float(v), 3) for v in grey(x)[0, :, 0, 0]]
    [0.4, 0.4, 0.4]
    """
    return x.mean(1, keepdim=True).expand(-1, 3, -1, -1).contiguous()


def to_tensor(xu8: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(xu8).permute(0, 3, 1, 2).float() / 255.0


def load_extra(paths: list[str], none_index: int) -> tuple[np.ndarray, np.ndarray]:
    """Crops from `.npz` files (`x` uint8 [n,H,W,3], `y`; y == -1 means `none`)."""
    xs, ys = [], []
    for p in paths:
        z = np.load(p)
        xs.append(z["x"])
        ys.append(np.where(z["y"] < 0, none_index, z["y"]))
    return np.concatenate(xs), np.concatenate(ys)


def balanced(y: np.ndarray, n: int) -> np.ndarray:
    """Sampling weights that make every class present in `y` equally likely."""
    counts = np.bincount(y, minlength=n).astype(np.float64)
    w = 1.0 / np.maximum(counts[y], 1)
    return w / w.sum()


def evaluate(model, x, y, bs=512, luma=False):
    model.eval()
    preds = []
    with torch.no_grad():
        for i in range(0, len(x), bs):
            xb = to_tensor(x[i : i + bs])
            preds.append(model(grey(xb) if luma else xb).argmax(1).numpy())
    model.train()
    p = np.concatenate(preds)
    n = model.fc.out_features
    conf = np.zeros((n, n), np.int64)
    np.add.at(conf, (y, p), 1)
    return float((p == y).mean()), conf


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    add_common_args(ap, out="datasets/out/cls", iters=3000, bs=128, lr=3e-3, width=24, ckpt_every=200)
    ap.add_argument("--init-onnx", help="start from this classifier.onnx (fine-tune)")
    ap.add_argument("--none", action="store_true", help="add the `none` class (CLASSIFIER_CLASSES)")
    ap.add_argument("--extra", nargs="*", default=[], help="more crops (.npz): real crops, negatives")
    ap.add_argument("--synth-extra", nargs="*", default=[], help="more crops drawn with the synthetic ones")
    ap.add_argument("--extra-frac", type=float, default=0.5, help="share of each batch from --extra")
    ap.add_argument("--rot180", type=float, default=0.08, help="share of crops turned upside down")
    ap.add_argument("--warmup", type=int, default=100)
    ap.add_argument("--hue-p", type=float, default=0.0, help="share of crops with their chroma turned")
    ap.add_argument("--perm-p", type=float, default=0.0, help="share of crops with their channels permuted")
    ap.add_argument(
        "--ink-p", type=float, default=0.0, help="share of crops with their inks changed as sets differ"
    )
    ap.add_argument("--grey", action="store_true", help="train a grey reader: every crop seen as its luma")
    a = ap.parse_args(argv)
    out = setup_run(a)
    classes = CLASSIFIER_CLASSES if a.none else CLASSES
    nc = len(classes)
    x, y = load_split(a.data, "train")
    if a.synth_extra:
        xe, ye = load_extra(a.synth_extra, nc - 1)
        x, y = np.concatenate([x, xe]), np.concatenate([y, ye])
    xr, yr = load_extra(a.extra, nc - 1) if a.extra else (x[:0], y[:0])
    try:
        xv, yv = load_split(a.data, "val")
    except SystemExit:
        xv, yv = x[:0], y[:0]
    print(
        f"train crops {len(x)} + extra {len(xr)}, val {len(xv)}; "
        f"per class min {np.bincount(y, minlength=nc).min()}",
        flush=True,
    )
    model = TileClassifier(nc, a.width)
    if a.init_onnx:
        print("init from", a.init_onnx, load_onnx(model, a.init_onnx, torch.rand(2, 3, 64, 48)), flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=5e-4)
    ck = out / "last.pt"
    start = resume(ck, model, opt)
    g = torch.Generator().manual_seed(a.seed + start)
    rs = np.random.default_rng([a.seed, start])
    wts = balanced(y, nc)  # class-balanced sampling, within each source
    wr = balanced(yr, nc) if len(yr) else None
    n_extra = round(a.bs * a.extra_frac) if len(yr) else 0
    t0 = time.time()
    model.train()
    if a.init_onnx:
        freeze_bn(model)
    for it in range(start, a.iters):
        lr = set_lr(opt, a.lr, it, a.iters, warmup=a.warmup)
        idx = rs.choice(len(x), a.bs - n_extra, p=wts)
        xb, yb = x[idx], y[idx]
        if n_extra:
            jdx = rs.choice(len(xr), n_extra, p=wr)
            xb, yb = np.concatenate([xb, xr[jdx]]), np.concatenate([yb, yr[jdx]])
        xb = augment(to_tensor(xb), g, a.rot180, a.hue_p, a.perm_p, a.ink_p)
        if a.grey:
            xb = grey(xb)
        loss = F.cross_entropy(model(xb), torch.from_numpy(yb), label_smoothing=0.05)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if it % 50 == 0:
            print(f"it {it} loss {loss.item():.3f} lr {lr:.5f} {time.time() - t0:.0f}s", flush=True)
        if (it + 1) % a.ckpt_every == 0 or it + 1 == a.iters:
            save_checkpoint(ck, model, opt, it + 1, a.width)
    if len(xv):
        acc, conf = evaluate(model, xv, yv, luma=a.grey)
        print(f"val accuracy {acc:.4f}", flush=True)
        (out / "val_confusion.json").write_text(
            json.dumps({"accuracy": acc, "classes": classes, "confusion": conf.tolist()})
        )
    torch.save({"model": model.state_dict(), "width": a.width, "classes": classes}, out / "final.pt")


if __name__ == "__main__":
    main()
