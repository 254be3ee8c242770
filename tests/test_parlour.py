"""A parlour on one box (issue 37): nginx's configuration for N `jxmj app` processes
(`app/parlour.py`), the deployed file, and `jxmj parlour` started, balancing two processes
sticky per browser cookie, upgrading the websocket, and stopped cleanly."""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from app import cmd_app, cmd_parlour, parlour

ROOT = Path(__file__).resolve().parents[1]
NGINX = cmd_parlour.find_nginx()
needs_nginx = pytest.mark.skipif(NGINX is None, reason="needs nginx (Debian: apt-get install nginx)")


def test_the_upstream_is_the_processes_sticky_on_the_route_cookie():
    conf = parlour.http_config([8501, 8502], "127.0.0.1:8080")
    assert "    server 127.0.0.1:8501 max_fails=0;\n    server 127.0.0.1:8502 max_fails=0;\n" in conf
    # a new browser: the process with the fewest new browsers' requests open; then the one its cookie names
    assert "upstream jxmj_app {\n    least_conn;" in conf
    pinned = "map $cookie_jxmj_route $jxmj_upstream {\n    default jxmj_app;\n"
    assert pinned + "    8501 jxmj_8501;\n    8502 jxmj_8502;\n}" in conf
    assert "upstream jxmj_8502 {\n    server 127.0.0.1:8502 max_fails=0;\n    keepalive 4;\n}" in conf
    assert "proxy_pass http://$jxmj_upstream;" in conf
    # the answer names the process that served it, unless the browser's cookie named that one
    assert 'map "$cookie_jxmj_route:$upstream_addr" $jxmj_route_cookie {' in conf
    assert '"jxmj_route=$jxmj_port; Path=/; HttpOnly; SameSite=Lax";' in conf  # no Secure on http
    assert "listen 127.0.0.1:8080;" in conf and "ssl" not in conf
    assert "proxy_set_header Upgrade $http_upgrade;" in conf
    assert "proxy_set_header Connection $jxmj_connection;" in conf
    assert "client_max_body_size 48m;" in conf
    assert parlour.UPSTREAM_HEADER not in conf  # only where asked


def test_https_where_asked_and_the_header_naming_the_process():
    tls = parlour.Tls("/c.pem", "/k.pem")
    conf = parlour.http_config(range(9000, 9003), 443, tls=tls, upstream_header=True)
    assert conf.split("upstream jxmj_app {")[1].split("}")[0].count("    server 127.0.0.1:") == 3
    assert [f"upstream jxmj_{p} {{" in conf for p in range(9000, 9003)] == [True, True, True]
    assert "listen 443 ssl;" in conf
    assert "ssl_certificate /c.pem;" in conf and "ssl_certificate_key /k.pem;" in conf
    assert "SameSite=Lax; Secure" in conf
    assert "add_header X-Jxmj-Upstream $upstream_addr always;" in conf


def test_no_processes_no_parlour():
    with pytest.raises(ValueError):
        parlour.http_config([], 80)


def test_the_deployed_nginx_site_is_the_generated_one():
    assert (ROOT / "deploy/nginx/jxmj.conf").read_text() == parlour.deploy_config()
    unit = (ROOT / "deploy/systemd/jxmj@.service").read_text()
    assert "--server.port %i --server.address 127.0.0.1" in unit
    assert "EnvironmentFile=/etc/jxmj/jxmj.env" in unit
    ports = [int(p) for p in parlour.DEPLOY_PORTS]
    assert ports == [8501, 8502, 8503, 8504]


