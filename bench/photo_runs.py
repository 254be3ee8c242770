#!/usr/bin/env python3
"""What one photo costs a `jxmj app` server, one phone at a time (issue 37, seventh sitting).

    .venv/bin/python bench/photo_runs.py [--photos 20] [--opens 20] [--repo ../main]

Starts the server as `bench/bench_load.py` does (a fresh SQLite file unless `JXMJ_DB`), warms it
with one photo, then over Streamlit's own protocol (`load_client`): the messages one photo's upload
brings back (every script run it caused: `script_finished`, and what came after it), the server's
CPU a photo (user + system, its threads: the event loop, the live pools, and the threads that ended:
the script runs) over `--photos` distinct 12 MP JPEGs one after another, and its CPU a new phone's
first run over `--opens` phones (one phone stays connected: Streamlit drops its compiled script when
the last session leaves). One phone at a time: no queueing, so a photo's own cost; a burst adds its
contention (`bench_load.py`). Compare trees back to back (`--repo`): the box's load moves the figures.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load_client
from bench_memory import OUT, REPO, jpeg_12mp
from load_client import Session, prepare
from load_server import free_port, start_server, stop_server
from load_table import table_url

TICK = os.sysconf("SC_CLK_TCK")


def cpu(pid: int) -> tuple[float, float]:
    """(the process's CPU seconds, its main thread's: the event loop)."""

    def read(path: str) -> float:
        f = Path(path).read_text().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) / TICK

    return read(f"/proc/{pid}/stat"), read(f"/proc/{pid}/task/{pid}/stat")


def messages(session: Session, upload, number: int) -> tuple[Counter, Counter]:
    """The kinds of message one upload brought back until its run finished, and those in 2 s after."""
    seen: Counter = Counter()
    look = session._look

    def counting(msg) -> None:
        kind = msg.WhichOneof("type")
        if kind == "delta":
            kind = msg.delta.WhichOneof("type") or "delta"
        seen[kind] += 1
        look(msg)

    session._look = counting
    session.upload(upload, number)
    during = Counter(seen)
    seen.clear()
    try:
        session._until(lambda m: False, time.monotonic() + 2)
    except load_client.Failed:
        pass
    session._look = look
    return during, seen


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--photos", type=int, default=20)
    ap.add_argument("--opens", type=int, default=20)
    ap.add_argument("--repo", type=Path, default=REPO)
    opts = ap.parse_args(argv)
    os.environ.setdefault("JXMJ_NEW_TOKENS", "100000")
    OUT.mkdir(parents=True, exist_ok=True)
    load_client.DISTINCT = True
    photo = jpeg_12mp(OUT / "jpeg_12mp.jpg")
    print(f"database: {table_url(OUT, 'photo-runs')}; server from {opts.repo}; load {os.getloadavg()[0]:.2f}")
    port = free_port()
    server = start_server(opts.repo, port, OUT / "photo-runs-server.log")
    try:
        phone = Session(port)
        phone.rerun()
        phone.upload(prepare(photo), 0)  # warm: the reader loaded
        during, after = messages(phone, prepare(photo), 1)
        runs = during["script_finished"] + after["script_finished"]
        print(f"one photo: {runs} script run(s); {sum(during.values())} messages in its run: {dict(during)}")
        print(f"  after its run finished (2 s): {dict(after) or 'nothing'}")
        uploads = [prepare(photo) for _ in range(opts.photos)]
        (c0, m0), t0 = cpu(server.pid), time.perf_counter()
        for i, upload in enumerate(uploads):
            phone.upload(upload, 10 + i)
        (c1, m1), wall = cpu(server.pid), time.perf_counter() - t0
        n = len(uploads)
        print(
            f"a photo, one phone: {(c1 - c0) / n * 1000:.1f} ms server CPU, of which the event loop "
            f"{(m1 - m0) / n * 1000:.1f} ms; {wall / n:.3f} s wall"
        )
        c0, _ = cpu(server.pid)
        for _ in range(opts.opens):
            Session(port).rerun()  # left open, as a phone's tab; all closed with the server
        c1, _ = cpu(server.pid)
        print(f"a new phone's first run: {(c1 - c0) / max(1, opts.opens) * 1000:.1f} ms server CPU")
        print(f"load average after: {os.getloadavg()[0]:.2f}")
    finally:
        stop_server(server)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
