#!/usr/bin/env python3
"""Benchmark: in-process latency per photo (decode + detect + classify), jxmj vs mahjong-detector.

    .venv/bin/python bench/bench_detect.py                      # photos of ../shared, models/
    .venv/bin/python bench/bench_detect.py --images DIR --repeat 5 --json bench/out/detect.json
    .venv/bin/python bench/bench_detect.py --models NEW --baseline OLD   # two model versions, one run
    .venv/bin/python bench/bench_detect.py --baseline-min-side 2000      # the same models decoded at 1/2
    .venv/bin/python bench/bench_detect.py --refs 200   # also each photo read with 200 references

The contenders take turns photo by photo in one run (jxmj, then mahjong-detector, then the next
photo), so that both see the same load; each row prints the load average.

What is timed, per photo: the encoded file already in memory -> tile codes, in the same
process after one warm-up call (sessions created beforehand), the best of `--repeat` runs
(wall time, and process CPU time beside it); the summary is the median over photos. Only
photos of at least `--min-mp` megapixels count (default 11: the 12-megapixel 4032x3024 phone
photos); `--min-mp 0` takes every photo.
Both detectors are pinned to the same `--cores` CPUs (default 2) when the machine has more.

- jxmj: `vision.get_reader().read(bytes)` with the models of models/ (or `--models DIR`);
  without trained models it runs the tiny stand-in models of `vision.testing` (pipeline cost
  only, says so in the output).
- `--refs N`: N references (`vision.refs`; the first photos' own detections, their true tile
  taken to be the one read) are embedded once (`refs_embed_ms`, what a table's first photo with
  references costs: each reference photo decoded and its boxes classified), then every photo
  is timed again read with them, in the same run (`jxmj_refs`).
- mahjong-detector 0.0.6 (PyPI): `detect_tiles(Image.open(bytes))`, run inside a Python that
  has it (`--mjd-python`, else $MJD_PYTHON, else /tmp/mjd-venv/bin/python, else this Python if
  it imports); it needs only pillow, numpy, onnxruntime, but is kept out of the project's
  venv. Set one up with: `python3 -m venv /tmp/mjd-venv && /tmp/mjd-venv/bin/pip install
  mahjong-detector==0.0.6`. Skipped with a message when unavailable.

Photos default to `../shared/data/real_rows_public/images` next to the repository; when
that folder is missing the benchmark says so and exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("JXMJ_SHARED", REPO.parent / "shared"))  # as datasets.tiles.SHARED
DEFAULT_IMAGES = SHARED / "data" / "real_rows_public" / "images"
MJD_VENV_PYTHON = Path("/tmp/mjd-venv/bin/python")
EXTS = {".jpg", ".jpeg", ".png", ".webp", ".heic", ".heif"}


def pin_cores(n: int) -> str:
    """Restrict this process (and its onnxruntime threads) to the first `n` CPUs."""
    try:
        cpus = sorted(os.sched_getaffinity(0))
        if n and len(cpus) > n:
            os.sched_setaffinity(0, cpus[:n])
        return ",".join(map(str, sorted(os.sched_getaffinity(0))))
    except (AttributeError, OSError):
        return "?"


def time_calls(fn, datas: list[bytes], repeat: int) -> tuple[list[float], list[float]]:
    """Best-of-`repeat` wall time and process CPU time, in ms, of `fn(data)` for each data.

    One warm-up call first. CPU time (all threads of the process) is reported beside the
    wall time because a shared machine inflates wall time but hardly CPU time.
    """
    fn(datas[0])
    wall, cpu = [], []
    for data in datas:
        best_w = best_c = float("inf")
        for _ in range(repeat):
            t, c = time.perf_counter(), time.process_time()
            fn(data)
            best_w = min(best_w, time.perf_counter() - t)
            best_c = min(best_c, time.process_time() - c)
        wall.append(best_w * 1000.0)
        cpu.append(best_c * 1000.0)
    return wall, cpu


# -- mahjong-detector (runs in its own interpreter) ------------------------------------------


def mjd_worker(repeat: int, cores: int) -> None:
    """Time mahjong-detector in this process, one photo per path read from stdin; print
    {"cores"} first, then {"ms", "cpu_ms", "tiles"} per photo, as JSON lines."""
    import io

    from mahjong_detector import detect_tiles
    from PIL import Image

    print(json.dumps({"cores": pin_cores(cores)}), flush=True)

    def call(data: bytes):
        return detect_tiles(Image.open(io.BytesIO(data)))

    for line in sys.stdin:
        data = Path(line.strip()).read_bytes()
        ms, cpu = time_calls(call, [data], repeat)
        print(json.dumps({"ms": ms[0], "cpu_ms": cpu[0], "tiles": len(call(data))}), flush=True)


def find_mjd_python(given: str | None) -> str | None:
    for cand in (given, os.environ.get("MJD_PYTHON"), str(MJD_VENV_PYTHON)):
        if cand and Path(cand).exists():
            return cand
    try:
        import mahjong_detector  # noqa: F401

        return sys.executable
    except ImportError:
        return None


class MjdWorker:
    """mahjong-detector in its own interpreter, timing one photo at a time when asked (so that
    the two detectors take turns photo by photo, under the same load)."""

    def __init__(self, python: str, repeat: int, cores: int) -> None:
        cmd = [python, str(Path(__file__).resolve()), "--worker-mjd", "--repeat", str(repeat)]
        self.proc = subprocess.Popen(
            [*cmd, "--cores", str(cores)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.cores = json.loads(self.proc.stdout.readline())["cores"]

    def time(self, path: Path) -> dict:
        self.proc.stdin.write(f"{path}\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


# -- jxmj -------------------------------------------------------------------------------------


def jxmj_reader(models: str | None, cores: int, min_side: int | None = None):
    """`(reader, label)`: the trained models if present, else the stand-in ones (`min_side`:
    `ReaderConfig.decode_min_side`, default the reader's)."""
    import tempfile

    from vision import ModelError, ReaderConfig, TileReader
    from vision import testing as stand_in

    config = ReaderConfig(threads=cores or None)
    if min_side is not None:
        config = replace(config, decode_min_side=min_side)
    try:
        reader = TileReader(models, config)
        versions = f"localizer {reader.localizer.version}, classifier {reader.classifier.version}"
        return reader, f"models in {reader.directory}: {versions}"
    except ModelError as exc:
        print(f"jxmj: {exc}\njxmj: using the tiny stand-in models (pipeline cost only, no real reading)")
        d = Path(tempfile.mkdtemp(prefix="jxmj-bench-"))
        scene = stand_in.hand_scene(4032, 3024)
        stand_in.build_models(d, scene, (4032, 3024), localizer_size=256, classifier_size=(64, 48))
        return TileReader(d, config), "STAND-IN models"


def time_refs(reader, photos, datas, n: int, repeat: int) -> dict | None:
    """Embed `n` references cut from the photos' own detections once, then time every photo read
    with them (see the module docstring); None when the classifier has no embedding output."""
    from vision.refs import Ref

    if not reader.embeds:
        print("jxmj: the classifier has no embedding output; --refs skipped")
        return None
    found: list[Ref] = []
    for (p, _), d in zip(photos, datas, strict=True):
        found += [Ref(p, x.xyxy, x.tile) for x in reader.read(d).detections if x.tile != "back"]
        if len(found) >= n:
            break
    if not found:
        print("jxmj: no tiles read to make references of; --refs skipped")
        return None
    refs = (found * (n // len(found) + 1))[:n]
    t0 = time.perf_counter()
    refset = reader.embed_refs(refs)
    embed_ms = (time.perf_counter() - t0) * 1000.0
    ms, cpu = time_calls(lambda data: reader.read(data, refset), datas, repeat)
    return {
        "refs": len(refs),
        "ref_photos": len({r.image for r in refs}),
        "refs_embed_ms": embed_ms,
        "ms": ms,
        "cpu_ms": cpu,
        "median_ms": statistics.median(ms),
        "median_cpu_ms": statistics.median(cpu),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", help=argparse.SUPPRESS)
    ap.add_argument("--images", default=str(DEFAULT_IMAGES), help="folder of photos")
    ap.add_argument("--models", default=None, help="models directory (default: models/)")
    ap.add_argument("--baseline", default=None, help="a second models directory timed in the same run")
    ap.add_argument(
        "--baseline-min-side", type=int, default=None, help="the baseline reads with this decode_min_side"
    )
    ap.add_argument("--repeat", type=int, default=5, help="runs per photo (best counts)")
    ap.add_argument("--cores", type=int, default=2, help="CPUs to pin both detectors to (0: all)")
    ap.add_argument("--min-mp", type=float, default=11.0, help="only photos of at least this many megapixels")
    ap.add_argument("--mjd-python", default=None, help="a Python with mahjong-detector 0.0.6 installed")
    ap.add_argument("--no-mjd", action="store_true", help="skip mahjong-detector")
    ap.add_argument("--json", default=None, help="write the numbers here")
    ap.add_argument("--refs", type=int, default=0, metavar="N", help="also time reading with N references")
    ap.add_argument("--worker-mjd", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)

    if a.worker_mjd:
        mjd_worker(a.repeat, a.cores)
        return 0

    images = Path(a.images)
    if not images.is_dir():
        print(f"bench_detect: no photos at {images} (shared data absent); skipped")
        return 0
    from PIL import Image

    photos = []
    for p in sorted(images.iterdir()):
        if p.suffix.lower() in EXTS:
            with Image.open(p) as im:
                mp = im.size[0] * im.size[1] / 1e6
            if mp >= a.min_mp:
                photos.append((p, mp))
    if not photos:
        print(f"bench_detect: no photos of {a.min_mp}+ megapixels in {images}; skipped")
        return 0

    used = pin_cores(a.cores)
    import cv2

    if a.cores:
        cv2.setNumThreads(a.cores)
    reader, label = jxmj_reader(a.models, a.cores)
    datas = [p.read_bytes() for p, _ in photos]
    print(f"{len(photos)} photos of {a.min_mp}+ MP from {images}; CPUs {used}; best of {a.repeat}")

    stages: list[dict[str, float]] = []

    def jxmj_call(data: bytes):
        r = reader.read(data)
        stages.append(r.timing_ms)
        return r

    worker = None
    if not a.no_mjd:
        py = find_mjd_python(a.mjd_python)
        if py is None:
            print("mahjong-detector: not installed (see --mjd-python); skipped")
        else:
            try:
                worker = MjdWorker(py, a.repeat, a.cores)
            except (OSError, ValueError) as exc:
                print(f"mahjong-detector: worker failed to start ({exc}); skipped")
    jx_ms, jx_cpu, loads = [], [], []
    results: dict = {}
    base = None
    if a.baseline or a.baseline_min_side is not None:
        base, base_label = jxmj_reader(a.baseline or a.models, a.cores, a.baseline_min_side)
        if a.baseline_min_side is not None:
            base_label += f", decode_min_side {a.baseline_min_side}"
    b_ms, b_cpu = [], []
    mjd = {"cores": worker.cores, "ms": [], "cpu_ms": [], "tiles": []} if worker else None
    for (p, _), data in zip(photos, datas, strict=True):  # photo by photo: jxmj, then the peer
        ms, cpu = time_calls(jxmj_call, [data], a.repeat)
        jx_ms.append(ms[0])
        jx_cpu.append(cpu[0])
        if base is not None:
            ms, cpu = time_calls(base.read, [data], a.repeat)
            b_ms.append(ms[0])
            b_cpu.append(cpu[0])
        if worker:
            for k, v in worker.time(p).items():
                mjd[k].append(v)
        loads.append(os.getloadavg()[0])
    if worker:
        worker.close()
        results["mahjong-detector 0.0.6"] = mjd
    jx_tiles = [len(reader.read(d).detections) for d in datas]
    results["jxmj"] = {"models": label, "ms": jx_ms, "cpu_ms": jx_cpu, "tiles": jx_tiles}

    if a.refs:
        results["jxmj_refs"] = time_refs(reader, photos, datas, a.refs, a.repeat)

    if base is not None:
        b_med = statistics.median(b_ms)
        results["baseline"] = {"models": base_label, "ms": b_ms, "cpu_ms": b_cpu, "median_ms": b_med}

    head = f"{'photo':22s} {'MP':>5s} {'jxmj ms':>8s} {'cpu ms':>7s} {'tiles':>5s}  {'load':>10s}"
    head += f"  {'base ms':>12s}" if base is not None else ""
    print(head + ("  {:>7s} {:>7s} {:>5s}".format("mjd ms", "cpu ms", "tiles") if mjd else ""))
    for k, (p, mp) in enumerate(photos):
        line = f"{p.name:22s} {mp:5.1f} {jx_ms[k]:8.1f} {jx_cpu[k]:7.1f} {jx_tiles[k]:5d}"
        line += f"  {loads[k]:10.2f}"
        line += f"  {b_ms[k]:12.1f}" if base is not None else ""
        if mjd:
            line += f"  {mjd['ms'][k]:7.1f} {mjd['cpu_ms'][k]:7.1f} {mjd['tiles'][k]:5d}"
        print(line)
    med, med_cpu = statistics.median(jx_ms), statistics.median(jx_cpu)
    by_stage = {s: statistics.median(t[s] for t in stages) for s in ("decode", "detect", "classify")}
    print(
        f"jxmj ({label}): median {med:.1f} ms per photo, CPU {med_cpu:.1f} ms "
        f"(stage medians: decode {by_stage['decode']:.1f}, detect {by_stage['detect']:.1f}, "
        f"classify {by_stage['classify']:.1f}); target <= 150 ms: {'met' if med <= 150 else 'NOT met'}"
    )
    if base is not None:
        b_med = results["baseline"]["median_ms"]
        print(
            f"baseline ({results['baseline']['models']}): median {b_med:.1f} ms per photo, CPU "
            f"{statistics.median(results['baseline']['cpu_ms']):.1f} ms; "
            f"jxmj takes {med / b_med:.2f}x its time"
        )
    if mjd:
        mmed, mcpu = statistics.median(mjd["ms"]), statistics.median(mjd["cpu_ms"])
        print(
            f"mahjong-detector 0.0.6: median {mmed:.1f} ms per photo, CPU {mcpu:.1f} ms; "
            f"jxmj is {mmed / med:.2f}x its speed"
        )
        results["mahjong-detector 0.0.6"]["median_ms"] = mmed
        results["mahjong-detector 0.0.6"]["median_cpu_ms"] = mcpu
    if results.get("jxmj_refs"):
        r = results["jxmj_refs"]
        print(
            f"jxmj with {r['refs']} references: median {r['median_ms']:.1f} ms per photo, CPU "
            f"{r['median_cpu_ms']:.1f} ms ({r['median_ms'] / med:.2f}x without); embedding them once: "
            f"{r['refs_embed_ms']:.1f} ms"
        )
    results["jxmj"]["median_ms"] = med
    results["jxmj"]["median_cpu_ms"] = med_cpu
    results["jxmj"]["stage_median_ms"] = by_stage
    results["photos"] = [p.name for p, _ in photos]
    results["load_average"] = loads
    print("load average (1 min) during the run: " + " ".join(f"{v:.2f}" for v in loads))
    results["cpus"] = used
    if a.json:
        Path(a.json).parent.mkdir(parents=True, exist_ok=True)
        Path(a.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