@needs_nginx
@pytest.mark.parametrize("https", [False, True])
def test_nginx_accepts_the_whole_configuration(tmp_path, https):
    tls = None
    if https:
        from app.lan import ensure_certificate

        tls = parlour.Tls(*ensure_certificate(tmp_path / "tls", ["127.0.0.1"]))
    prefix = tmp_path / "run"
    prefix.mkdir()
    http = parlour.http_config([8501, 8502], 18443, tls=tls)
    (prefix / "nginx.conf").write_text(parlour.main_config(prefix, http))
    cmd = [*cmd_parlour.nginx_command(NGINX, prefix)[:-2], "-t", "-q"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr


def test_serve_parlour_without_nginx_says_so(capsys):
    from app.cli import main

    assert main(["parlour", "--nginx", "/nonexistent/nginx"]) == 2
    assert "nginx not found" in capsys.readouterr().err


def _get(port: int, path: str = "/", cookie: str = "", upgrade: bool = False) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Cookie": cookie} if cookie else {}
    if upgrade:
        headers |= {
            "Connection": "Upgrade",
            "Upgrade": "websocket",
            "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Protocol": "streamlit",
            "Origin": f"http://127.0.0.1:{port}",
        }
    conn.request("GET", path, headers=headers)
    return conn.getresponse()


@needs_nginx
def test_serve_parlour_balances_two_processes_sticky_and_stops_cleanly(tmp_path):
    port = cmd_parlour.free_ports(1)[0]
    env = {**os.environ, "JXMJ_DB": f"sqlite:///{tmp_path / 'ledger.sqlite3'}"}
    env.pop("JXMJ_JOIN_URL", None)
    cmd = [sys.executable, "-m", "app", "parlour", "--workers", "2", "--port", str(port)]
    log = (tmp_path / "parlour.log").open("w")
    out = {"stdout": log, "stderr": subprocess.STDOUT}
    proc = subprocess.Popen([*cmd, "--host", "127.0.0.1"], cwd=ROOT, env=env, start_new_session=True, **out)
    try:
        deadline = time.monotonic() + 90
        while "other phones at the table open" not in (tmp_path / "parlour.log").read_text():  # all up
            assert proc.poll() is None and time.monotonic() < deadline, (tmp_path / "parlour.log").read_text()
            time.sleep(0.5)
        # a new browser gets a route cookie naming the process that answered; that cookie always
        # reaches that process, and is kept, not renewed
        first = _get(port)
        assert first.status == 200
        route = first.getheader("Set-Cookie").split(";")[0]
        served = {_get(port, cookie=route).getheader(parlour.UPSTREAM_HEADER) for _ in range(5)}
        assert served == {first.getheader(parlour.UPSTREAM_HEADER)}
        assert route == "jxmj_route=" + next(iter(served)).rsplit(":", 1)[1]
        assert _get(port, cookie=route).getheader("Set-Cookie") is None
        # new browsers are spread evenly (the fewest requests open first: one by one, in turn), so
        # a burst of phones loads both processes alike (a hash of random cookies split 16 phones
        # 6 / 10: bench_load, docs/parlour.md)
        others = []
        for _ in range(16):  # one after another, each answer read whole (its request over)
            answer = _get(port)
            answer.read()
            others.append(answer.getheader(parlour.UPSTREAM_HEADER))
        assert sorted(Counter(others).values()) == [8, 8], others
        assert all(a.startswith("127.0.0.1:") for a in others)
        # a cookie naming no process of this parlour (one of an earlier run's ports) is renewed
        stale = _get(port, cookie="jxmj_route=1")
        assert (
            stale.getheader("Set-Cookie").split(";")[0]
            == "jxmj_route=" + stale.getheader(parlour.UPSTREAM_HEADER).rsplit(":", 1)[1]
        )
        # the websocket is upgraded through the proxy
        ws = _get(port, "/_stcore/stream", cookie=route, upgrade=True)
        assert ws.status == 101
        assert ws.getheader(parlour.UPSTREAM_HEADER) in served
    finally:
        os.kill(proc.pid, signal.SIGTERM)
        code = proc.wait(timeout=40)
        log.close()
    out = (tmp_path / "parlour.log").read_text()
    assert code == 0, out
    assert f"other phones at the table open http://127.0.0.1:{port}" in out  # the proxy's address
    prefix = out.split("logs in ")[1].split()[0]
    assert not Path(prefix).exists()  # its folder removed
    for address in set(others):  # the processes stopped
        with pytest.raises(OSError):
            _get(int(address.rsplit(":", 1)[1]), "/_stcore/health")


def _app_pid(port: int) -> int:
    """The app process serving `port` (its command line names it)."""
    for entry in Path("/proc").iterdir():
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--server.port" in args and args[args.index(b"--server.port") + 1] == str(port).encode():
            return int(entry.name)
    raise AssertionError(f"no process serves {port}")


def parlour_command(port: int) -> list[str]:
    """`jxmj parlour` with two app processes and nginx on 127.0.0.1:`port` (this interpreter)."""
    cmd = f"-m app parlour --workers 2 --port {port} --host 127.0.0.1".split()
    return [sys.executable, *cmd]


@needs_nginx
def test_parlour_stops_everything_when_one_process_dies(tmp_path):
    """One app process killed: the parlour stops nginx and the other one and exits 1 (a systemd
    or a shell restarts it whole), saying which stopped; nothing is left listening."""
    port = cmd_parlour.free_ports(1)[0]
    env = {**os.environ, "JXMJ_DB": f"sqlite:///{tmp_path / 'ledger.sqlite3'}"}
    cmd = parlour_command(port)
    path = tmp_path / "parlour.log"
    with path.open("w") as log:
        proc = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            deadline = time.monotonic() + 90
            while "other phones at the table open" not in path.read_text():
                assert proc.poll() is None and time.monotonic() < deadline, path.read_text()
                time.sleep(0.5)
            ports = [int(p) for p in path.read_text().split("ports [")[1].split("]")[0].split(", ")]
            victim = _get(port, cookie="jxmj_route=x").getheader(parlour.UPSTREAM_HEADER)
            os.kill(_app_pid(int(victim.rsplit(":", 1)[1])), signal.SIGKILL)
            assert proc.wait(timeout=40) == 1
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
    assert f"the app on port {victim.rsplit(':', 1)[1]} stopped (exit -9)" in path.read_text()
    for p in [port, *ports]:
        with pytest.raises(OSError):
            _get(p, "/_stcore/health")


@pytest.mark.parametrize(
    ("url", "said"),
    [
        # `make parlour` used to install jxmj without the PostgreSQL driver: the parlour started,
        # showed its QR, and every phone then read "No driver for the ledger database."
        ("postgresql+nosuchdriver://jxmj:secret@localhost/jxmj", "no database driver for postgresql+nosuch"),
        # nothing listens on port 1: a PostgreSQL down (or a wrong port, a wrong password) alike
        ("postgresql+psycopg://jxmj:secret@127.0.0.1:1/jxmj", "connection failed"),
    ],
)
def test_parlour_refuses_a_database_it_cannot_open_before_starting_anything(monkeypatch, capsys, url, said):
    from app.cli import main

    def nothing_starts(*a, **k):
        raise AssertionError(f"started {a[0]!r} on a database that does not open")

    monkeypatch.setenv("JXMJ_DB", url)
    monkeypatch.setattr(cmd_parlour.subprocess, "Popen", nothing_starts)
    assert main(["parlour", "--nginx", sys.executable, "--port", "18093"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("jxmj parlour: ") and said in err
    assert "secret" not in err  # the password is never printed
    assert ("make parlour" in err) == ("nosuchdriver" in url)  # the missing driver's remedy


def test_parlour_opens_and_migrates_its_database_before_the_processes(monkeypatch, tmp_path):
    import sqlite3

    path = tmp_path / "ledger.sqlite3"
    monkeypatch.setenv("JXMJ_DB", f"sqlite:///{path}")
    assert cmd_app.check_database() is None
    with sqlite3.connect(path) as conn:  # created and migrated: the processes do not race on it
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"jxmj_schema", "jxmj_tables", "jxmj_hands", "jxmj_drafts"} <= names


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
@pytest.mark.parametrize("target", ["parlour", "setup-server"])
def test_make_parlour_and_setup_server_install_the_postgresql_driver(tmp_path, target):
    """`make parlour` (docs/parlour.md) runs on `JXMJ_DB=postgresql+psycopg://…`: the venv it makes
    has psycopg; `make setup-server` (a server's checkout) too, without PyTorch (dry runs)."""
    venv = tmp_path / "venv"
    done = subprocess.run(
        ["make", "-n", "-C", str(ROOT), target, f"VENV={venv}"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert f"{venv}/bin/python -m pip install --quiet -e '.[postgres]'" in done.stdout
    assert "train" not in done.stdout and "torch" not in done.stdout
    assert (f"{venv}/bin/jxmj parlour --workers 2 --port 8080" in done.stdout) == (target == "parlour")


@needs_nginx
def test_the_deployed_site_says_what_to_make_yours_and_loads_once_it_is(tmp_path):
    """deploy/nginx/jxmj.conf as docs/parlour.md installs it: its head names what nginx refuses it
    without (the certificate) and the name; with a certificate given, nginx accepts it in an
    `http { }` as Debian's nginx.conf includes conf.d."""
    from app.lan import ensure_certificate

    site = (ROOT / "deploy/nginx/jxmj.conf").read_text()
    head = site.split("\nmap ")[0]
    for word in ("server_name", "ssl_certificate", "ssl_certificate_key", "nginx -t", "JXMJ_JOIN_URL"):
        assert word in head, word
    cert, key = ensure_certificate(tmp_path / "tls", ["127.0.0.1"])
    site = site.replace("/etc/ssl/jxmj/cert.pem", str(cert)).replace("/etc/ssl/jxmj/key.pem", str(key))
    (tmp_path / "jxmj.conf").write_text(site)
    main = f"pid {tmp_path}/nginx.pid;\nevents {{}}\nhttp {{\n    include {tmp_path}/jxmj.conf;\n}}\n"
    (tmp_path / "nginx.conf").write_text(main)
    cmd = [NGINX, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-e", str(tmp_path / "e"), "-t"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr


def _tail(path: Path) -> str:
    return path.read_text()[-2000:] if path.exists() else ""


@needs_nginx
def test_http_typed_on_the_https_port_is_sent_to_https(tmp_path):
    """`jxmj parlour --https` listens on one port: a phone that types http:// there was answered
    "400 The plain HTTP request was sent to HTTPS port"; it is sent to the https address."""
    from app.lan import ensure_certificate

    tls = parlour.Tls(*ensure_certificate(tmp_path / "tls", ["127.0.0.1"]))
    port, app_port = cmd_parlour.free_ports(2)
    prefix = tmp_path / "run"
    prefix.mkdir()
    (prefix / "nginx.conf").write_text(
        parlour.main_config(prefix, parlour.http_config([app_port], f"127.0.0.1:{port}", tls=tls))
    )
    front = subprocess.Popen(cmd_parlour.nginx_command(NGINX, prefix), start_new_session=True)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                answer = _get(port, "/table?table=K7QM9ACXTRE")
                break
            except OSError:
                assert front.poll() is None and time.monotonic() < deadline, _tail(prefix / "error.log")
                time.sleep(0.2)
        assert answer.status == 301
        assert answer.getheader("Location") == f"https://127.0.0.1:{port}/table?table=K7QM9ACXTRE"
    finally:
        cmd_parlour.stop(front)


@pytest.mark.parametrize(
    ("workers", "url", "noted"),
    [
        (1, "", False),
        (2, "", True),
        (2, "sqlite:////tmp/x.sqlite3", True),
        (4, "sqlite+pysqlite:///l.db", True),
        (2, "postgresql+psycopg://jxmj@localhost/jxmj", False),
    ],
)
def test_several_processes_on_one_sqlite_file_are_told_to_use_postgresql(workers, url, noted):
    note = cmd_parlour.sqlite_note(workers, url)
    assert (note is not None) == noted
    if noted:
        assert f"{workers} processes share one SQLite file" in note and "postgresql+psycopg" in note
