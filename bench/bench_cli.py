"""Whole-process CLI benchmark (not a timed test): `jxmj score -` and `jxmj --help` as fresh
processes, wall time and peak memory (RSS) of each, median / min / max over runs, and the heavy
stacks each imported (numpy, cv2, onnxruntime, PIL, streamlit: none is the aim). Targets:
<= 0.2 s and <= 25 MB per process.

With ``--vs DIR`` (another checkout, e.g. ``git worktree add /tmp/old main``) the same commands
run from that tree too, interleaved run by run (A B A B ...), with the ratio pair by pair, so a
comparison holds while a shared machine's speed drifts. The load average is printed first.

Usage: python bench/bench_cli.py [--runs N] [--vs DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numpy", "cv2", "onnxruntime", "PIL", "streamlit")
HAND = {
    "variant": "xingzi",
    "concealed": "234m567p678s99s",
    "winning_tile": "6s",
    "melds": [{"kind": "pung", "tiles": "777p"}],
    "self_drawn": True,
    "payers": [{"name": "a", "is_dealer": True}, {"name": "b"}, {"name": "c"}],
}
COMMANDS = {"score -": ["score", "-"], "--help": ["--help"]}


def run_once(tree: Path, args: list[str], stdin: bytes) -> tuple[float, float]:
    """One process `python -m app ARGS` from `tree`: (wall seconds, peak RSS MB)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    t0 = time.perf_counter()
    p = subprocess.Popen(
        [sys.executable, "-m", "app", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=tree,
        env=env,
    )
    p.stdin.write(stdin)  # type: ignore[union-attr]
    p.stdin.close()  # type: ignore[union-attr]
    _, _, usage = os.wait4(p.pid, 0)
    p.returncode = 0
    return time.perf_counter() - t0, usage.ru_maxrss / 1024


def heavy_imports(tree: Path, args: list[str], stdin: bytes) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "app", *args],
        input=stdin,
        capture_output=True,
        cwd=tree,
        env=env,
    )
    names = {
        ln.rsplit(b"|", 1)[1].strip().decode()
        for ln in out.stderr.splitlines()
        if ln.startswith(b"import time:")
    }
    return sorted({n.split(".")[0] for n in names} & set(HEAVY))


def fmt(xs: list[float], unit: str, scale: float = 1.0) -> str:
    xs = [x * scale for x in xs]
    return f"{statistics.median(xs):7.3f} {unit} median (min {min(xs):.3f}, max {max(xs):.3f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--vs", type=Path, help="another checkout to compare with, interleaved")
    a = ap.parse_args()
    trees = {"this": ROOT} | ({"vs": a.vs.resolve()} if a.vs else {})
    stdin = json.dumps(HAND).encode()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    for label, args in COMMANDS.items():
        for tree in trees.values():  # warm-up (file cache)
            run_once(tree, args, stdin)
        walls: dict[str, list[float]] = {k: [] for k in trees}
        rss: dict[str, list[float]] = {k: [] for k in trees}
        for _ in range(a.runs):
            for k, tree in trees.items():
                w, m = run_once(tree, args, stdin)
                walls[k].append(w)
                rss[k].append(m)
        print(f"jxmj {label}: {a.runs} processes each")
        for k, tree in trees.items():
            print(f"  {k:4} wall {fmt(walls[k], 's')}; peak RSS {fmt(rss[k], 'MB')}")
            print(f"       heavy stacks imported: {', '.join(heavy_imports(tree, args, stdin)) or 'none'}")
        if a.vs:
            ratios = [x / y for x, y in zip(walls["this"], walls["vs"], strict=True)]
            print(f"  this/vs wall, pair by pair: {fmt(ratios, 'x')}")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} after")


if __name__ == "__main__":
    main()
