"""`jxmj parlour` — a parlour on one machine: N `jxmj app` processes and nginx in front.

    JXMJ_DB=postgresql+psycopg://jxmj:secret@localhost/jxmj jxmj parlour --workers 2 --port 8080

starts `--workers` app processes on free local ports (127.0.0.1 only), waits until each answers,
then runs Debian's nginx in the foreground with a configuration made for this run
(`app.parlour`: sticky sessions on a cookie, websocket upgrade, https with `--https`), all of
it (configuration, pid, logs, the processes' logs) in one temporary folder. Every process uses
the one database in `JXMJ_DB` (unset: the user's SQLite ledger, fine on one machine) and shows
the proxy's address in its QR (`JXMJ_JOIN_URL`, when not set already) and reads photos with its
share of the cores (`JXMJ_ORT_THREADS`, when not set already: cores / workers). Ctrl-C or SIGTERM stops
nginx and the processes and removes the folder; if one of them stops on its own, the others
are stopped too and the command exits 1. Options after `--` go to every `jxmj app`.
For a real server: `deploy/` (an nginx site and the systemd unit `jxmj@.service`).
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

DESCRIPTION = __doc__
NGINX_PLACES = ("/usr/sbin/nginx", "/usr/local/sbin/nginx")
START_TIMEOUT_S = 60.0
THREADS = "JXMJ_ORT_THREADS"  # app.photo_gate.ORT_THREADS_ENV (not imported: it is the app's)
SECRET = "STREAMLIT_SERVER_COOKIE_SECRET"  # the same in every process: each checks the others' XSRF cookies


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workers", type=int, default=2, help="app processes (default 2)")
    parser.add_argument("--port", type=int, default=8080, help="the port nginx listens on (default 8080)")
    parser.add_argument("--host", default="0.0.0.0", help="the address nginx listens on (default all)")
    parser.add_argument("--https", action="store_true", help="https with this machine's certificate")
    parser.add_argument("--nginx", default="", help="the nginx program (default: found on PATH)")
    parser.add_argument("--logs", default="", help="keep the app processes' logs in this folder")
    parser.add_argument("app_options", nargs=argparse.REMAINDER, help="after --: options for every jxmj app")


def error_format(args: argparse.Namespace) -> str:
    return "stderr"


def find_nginx(given: str = "") -> str | None:
    """The nginx program: `given`, else the one on PATH, else Debian's place; None if none."""
    if given:
        return given if Path(given).is_file() else None
    found = shutil.which("nginx")
    return found or next((p for p in NGINX_PLACES if Path(p).is_file()), None)


def free_ports(n: int) -> list[int]:
    """`n` distinct local ports free now (the kernel's choice)."""
    socks = []
    try:
        for _ in range(n):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def app_command(port: int, options: list[str]) -> list[str]:
    """One app process of the parlour: local only, headless."""
    local = ["--server.port", str(port), "--server.address", "127.0.0.1", "--server.headless", "true"]
    return [sys.executable, "-m", "app", "app", *local, *options]


def nginx_command(nginx: str, prefix: Path) -> list[str]:
    files = ["-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-e", str(prefix / "error.log")]
    return [nginx, *files, "-g", "daemon off;"]


def _healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1) as r:
            return r.status == 200
    except OSError:
        return False


