"""One command: generate data, train both models, export ONNX, write the evaluation report.

    python -m datasets.make_all --config datasets/config.toml [--steps gen cls loc export eval]

The classifier and the localiser train side by side (one process each); both checkpoint and resume,
so re-running the command continues where it stopped.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tomllib
from pathlib import Path

STEPS = ["gen", "cls", "loc", "export", "eval"]


def _py(module, *args):
    return [sys.executable, "-m", module, *map(str, args)]


def _gen(d: dict, seed) -> list[str]:
    return _py(
        "datasets.gen",
        "--out",
        d["out"],
        "--scenes",
        d["scenes"],
        "--val",
        d["val"],
        "--seed",
        seed,
        "--workers",
        d.get("workers", 2),
        "--save-side",
        d.get("save_side", 640),
        "--crops-per-tile",
        d.get("crops_per_tile", 2),
        "--render",
        *(f"{k}={str(v).lower()}" for k, v in d.get("render", {}).items()),
    )


def plan(cfg: dict) -> dict[str, list[list[str]]]:
    """The commands of each step. `[localizer.data]` (optional) overrides `[data]` keys for the
    localiser's own scenes (its own `out`, its own `render` table), generated in the gen step too."""
    d, c, lo, ex = cfg["data"], cfg["classifier"], cfg["localizer"], cfg["export"]
    seed = cfg.get("seed", 1)
    loc_d = {**d, **lo.get("data", {})}
    gens = [_gen(d, seed)] + ([_gen(loc_d, seed)] if loc_d["out"] != d["out"] else [])
    return {
        "gen": gens,
        "cls": [
            _py(
                "datasets.train_cls",
                "--data",
                d["out"],
                "--out",
                c["out"],
                "--iters",
                c["iters"],
                "--bs",
                c["bs"],
                "--lr",
                c["lr"],
                "--width",
                c["width"],
                "--threads",
                c.get("threads", 1),
                "--seed",
                seed,
            )
        ],
        "loc": [
            _py(
                "datasets.train_loc",
                "--data",
                loc_d["out"],
                "--out",
                lo["out"],
                "--size",
                lo["size"],
                "--iters",
                lo["iters"],
                "--bs",
                lo["bs"],
                "--lr",
                lo["lr"],
                "--width",
                lo["width"],
                "--threads",
                lo.get("threads", 1),
                "--zoom-p",
                lo.get("zoom_p", 0.0),
                "--seed",
                seed,
            )
        ],
        "export": [
            _py(
                "datasets.export",
                "--cls",
                Path(c["out"]) / "final.pt",
                "--loc",
                Path(lo["out"]) / "final.pt",
                "--out",
                ex["out"],
                "--size",
                lo["size"],
                "--crop",
                *c["crop"],
                "--version",
                cfg.get("version", "dev"),
            )
        ],
        "eval": [
            _py(
                "datasets.eval_report",
                "--models",
                ex["out"],
                "--data",
                d["out"],
                "--out",
                cfg["eval"]["report"],
            )
        ],
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--config", default="datasets/config.toml")
    ap.add_argument("--steps", nargs="*", default=STEPS, choices=STEPS)
    ap.add_argument("--dry-run", action="store_true")
    a = ap.parse_args(argv)
    cfg = tomllib.loads(Path(a.config).read_text())
    cmds = plan(cfg)
    steps = list(a.steps)
    if a.dry_run:
        for s in steps:
            for cmd in cmds[s]:
                print(" ".join(cmd))
        return 0
    if "gen" in steps:
        for cmd in cmds["gen"]:
            subprocess.run(cmd, check=True)
    train = [s for s in ("cls", "loc") if s in steps]
    procs = [subprocess.Popen(cmds[s][0]) for s in train]
    for p in procs:
        if p.wait() != 0:
            raise SystemExit(f"training failed: {p.args}")
    for s in ("export", "eval"):
        if s in steps:
            subprocess.run(cmds[s][0], check=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
