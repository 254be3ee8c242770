"""The `jxmj` command line: `score`, `detect`, `photo`, `table`, `app`.

Each subcommand lives in its own module (`app/cmd_*.py`) exposing
`add_arguments(parser)` and `run(args) -> int`. Exit status: 0 success,
2 bad input (with a JSON or plain-text error naming the problem).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from app import __version__

SUBCOMMANDS = {
    "score": ("app.cmd_score", "score a winning hand given as JSON (see docs/score-json.md)"),
    "detect": ("app.cmd_detect", "find and name every tile in a photo; prints JSON"),
    "photo": ("app.cmd_photo", "photo -> tiles -> hand -> score, in one step"),
    "table": ("app.cmd_table", "a multi-hand table ledger (牌局): record hands, show totals, settle"),
    "app": ("app.cmd_app", "start the Streamlit web app"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="jxmj",
        description="Scoring assistant for Jiangxi mahjong: 九江 jiujiang, 星子 xingzi, 新余 xinyu.",
    )
    parser.add_argument("--version", action="version", version=f"jxmj {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        module = importlib.import_module(module_name)
        p = sub.add_parser(
            name,
            help=help_text,
            description=getattr(module, "DESCRIPTION", help_text),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # `jxmj app` passes everything after it to streamlit untouched (e.g. --server.port 8600).
    if argv[:1] == ["app"]:
        from app import cmd_app

        return cmd_app.run_passthrough(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    return int(args._run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
