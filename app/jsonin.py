"""Score JSON as it arrives at the CLI edge: bounded, strict, checked before the engine sees it.

`read_hand(name)` reads a file or standard input (`-`) and returns the decoded JSON value, or
raises `InputError` with one sentence naming the problem:

- more than `MAX_INPUT_BYTES` (64 KiB; a hand is a few hundred bytes), or not UTF-8;
- not JSON, or a field given twice in one object (`{"variant": ..., "variant": ...}` is an
  error, not "the last one wins");
- an integer of more than `MAX_INT_DIGITS` digits (refused before it is converted: Python's
  own limit may be switched off, and converting millions of digits takes minutes);
- a string holding a lone surrogate (`"\\ud800"`: not text; it cannot be printed or stored);
- `NaN`, `Infinity` or `-Infinity` (not JSON, RFC 8259: they could be stored but never read
  back by a strict reader), and a number too large for a float however it is spelled (`1e999`,
  `-1E400`, 400 digits: Python reads it as infinity, which would be written back as `Infinity`);
- arrays and objects nested more than `MAX_DEPTH` deep (a hand is 4 deep; deeper input would
  exhaust Python's recursion further on);
- a tile string (`concealed`, `winning_tile`, a meld's `tiles`) longer than
  `MAX_TILE_CHARS`, any other string or field name longer than `MAX_TEXT_CHARS` — refused
  before any tile is parsed. Fields starting with `_` (annotations) may hold longer text.

Messages quote at most `ECHO_CHARS` characters of a user's value (`clip`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from typing import Any

from app.cliio import StreamError, read_stdin
from scoring.errors import BAD_JSON, INPUT_TOO_LARGE, INPUT_UNREADABLE

MAX_INPUT_BYTES = 64 * 1024
MAX_TILE_CHARS = 100  # 14 tiles as "一万二万…" with spaces stay under 60
MAX_TEXT_CHARS = 80
ECHO_CHARS = 80
MAX_INT_DIGITS = 4300  # Python's default int_max_str_digits; a hand's numbers have a few digits
TILE_FIELDS = ("concealed", "winning_tile", "tiles")
MAX_DEPTH = 32  # arrays / objects inside each other: a ledger export is 7 deep


class InputError(ValueError):
    """The input cannot be a hand; the message is one sentence for the user.

    `code` is a stable code of docs/score-json.md: `input_too_large` for the size limits,
    `input_unreadable` for a file missing or that cannot be read, `bad_json` for the rest
    (standard input failing, not UTF-8, not JSON, a duplicate field, a lone
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


def size_text(limit: int) -> str:
    """A limit in bytes as a person reads it, never rounded down: a whole number of MiB or KiB,
    else the bytes and about how many MiB (an import's 8,257,536 bytes were "7 MiB").

    >>> size_text(64 * 1024), size_text(4 * 2**20), size_text(2000 * 4096 + 65536)
    ('64 KiB', '4 MiB', '8,257,536 bytes (7.9 MiB)')
    """
    if limit % 2**20 == 0:
        return f"{limit // 2**20} MiB"
    if limit < 2**20 and limit % 1024 == 0:
        return f"{limit // 1024} KiB"
    return f"{limit:,} bytes ({limit / 2**20:.1f} MiB)"


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
        raise InputError(INPUT_UNREADABLE, f"cannot read {where}: {exc.strerror or exc}") from None
    if len(data) > limit:  # /dev/zero or an endless pipe must not hang or eat the memory
        size = size_text(limit)
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


def _check_string(text: str, path: str | Callable[[], str], limit: int | None) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:  # only a lone surrogate (U+D800-U+DFFF) cannot be encoded
        where = short(path() if callable(path) else path)
        raise InputError(
            BAD_JSON,
            f"{where} holds a lone surrogate (\\u{ord(text[exc.start]):04x}), which is not text: "
            "check the program that wrote the JSON",
        ) from None
    if limit is not None and len(text) > limit:
        what = "a tile string" if limit == MAX_TILE_CHARS else "this text"
        where = short(path() if callable(path) else path)
        raise InputError(
            INPUT_TOO_LARGE, f"{where} is {len(text)} characters long: {what} may have at most {limit}"
        )


def _path_of(keys: list[str | int], key: str | int) -> Callable[[], str]:
    """:func:`_path` of ``keys`` then ``key``, worded only when an error needs it."""
    return lambda: _path([*keys, key])


def _path(keys: list[str | int]) -> str:
    """``winners[0].hand.concealed``: where a value sits (``the input`` for the whole value)."""
    out = ""
    for k in keys:
        out = f"{out or 'the input'}[{k}]" if isinstance(k, int) else f"{out}.{k}" if out else k
    return out or "the input"


def _children(value: dict | list) -> Iterator[tuple[str | int, Any]]:
    return iter(value.items()) if isinstance(value, dict) else enumerate(value)


def check_strings(
    data: Any, lengths: bool = True, limits: dict[str, int] | None = None, skip: tuple[str, ...] = ()
) -> None:
    """Refuse lone surrogates anywhere, nesting deeper than `MAX_DEPTH` and (`lengths`)
    over-long strings outside `_` annotations; `limits` gives fields (by name) limits of their
    own; a field named in `skip` is not looked into (derived data the reader drops).

    The walk holds one iterator per level (memory of the depth, not of the size); a value's
    path is spelled out only for the message that names it."""
    if not isinstance(data, (dict, list)):
        if isinstance(data, str):
            _check_string(data, "the input", MAX_TEXT_CHARS if lengths else None)
        return
    stack: list[tuple[Iterator[tuple[str | int, Any]], bool]] = [(_children(data), not lengths)]
    keys: list[str | int] = []  # keys[i]: where the container of stack[i + 1] sits in stack[i]'s
    while stack:
        children, annotation = stack[-1]
        step = next(children, None)
        if step is None:
            stack.pop()
            if keys:
                keys.pop()
            continue
        key, value = step
        if isinstance(key, str):
            _check_string(
                key, lambda: f"a field name in {_path(keys)}", None if annotation else MAX_TEXT_CHARS
            )
            if key in skip:
                continue
            annotation = annotation or key.startswith("_")
        if isinstance(value, str):
            limit = None
            if not annotation:
                limit = MAX_TILE_CHARS if key in TILE_FIELDS else MAX_TEXT_CHARS
                limit = limits.get(key, limit) if limits and isinstance(key, str) else limit
            _check_string(value, _path_of(keys, key), limit)
        elif isinstance(value, (dict, list)):
            if len(stack) >= MAX_DEPTH:
                raise InputError(
                    BAD_JSON, f"the input is nested more than {MAX_DEPTH} levels deep: no hand is"
                )
            stack.append((_children(value), annotation))
            keys.append(key)


def _int(text: str) -> int:
    """`json.loads` hook for an integer literal: refused past `MAX_INT_DIGITS` digits, by length."""
    if len(text) - text.startswith("-") > MAX_INT_DIGITS:
        raise InputError(INPUT_TOO_LARGE, f"the input holds a number of more than {MAX_INT_DIGITS} digits")
    return int(text)


def _constant(name: str) -> Any:
    """`json.loads` hook for `NaN`, `Infinity`, `-Infinity`: refused (not JSON)."""
    raise InputError(BAD_JSON, f"the input holds {name}, which is not a JSON number: give a number")


def _float(text: str) -> float:
    """`json.loads` hook for a number with a fraction or an exponent: refused when it reads as
    infinity (`1e999`), which no JSON writer may write back."""
    value = float(text)
    if not math.isfinite(value):
        raise InputError(
            BAD_JSON,
            f"the input holds {short(text, 40)}, which is not a finite number (it is too large): "
            "give a number",
        )
    return value


def parse(
    text: str,
    lengths: bool = True,
    limits: dict[str, int] | None = None,
    skip: tuple[str, ...] = (),
    too_large: bool = False,
) -> Any:
    """Decode JSON text strictly (duplicate fields, over-long integers, NaN, Infinity and 1e999 refused)
    and `check_strings` it (`lengths`, `limits`, `skip` as there). Empty text (or only white
    space) is `bad_json` saying so, not a decoder's "Expecting value". `too_large`: a number too
    large for a float (`1e999`) is read as infinity, for a caller that checks every value by its
    key next and names it there (the app's house rules).

    >>> parse(" ")
    Traceback (most recent call last):
    ...
    app.jsonin.InputError: the input is empty: give one JSON object
    """
    if not text.lstrip("\ufeff").strip():
        raise InputError(BAD_JSON, "the input is empty: give one JSON object")
    try:
        data = json.loads(
            text.lstrip("\ufeff"),
            object_pairs_hook=_no_duplicates,
            parse_int=_int,
            parse_float=float if too_large else _float,
            parse_constant=_constant,
        )
    except RecursionError:
        raise InputError(
            BAD_JSON, f"the input is nested more than {MAX_DEPTH} levels deep: no hand is"
        ) from None
    except json.JSONDecodeError as exc:  # a BOM is fine (stripped above)
        raise InputError(BAD_JSON, f"the input is not valid JSON: {exc}") from None
    check_strings(data, lengths, limits, skip)
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
