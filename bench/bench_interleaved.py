#!/usr/bin/env python3
"""Benchmark: two models directories, each with and without N references, interleaved per photo.

    .venv/bin/python bench/bench_interleaved.py --models models --baseline OLD --refs 200
    .venv/bin/python bench/bench_interleaved.py   # models/ vs models/ without flag.npz

`bench/bench_detect.py --baseline` times one reader over every photo, then the other: on a shared
machine whichever runs first pays the load of that minute (measured: 1.24x one way round, 0.85x
the other). Here every photo is read by the four contenders in turn (`models`, `models` with
references, `baseline`, `baseline` with references; the order reversed every other turn), round
after round (`--rounds`); per photo and contender the best wall and process CPU time counts, the
summary is the median over photos, as `bench_detect` sums up. The load average is printed before,
after every round and at the end. The photos, the references (the first photos' own readings, as
`bench_detect --refs` makes them) and the pinning to `--cores` CPUs are `bench_detect`'s.
Without `../shared` it says so and exits 0.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_detect import DEFAULT_IMAGES, EXTS, jxmj_reader, pin_cores


def load() -> str:
    """The first three fields of /proc/loadavg ("?" where there is none)."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def without_flag(models: Path) -> str:
    """A temporary copy of the models directory `models` without `flag.npz`: the flag before flag 2,
    every other file the same (how models 0.6.2 read)."""
    import tempfile

    out = Path(tempfile.mkdtemp(prefix="jxmj-noflag-"))
    for f in models.iterdir():
        if f.is_file() and f.name != "flag.npz":
            shutil.copy2(f, out / f.name)
    return str(out)


def references(reader, paths: list[Path], datas: list[bytes], n: int) -> list:
    """`n` references (`vision.refs.Ref`) cut from the first photos' own readings (repeated to `n`)."""
    from vision.refs import Ref

    found: list = []
    for p, d in zip(paths, datas, strict=True):
        found += [Ref(p, x.xyxy, x.tile) for x in reader.read(d).detections if x.tile != "back"]
        if len(found) >= n:
            break
    return (found * (n // max(1, len(found)) + 1))[:n]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--images", default=str(DEFAULT_IMAGES))
    ap.add_argument("--models", default="models")
    ap.add_argument(
        "--baseline", help="the models directory to compare with (default: --models without flag.npz)"
    )
    ap.add_argument("--refs", type=int, default=200, help="references for the 'with references' contenders")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--min-mp", type=float, default=11.0)
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    images = Path(a.images)
    if not images.is_dir():
        print(f"bench_interleaved: no photos at {images} (shared data absent); skipped")
        return 0
    from PIL import Image

    paths = []
    for p in sorted(images.iterdir()):
        if p.suffix.lower() in EXTS:
            with Image.open(p) as im:
                if im.size[0] * im.size[1] / 1e6 >= a.min_mp:
                    paths.append(p)
    pin_cores(a.cores)
    import cv2

    cv2.setNumThreads(a.cores)
    datas = [p.read_bytes() for p in paths]
    new, new_label = jxmj_reader(a.models, a.cores)
    made = None if a.baseline else without_flag(Path(a.models))
    base, base_label = jxmj_reader(a.baseline or made, a.cores)
    if made:
        shutil.rmtree(made, ignore_errors=True)  # the sessions hold the models in memory
    refs = references(new, paths, datas, a.refs)
    new_refs, base_refs = new.embed_refs(refs), base.embed_refs(refs)
    calls = {
        "models": lambda d: new.read(d),
        "models_refs": lambda d: new.read(d, new_refs),
        "baseline": lambda d: base.read(d),
        "baseline_refs": lambda d: base.read(d, base_refs),
    }
    for fn in calls.values():
        fn(datas[0])  # warm-up
    best = {k: [[float("inf"), float("inf")] for _ in datas] for k in calls}
    loads = [load()]
    print(f"{len(paths)} photos of {a.min_mp}+ MP, {len(refs)} references; load {loads[0]}", flush=True)
    for r in range(a.rounds):
        for i, d in enumerate(datas):
            for k in calls if (r + i) % 2 == 0 else reversed(calls):
                t, c = time.perf_counter(), time.process_time()
                calls[k](d)
                b = best[k][i]
                b[0] = min(b[0], (time.perf_counter() - t) * 1000.0)
                b[1] = min(b[1], (time.process_time() - c) * 1000.0)
        loads.append(load())
        print(f"round {r + 1}: load {loads[-1]}", flush=True)
    med = {k: tuple(statistics.median(x[j] for x in v) for j in (0, 1)) for k, v in best.items()}
    print(f"models: {new_label}\nbaseline: {base_label}")
    for k, (w, c) in med.items():
        bw, bc = med["baseline"]
        print(f"{k:14s} wall {w:7.1f} ms ({w / bw:.2f}x baseline)  CPU {c:7.1f} ms ({c / bc:.2f}x)")
    if a.json:
        out = {"photos": [p.name for p in paths], "refs": len(refs), "load": loads}
        out["median_ms"] = {k: {"wall": round(w, 1), "cpu": round(c, 1)} for k, (w, c) in med.items()}
        Path(a.json).write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
