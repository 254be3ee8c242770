#!/usr/bin/env python3
"""Summarise py-spy's collapsed stacks (`bench/bench_load.py --profile FILE`): where a burst's
server CPU went.

    .venv/bin/python bench/profile_summary.py FILE [--top 40] [--under NAME] [--photos N]

Printed: samples per thread kind (the script runs, the event loop, ONNX Runtime's pool), then
the functions by inclusive samples (each function counted once per stack, by name and file, line
left out) and by own samples. `--under NAME`: only stacks through a function whose name holds
NAME (e.g. `read_photo`). `--photos N`: also each line as seconds per photo (at the sampling rate
`--rate`, 200 by default, as `load_server.start_profile` records).
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

FRAME = re.compile(r"^(?P<name>.*?) \((?P<file>[^:()]*)(?::\d+)?\)$")


def frames(stack: str) -> list[str]:
    """`name (file)` of each frame, the process and thread frames left out, the line number dropped."""
    out = []
    for part in stack.split(";"):
        if part.startswith(("process ", "thread ")):
            continue
        m = FRAME.match(part)
        out.append(f"{m['name']} ({m['file']})" if m else part)
    return out


def thread_kind(stack: str) -> str:
    for part in stack.split(";"):
        if part.startswith("thread "):
            name = part.split(":", 1)[-1].strip()
            return re.sub(r"[-_]?\d+$", "", name) or "thread"
    return "?"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", type=Path)
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--under", default="")
    ap.add_argument("--photos", type=int, default=0)
    ap.add_argument("--rate", type=int, default=200)
    opts = ap.parse_args(argv)
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    total = 0
    for line in opts.file.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        n = int(count)
        fs = frames(stack)
        if opts.under and not any(opts.under in f.split(" (")[0] for f in fs):
            continue
        total += n
        kinds[thread_kind(stack)] += n
        for f in set(fs):
            inclusive[f] += n
        if fs:
            own[fs[-1]] += n

    def show(n: int) -> str:
        per = f"  {n / opts.rate / opts.photos:6.3f} s/photo" if opts.photos else ""
        return f"{n:7d} {100 * n / max(1, total):5.1f}%{per}"

    under = f", under {opts.under}" if opts.under else ""
    print(f"{total} samples ({total / opts.rate:.1f} s at {opts.rate}/s){under}")
    for k, n in kinds.most_common():
        print(f"  {show(n)}  thread {k}")
    print("inclusive:")
    for f, n in inclusive.most_common(opts.top):
        print(f"  {show(n)}  {f}")
    print("own:")
    for f, n in own.most_common(opts.top // 2):
        print(f"  {show(n)}  {f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
