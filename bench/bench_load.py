#!/usr/bin/env python3
"""Benchmark: N concurrent sessions uploading photos to a local `jxmj app` server.

    .venv/bin/python bench/bench_load.py                       # 8 sessions x 3 photos
    .venv/bin/python bench/bench_load.py --sessions 4 --photos jpeg,jpeg --repo ../main
    .venv/bin/python bench/bench_load.py --sessions 16 --photos jpeg,jpeg,jpeg --workers 2   # via nginx
    .venv/bin/python bench/bench_load.py --table-hands 2000 --sessions 8   # 8 phones open a big table

Starts `python -m app app` on a free port of 127.0.0.1 (nothing else is contacted) and drives
it the way the browser does, over Streamlit's own protocol: each session opens the page
(WebSocket `/_stcore/stream`, a script run), then for each photo asks for an upload URL,
PUTs the file as the file uploader does, and reruns with the uploader's new state. All
sessions start together (a barrier) and each step has a time limit, so the run is bounded.

Printed: page latency — open (connect -> first run finished) and photo (upload start -> the
rerun that shows the result finished) as p50 / p95 over all sessions — failed requests
(HTTP errors, closed sockets, timeouts, an exception or error message in the page), and the
server's peak RSS (`VmHWM` of its process; with `--workers N`, the busiest of the N app processes
behind `jxmj parlour`'s nginx), photos per second, the server's CPU seconds per photo (all its
processes), the load average before and after, and the app processes' RSS before, after and (with
`--settle S`) every 5 s for S seconds. Target: peak RSS < 1.5 GB with 8
sessions, no request failed. Photos (from bench/bench_memory.py, generated into bench/out/):
`jpeg` = a 12 MP phone JPEG, `png89` = the 89 MP 16-bit RGBA PNG, and the hostile images of
`bench/hostile_images.py` by name without extension (`cmyk_prog_100mp`, `webp_lossless_7000`,
`webp_canvas`, `png_strip`, `png_strip_48mp`, `png_49mp`, `prog_35mp`; `--photos hostile`: all
of them). With `--refusals-ok` an error message on the page (a photo refused as too large) is
counted as a refusal, not a failure; an exception in the page is still a failure. Target
(issue 24): < 1.5 GB with 8 sessions uploading hostile images.

Issue 37: `--warm` reads one photo first (the reader loaded: "before" is a warmed process, and the
RSS `--settle` S seconds after the burst is printed over it, target <= 1.3x); `--distinct` gives
every upload bytes of its own (a JPEG comment), as at a real table, where nothing is shared by the
photo's hash (the draft's photo store); `--pixels` with it gives every upload pixels of its own
too (64 photos re-encoded before the burst, a stripe pattern of one level in green, taken in turn:
`load_client.own_pixels`), so the boxed photo's cache (`draw_boxes`, keyed on the preview's
bytes) is missed as a real phone's next photo misses it; the server's database is
`JXMJ_DB`, else a fresh SQLite file in bench/out (never the user's ledger: its drafts may be
full); `--profile FILE` records the burst with py-spy (`pip install py-spy`) for
`bench/profile_summary.py FILE` (with `--gil`, the share of the burst each process held Python's
lock is printed: wall time, so on a busy box it counts the time a holder waited for a core).

Where the CPU went (`load_cpu`, printed after every burst): CPU seconds, cores (CPU / wall) and
seconds a photo of each app process (its script runs and its live threads: ONNX Runtime's and
OpenCV's pools), nginx, the client itself (it runs on the same box: `getrusage`), PostgreSQL
(box-wide) when `JXMJ_DB` names it, the other jobs on the box and what stayed idle (`/proc/stat`);
behind nginx, how many phones each process got. The client's share is kept small: each upload's
request body is made before the burst, and a request that meets a closed kept-alive connection is
sent again, as a browser does. `--nice N` makes the phones' threads N nicer than the servers.
`--workers N --direct`: the phones go to the N processes' own ports in turn, nginx left out (what
nginx itself adds).

`--compare N` (`load_compare`): one process, then N behind nginx, same client and photos, every
process warmed with `--warm`; `--rounds R` runs the pair R times, alternating the order. Printed:
each burst's report, then one table with the ratio N / 1 and what the box allows (the servers'
ceiling once the client and the other jobs took their share; the figure with the client's cores
given to the servers). The lead's one command (docs/parlour.md):

    .venv/bin/python bench/bench_load.py --compare 2 --rounds 2 --sessions 64 \
        --photos jpeg,jpeg,jpeg --distinct --warm

`--table-hands N` (`bench/load_table.py`): instead of photos, a table of N hands is stored in the
server's database (`JXMJ_DB`, else a fresh SQLite file in bench/out) and `--sessions` phones open
`/?table=CODE` at once, `--table-rounds` times: open p50 / p95 the first time (a fresh process)
and after, the server's CPU and the load average of each round. Target (issue 37): p95 <= 1.5 s
with 8 phones on a 2,000-hand table.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load_client
import load_cpu
from bench_memory import OUT, REPO, jpeg_12mp, rgba16_png
from load_client import STEP_SECONDS, Session, pct, prepare, run_session
from load_server import (
    app_ports,
    free_port,
    memdump,
    peak_rss_mb,
    peak_rss_per_process_mb,
    rss_mb,
    start_profile,
    start_server,
    stop_profile,
    stop_server,
)

TARGET_MB = 1500
RESULTS = ("open", "photo", "failed", "shown", "refused")


def options(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=8)
    ap.add_argument("--photos", default="jpeg,png89,jpeg", help="per session, in order (jpeg, png89)")
    ap.add_argument("--repo", type=Path, default=REPO, help="checkout whose app runs (default: this one)")
    ap.add_argument("--timeout", type=float, default=600, help="the whole run's limit, seconds")
    ap.add_argument("--refusals-ok", action="store_true", help="an error message on the page is a refusal")
    ap.add_argument("--workers", type=int, default=0, help="N: through `jxmj parlour` (nginx + N processes)")
    ap.add_argument("--compare", type=int, default=0, help="N: one process, then N behind nginx, one run")
    ap.add_argument("--rounds", type=int, default=1, help="with --compare: rounds of the pair, alternating")
    ap.add_argument("--direct", action="store_true", help="with --workers: phones to the processes")
    ap.add_argument("--nice", type=int, default=0, help="the client's niceness (the servers keep theirs)")
    ap.add_argument("--settle", type=float, default=0, help="seconds to watch RSS after the burst")
    ap.add_argument("--warm", action="store_true", help="one phone reads one photo before the burst")
    ap.add_argument("--distinct", action="store_true", help="every upload's bytes its own (a JPEG comment)")
    ap.add_argument("--pixels", action="store_true", help="with --distinct: pixels of their own too")
    ap.add_argument("--profile", type=Path, help="py-spy's collapsed stacks of the burst into this file")
    ap.add_argument("--gil", action="store_true", help="with --profile: only the thread holding the GIL")
    ap.add_argument("--memdump", type=Path, help="app.memdump's reports: before, after, settled")
    ap.add_argument("--table-hands", type=int, default=0, help="N: open an N-hand table instead (load_table)")
    ap.add_argument("--table-rounds", type=int, default=3, help="with --table-hands: rounds of opens")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    opts = options(argv)
    # every bench phone is 127.0.0.1 (behind nginx too): the per-address token limit is not the load
    os.environ.setdefault("JXMJ_NEW_TOKENS", "100000")
    load_client.REFUSALS_OK, load_client.DISTINCT = opts.refusals_ok, opts.distinct
    load_client.PIXELS = opts.pixels
    OUT.mkdir(parents=True, exist_ok=True)
    if opts.memdump:  # the server writes its reports there on SIGUSR1 (app.memdump)
        os.environ["JXMJ_MEMDUMP"] = str(opts.memdump.resolve())
    if opts.table_hands:
        from load_table import table_mode

        def start() -> tuple[subprocess.Popen, int]:
            port = free_port()
            return start_server(opts.repo, port, OUT / "load-server.log", opts.workers), port

        return table_mode(opts, Session, start, stop_server, pct, OUT)
    from hostile_images import NAMES, hostile

    files = {"jpeg": jpeg_12mp(OUT / "jpeg_12mp.jpg"), "png89": rgba16_png(OUT / "rgba16_89mp.png")}
    files.update({Path(p).stem: p for p in hostile(OUT)})
    names = [Path(n).stem for n in NAMES] if opts.photos == "hostile" else opts.photos.split(",")
    photos = [files[name] for name in names if name]
    load_client.NICE = opts.nice  # the phones' threads only: the servers keep the niceness they had
    if not opts.compare:
        photo_run(opts, opts.workers, photos)
        return 0
    from load_compare import compare

    return compare(opts, photos, photo_run)


def warm_up(pid: int, port: int, photo: Path, workers: int) -> None:
    """One phone reads `photo` on each app process (a parlour's, each on its own port: through
    nginx the warming phone reaches one of them, and the other would load its reader in the
    burst), in its own thread (`--nice` applies to the phones' threads only)."""
    targets = app_ports(pid) if workers else [port]
    snap0 = load_cpu.snapshot(pid)
    for target in targets:
        out: dict[str, list] = {k: [] for k in RESULTS}
        one = (target, [prepare(photo)], threading.Barrier(1), out)
        warm = threading.Thread(target=run_session, args=one)
        warm.start()
        warm.join(STEP_SECONDS * 2)
        if out["failed"] or not out["photo"]:
            print(f"  warming the process on port {target} failed: {out['failed'][:1]}")
    used = load_cpu.account(snap0, load_cpu.snapshot(pid), 1.0)["apps"]
    cpu = ", ".join(f"{a['cpu']:.1f}" for a in used.values())
    print(f"  warmed: {len(targets)} app process(es), one photo each (ports {targets}; CPU s: {cpu})")
    time.sleep(2)


def photo_run(opts: argparse.Namespace, workers: int, photos: list[Path]) -> dict:
    """One burst: `opts.sessions` phones upload `photos` each to one process (`workers` 0) or
    through `jxmj parlour --workers N`; printed, and returned (photos/s, CPU by component)."""
    from load_table import table_url

    print(f"  database: {table_url(OUT, 'photo-load')}")  # JXMJ_DB, else a fresh file (not the user's)
    port = free_port()
    server = start_server(opts.repo, port, OUT / "load-server.log", workers)
    results: dict[str, list] = {k: [] for k in RESULTS}
    try:
        base_rss = peak_rss_mb(server.pid)
        if opts.warm:  # "before" = every process warmed: the reader loaded, one photo read
            warm_up(server.pid, port, photos[0], workers)
        if opts.memdump:
            memdump(server.pid, opts.memdump)
        # every upload's request body made now, not in the burst (the client shares the box)
        uploads = [[prepare(p) for p in photos] for _ in range(opts.sessions)]
        # --direct: a parlour's phones each on one process's own port, in turn (nginx left out)
        ports = app_ports(server.pid) if workers and opts.direct else [port]
        targets = [ports[i % len(ports)] for i in range(opts.sessions)]
        spy = start_profile(server.pid, opts.profile, opts.gil) if opts.profile else None
        before_rss, load0 = rss_mb(server.pid), os.getloadavg()
        barrier = threading.Barrier(opts.sessions)
        threads = [
            threading.Thread(target=run_session, args=(to, mine, barrier, results), daemon=True)
            for to, mine in zip(targets, uploads, strict=True)
        ]
        snap0 = load_cpu.snapshot(server.pid)
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join(max(0.1, opts.timeout - (time.perf_counter() - t0)))
        wall = time.perf_counter() - t0
        acc = load_cpu.account(snap0, load_cpu.snapshot(server.pid), wall)
        unfinished = sum(t.is_alive() for t in threads)
        peak = peak_rss_mb(server.pid)
        stop_profile(spy)
        peaks, load1, after = peak_rss_per_process_mb(server.pid), os.getloadavg(), rss_mb(server.pid)
        peak = max([peak, *peaks])  # a parlour: its busiest app process
        del uploads
        settled = []
        for _ in range(int(opts.settle // 5)):
            time.sleep(5)
            settled.append(rss_mb(server.pid))
        if opts.memdump:
            memdump(server.pid, opts.memdump)
    finally:
        stop_server(server)
    cpu = sum(a["cpu"] for a in acc["apps"].values()) + acc["nginx"] + acc["parlour"]
    requests_made = opts.sessions * (1 + len(photos))
    failed = results["failed"] + [f"{unfinished} sessions still running at the time limit"] * bool(unfinished)
    print(
        f"load: {opts.sessions} sessions x {len(photos)} photos ({opts.photos}) on 127.0.0.1, {wall:.1f} s, "
        f"server from {opts.repo.resolve()}"
    )
    for name in ("open", "photo"):
        v = results[name]
        print(
            f"  page latency {name:<5}  n={len(v):>3}  p50 {pct(v, 50):6.2f} s  p95 {pct(v, 95):6.2f} s  "
            f"max {max(v, default=float('nan')):6.2f} s"
        )
    print(
        f"  requests {requests_made}, failed {len(failed)}; page runs showing a photo result: "
        f"{sum(results['shown'])}; photos refused with a message: {sum(results['refused'])}"
    )
    n = len(results["photo"])
    print(
        f"  photos {n} in {wall:.1f} s: {n / wall:.2f} photos/s; server CPU {cpu:.1f} s = "
        f"{cpu / max(1, n):.3f} s per photo ({workers or 1} app process(es), nginx too); "
        f"load average {load0[0]:.2f} before, {load1[0]:.2f} after"
    )
    print(
        f"  app RSS {before_rss} MB before, {after} MB after the burst, then every 5 s: {settled}; "
        f"peak per process {peaks} MB"
    )
    if settled:
        ratio = settled[-1] / max(1, before_rss)
        print(f"  RSS {opts.settle:g} s after the burst / before: {ratio:.2f}x (target <= 1.3x)")
    print("\n".join(load_cpu.lines(acc, n)))
    if workers and opts.direct:
        print(f"  phones per process: nginx left out (--direct), {opts.sessions} phones in turn on {ports}")
    elif workers:  # how nginx's sticky hash spread the phones: an uneven split leaves a core idle at the end
        split = Counter(results.get("upstream", []))
        print(f"  phones per process (nginx's X-Jxmj-Upstream): {dict(sorted(split.items()))}")
    if opts.profile and opts.gil:
        held = ", ".join(f"{p} {v:.0%}" for p, v in load_cpu.gil_held(opts.profile, wall).items())
        print(f"  Python's lock held (share of the burst's wall time, py-spy --gil), by process: {held}")
    for f in failed[:10]:
        print(f"    - {f}")
    print(
        f"  server peak RSS {peak} MB (idle after start {base_rss} MB; target < {TARGET_MB} MB): "
        f"{'met' if peak < TARGET_MB and not failed else 'NOT met'}"
    )
    return {
        "workers": workers,
        "photos": n,
        "wall": wall,
        "rate": n / wall,
        "failed": len(failed),
        "p50": pct(results["photo"], 50),
        "p95": pct(results["photo"], 95),
        "cpu_per_photo": cpu / max(1, n),
        "load": (load0[0], load1[0]),
        "peaks": peaks,
        "cores": load_cpu.summary(acc),
        "split": sorted(Counter(results.get("upstream", [])).values()),
    }


if __name__ == "__main__":
    sys.exit(main())
