"""`jxmj score -|FILE` — score a winning hand given as JSON (docs/score-json.md).

Exit status 0 with the result object on standard output; exit 2 with
``{"error": "...", "code": "..."}`` (docs/score-json.md "Error codes")
on any bad input (bad JSON, wrong types, unknown values, a hand that is not complete) and
when standard input or output cannot be used. The input is read and checked by
`app.jsonin` (at most 64 KiB, strict UTF-8 JSON, no duplicate fields, no lone surrogates,
no over-long strings) before the engine sees it; the output is written by `app.cliio`.
"""

from __future__ import annotations

import argparse

from app.cliio import emit, emit_json
from app.clilang import lang_of
from app.jsonin import InputError, read_hand

DESCRIPTION = """jxmj score: score a winning hand given as JSON (see docs/score-json.md).

Reads the hand from FILE, or from standard input with '-'. Prints the result as JSON
(default) or, with --format text, a decomposition and item table for people (--lang zh|en).
--rules FILE.toml applies house rules (table keys, docs/rules/README.md); a "rules" object
in the hand overrides them again.
Exit status: 0 scored (can_win may still be false), 2 bad input ({"error": ...})."""


MAX_MESSAGE_CHARS = 300  # an engine message quoting a nested user value is cut here


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", nargs="?", default="-", help="hand JSON file, or '-' for standard input")
    parser.add_argument(
        "--format", choices=("json", "text"), default="json", help="output format (default json)"
    )
    parser.add_argument(
        "--lang",
        choices=("zh", "en"),
        default=None,
        help="language of --format text and its errors (default: from the locale)",
    )
    parser.add_argument("--rules", metavar="FILE.toml", help="house rules: rule-table keys and values")


def error_format(args: argparse.Namespace) -> str:
    """How this command writes its errors, usage errors included (`app.cli`): "text" (a sentence
    on standard output) with --format text, else "json"."""
    return "text" if getattr(args, "format", None) == "text" else "json"


def _error(message: str, fmt: str, code: str = "bad_field", lang: str = "en") -> int:
    """Exit status 2 with ``{"error": sentence, "code": stable code}`` (scoring.errors.CODES); with
    --format text a line, in Chinese by the code with --lang zh (`scoring.text.format_error`)."""
    if len(message) > MAX_MESSAGE_CHARS:
        message = message[:MAX_MESSAGE_CHARS] + "…"
    if fmt != "text":
        return emit_json({"error": message, "code": code}) or 2
    try:
        from scoring.text import format_error

        line = format_error(code, message, lang)
    except Exception:  # pragma: no cover - a broken install: the English sentence
        line = f"error: {message}"
    return emit(line) or 2


def run(args: argparse.Namespace) -> int:
    fmt = error_format(args)
    lang = lang_of(args)  # --lang, else the locale's
    try:
        from scoring import HandError, format_text, hand_from_json, load_overrides, score
        from scoring.errors import INTERNAL_ERROR
    except Exception as e:  # pragma: no cover - a broken install
        return _error(f"the scoring engine could not be loaded: {e}", fmt)
    try:
        data = read_hand(args.input or "-")
    except InputError as e:
        return _error(str(e), fmt, e.code, lang)
    try:
        if getattr(args, "rules", None) and isinstance(data, dict):
            given = data.get("rules", {})
            if isinstance(given, dict):  # anything else is named by the engine's own check
                data = {**data, "rules": {**load_overrides(args.rules), **given}}
        result = score(hand_from_json(data))
    except HandError as e:
        return _error(str(e), fmt, e.code, lang)
    except Exception as e:  # never a traceback: an engine bug is reported as an error object
        return _error(f"internal error while scoring ({type(e).__name__}: {e})", fmt, INTERNAL_ERROR, lang)
    if fmt == "text":
        return emit(format_text(result, lang).rstrip("\n"))
    return emit_json(result.to_json())
