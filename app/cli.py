"""The `jxmj` command line: `score`, `detect`, `photo`, `table`, `app`.

Each subcommand lives in its own module (`app/cmd_*.py`) exposing
`add_arguments(parser)` and `run(args) -> int`. Exit status: 0 success,
2 bad input (with a JSON or plain-text error naming the problem).

A usage error (an unknown option, a missing argument, a value an option refuses) is answered
like every other error of the command: exit status 2 and, where the command's output is JSON,
``{"error": "jxmj detect: ...", "code": "bad_usage"}`` on standard output; where the output
is text (`jxmj score --format text`, `jxmj photo` without `--json`) the sentence as that
command writes its errors. The command module says which (`error_format(args)`: "json", the
default, "text" or "stderr"), from the options of the command line as its own parser reads
them. The usage line goes to standard error for the person at the terminal.

Before a command is known — `jxmj` alone, an unknown command (`jxmj tabel`) — there is no
command's way to follow: the usage line and ``jxmj: error: ...`` (for `jxmj` alone, a pointer
to `jxmj --help`) go to standard error and nothing to standard output, exit status 2, as
argparse answers a usage error. `jxmj --help` prints the whole help on standard output, exit 0.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Mapping

from app.cliio import emit, emit_json, warn

USAGE_CODE = "bad_usage"
NO_COMMAND = "a command is needed; `jxmj --help` lists them"

SUBCOMMANDS = {
    "score": ("app.cmd_score", "score a winning hand given as JSON (see docs/score-json.md)"),
    "detect": ("app.cmd_detect", "find and name every tile in a photo; prints JSON"),
    "photo": ("app.cmd_photo", "photo -> tiles -> hand -> score, in one step"),
    "table": ("app.cmd_table", "a multi-hand table ledger (牌局): record hands, show totals, settle"),
    "app": ("app.cmd_app", "start the Streamlit web app"),
    "parlour": ("app.cmd_parlour", "N app processes behind nginx on one database (one machine)"),
}


class UsageError(Exception):
    """The command line cannot be parsed: `message` names the problem, `parser` the (sub)command."""

    def __init__(self, parser: argparse.ArgumentParser, message: str) -> None:
        super().__init__(message)
        self.parser = parser


class Parser(argparse.ArgumentParser):
    """argparse, with its usage errors raised as :class:`UsageError` instead of printed and exited
    (its subcommand parsers are of this class too)."""

    def error(self, message: str):
        raise UsageError(self, message)


def _given_options(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """The values of `parser`'s own options found in `argv`, read leniently after a usage error
    (argparse stops at the first fault, so its namespace is lost): every option of `parser`
    with its option strings and default, no type or choice check, positionals and unknown
    options passed over — abbreviations are resolved as `parser` resolves them. An option whose
    default is ``SUPPRESS`` (`jxmj table ACTION --lang`) is there only when given."""
    probe = Parser(prog=parser.prog, add_help=False, allow_abbrev=parser.allow_abbrev)
    actions = [
        a
        for a in parser._actions
        if a.option_strings and (a.default is not argparse.SUPPRESS or a.nargs != 0)  # not -h, --version
    ]
    for a in actions:
        how = {"nargs": "?"} if a.nargs != 0 else {"action": "store_const", "const": a.const}
        probe.add_argument(*a.option_strings, dest=a.dest, default=a.default, **how)
    try:
        return probe.parse_known_args(argv)[0]
    except UsageError:  # an ambiguous abbreviation, a value given to a flag: the defaults
        return argparse.Namespace(
            **{a.dest: a.default for a in actions if a.default is not argparse.SUPPRESS}
        )


def _usage_error(e: UsageError, argv: list[str], top: argparse.ArgumentParser) -> int:
    """Answer a usage error the way the command answers its other errors; status 2.

    The command's module says how (`error_format(args)`: "json", "text" or "stderr", the
    same function its own errors follow; where JSON, `error_object(args, message, code)` may
    give the object, in the command's `--lang`; where "stderr", its ``error`` goes first when it
    is a translation, one with a ``detail``), given the options of the command line as its
    parser reads them (`_given_options`). Before a command is known (none given, an unknown
    one) there is no such answer: the usage line and the error go to standard error, as
    argparse writes them."""
    commands = top.commands  # type: ignore[attr-defined]
    command = next((a for a in argv if not a.startswith("-")), None)
    later = next((a for a in argv if a in commands), None)
    parser = e.parser
    if parser is top and command in commands:  # extra arguments are found by the top
        parser = commands[command]  # parser; they belong to the command
    message = f"{parser.prog}: {e}"
    if e.parser is top and later and argv[:1] != [later] and argv[0].startswith("-"):
        command, parser = later, commands[later]  # `jxmj --format text score`: argparse took "text"
        message = f"jxmj: {argv[0]} comes after the command: jxmj {later} {argv[0]} ..."
    warn(parser.format_usage().rstrip())
    if parser is top:  # no command known
        warn(f"jxmj: error: {e}")
        return 2
    rest = list(argv)
    if command in rest:
        rest.remove(command)  # the command's options, wherever they were typed
    answer, shape = (
        (commands[command].get_default("_error_format"), commands[command].get_default("_error_object"))
        if command in commands
        else (None, None)
    )
    given = _given_options(parser, rest)
    style = answer(given) if answer else "json"
    if style == "text":
        return emit(f"error: {message}") or 2
    if style == "stderr":  # in the command's --lang: its sentence first where it has one
        said = shape(given, message, USAGE_CODE) if shape else {}
        if "detail" in said:
            warn(f"{parser.prog}: {said['error']}")
        warn(message)
        return 2
    said = shape(given, message, USAGE_CODE) if shape else {"error": message, "code": USAGE_CODE}
    return emit_json(said) or 2


class _Version(argparse._VersionAction):
    """`--version`: the installed version, looked up only when asked (`importlib.metadata`
    costs a command that does not print it tens of milliseconds)."""

    def __call__(self, parser, namespace, values, option_string=None):
        from app import __version__

        self.version = f"jxmj {__version__}"
        super().__call__(parser, namespace, values, option_string)


class _Commands(dict):
    """The subcommand parsers by name, each filled (its module imported, `add_arguments`
    called) the first time it is looked up: `jxmj score` imports neither the vision stack
    nor the web app's, `jxmj --help` no command module at all. Keys, order and membership
    are the plain dict's, so argparse's choice checks and messages are unchanged."""

    def __init__(self, parsers: Mapping[str, argparse.ArgumentParser]) -> None:
        super().__init__(parsers)
        self._empty = set(parsers)

    def _fill(self, name: str) -> argparse.ArgumentParser:
        p = dict.__getitem__(self, name)
        if name in self._empty:
            self._empty.discard(name)
            module_name, help_text = SUBCOMMANDS[name]
            module = importlib.import_module(module_name)
            p.description = getattr(module, "DESCRIPTION", help_text)
            module.add_arguments(p)
            p.set_defaults(
                _run=module.run,
                _error_format=getattr(module, "error_format", None),
                _error_object=getattr(module, "error_object", None),
            )
        return p

    def __getitem__(self, name: str) -> argparse.ArgumentParser:
        return self._fill(name)

    def get(self, name, default=None):
        return self._fill(name) if name in self else default

    def values(self):
        return [self._fill(name) for name in self]

    def items(self):
        return [(name, self._fill(name)) for name in self]


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="jxmj",
        description="Scoring assistant for Jiangxi mahjong: 九江 jiujiang, 星子 xingzi, 新余 xinyu.",
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_, help_text) in SUBCOMMANDS.items():
        sub.add_parser(name, help=help_text, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = _Commands(sub._name_parser_map)
    sub._name_parser_map = sub.choices = commands  # argparse looks a command up here
    parser.commands = commands  # type: ignore[attr-defined]
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
        return _usage_error(e, argv, parser)
    if not getattr(args, "command", None):  # `jxmj` alone: a usage error, as argparse answers one
        return _usage_error(UsageError(parser, NO_COMMAND), argv, parser)
    return int(args._run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
