"""`jxmj app --https`: a self-signed certificate made once for the LAN addresses, the join URL
as a QR code, and the server fetched over https with the certificate it made."""

from __future__ import annotations

import os
import socket
import ssl
import subprocess
import sys
import time
import urllib.request

import pytest

from app import cmd_app, lan
from tests.app.conftest import ROOT


def test_certificate_is_made_once_and_names_the_addresses(tmp_path):
    from cryptography import x509

    cert, key = lan.ensure_certificate(tmp_path, ["192.168.1.23"])
    stamp = cert.stat().st_mtime_ns
    assert lan.ensure_certificate(tmp_path, ["192.168.1.23"]) == (cert, key)
    assert cert.stat().st_mtime_ns == stamp  # cached: not made again
    names = x509.load_pem_x509_certificate(cert.read_bytes()).extensions.get_extension_for_class(
        x509.SubjectAlternativeName
    )
    ips = {str(a) for a in names.value.get_values_for_type(x509.IPAddress)}
    assert ips == {"127.0.0.1", "192.168.1.23"}
    assert "localhost" in names.value.get_values_for_type(x509.DNSName)
    assert oct(key.stat().st_mode & 0o777) == "0o600"
    lan.ensure_certificate(tmp_path, ["10.0.0.7"])  # the machine moved to another network
    assert cert.stat().st_mtime_ns != stamp


def test_https_option_adds_the_certificate_and_the_join_url_is_a_qr(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(lan, "cert_dir", lambda: tmp_path)
    options, https = cmd_app.https_options(["--https", "--server.port", "8600"])
    assert https and "--https" not in options
    assert options[0] == f"--server.sslCertFile={tmp_path / lan.CERT_NAME}"
    monkeypatch.setattr(lan, "lan_addresses", lambda: ["192.168.1.23"])
    url = cmd_app.announce(options, https)
    out = capsys.readouterr().out
    assert url == "https://192.168.1.23:8600" and url in out and "█" in out
    assert "<svg" in lan.qr_svg(url)
    assert cmd_app.https_options(["--server.port", "8600"]) == (["--server.port", "8600"], False)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_app_served_over_https_with_the_certificate_it_made(tmp_path):
    port = _free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    cmd = [sys.executable, "-m", "app", "app", "--https", "--server.port", str(port)]
    cmd += ["--server.headless", "true"]
    log = (tmp_path / "server.log").open("w")
    out = {"stdout": log, "stderr": subprocess.STDOUT}
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, start_new_session=True, **out)
    try:
        cert = tmp_path / "jxmj" / "tls" / lan.CERT_NAME
        deadline = time.monotonic() + 40
        while True:
            try:
                if not cert.exists():
                    raise OSError("no certificate yet")
                ctx = ssl.create_default_context(cafile=str(cert))
                health = f"https://127.0.0.1:{port}/_stcore/health"
                with urllib.request.urlopen(health, context=ctx, timeout=2) as r:
                    assert r.status == 200
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"no https server: {(tmp_path / 'server.log').read_text()[-2000:]}")
                time.sleep(0.3)
        with pytest.raises(OSError):  # plain http is not served
            urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2)
        assert "other phones at the table open https://" in (tmp_path / "server.log").read_text()
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=15)
        log.close()
