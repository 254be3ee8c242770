"""How a JSON or TOML value reads in an error sentence (the score path's and the rules' messages).

Standard library only.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

__all__ = ["json_type", "non_finite", "not_a_count"]


def json_type(v: Any) -> str:
    """How a JSON or TOML value reads in an error sentence, in the file's words, never Python's:
    ``a string ('yes')``, ``a number (5)``, ``a boolean (true)``, ``null``, ``a list``, ``an
    object``; TOML's ``a date``, ``a time``, ``a date and time`` (not echoed: Python would
    rewrite them). A float too large for the reader (``1e400``, TOML's ``inf``) is ``a number too
    large`` (not echoed: it was read as infinity), TOML's ``nan`` is ``nan (not a number)``.

    >>> json_type(True), json_type(1e400), json_type(float("nan")), json_type(2.5)
    ('a boolean (true)', 'a number too large', 'nan (not a number)', 'a number (2.5)')
    >>> import datetime
    >>> json_type(datetime.date(1979, 5, 27)), json_type(datetime.datetime(1979, 5, 27, 7, 32))
    ('a date', 'a date and time')
    """
    if v is None:
        return "null"
    if isinstance(v, bool):
        return f"a boolean ({str(v).lower()})"
    if isinstance(v, float) and not math.isfinite(v):
        return "nan (not a number)" if math.isnan(v) else "a number too large"
    if isinstance(v, (int, float)):
        text = str(v) if not isinstance(v, int) or v.bit_length() < 200 else f"{str(v)[:20]}…"
        return f"a number ({text})"
    if isinstance(v, str):
        return f"a string ({v[:60]!r})"
    if isinstance(v, (list, tuple)):
        return "a list"
    if isinstance(v, Mapping):
        return "an object"
    if isinstance(v, datetime.datetime):  # before date: a datetime is a date too
        return "a date and time"
    if isinstance(v, datetime.date):
        return "a date"
    if isinstance(v, datetime.time):
        return "a time"
    return type(v).__name__


def not_a_count(v: Any) -> str:
    """Why `v` is no count 0..4, for an error sentence: ``-3 is out of range``, ``2.5 is not a
    whole number``, ``not a string ('x')``.

    >>> not_a_count(-3), not_a_count(2.5), not_a_count("x")
    ('-3 is out of range', '2.5 is not a whole number', "not a string ('x')")
    """
    if type(v) is int:
        return f"{json_type(v).removeprefix('a number (').removesuffix(')')} is out of range"
    if type(v) is float and v.is_integer() is False:
        return f"{v} is not a whole number"
    return f"not {json_type(v)}"


def non_finite(value: Any) -> Any:
    """A number in a JSON value (its objects' values and its lists walked) that is not finite —
    a float read from ``1e999`` or ``NaN``, a ``Decimal('Infinity')`` — or None.
    Walked without recursion, so any depth is safe.

    >>> non_finite({"a": [1, {"b": float("-inf")}]}), non_finite([1.5, "inf", None])
    (-inf, None)
    """
    stack = [value]
    while stack:
        v = stack.pop()
        if (isinstance(v, float) and not math.isfinite(v)) or (isinstance(v, Decimal) and not v.is_finite()):
            return v
        if isinstance(v, Mapping):
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
    return None
