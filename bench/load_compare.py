"""`bench/bench_load.py --compare N`: one process against N behind nginx, in one run (issue 37).

    nice -n 10 .venv/bin/python bench/bench_load.py --compare 2 --sessions 64 --photos jpeg,jpeg,jpeg \\
        --distinct --warm --rounds 2

The same client, the same photos (their request bodies made before each burst), the same database
kind, each burst on a fresh server (and a fresh SQLite file unless `JXMJ_DB`); with `--rounds R`
the pair runs R times, the order alternating (1, N, N, 1, ...), so a change in the box's load
falls on both. Each burst prints its own report (`load_cpu`: CPU by component); then one table:
photos/s, the ratio N / 1, and the cores each part used (CPU seconds / wall), with what the box
allows: the servers can have at most the cores less what the client and the other jobs took, so
"ceiling" is (cores - client - others) / CPU per photo (the app processes', nginx's and, when
`JXMJ_DB` names it, PostgreSQL's), and "no client" is cores / CPU per photo
(the client on another machine, the box otherwise quiet).
"""

from __future__ import annotations

import argparse
import os
import statistics
from collections.abc import Callable
from pathlib import Path


def compare(opts: argparse.Namespace, photos: list[Path], photo_run: Callable[..., dict]) -> int:
    n = opts.compare
    fresh_db = not os.environ.get("JXMJ_DB")
    runs: list[dict] = []
    for r in range(max(1, opts.rounds)):
        for workers in (0, n) if r % 2 == 0 else (n, 0):
            if fresh_db:  # each server a fresh SQLite file (load_table.table_url makes one when unset)
                os.environ.pop("JXMJ_DB", None)
            label = "one process" if workers == 0 else f"{workers} processes behind nginx"
            print(f"\n== round {r + 1}: {label} (load average {os.getloadavg()[0]:.2f})", flush=True)
            runs.append(photo_run(opts, workers, photos))
    for line in table(runs, n, os.cpu_count() or 1):
        print(line)
    return 0


def table(runs: list[dict], n: int, cores: int) -> list[str]:
    """The comparison's lines: one per burst, then the ratio and what the box allows."""
    out = [
        "",
        f"compare: one process vs {n} behind nginx, same client and photos ({cores} cores)",
        "  run                 photos/s  p50 / p95 s   CPU/photo  failed | cores: servers nginx client"
        "  others idle | load before | phones per process",
    ]
    for run in runs:
        c = run["cores"]
        name = "1 process" if run["workers"] == 0 else f"{run['workers']} processes"
        out.append(
            f"  {name:<18} {run['rate']:8.2f}  {run['p50']:5.2f} / {run['p95']:5.2f}"
            f"  {run['cpu_per_photo']:8.3f} s"
            f"  {run['failed']:6d} |        {c['servers']:7.2f} {c['nginx']:5.2f} {c['client']:6.2f}"
            f"  {c['others']:6.2f} {c['idle']:4.2f} | {run['load'][0]:.2f}"
            f" | {'/'.join(map(str, run['split'])) if run['workers'] else '-'}"
        )
    one = [r for r in runs if r["workers"] == 0]
    many = [r for r in runs if r["workers"] != 0]
    if not one or not many:
        return out

    def mean(rs: list[dict], f: Callable[[dict], float]) -> float:
        return statistics.fmean(f(r) for r in rs)

    rate1, rate_n = mean(one, lambda r: r["rate"]), mean(many, lambda r: r["rate"])
    used1 = mean(one, lambda r: r["cores"]["servers"])
    client_n = mean(many, lambda r: r["cores"]["client"])
    others_n = mean(many, lambda r: r["cores"]["others"])
    cpp_n = mean(many, lambda r: r["cpu_per_photo"])
    pg_n = mean(many, lambda r: r["cores"]["postgres"] / max(1e-9, r["rate"]))  # PostgreSQL's s a photo
    cpp_n += pg_n  # the servers' side of a photo: the app processes, nginx and the database
    ceiling = (cores - client_n - others_n) / cpp_n
    servers_n = mean(many, lambda r: r["cores"]["servers"])
    given = rate_n * (servers_n + client_n) / max(1e-9, servers_n)  # the client's cores to the servers
    no_client = cores / cpp_n
    out += [
        f"  photos/s, {n} processes / one: {rate_n / rate1:.2f}x ({rate_n:.2f} / {rate1:.2f};"
        " target >= 1.7x)",
        f"  one process used {used1:.2f} of {cores} cores: were that its use on a quiet box, more processes"
        f" could add at most {cores / max(1e-9, used1):.2f}x here",
        f"  {n} processes: the client took {client_n:.2f} cores, other jobs {others_n:.2f}:"
        " the servers' ceiling "
        f"({cores} - {client_n:.2f} - {others_n:.2f}) / {cpp_n:.3f} s a photo = {ceiling:.2f} photos/s "
        f"({ceiling / rate1:.2f}x one process)",
        f"  {n} processes with the client's {client_n:.2f} cores given to the servers: {given:.2f} photos/s"
        f" ({given / rate1:.2f}x one process)",
        f"  with the client on another machine and the box quiet: {cores} / {cpp_n:.3f} s = {no_client:.2f} "
        f"photos/s ({no_client / rate1:.2f}x one process as measured in this run)",
    ]
    return out
