"""`jxmj score -|FILE` — score a winning hand given as JSON (docs/score-json.md).

Exit status 0 with the result object on standard output; exit 2 with ``{"error": "..."}``
on any bad input (bad JSON, wrong types, unknown values, a hand that is not complete).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

DESCRIPTION = """jxmj score: score a winning hand given as JSON (see docs/score-json.md).

Reads the hand from FILE, or from standard input with '-'. Prints the result as JSON
(default) or, with --format text, a decomposition and item table for people.
Exit status: 0 scored (can_win may still be false), 2 bad input ({"error": ...})."""


MAX_INPUT_CHARS = 32 * 2**20  # a hand is a few hundred bytes; 32 MiB leaves room for annotations


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", nargs="?", default="-", help="hand JSON file, or '-' for standard input")
    parser.add_argument(
        "--format", choices=("json", "text"), default="json", help="output format (default json)"
    )


def _error(message: str, fmt: str, code: str = "bad_field") -> int:
    """Exit status 2 with ``{"error": sentence, "code": stable code}`` (scoring.errors.CODES)."""
    if fmt == "text":
        print(f"error: {message}")
    else:
        print(json.dumps({"error": message, "code": code}, ensure_ascii=False))
    return 2


def run(args: argparse.Namespace) -> int:
    fmt = getattr(args, "format", "json")
    try:
        from scoring import HandError, format_text, hand_from_json, score
    except Exception as e:  # pragma: no cover - a broken install
        return _error(f"the scoring engine could not be loaded: {e}", fmt)
    try:
        if args.input in (None, "-"):
            text = sys.stdin.read(MAX_INPUT_CHARS + 1)
        else:
            with open(args.input, encoding="utf-8") as fh:
                text = fh.read(MAX_INPUT_CHARS + 1)
    except (OSError, UnicodeDecodeError) as e:
        return _error(f"cannot read {args.input}: {e}", fmt, "bad_json")
    if len(text) > MAX_INPUT_CHARS:  # /dev/zero or an endless pipe must not hang or eat the memory
        where = "standard input" if args.input in (None, "-") else args.input
        return _error(
            f"{where} is larger than {MAX_INPUT_CHARS // 2**20} MiB: a hand is a small JSON object",
            fmt,
            "input_too_large",
        )
    try:
        data = json.loads(text.lstrip("\ufeff"))  # a byte-order mark from some editors is fine
    except (json.JSONDecodeError, RecursionError) as e:
        return _error(f"the input is not valid JSON: {e}", fmt, "bad_json")
    except ValueError as e:  # e.g. an integer of more than 4300 digits
        return _error(f"the input could not be read as JSON: {e}", fmt, "bad_json")
    try:
        result = score(hand_from_json(data))
    except HandError as e:
        return _error(str(e), fmt, e.code)
    except Exception as e:  # never a traceback: an engine bug is reported as an error object
        return _error(f"internal error while scoring ({type(e).__name__}: {e})", fmt, "internal_error")
    try:
        if fmt == "text":
            sys.stdout.write(format_text(result))
        else:
            print(json.dumps(result.to_json(), ensure_ascii=False))
        sys.stdout.flush()
    except BrokenPipeError:  # `jxmj score h.json | head`: the reader left; no traceback
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):  # pragma: no cover - stdout without a file
            pass
    return 0
