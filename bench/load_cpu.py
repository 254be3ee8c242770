"""Where a burst's CPU went, per component (issue 37: "find where the second core goes").

`bench/bench_load.py` takes a `snapshot` before and after the burst; `account` turns the two into
CPU seconds (user + system, `/proc`, Linux) of each part that ran on the box:

- each app process (`app.serve`), and its threads: those that ended during the burst (each
  script run is a thread of its own in Streamlit: the page's Python, the photo's decode and
  ONNX Runtime's calling thread) and the live ones (the event loop, ONNX Runtime's intra-op
  pool, OpenCV's and OpenBLAS's: `/proc/PID/task/TID`, named by their `comm`);
- nginx (a parlour's front: its master and workers), the `jxmj parlour` wrapper;
- the benchmark's client itself (this process: `getrusage`, all its threads — the phones'
  websockets and uploads run on the same box as the servers);
- PostgreSQL (every `postgres` process on the box: box-wide, other jobs' too) when `JXMJ_DB` names
  it; SQLite runs inside the app processes;
- the whole box (`/proc/stat`): what the box's cores did, so "others" (other jobs) and "idle" are
  what is left once the parts above are taken out.
"""

from __future__ import annotations

import os
import resource
from dataclasses import dataclass, field
from pathlib import Path

from load_server import tree

TICK = os.sysconf("SC_CLK_TCK")


def _stat(path: str) -> tuple[str, float] | None:
    """(comm, CPU seconds) of a `/proc/.../stat` file, None if it is gone."""
    try:
        with open(path) as fh:
            raw = fh.read()
    except OSError:
        return None
    head, tail = raw.rsplit(")", 1)
    fields = tail.split()
    return head.split("(", 1)[1], (int(fields[11]) + int(fields[12])) / TICK


def _cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read()
    except OSError:
        return b""


def kind(pid: int) -> str:
    """What a process of the server's tree is: "app", "nginx", "parlour" or "other"."""
    args = _cmdline(pid).split(b"\0")
    if b"app.serve" in args:
        return "app"
    if b"nginx" in args[0]:  # nginx names its own: "nginx: master process ...", "nginx: worker process"
        return "nginx"
    if b"app" in args and b"parlour" in args:
        return "parlour"
    return "other"


def threads(pid: int) -> dict[int, tuple[str, float]]:
    """Each thread of `pid`: tid -> (name, CPU seconds)."""
    out = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        got = _stat(f"/proc/{pid}/task/{tid}/stat")
        if got:
            out[int(tid)] = got
    return out


def _postgres() -> float:
    """CPU seconds of every `postgres` process on the box (live ones)."""
    total = 0.0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            got = _stat(f"/proc/{entry}/stat")
            if got and got[0].startswith("postgres"):
                total += got[1]
    return total


