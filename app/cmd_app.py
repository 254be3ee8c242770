"""`jxmj app` — start the Streamlit web app on a fixed port (default 8501).

Every option after `app` goes to `streamlit run` unchanged, e.g.
`jxmj app --server.port 8600 --server.headless true`.

`jxmj app` passes every server option the app relies on (`SERVER_OPTIONS`: 40 MB uploads,
no error details or exception names in the browser, no usage statistics, no file watcher,
XSRF protection, ...) on Streamlit's command line, where it outranks any
`.streamlit/config.toml`, so the app behaves the same from any working directory. An option
given after `app` still wins. The repository's `.streamlit/config.toml` says the same (a
test keeps the two equal) for a plain `streamlit run app/streamlit_app.py`.
`jxmj app --https` serves over https with a self-signed certificate made once for this
machine's LAN addresses (`app.lan.ensure_certificate`, kept in the user's data directory), so
phones at the table may use their camera; the terminal shows the address other phones open,
as a QR code too (the app shows it under its QR button). The browser warns once about the certificate.
That address goes to the app as ``JXMJ_JOIN_URL``; a ``JXMJ_JOIN_URL`` the user set already (the
address behind a proxy) is kept, printed and shown instead.

It also sets `MALLOC_SETTINGS` in the server's environment (unless already set), so that
the memory of a decoded photo goes back to the system once the photo is read.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from pathlib import Path

DESCRIPTION = __doc__
DEFAULT_PORT = "8501"
MAIN_SCRIPT = Path(__file__).with_name("streamlit_app.py")
MAX_UPLOAD_MB = 40  # a 12 MP HEIC is 2-5 MB, a 100 MP JPEG ~30 MB; vision.image.MAX_BYTES is 200 MiB

SERVER_OPTIONS: dict[str, str] = {
    "server.port": DEFAULT_PORT,
    "server.maxUploadSize": str(MAX_UPLOAD_MB),
    "server.maxMessageSize": "200",
    "server.fileWatcherType": "none",  # a scoring app, not a dev loop: no polling of the source tree
    "server.runOnSave": "false",
    "server.enableXsrfProtection": "true",
    "server.enableCORS": "true",
    "server.enableStaticServing": "false",
    "server.baseUrlPath": "",
    "client.showErrorDetails": "none",  # generic messages only: no tracebacks, no exception names
    "client.toolbarMode": "minimal",
    "client.showErrorLinks": "false",
    "browser.gatherUsageStats": "false",  # no network at run time
    "runner.magicEnabled": "true",
    "runner.postScriptGC": "false",  # no full gc.collect() after every run: `photo_gate.reclaim` after reads
    "theme.primaryColor": "#0b7a4b",
}
"""Every Streamlit option `jxmj app` sets (`section.option`: value, as on the command line)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "streamlit_options",
        nargs=argparse.REMAINDER,
        help="options passed to `streamlit run`, e.g. --server.port 8600",
    )


def streamlit_command(options: list[str]) -> list[str]:
    """The `streamlit run` command line for the app, with jxmj's defaults before the user's options."""
    cmd = [sys.executable, "-m", "app.serve", "run", str(MAIN_SCRIPT)]  # streamlit run, hardened
    given = {o.split("=", 1)[0] for o in options if o.startswith("--")}
    for key, value in SERVER_OPTIONS.items():
        if f"--{key}" not in given:
            cmd.append(f"--{key}={value}")
    return cmd + options


MALLOC_SETTINGS = {
    # Each Streamlit session runs in its own thread; glibc gives threads their own malloc
    # arenas and keeps freed photo-sized blocks in them (measured: 1.7 GB peak for 8 users
    # where two decodes at a time need ~0.8 GB): few arenas. Within them a photo's blocks (its
    # bytes, decoded pixels, the models' tensors: 1-32 MiB) are reused from one photo to the
    # next, not mapped and faulted in afresh each time (every block of 1 MiB or more mapped on
    # its own cost ~10 ms of system time a photo); what a burst leaves free goes back to the
    # system when the reads are quiet (`app.photo_gate.reclaim`: glibc's `malloc_trim`).
    "MALLOC_ARENA_MAX": "2",
    "MALLOC_MMAP_THRESHOLD_": str(32 * 2**20),
    "MALLOC_TRIM_THRESHOLD_": str(64 * 2**20),
}


