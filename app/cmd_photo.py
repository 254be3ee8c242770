"""`jxmj photo` — not available yet (its issue has not landed)."""

from __future__ import annotations

import argparse
import sys

DESCRIPTION = "jxmj photo: not available yet."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", nargs="?", help="input (not available yet)")


def run(args: argparse.Namespace) -> int:
    print("jxmj photo: not available yet", file=sys.stderr)
    return 2
