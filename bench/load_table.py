"""`bench/bench_load.py --table-hands N`: N phones open one big table at once (issue 37).

A table of N hands (default 2,000: the hands of `bench/bench_ledger.py`, discard wins, self-draws,
several winners, drawn hands with 跟庄) is stored through the ledger's API (`Store.create_table`,
each hand checked) in the server's database — ``JXMJ_DB``, else a fresh SQLite file in
``bench/out`` — before the server starts. Then, in rounds, `--sessions` phones open
``/?table=CODE`` at once over Streamlit's protocol (a new WebSocket session each, as a phone
scanning the QR): round 1 is the server's first (a fresh process), the next ones "after". Each
open is timed from connect to the end of the page's first run, and checked: the page drew the
table's header with all N hands and no exception or error.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from bench_ledger import SEATS, _parse
from load_server import cpu_seconds, rss_mb


def table_url(out: Path, name: str = "table-load") -> str:
    """The database the server and the table share: ``JXMJ_DB``, else a fresh SQLite file `name`
    in `out` (the photo runs too: without it the server used the user's ledger, whose drafts a
    day of runs had filled: every save then took `make_room`'s slow path, issue 37)."""
    url = os.environ.get("JXMJ_DB", "")
    if not url:
        db = out / f"{name}.sqlite3"
        for f in out.glob(f"{name}.sqlite3*"):
            f.unlink()
        url = f"sqlite:///{db}"
    os.environ["JXMJ_DB"] = url  # the server started next inherits it
    return url


def make_table(url: str, n: int) -> str:
    """A table of `n` hands stored at `url` (each checked by the store); its code."""
    from ledger import Table
    from ledger.store import open_store

    table = Table("jiujiang", SEATS, 1, title=f"bench {n}")
    hands: list = []
    for i in range(n):
        hands.append(_parse(table, hands, i))
    t0 = time.perf_counter()
    store = open_store(url)
    try:
        code = store.create_table(table, hands).table.code
    finally:
        store.close()
    print(f"table {code}: {n} hands stored in {time.perf_counter() - t0:.1f} s")
    return code


def _open(session_cls, port: int, code: str, n: int, barrier, out: dict) -> None:
    try:
        barrier.wait(timeout=120)
        t0 = time.perf_counter()
        s = session_cls(port, query=f"table={code}")
        s.rerun()
        took = time.perf_counter() - t0
        s.close()
        if s.problems:
            out["failed"].append(s.problems[-1])
        elif s.hands_shown != n:
            out["failed"].append(f"the page showed {s.hands_shown} hands, not {n}")
        else:
            out["open"].append(took)
    except Exception as exc:  # a failure to connect or a step over its limit
        out["failed"].append(f"session: {type(exc).__name__}: {exc}")


def open_round(session_cls, port: int, code: str, n: int, sessions: int, timeout: float) -> dict:
    """`sessions` phones opening table `code` at once; their times and failures."""
    out: dict[str, list] = {"open": [], "failed": []}
    barrier = threading.Barrier(sessions)
    threads = [
        threading.Thread(target=_open, args=(session_cls, port, code, n, barrier, out), daemon=True)
        for _ in range(sessions)
    ]
    for t in threads:
        t.start()
    t0 = time.perf_counter()
    for t in threads:
        t.join(max(0.1, timeout - (time.perf_counter() - t0)))
    out["failed"] += ["still opening at the time limit"] * sum(t.is_alive() for t in threads)
    return out


def table_mode(opts, session_cls, start, stop, pct, out: Path) -> int:
    """Store the table, start the server (`start()`: its process and port), open the table in
    `opts.table_rounds` rounds."""
    url = table_url(out)
    code = make_table(url, opts.table_hands)
    server, port = start()
    where = url.split("@")[-1] if "@" in url else url
    print(
        f"table load: {opts.sessions} phones open a {opts.table_hands}-hand table at once, "
        f"{opts.table_rounds} rounds; {opts.workers or 1} app process(es); database {where}"
    )
    failed = 0
    try:
        for r in range(opts.table_rounds):
            load0, cpu0 = os.getloadavg()[0], cpu_seconds(server.pid)
            got = open_round(session_cls, port, code, opts.table_hands, opts.sessions, opts.timeout)
            cpu, load1, v = cpu_seconds(server.pid) - cpu0, os.getloadavg()[0], got["open"]
            name = "first (fresh process)" if r == 0 else f"after ({r + 1})"
            print(
                f"  {name:<22} open p50 {pct(v, 50):5.2f} s  p95 {pct(v, 95):5.2f} s  "
                f"max {max(v, default=float('nan')):5.2f} s  n={len(v)}  failed {len(got['failed'])}; "
                f"server CPU {cpu:.1f} s; load {load0:.2f} before, {load1:.2f} after; "
                f"app RSS {rss_mb(server.pid)} MB"
            )
            for f in got["failed"][:5]:
                print(f"    - {f}")
            failed += len(got["failed"])
            time.sleep(1)
    finally:
        stop(server)
    return 1 if failed else 0
