"""How a JSON value reads in an error sentence (the score path's messages).

Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["json_type", "not_a_count"]


def json_type(v: Any) -> str:
    """How a value reads in an error sentence: ``a string ('yes')``, ``a number (5)``, ``null``."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return f"a boolean ({str(v).lower()})"
    if isinstance(v, (int, float)):
        text = str(v) if not isinstance(v, int) or v.bit_length() < 200 else f"{str(v)[:20]}…"
        return f"a number ({text})"
    if isinstance(v, str):
        return f"a string ({v[:60]!r})"
    if isinstance(v, (list, tuple)):
        return "a list"
    if isinstance(v, Mapping):
        return "an object"
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
