"""What both trainers share: their common options, resume from `last.pt`, the learning-rate schedule."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import torch


def add_common_args(
    ap: argparse.ArgumentParser, *, out: str, iters: int, bs: int, lr: float, width: int, ckpt_every: int
) -> None:
    """The options every trainer takes, with that trainer's defaults."""
    ap.add_argument("--data", default="datasets/out/data")
    ap.add_argument("--out", default=out)
    ap.add_argument("--iters", type=int, default=iters)
    ap.add_argument("--bs", type=int, default=bs)
    ap.add_argument("--lr", type=float, default=lr)
    ap.add_argument("--width", type=int, default=width)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ckpt-every", type=int, default=ckpt_every)


def setup_run(a: argparse.Namespace) -> Path:
    """Apply the common options ``--threads`` and ``--seed`` to torch; the ``--out`` folder, made."""
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    return out


def resume(ck: Path, model: torch.nn.Module, opt: torch.optim.Optimizer) -> int:
    """Load model and optimiser state from checkpoint `ck` if it exists; the iteration to start at."""
    if not ck.exists():
        return 0
    s = torch.load(ck, map_location="cpu")
    model.load_state_dict(s["model"])
    opt.load_state_dict(s["opt"])
    print(f"resumed at {s['iter']}", flush=True)
    return s["iter"]


def set_lr(opt: torch.optim.Optimizer, base: float, it: int, total: int, warmup: int) -> float:
    """Linear warm-up for `warmup` iterations, then cosine decay to 0 at `total`; returns the rate."""
    lr = base * 0.5 * (1 + math.cos(math.pi * it / total)) if it > warmup else base * (it + 1) / warmup
    for pg in opt.param_groups:
        pg["lr"] = lr
    return lr


def save_checkpoint(
    ck: Path, model: torch.nn.Module, opt: torch.optim.Optimizer, it: int, width: int
) -> None:
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "iter": it, "width": width}, ck)
