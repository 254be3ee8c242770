"""One command: generate data, train both models, export ONNX, write the evaluation report.

    python -m datasets.make_all --config datasets/config.toml [--steps gen real cls loc export calibrate eval]

The classifier and the localiser train side by side (one process each); both checkpoint and resume,
so re-running the command continues where it stopped. A recipe with a `[real]` table (0.6.0 on)
also builds the real-photo set and the hard negatives (`real` step), fine-tunes from the ONNX files
named by `init_onnx`, and calibrates the classifier's uncertainty flag on the real validation part.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tomllib
from pathlib import Path

STEPS = ["gen", "real", "cls", "loc", "export", "calibrate", "eval"]


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


def resolve(path: str) -> str:
    """A recipe path; `git:REV:PATH` is that file as committed at REV, copied out under
    `datasets/out/git/REV/` (the shipped models a fine-tune starts from stay reproducible after
    `models/` moves on)."""
    if not path.startswith("git:"):
        return path
    _, rev, inner = path.split(":", 2)
    dest = Path("datasets/out/git") / rev / inner
    if not dest.exists():
        dest.parent.mkdir(parents=True, exist_ok=True)
        blob = subprocess.run(["git", "show", f"{rev}:{inner}"], check=True, capture_output=True).stdout
        dest.write_bytes(blob)
    return str(dest)


def _opt(table: dict, key: str, flag: str | None = None) -> list[str]:
    """`--flag value` when `key` is in the recipe table (`true` -> a bare flag), else nothing."""
    if key not in table:
        return []
    flag = flag or "--" + key.replace("_", "-")
    v = table[key]
    if isinstance(v, bool):
        return [flag] if v else []
    return [flag, str(v)]


def resolve_arg(arg: str) -> str:
    """A command argument as run: `git:REV:FILE.onnx` -> that file copied out (`resolve`);
    `git:REV:DIR` -> DIR's two ONNX files copied out, and their folder; anything else as it is."""
    if not arg.startswith("git:"):
        return arg
    if arg.endswith(".onnx"):
        return resolve(arg)
    for name in ("localizer.onnx", "classifier.onnx"):
        path = resolve(f"{arg}/{name}")
    return str(Path(path).parent)


def _run(cmd: list[str]) -> None:
    subprocess.run([resolve_arg(x) for x in cmd], check=True)


def _real(cfg: dict) -> tuple[list[list[str]], list[str], list[str]]:
    """The `real` step's commands, and the extra options of the classifier and localiser trainers."""
    r = cfg.get("real")
    if not r:
        return [], [], []
    d, seed = cfg["data"], cfg.get("seed", 1)
    cmds = [
        _py(
            "datasets.real",
            "--out",
            r["out"],
            "--seed",
            seed,
            "--val-frac",
            r["val_frac"],
            "--models",
            r["models"],
            "--jitter-crops",
            r["jitter_crops"],
            "--drop-p",
            r["drop_p"],
        ),
        _py("datasets.negatives", "--data", d["out"], "--seed", seed),
    ]
    out = Path(r["out"])
    cls = [
        "--extra",
        str(out / "cls" / "train.npz"),
        "--synth-extra",
        str(Path(d["out"]) / "cls" / "none_train.npz"),
    ]
    return cmds, cls, ["--extra-data", str(out)]


def plan(cfg: dict) -> dict[str, list[list[str]]]:
    """The commands of each step. `[localizer.data]` (optional) overrides `[data]` keys for the
    localiser's own scenes (its own `out`, its own `render` table), generated in the gen step too."""
    d, c, lo, ex = cfg["data"], cfg["classifier"], cfg["localizer"], cfg["export"]
    seed = cfg.get("seed", 1)
    loc_d = {**d, **lo.get("data", {})}
    gens = [_gen(d, seed)] + ([_gen(loc_d, seed)] if loc_d["out"] != d["out"] else [])
    real, cls_extra, loc_extra = _real(cfg)
    tuning = ("init_onnx", "none", "extra_frac", "rot180", "warmup", "hue_p", "perm_p", "ink_p")
    cls_opts = cls_extra + [x for k in tuning for x in _opt(c, k)]
    loc_opts = loc_extra + [x for k in tuning for x in _opt(lo, k)]
    cal = cfg.get("calibrate")
    return {
        "gen": gens,
        "real": real,
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
                *cls_opts,
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
                *loc_opts,
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
                *_opt(ex, "refine_size"),
            )
        ],
        "calibrate": (
            [
                _py(
                    "datasets.calibrate",
                    "--models",
                    ex["out"],
                    "--real",
                    cfg["real"]["out"],
                    "--target-right",
                    cal.get("target_right", 0.05),
                    *_opt(cal, "set_rule"),
                    *_opt(cal, "score"),
                )
            ]
            if cal
            else []
        ),
        "eval": [
            # with real photos (0.6.0 on): the runtime reader on our real validation part, the
            # riichi photo, the collages and the judge rows; before: the reference predictor
            _py(
                "datasets.eval_real",
                "--models",
                ex["out"],
                "--real",
                cfg["real"]["out"],
                "--sets",
                "val",
                "val_small",
                "riichi",
                "collages",
                "rows",
                "rows_upside_down",
                "--collages-limit",
                256,
                "--json",
                cfg["eval"]["report"],
            )
            if cfg.get("real")
            else _py(
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
    for s in ("gen", "real"):
        if s in steps:
            for cmd in cmds[s]:
                _run(cmd)
    train = [s for s in ("cls", "loc") if s in steps]
    procs = [subprocess.Popen([resolve_arg(x) for x in cmds[s][0]]) for s in train]
    for p in procs:
        if p.wait() != 0:
            raise SystemExit(f"training failed: {p.args}")
    for s in ("export", "calibrate", "eval"):
        if s in steps:
            for cmd in cmds[s]:
                _run(cmd)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
