"""The `jxmj` command line: `score`, `detect`, `photo`, `table`, `app`.

Each subcommand lives in its own module (`app/cmd_*.py`) exposing
`add_arguments(parser)` and `run(args) -> int`. Exit status: 0 success,
2 bad input (with a JSON or plain-text error naming the problem).

A usage error (an unknown option, a missing argument, a value an option refuses) is answered
like every other error of the command: exit status 2 and, where the command's output is JSON,
``{"error": "jxmj detect: ...", "code": "bad_usage"}`` on standard output; where the output
is text (`jxmj score --format text`, `jxmj photo` without `--json`) the sentence as that
command writes its errors. The usage line goes to standard error for the person at the terminal.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from app import __version__
from app.cliio import emit, emit_json, warn

USAGE_CODE = "bad_usage"

SUBCOMMANDS = {
    "score": ("app.cmd_score", "score a winning hand given as JSON (see docs/score-json.md)"),
    "detect": ("app.cmd_detect", "find and name every tile in a photo; prints JSON"),
    "photo": ("app.cmd_photo", "photo -> tiles -> hand -> score, in one step"),
    "table": ("app.cmd_table", "a multi-hand table ledger (牌局): record hands, show totals, settle"),
    "app": ("app.cmd_app", "start the Streamlit web app"),
}


class UsageError(Exception):
    """The command line cannot be parsed: `message` names the problem, `parser` the (sub)command."""

    def __init__(self, parser: argparse.ArgumentParser, message: str) -> None:
        super().__init__(message)
        self.parser = parser


class Parser(argparse.ArgumentParser):
    """argparse, with its usage errors raised as :class:`UsageError` instead of printed and exited
    (its subcommand parsers are of this class too)."""

    def error(self, message: str):  # type: ignore[override]
        raise UsageError(self, message)


def _option_given(argv: list[str], option: str, value: str | None = None) -> bool:
    """`option` (or an abbreviation argparse accepts, at least 3 characters) is in `argv`, with
    `value` after it (``--format text`` or ``--format=text``) when one is given."""
    for i, arg in enumerate(argv):
        name, eq, inline = arg.partition("=")
        if len(name) < 3 or not option.startswith(name):
            continue
        if value is None or (inline if eq else (argv[i + 1] if i + 1 < len(argv) else None)) == value:
            return True
    return False


def _usage_error(e: UsageError, argv: list[str]) -> int:
    """Answer a usage error the way the command answers its other errors; status 2."""
    commands = getattr(e.parser, "commands", {})
    command = next((a for a in argv if not a.startswith("-")), None)
    later = next((a for a in argv if a in commands), None)
    parser = e.parser
    if parser.prog == "jxmj" and command in commands:  # extra arguments are found by the top
        parser = parser.commands[command]  # parser; they belong to the command
    message = f"{parser.prog}: {e}"
    if e.parser.prog == "jxmj" and later and argv[:1] != [later] and argv[0].startswith("-"):
        command, parser = later, commands[later]  # `jxmj --format text score`: argparse took "text"
        message = f"jxmj: {argv[0]} comes after the command: jxmj {later} {argv[0]} ..."
    warn(parser.format_usage().rstrip())
    if command == "score" and _option_given(argv, "--format", "text"):
        return emit(f"error: {message}") or 2  # as `jxmj score --format text` writes its errors
    if command == "photo" and not _option_given(argv, "--json"):
        warn(message)  # `jxmj photo` without --json writes its errors on standard error
        return 2
    return emit_json({"error": message, "code": USAGE_CODE}) or 2


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="jxmj",
        description="Scoring assistant for Jiangxi mahjong: 九江 jiujiang, 星子 xingzi, 新余 xinyu.",
    )
    parser.add_argument("--version", action="version", version=f"jxmj {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    parser.commands = {}  # type: ignore[attr-defined]
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        module = importlib.import_module(module_name)
        p = sub.add_parser(
            name,
            help=help_text,
            description=getattr(module, "DESCRIPTION", help_text),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(p)
        parser.commands[name] = p  # type: ignore[attr-defined]
        p.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # `jxmj app` passes everything after it to streamlit untouched (e.g. --server.port 8600).
    if argv[:1] == ["app"]:
        from app import cmd_app

        return cmd_app.run_passthrough(argv[1:])
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as e:
        return _usage_error(e, argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    return int(args._run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
