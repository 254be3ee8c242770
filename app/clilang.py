"""What the `jxmj` commands read from the person typing them: the language (`--lang`) and the
numbers of the command line, ASCII digits only.

- `lang_of(args)`: ``"zh"`` or ``"en"``: ``--lang`` when given (`jxmj score`, `jxmj table`),
  else Chinese when the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``, the first set) is
  Chinese, else English.
- `whole_number` and `decimal_number`: argparse types that take ASCII digits only. Python's
  ``int("١")`` is 1 and ``float("٠.٥")`` 0.5 (any script's digits), so `jxmj table edit CODE ١`
  edited hand 1; here such a value is a usage error naming it.
"""

from __future__ import annotations

import argparse
import os
import re

__all__ = ["LANGS", "decimal_number", "lang_of", "whole_number"]

LANGS = ("zh", "en")
MAX_DIGITS = 9  # a hand number or a count: far beyond any table, and no 4300-digit int() to parse
_WHOLE = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")
_DECIMAL = re.compile(
    r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?(?:nan|inf|infinity)", re.I
)


def lang_of(args: argparse.Namespace) -> str:
    """``"zh"`` or ``"en"``: ``args.lang`` where it is one of `LANGS`, else by the locale."""
    given = getattr(args, "lang", None)
    if given in LANGS:
        return given
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


def whole_number(text: str) -> int:
    """argparse type: a whole number >= 0 in ASCII digits (``"12"``), at most `MAX_DIGITS` of them.

    Raises:
        argparse.ArgumentTypeError: naming the value (``'١'``, ``'-1'``, ``'1.5'``, ``' 3'``).
    """
    if not _WHOLE.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"not a whole number in ASCII digits 0-9 (at most {MAX_DIGITS}): {text[:40]!r}"
        )
    return int(text)


def decimal_number(text: str) -> float:
    """argparse type: a number written in ASCII (``"0.5"``, ``"1e-3"``, also ``"nan"``: the caller
    checks its range), as ``float`` reads it, but spelled as a person types a number: no digit
    separators (``float("1_0")`` is 10) and no spaces around it.

    Raises:
        argparse.ArgumentTypeError: naming the value (``'٠.٥'``, ``'abc'``, ``'1_0'``, ``' 1'``).

    >>> decimal_number("0.25"), decimal_number("-1e-3")
    (0.25, -0.001)
    """
    if not text.isascii():
        raise argparse.ArgumentTypeError(f"not a number in ASCII digits 0-9: {text[:40]!r}")
    if not _DECIMAL.fullmatch(text):
        raise argparse.ArgumentTypeError(f"not a number: {text[:40]!r}")
    return float(text)