def server_environment(env: Mapping[str, str]) -> dict[str, str]:
    """`env` with `MALLOC_SETTINGS` added where the caller has not set them."""
    return {**MALLOC_SETTINGS, **env}


def https_options(options: list[str]) -> tuple[list[str], bool]:
    """`options` without `--https`, and whether it was there; with it, the certificate options
    are added (unless the caller gave their own)."""
    if "--https" not in options:
        return options, False
    options = [o for o in options if o != "--https"]
    if not any(o.startswith("--server.sslCertFile") for o in options):
        from app.lan import ensure_certificate

        cert, key = ensure_certificate()
        options = [f"--server.sslCertFile={cert}", f"--server.sslKeyFile={key}", *options]
    return options, True


def _option(options: list[str], name: str, default: str = "") -> str:
    """The value of `--name=VALUE` or `--name VALUE` in `options` (the last one), else `default`."""
    value = default
    for k, o in enumerate(options):
        if o == f"--{name}" and k + 1 < len(options):
            value = options[k + 1]
        elif o.startswith(f"--{name}="):
            value = o.split("=", 1)[1]
    return value


def _port(options: list[str]) -> str:
    return _option(options, "server.port", DEFAULT_PORT)


def _addresses(options: list[str]) -> list[str] | None:
    """The address phones open when `--server.address` names one (not every interface)."""
    address = _option(options, "server.address").strip("[]")
    if not address or address in ("0.0.0.0", "::"):
        return None
    return [f"[{address}]" if ":" in address else address]


def announce(options: list[str], https: bool, given: str = "") -> str:
    """The join URL for other phones, printed with its QR code; also returned. `given`: the
    user's own ``JXMJ_JOIN_URL`` (the address behind a proxy or a tunnel), kept as it is; only
    when it is empty is the URL made from this machine's LAN address and the port."""
    from app.lan import join_url, qr_terminal

    url = given.strip() or join_url(_port(options), https, _addresses(options))
    print(f"jxmj: other phones at the table open {url}", flush=True)
    if https:
        print("jxmj: the browser warns once about the self-signed certificate; accept it to go on.")
    print(qr_terminal(url), flush=True)
    return url


def check_database(target: str = "setup-server") -> str | None:
    """What keeps the server's database (`JXMJ_DB`, else the user's SQLite ledger) from opening,
    None when it opens (and is migrated, once, before any process serves from it). Checked before
    anything starts: a path where a URL belongs, a missing driver, a wrong password or a server down
    is said here, not as a failed draft save on every phone after the QR was shown (`target`: the
    make target the hint names for a missing driver)."""
    from ledger.errors import LedgerError
    from ledger.store import open_store

    try:
        open_store().close()
    except LedgerError as e:
        hint = ""
        if e.code == "missing_driver":
            hint = f" — in a checkout: make {target} installs it (or: .venv/bin/pip install -e '.[postgres]')"
        return f"{e}{hint}"
    return None


def run_passthrough(options: list[str]) -> int:
    if options[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    if not MAIN_SCRIPT.exists():
        print("jxmj app: not available yet", file=sys.stderr)
        return 2
    problem = check_database()
    if problem:
        print(f"jxmj app: {problem}", file=sys.stderr)  # e.g. JXMJ_DB=/tmp/app.sqlite, no sqlite:///
        return 2
    options, https = https_options(options)
    url = announce(options, https, os.environ.get("JXMJ_JOIN_URL", ""))
    cmd = streamlit_command(options)
    sys.stdout.flush()
    # Become the server process, so that stopping `jxmj app` stops Streamlit too.
    os.execve(cmd[0], cmd, {**server_environment(os.environ), "JXMJ_JOIN_URL": url})
    return 0  # not reached


def run(args: argparse.Namespace) -> int:
    return run_passthrough(list(args.streamlit_options))
