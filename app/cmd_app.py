"""`jxmj app` — start the Streamlit web app on a fixed port (default 8501).

Every option after `app` goes to `streamlit run` unchanged, e.g.
`jxmj app --server.port 8600 --server.headless true`.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

DESCRIPTION = __doc__
DEFAULT_PORT = "8501"
MAIN_SCRIPT = Path(__file__).with_name("streamlit_app.py")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "streamlit_options",
        nargs=argparse.REMAINDER,
        help="options passed to `streamlit run`, e.g. --server.port 8600",
    )


def streamlit_command(options: list[str]) -> list[str]:
    """The `streamlit run` command line for the app, with jxmj's defaults before the user's options."""
    cmd = [sys.executable, "-m", "streamlit", "run", str(MAIN_SCRIPT)]
    defaults = {
        "--server.port": DEFAULT_PORT,
        "--client.showErrorDetails": "false",
        "--browser.gatherUsageStats": "false",
        "--server.fileWatcherType": "none",
        "--client.toolbarMode": "minimal",
    }
    given = {o.split("=", 1)[0] for o in options if o.startswith("--")}
    for key, value in defaults.items():
        if key not in given:
            cmd += [key, value]
    return cmd + options


def run_passthrough(options: list[str]) -> int:
    if options[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    if not MAIN_SCRIPT.exists():
        print("jxmj app: not available yet", file=sys.stderr)
        return 2
    cmd = streamlit_command(options)
    sys.stdout.flush()
    # Become the server process, so that stopping `jxmj app` stops Streamlit too.
    os.execv(cmd[0], cmd)
    return 0  # not reached


def run(args: argparse.Namespace) -> int:
    return run_passthrough(list(args.streamlit_options))