def stop(proc: subprocess.Popen, wait_s: float = 10.0) -> None:
    """SIGTERM `proc`'s process group, SIGKILL what is left after `wait_s`."""
    for sig, wait in ((signal.SIGTERM, wait_s), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(timeout=wait)
            break
        except subprocess.TimeoutExpired:
            continue
    proc.poll()


class Stop(Exception):
    """SIGINT or SIGTERM reached the command."""


def _raise_stop(signum, frame) -> None:
    raise Stop


def _tail(path: Path, lines: int = 20) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def run(args: argparse.Namespace) -> int:
    from app import parlour
    from app.cmd_app import announce, check_database

    nginx = find_nginx(args.nginx)
    if nginx is None:
        print("jxmj parlour: nginx not found (Debian: apt-get install nginx)", file=sys.stderr)
        return 2
    if not 1 <= args.workers <= 64:
        print("jxmj parlour: --workers must be 1..64", file=sys.stderr)
        return 2
    problem = check_database("parlour")
    if problem:
        print(f"jxmj parlour: {problem}", file=sys.stderr)
        return 2
    options = [o for o in args.app_options if o != "--"]
    tls = None
    if args.https:
        from app.lan import ensure_certificate

        cert, key = ensure_certificate()
        tls = parlour.Tls(cert, key)
    addresses = None if args.host in ("0.0.0.0", "::") else [args.host]
    url = announce_url(args.port, bool(tls), addresses)
    db = _db_name()  # before anything starts: what it imports takes a while on a busy machine
    share = str(max(1, (os.cpu_count() or 1) // args.workers))
    env = {
        **os.environ,
        "JXMJ_JOIN_URL": os.environ.get("JXMJ_JOIN_URL") or url,
        # every process signs and checks the same XSRF cookie
        SECRET: os.environ.get(SECRET) or secrets.token_hex(32),
        # each process reads its photos with its share of the cores (app.photo_gate.ort_threads)
        THREADS: os.environ.get(THREADS) or share,
    }
    prefix = Path(tempfile.mkdtemp(prefix="jxmj-parlour-"))
    prefix.chmod(0o711)  # nginx's workers (user nobody under root) reach their temporary folders
    procs: list[subprocess.Popen] = []
    old = {s: signal.signal(s, _raise_stop) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        ports = free_ports(args.workers)
        logs = Path(args.logs) if args.logs else prefix
        logs.mkdir(parents=True, exist_ok=True)
        for port in ports:
            with (logs / f"app-{port}.log").open("w") as out:
                cmd = app_command(port, options)
                procs.append(
                    subprocess.Popen(
                        cmd, env=env, start_new_session=True, stdout=out, stderr=subprocess.STDOUT
                    )
                )
        deadline = time.monotonic() + START_TIMEOUT_S
        waiting = dict(zip(ports, procs, strict=True))
        while waiting:
            for port, proc in list(waiting.items()):
                if proc.poll() is not None:
                    print(f"jxmj parlour: the app on port {port} stopped:", file=sys.stderr)
                    print(_tail(logs / f"app-{port}.log"), file=sys.stderr)
                    return 1
                if _healthy(port):
                    del waiting[port]
            if time.monotonic() > deadline:
                print(f"jxmj parlour: the app did not start on {sorted(waiting)}", file=sys.stderr)
                return 1
            time.sleep(0.2)
        listen = f"[{args.host}]:{args.port}" if ":" in args.host else f"{args.host}:{args.port}"
        http = parlour.http_config(ports, listen, tls=tls, upstream_header=True)
        (prefix / "nginx.conf").write_text(parlour.main_config(prefix, http))
        front = subprocess.Popen(nginx_command(nginx, prefix), start_new_session=True)
        procs.insert(0, front)
        time.sleep(0.3)
        if front.poll() is not None:
            print("jxmj parlour: nginx did not start:", file=sys.stderr)
            print(_tail(prefix / "error.log"), file=sys.stderr)
            return 1
        print(f"jxmj parlour: nginx on {listen} -> app processes on ports {ports}", flush=True)
        print(f"jxmj parlour: database {db}; logs in {prefix} (the apps': {logs})", flush=True)
        if note := sqlite_note(args.workers):
            print(f"jxmj parlour: {note}", flush=True)
        announce([], bool(tls), env["JXMJ_JOIN_URL"])
        while True:
            for proc in procs:
                if proc.poll() is not None:
                    what = "nginx" if proc is front else f"the app on port {ports[procs.index(proc) - 1]}"
                    print(f"jxmj parlour: {what} stopped (exit {proc.returncode}):", file=sys.stderr)
                    log_file = (
                        prefix / "error.log"
                        if proc is front
                        else logs / f"app-{ports[procs.index(proc) - 1]}.log"
                    )
                    print(_tail(log_file), file=sys.stderr)
                    return 1
            time.sleep(0.5)
    except Stop:
        print("jxmj parlour: stopping", file=sys.stderr, flush=True)
        return 0
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        for proc in procs:
            stop(proc)
        for s, handler in old.items():
            signal.signal(s, handler)
        shutil.rmtree(prefix, ignore_errors=True)


def announce_url(port: int, https: bool, addresses: list[str] | None) -> str:
    from app.lan import join_url, qr_terminal  # noqa: F401 (imported now, used by announce)

    return join_url(port, https, addresses)


def sqlite_note(workers: int, url: str | None = None) -> str | None:
    """A line for `workers` processes on one SQLite file (`url`: `JXMJ_DB`, unset = SQLite), else
    None: SQLite lets one writer in at a time, so several processes wait on each other's draft
    writes (64 phones, two processes: pages opened in 26-29 s at p95, 2.5 s on PostgreSQL,
    docs/parlour.md).

    >>> sqlite_note(1) is None, sqlite_note(2, "postgresql+psycopg://h/jxmj") is None
    (True, True)
    >>> sqlite_note(2).startswith("note: 2 processes share one SQLite file")
    True
    """
    url = os.environ.get("JXMJ_DB", "") if url is None else url
    if workers < 2 or (url and not url.startswith("sqlite")):
        return None
    return (
        f"note: {workers} processes share one SQLite file, one writer at a time; "
        "under load pages wait (docs/parlour.md): for a parlour set JXMJ_DB=postgresql+psycopg://..."
    )


def _db_name() -> str:
    """`JXMJ_DB` without its password, else the default SQLite ledger."""
    url = os.environ.get("JXMJ_DB", "")
    if not url:
        return "the user's SQLite ledger (set JXMJ_DB for PostgreSQL)"
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
