#!/usr/bin/env python3
"""Benchmark: ONNX Runtime session knobs for the reader's two models, one knob at a time.

    .venv/bin/python bench/bench_ort.py                 # models/, 2 CPUs, 30 rounds
    .venv/bin/python bench/bench_ort.py --rounds 60 --models DIR --classifier-batch 40

Every variant is `vision.modelfiles.session_options(threads)` (what the reader ships) with one
knob changed: 1 intra-op thread, graph optimisation `basic` / `extended` instead of `all`, no
CPU memory arena, the parallel execution mode, busy-waiting (spinning) threads on. Each round
runs every variant once, in a shuffled order, on the localizer (a 384 px blob and the 512 px
second-pass blob when the graph takes it) and the classifier (a batch of `--classifier-batch`
crops), so all see the same load; min and median per variant and the load average are printed.
Random inputs: the work of these graphs does not depend on the pixel values.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

VARIANTS = {
    "shipped": {},
    "1 intra-op thread": {"intra": 1},
    "graph opt basic": {"level": "basic"},
    "graph opt extended": {"level": "extended"},
    "no memory arena": {"arena": False},
    "parallel execution": {"parallel": True},
    "spinning on": {"spinning": True},
}


def options(threads: int, intra: int = 0, level: str = "all", arena: bool = True, **more: bool):
    """The shipped session options (`vision.modelfiles.session_options`) with one knob changed."""
    import onnxruntime as ort

    from vision.modelfiles import session_options

    so = session_options(intra or threads)
    parallel, spinning = more.get("parallel", False), more.get("spinning", False)
    levels = {"basic": "ORT_ENABLE_BASIC", "extended": "ORT_ENABLE_EXTENDED", "all": "ORT_ENABLE_ALL"}
    so.graph_optimization_level = getattr(ort.GraphOptimizationLevel, levels[level])
    so.enable_cpu_mem_arena = arena
    if parallel:
        so.execution_mode = ort.ExecutionMode.ORT_PARALLEL
        so.inter_op_num_threads = threads
    if spinning:
        so.add_session_config_entry("session.intra_op.allow_spinning", "1")
    return so


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", type=Path, default=REPO / "models")
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--cores", type=int, default=2, help="CPUs to pin to and intra-op threads")
    ap.add_argument("--classifier-batch", type=int, default=34, help="crops per classifier run")
    a = ap.parse_args(argv)
    loc, cls = a.models / "localizer.onnx", a.models / "classifier.onnx"
    if not (loc.is_file() and cls.is_file()):
        print(f"bench_ort: no models in {a.models}; skipped")
        return 0
    import numpy as np
    import onnxruntime as ort

    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) > a.cores:
        os.sched_setaffinity(0, cpus[: a.cores])
    rng = np.random.default_rng(0)
    ort.set_default_logger_severity(3)
    sessions, inputs = {}, {}
    for name, kw in VARIANTS.items():
        so = [options(a.cores, **kw) for _ in range(2)]
        sessions[name] = [
            ort.InferenceSession(str(p), so[k], providers=["CPUExecutionProvider"])
            for k, p in enumerate((loc, cls))
        ]
    lsess, csess = sessions["shipped"]
    lshape, cshape = lsess.get_inputs()[0].shape, csess.get_inputs()[0].shape
    free = not isinstance(lshape[2], int)
    inputs["localizer 384"] = (0, rng.random((1, 3, 384, 384), np.float32))
    if free:
        inputs["localizer 512 (second pass)"] = (0, rng.random((1, 3, 512, 512), np.float32))
    h, w = (int(v) for v in cshape[2:]) if isinstance(cshape[2], int) else (64, 48)
    inputs[f"classifier x{a.classifier_batch}"] = (1, rng.random((a.classifier_batch, 3, h, w), np.float32))
    times = {(v, i): [] for v in VARIANTS for i in inputs}
    loads = []
    order = list(sessions)
    for _ in range(a.rounds):
        rng.shuffle(order)  # no variant always runs right after another
        for v in order:
            pair = sessions[v]
            for i, (which, blob) in inputs.items():
                s = pair[which]
                t = time.perf_counter()
                s.run(None, {s.get_inputs()[0].name: blob})
                times[v, i].append((time.perf_counter() - t) * 1000.0)
        loads.append(os.getloadavg()[0])
    ncpu = len(os.sched_getaffinity(0))
    print(f"{a.rounds} rounds, CPUs {ncpu}, onnxruntime {ort.__version__}; ms min / median")
    print(f"{'variant':22s}" + "".join(f"{i:>30s}" for i in inputs))
    for v in VARIANTS:
        cells = [f"{min(times[v, i]):8.1f} / {statistics.median(times[v, i]):6.1f}" for i in inputs]
        print(f"{v:22s}" + "".join(f"{c:>30s}" for c in cells))
    print(f"load average (1 min) over the rounds: {min(loads):.2f}-{max(loads):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