def _box() -> tuple[float, float]:
    """(busy, idle) CPU seconds of all the box's cores since boot (`/proc/stat`'s first line)."""
    with open("/proc/stat") as fh:
        values = [int(v) for v in fh.readline().split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    busy = sum(values[:8]) - idle  # user nice system idle iowait irq softirq steal
    return busy / TICK, idle / TICK


@dataclass
class Snapshot:
    procs: dict[int, tuple[str, float]] = field(default_factory=dict)  # pid -> (kind, CPU s)
    threads: dict[int, dict[int, tuple[str, float]]] = field(default_factory=dict)  # app pid -> its threads
    client: float = 0.0
    postgres: float = 0.0
    busy: float = 0.0
    idle: float = 0.0


def snapshot(server_pid: int) -> Snapshot:
    snap = Snapshot()
    for pid in tree(server_pid):
        got = _stat(f"/proc/{pid}/stat")
        if got is None:
            continue
        what = kind(pid)
        snap.procs[pid] = (what, got[1])
        if what == "app":
            snap.threads[pid] = threads(pid)
    me = resource.getrusage(resource.RUSAGE_SELF)
    snap.client = me.ru_utime + me.ru_stime
    if os.environ.get("JXMJ_DB", "").startswith("postgresql"):
        snap.postgres = _postgres()
    snap.busy, snap.idle = _box()
    return snap


def account(before: Snapshot, after: Snapshot, wall: float) -> dict:
    """CPU seconds of each component between two snapshots, and the box's cores over `wall`."""
    apps = {}
    for pid, (what, cpu) in after.procs.items():
        if what != "app":
            continue
        cpu0 = before.procs.get(pid, ("app", 0.0))[1]
        busy_threads, live = [], 0.0
        for tid, (name, t_cpu) in after.threads.get(pid, {}).items():
            used = t_cpu - before.threads.get(pid, {}).get(tid, (name, 0.0))[1]
            live += used
            if used >= 0.05:
                busy_threads.append((round(used, 2), name, tid))
        busy_threads.sort(reverse=True)
        apps[pid] = {"cpu": cpu - cpu0, "threads": busy_threads, "ended": cpu - cpu0 - live}
    rest = {"nginx": 0.0, "parlour": 0.0, "other": 0.0}
    for pid, (what, cpu) in after.procs.items():
        if what != "app":
            rest[what] += cpu - before.procs.get(pid, (what, 0.0))[1]
    box_busy, box_idle = after.busy - before.busy, after.idle - before.idle
    ours = sum(a["cpu"] for a in apps.values()) + sum(rest.values())
    ours += after.client - before.client + after.postgres - before.postgres
    return {
        "wall": wall,
        "apps": apps,
        "nginx": rest["nginx"],
        "parlour": rest["parlour"] + rest["other"],
        "client": after.client - before.client,
        "postgres": after.postgres - before.postgres,
        "box_busy": box_busy,
        "box_idle": box_idle,
        "others": max(0.0, box_busy - ours),
        "cores": os.cpu_count() or 1,
    }


def lines(acc: dict, photos: int) -> list[str]:
    """The accounting, printed: CPU seconds, cores (CPU / wall) and seconds a photo of each part."""
    wall, n = max(1e-9, acc["wall"]), max(1, photos)

    def part(name: str, cpu: float) -> str:
        return f"    {name:<22} {cpu:7.1f} s CPU  {cpu / wall:5.2f} cores  {cpu / n:6.3f} s a photo"

    room = acc["cores"] * wall
    out = [f"  CPU by component over the burst ({wall:.1f} s wall, {acc['cores']} cores = {room:.1f} s):"]
    for pid, app in sorted(acc["apps"].items()):
        out.append(part(f"app process {pid}", app["cpu"]))
        top = ", ".join(f"{name}/{tid} {cpu:.1f}" for cpu, name, tid in app["threads"][:6])
        out.append(
            f"      threads that ended in the burst (Streamlit's script runs): {app['ended']:.1f} s;"
            f" live ones over 0.05 s: {len(app['threads'])}, busiest (s): {top}"
        )
    servers = sum(a["cpu"] for a in acc["apps"].values())
    out.append(part("app processes together", servers))
    out.append(part("nginx", acc["nginx"]))
    out.append(part("jxmj parlour wrapper", acc["parlour"]))
    out.append(part("bench client (this)", acc["client"]))
    if acc["postgres"]:
        out.append(part("postgres (box-wide)", acc["postgres"]))
    out.append(part("other jobs on the box", acc["others"]))
    out.append(part("idle", acc["box_idle"]))
    return out


def summary(acc: dict) -> dict[str, float]:
    """Cores (CPU seconds / wall) of the servers, nginx, the client, others and idle."""
    wall = max(1e-9, acc["wall"])
    servers = sum(a["cpu"] for a in acc["apps"].values())
    return {
        "servers": servers / wall,
        "nginx": acc["nginx"] / wall,
        "client": acc["client"] / wall,
        "postgres": acc["postgres"] / wall,
        "others": acc["others"] / wall,
        "idle": acc["box_idle"] / wall,
    }


def gil_held(profile: Path, wall: float, rate: int = 200) -> dict[str, float]:
    """From py-spy's `--gil` samples (`--profile F --gil`: only the thread holding Python's lock is
    sampled): the share of the burst each process's lock was held, by process (1.0: the lock was
    never free, one process's Python could not go faster whatever the cores)."""
    counts: dict[str, int] = {}
    try:
        text = profile.read_text(errors="replace")
    except OSError:
        return {}
    for line in text.splitlines():
        stack, _, n = line.rpartition(" ")
        if not n.isdigit():
            continue
        first = stack.split(";", 1)[0]
        proc = first.split(" ", 2)[1].rstrip(":").split(":")[0] if first.startswith("process ") else "?"
        counts[proc] = counts.get(proc, 0) + int(n)
    return {p: c / (rate * max(1e-9, wall)) for p, c in counts.items()}


__all__ = ["Snapshot", "account", "gil_held", "kind", "lines", "snapshot", "summary", "threads"]
