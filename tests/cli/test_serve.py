"""The HTTP surface of `jxmj app`: no public metrics, no framing by other sites, and the join
address is the one the server listens on."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app import cmd_app, serve

ROOT = Path(__file__).resolve().parents[2]


def _call(path: str) -> list[dict]:
    sent: list[dict] = []

    async def inner(scope, receive, send):
        await send(
            {"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/html")]}
        )
        await send({"type": "http.response.body", "body": b"page"})

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request"}

    asyncio.run(serve.Hardened(inner)({"type": "http", "path": path}, receive, send))
    return sent


def test_metrics_answer_404_and_every_answer_forbids_framing():
    start, body = _call("/_stcore/metrics")
    assert start["status"] == 404 and body["body"] == b"404: Not Found"
    assert _call("/base/_stcore/metrics/")[0]["status"] == 404
    start, body = _call("/")
    assert start["status"] == 200 and body["body"] == b"page"
    assert (b"content-security-policy", b"frame-ancestors 'self'") in start["headers"]
    assert (b"x-frame-options", b"SAMEORIGIN") in start["headers"]


@pytest.mark.parametrize(
    ("options", "want"),
    [
        (["--server.address=192.168.1.7", "--server.port", "8600"], "http://192.168.1.7:8600"),
        (["--server.address", "10.0.0.2"], "http://10.0.0.2:8501"),
        (["--server.address=fe80::1"], "http://[fe80::1]:8501"),
    ],
)
def test_the_join_address_is_the_servers_address(options, want, capsys):
    assert cmd_app.announce(options, https=False) == want
    assert f"other phones at the table open {want}" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("given", "want"),
    [
        ("https://mahjong.example.org/jx", "https://mahjong.example.org/jx"),  # behind a proxy: kept
        ("", "http://192.168.1.7:8600"),  # unset: this machine's address and port
    ],
)
def test_jxmj_app_keeps_a_join_url_the_user_set(given, want, monkeypatch, capsys):
    """`JXMJ_JOIN_URL` set by the user reaches the server (and the QR code) unchanged; it was
    replaced by the LAN address before, so the QR code sent phones around the proxy."""
    monkeypatch.setenv("JXMJ_JOIN_URL", given)
    started: list[dict] = []
    monkeypatch.setattr(cmd_app.os, "execve", lambda path, cmd, env: started.append(env))
    assert cmd_app.run_passthrough(["--server.address=192.168.1.7", "--server.port", "8600"]) == 0
    assert started[0]["JXMJ_JOIN_URL"] == want
    assert f"other phones at the table open {want}\n" in capsys.readouterr().out


def test_jxmj_app_refuses_a_database_it_cannot_open_before_it_starts(monkeypatch, capsys, tmp_path):
    """`JXMJ_DB` a plain path (no sqlite:///): said once at the start, exit 2; the server used to
    start and fail every draft save on every phone ("not saved: ... is not a database URL")."""
    started: list = []
    monkeypatch.setattr(cmd_app.os, "execve", lambda path, cmd, env: started.append(env))
    monkeypatch.setenv("JXMJ_DB", str(tmp_path / "app.sqlite"))
    assert cmd_app.run_passthrough(["--server.port", "8600"]) == 2
    err = capsys.readouterr().err
    assert not started and err.startswith("jxmj app: ") and "is not a database URL" in err
    assert "sqlite:///" in err  # the form it wants
    monkeypatch.setenv("JXMJ_DB", f"sqlite:///{tmp_path / 'app.sqlite'}")
    assert cmd_app.run_passthrough(["--server.port", "8600"]) == 0 and len(started) == 1
    assert (tmp_path / "app.sqlite").exists()  # opened and migrated before the server starts


def test_the_server_runs_hardened():
    assert cmd_app.streamlit_command([])[1:5] == ["-m", "app.serve", "run", str(cmd_app.MAIN_SCRIPT)]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_running_server_hides_its_metrics_and_forbids_framing(tmp_path):
    requests = pytest.importorskip("requests")
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "JXMJ_DB": f"sqlite:///{tmp_path / 'l.sqlite3'}"}
    cmd = [sys.executable, "-m", "app", "app", f"--server.port={port}", "--server.address=127.0.0.1"]
    proc = subprocess.Popen(
        [*cmd, "--server.headless=true"], cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        base, health = f"http://127.0.0.1:{port}", None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and health is None:
            try:
                health = requests.get(f"{base}/_stcore/health", timeout=1)
            except requests.RequestException:
                time.sleep(0.3)
        assert health is not None and health.status_code == 200
        assert health.headers["x-frame-options"] == "SAMEORIGIN"
        assert (
            requests.get(f"{base}/", timeout=5).headers["content-security-policy"] == "frame-ancestors 'self'"
        )
        assert requests.get(f"{base}/_stcore/metrics", timeout=5).status_code == 404
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)


def test_the_server_leaves_its_start_up_objects_out_of_every_collection(monkeypatch):
    """Streamlit collects all generations after every run of a page (`runner.postScriptGC`): what
    the server imported at start is frozen first (`gc.freeze`), so no collection walks it."""
    import gc

    from streamlit.web import cli

    seen: list[int] = []
    monkeypatch.setattr(cli, "main", lambda: seen.append(gc.get_freeze_count()) or 0)
    monkeypatch.setattr(serve, "install", lambda: None)
    monkeypatch.setattr(sys, "argv", list(sys.argv))  # main sets it for Streamlit
    from app import photo_gate

    monkeypatch.setattr(photo_gate, "FREEZE_AFTER_FIRST", False)  # main sets it: undone after
    try:
        assert serve.main(["run", "app/streamlit_app.py"]) == 0
        assert seen and seen[0] > 10_000  # the pages' modules, SQLAlchemy and Streamlit's server
        assert photo_gate.FREEZE_AFTER_FIRST  # and the reader's, once the first photo is read
    finally:
        gc.unfreeze()
