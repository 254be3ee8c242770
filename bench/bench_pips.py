#!/usr/bin/env python3
"""Benchmark: the reader with the pip check (`ReaderConfig.pips_min_conf`) against without it,
interleaved photo by photo (as `bench_interleaved.py`: on a shared machine the load of a minute
falls on both alike).

    .venv/bin/python bench/bench_pips.py --rounds 3 --json datasets/reports/pips-bench.json

Per photo (at least `--min-mp` megapixels) and contender the best wall time of `--rounds` counts;
the summary is the median over photos, and the ratio on / off. Without `../shared` it says so and
exits 0.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_detect import DEFAULT_IMAGES, EXTS, jxmj_reader, pin_cores
from bench_interleaved import load


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--images", default=str(DEFAULT_IMAGES))
    ap.add_argument("--models", default=None)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--min-mp", type=float, default=11.0)
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    folder = Path(a.images)
    if not folder.is_dir():
        print(f"no photos at {folder}: nothing to time")
        return 0
    from PIL import Image

    from vision import TileReader
    from vision.pips_check import PIPS_MIN_CONF

    pin_cores(a.cores)
    paths = [
        p
        for p in sorted(folder.iterdir())
        if p.suffix.lower() in EXTS and Image.open(p).size[0] * Image.open(p).size[1] >= a.min_mp * 1e6
    ]
    off, label = jxmj_reader(a.models, a.cores)
    on = TileReader(off.directory, replace(off.config, pips_min_conf=PIPS_MIN_CONF))
    datas = [p.read_bytes() for p in paths]
    best: dict[str, list[float]] = {"off": [float("inf")] * len(paths), "on": [float("inf")] * len(paths)}
    for reader in (off, on):
        reader.read(datas[0])  # warm-up
    print(label, f"{len(paths)} photos; load {load()}")
    for r in range(a.rounds):
        for k, data in enumerate(datas):
            turns = (("off", off), ("on", on)) if (r + k) % 2 == 0 else (("on", on), ("off", off))
            for name, reader in turns:
                t0 = time.perf_counter()
                reader.read(data)
                best[name][k] = min(best[name][k], (time.perf_counter() - t0) * 1000)
        print(f"round {r + 1}: load {load()}")
    med = {k: statistics.median(v) for k, v in best.items()}
    out = {
        "photos": len(paths),
        "median_ms": {k: round(v, 1) for k, v in med.items()},
        "ratio_on_off": round(med["on"] / med["off"], 3),
        "pips_min_conf": PIPS_MIN_CONF,
        "load_end": load(),
    }
    print(json.dumps(out))
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
