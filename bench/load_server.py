"""The server `bench/bench_load.py` drives: one `jxmj app`, or `jxmj parlour --workers N` (nginx in
front of N app processes, issue 37), and what its processes used: CPU seconds and peak RSS of
each process of the tree (`/proc`, Linux)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path


def server_command(port: int, workers: int) -> list[str]:
    """`jxmj app` on `port` (workers 0), else `jxmj parlour` with nginx on `port`."""
    if workers <= 0:
        cmd = [sys.executable, "-m", "app", "app", f"--server.port={port}", "--server.address=127.0.0.1"]
        return [*cmd, "--server.headless=true"]
    cmd = [sys.executable, "-m", "app", "parlour", "--workers", str(workers), "--port", str(port)]
    return [*cmd, "--host", "127.0.0.1", "--logs", str(Path(__file__).parent / "out" / "parlour-logs")]


def ready(log: Path, workers: int) -> bool:
    """Whether a parlour said it is up (its app processes answer and nginx runs)."""
    return workers <= 0 or "other phones at the table open" in log.read_text(errors="replace")


def tree(pid: int) -> list[int]:
    """`pid` and every process below it."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += children.get(p, [])
    return out


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of `pid`'s tree so far (its live processes)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for p in tree(pid):
        try:
            with open(f"/proc/{p}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, ValueError, IndexError):
            continue
    return total / tick


def _status(pid: int, key: str) -> int:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith(key):
                    return int(line.split()[1]) // 1024
    except OSError:
        pass
    return -1


def app_pids(pid: int) -> list[int]:
    """The Python processes of the tree (the app processes; not nginx)."""
    out = []
    for p in tree(pid):
        try:
            exe = os.readlink(f"/proc/{p}/exe")
        except OSError:
            continue
        if "python" in Path(exe).name:
            out.append(p)
    return out


def app_ports(pid: int) -> list[int]:
    """The port of each app server of `pid`'s tree (`--server.port` on its command line): with a
    parlour, its processes behind nginx, each reachable on its own (127.0.0.1)."""
    ports = []
    for p in app_pids(pid):
        try:
            with open(f"/proc/{p}/cmdline", "rb") as fh:
                args = fh.read().decode(errors="replace").split("\0")
        except OSError:
            continue
        if "app.serve" not in args:
            continue
        for i, arg in enumerate(args):
            if arg.startswith("--server.port="):
                ports.append(int(arg.split("=", 1)[1]))
            elif arg == "--server.port" and i + 1 < len(args):
                ports.append(int(args[i + 1]))
    return sorted(set(ports))


def peak_rss_per_process_mb(pid: int) -> list[int]:
    """`VmHWM` of each app process of the tree, in MB."""
    return [_status(p, "VmHWM:") for p in app_pids(pid)]


def rss_mb(pid: int) -> int:
    """`VmRSS` of the app processes of the tree together, in MB."""
    return sum(max(0, _status(p, "VmRSS:")) for p in app_pids(pid))


def memdump(pid: int, path: Path) -> None:
    """Ask every app server of `pid`'s tree for a memory report into `path` (`app.memdump`:
    SIGUSR1, only to the processes running `app.serve`, which handle it); wait until one came."""
    size = path.stat().st_size if path.exists() else 0
    for p in app_pids(pid):
        try:
            with open(f"/proc/{p}/cmdline", "rb") as fh:
                serving = b"app.serve" in fh.read()
        except OSError:
            continue
        if serving:
            os.kill(p, signal.SIGUSR1)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (path.stat().st_size if path.exists() else 0) == size:
        time.sleep(0.5)
    time.sleep(1)


def wait_ready(proc: subprocess.Popen, log: Path, workers: int, seconds: float = 90) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        if ready(log, workers):
            return True
        time.sleep(0.3)
    return False


def start_profile(pid: int, out: Path, gil: bool = False) -> subprocess.Popen | None:
    """`py-spy record` of the app processes of `pid`'s tree into `out` (collapsed stacks, every
    thread, idle ones left out; `gil`: only the thread holding Python's lock, i.e. the Python
    code's own CPU, no waits), or None when py-spy is not installed (`pip install py-spy`)."""
    import shutil

    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        print("  (no py-spy: no profile)")
        return None
    cmd = [spy, "record", "--pid", str(pid), "--subprocesses", "--threads", "--format", "raw"]
    cmd += ["--rate", "200", "--output", str(out), "--nonblocking", *(["--gil"] if gil else [])]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)  # attached before the burst
    return proc


def stop_profile(proc: subprocess.Popen | None) -> None:
    """Stop `py-spy record` (SIGINT: it writes its file)."""
    import signal

    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(repo: Path, port: int, log: Path, workers: int = 0) -> subprocess.Popen:
    cmd = server_command(port, workers)
    fh = log.open("w")
    proc = subprocess.Popen(cmd, cwd=repo, stdout=fh, stderr=subprocess.STDOUT, start_new_session=True)
    import requests

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if requests.get(f"http://127.0.0.1:{port}/_stcore/health", timeout=1).status_code == 200:
                if wait_ready(proc, log, workers):
                    return proc
        except requests.RequestException:
            pass
        if proc.poll() is not None:
            break
        time.sleep(0.3)
    stop_server(proc)
    raise SystemExit(f"the server did not start; see {log}")


def stop_server(proc: subprocess.Popen) -> None:
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        if proc.poll() is not None:
            return
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(wait)
        except subprocess.TimeoutExpired:
            continue


def peak_rss_mb(pid: int) -> int:
    """`VmHWM` (the peak resident set) of a live process, in MB."""
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) // 1024
    return -1
