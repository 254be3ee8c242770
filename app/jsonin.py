"""Score JSON as it arrives at the CLI edge: bounded, strict, checked before the engine sees it.

`read_hand(name)` reads a file or standard input (`-`) and returns the decoded JSON value, or
raises `InputError` with one sentence naming the problem:

- more than `MAX_INPUT_BYTES` (64 KiB; a hand is a few hundred bytes), or not UTF-8;
- not JSON, or a field given twice in one object (`{"variant": ..., "variant": ...}` is an
  error, not "the last one wins");
- an integer of more than `MAX_INT_DIGITS` digits (refused before it is converted: Python's
  own limit may be switched off, and converting millions of digits takes minutes);
- a string holding a lone surrogate (`"\\ud800"`: not text; it cannot be printed or stored);
- a tile string (`concealed`, `winning_tile`, a meld's `tiles`) longer than
  `MAX_TILE_CHARS`, any other string or field name longer than `MAX_TEXT_CHARS` — refused
  before any tile is parsed. Fields starting with `_` (annotations) may hold longer text.

Messages quote at most `ECHO_CHARS` characters of a user's value (`clip`).
"""

from __future__ import annotations

import json
from typing import Any

from app.cliio import StreamError, read_stdin
from scoring.errors import BAD_JSON, INPUT_TOO_LARGE

MAX_INPUT_BYTES = 64 * 1024
MAX_TILE_CHARS = 100  # 14 tiles as "一万二万…" with spaces stay under 60
MAX_TEXT_CHARS = 80
ECHO_CHARS = 80
MAX_INT_DIGITS = 4300  # Python's default int_max_str_digits; a hand's numbers have a few digits
TILE_FIELDS = ("concealed", "winning_tile", "tiles")


class InputError(ValueError):
    """The input cannot be a hand; the message is one sentence for the user.

    `code` is a stable code of docs/score-json.md: `input_too_large` for the size limits,
    `bad_json` for the rest (unreadable, not UTF-8, not JSON, a duplicate field, a lone
    surrogate — none of them is valid I-JSON, RFC 7493).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def clip(value: str, limit: int = ECHO_CHARS) -> str:
    """`value` quoted, cut to `limit` characters with "…" when longer.

    >>> clip("abc"), clip("x" * 100, 5)
    ("'abc'", "'xxxxx…' (100 characters)")
    """
    if len(value) <= limit:
        return repr(value)
    return f"{value[:limit] + '…'!r} ({len(value)} characters)"


def short(text: str, limit: int = ECHO_CHARS) -> str:
    """`text` unquoted, cut to `limit` characters with "…" when longer (for file names)."""
    return text if len(text) <= limit else text[:limit] + "…"


def read_bytes(name: str, limit: int | None = None) -> bytes:
    """The raw input: standard input for `-`, else the file; at most `limit` bytes
    (default `MAX_INPUT_BYTES`)."""
    limit = MAX_INPUT_BYTES if limit is None else limit
    where = "standard input" if name == "-" else short(name)
    try:
        if name == "-":
            data = read_stdin(limit + 1)
        else:
            with open(name, "rb") as fh:
                data = fh.read(limit + 1)
    except StreamError as exc:
        raise InputError(BAD_JSON, str(exc)) from None
    except OSError as exc:
        raise InputError(BAD_JSON, f"cannot read {where}: {exc.strerror or exc}") from None
    if len(data) > limit:  # /dev/zero or an endless pipe must not hang or eat the memory
        size = f"{limit // 2**20} MiB" if limit >= 2**20 else f"{limit // 1024} KiB"
        what = ": a hand is a small JSON object" if limit == MAX_INPUT_BYTES else ""
        raise InputError(INPUT_TOO_LARGE, f"{where} is larger than {size}{what}")
    return data


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise InputError(
                BAD_JSON, f"the field {clip(key)} is given twice in one object: give each field once"
            )
        out[key] = value
    return out


def _check_string(text: str, path: str, limit: int | None) -> None:
    path = short(path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:  # only a lone surrogate (U+D800-U+DFFF) cannot be encoded
        raise InputError(
            BAD_JSON,
            f"{path} holds a lone surrogate (\\u{ord(text[exc.start]):04x}), which is not text: "
            "check the program that wrote the JSON",
        ) from None
    if limit is not None and len(text) > limit:
        what = "a tile string" if limit == MAX_TILE_CHARS else "this text"
        raise InputError(
            INPUT_TOO_LARGE, f"{path} is {len(text)} characters long: {what} may have at most {limit}"
        )


def check_strings(data: Any, lengths: bool = True) -> None:
    """Refuse lone surrogates anywhere and (`lengths`) over-long strings outside `_` annotations."""
    stack: list[tuple[Any, str, bool]] = [(data, "the input", False)]
    while stack:
        value, path, annotation = stack.pop()
        annotation = annotation or not lengths
        if isinstance(value, str):
            leaf = path.rsplit(".", 1)[-1]
            limit = None if annotation else MAX_TILE_CHARS if leaf in TILE_FIELDS else MAX_TEXT_CHARS
            _check_string(value, path, limit)
        elif isinstance(value, dict):
            for key, item in value.items():
                where = key if path == "the input" else f"{path}.{key}"
                _check_string(key, f"a field name in {path}", None if annotation else MAX_TEXT_CHARS)
                stack.append((item, where, annotation or key.startswith("_")))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                stack.append((item, f"{path}[{i}]", annotation))


def _int(text: str) -> int:
    """`json.loads` hook for an integer literal: refused past `MAX_INT_DIGITS` digits, by length."""
    if len(text) - text.startswith("-") > MAX_INT_DIGITS:
        raise InputError(INPUT_TOO_LARGE, f"the input holds a number of more than {MAX_INT_DIGITS} digits")
    return int(text)


def parse(text: str, lengths: bool = True) -> Any:
    """Decode JSON text strictly (duplicate fields and over-long integers refused) and
    `check_strings` it."""
    try:
        data = json.loads(text.lstrip("\ufeff"), object_pairs_hook=_no_duplicates, parse_int=_int)
    except (json.JSONDecodeError, RecursionError) as exc:  # a BOM is fine (stripped above)
        raise InputError(BAD_JSON, f"the input is not valid JSON: {exc}") from None
    check_strings(data, lengths)
    return data


def read_text(name: str, limit: int | None = None) -> str:
    """`read_bytes` decoded as strict UTF-8; `InputError` naming the first byte that is not."""
    data = read_bytes(name, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(BAD_JSON, f"the input is not UTF-8 text (byte {exc.start + 1} is not)") from None


def read_hand(name: str) -> Any:
    """`read_text` + `parse`: the JSON value of a hand file (or `-`)."""
    return parse(read_text(name))
