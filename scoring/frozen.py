"""A read-only, hashable mapping: house rules as a value (``HandInput.rules``, cache keys).

A leaf module (stdlib only). :class:`FrozenMap` holds a copy of the mapping it is given, so the
caller's dict can change without changing it, and it hashes by its items with each value's type
(``1`` and ``True`` are equal in Python, but not as a rule value). Values are kept as given
(a list stays a list, as the rule checks expect one); nested lists and dicts are copied.

>>> rules = FrozenMap({"cap": 32, "min_win_exceptions": ["heavenly"]})
>>> rules["cap"], len(rules), hash(rules) == hash(FrozenMap(dict(rules)))
(32, 2, True)
>>> FrozenMap({"cap": 1}) == FrozenMap({"cap": True}), FrozenMap({"cap": 1}) == {"cap": 1}
(False, True)
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from typing import Any

__all__ = ["EMPTY", "FrozenMap", "freeze"]


def freeze(v: Any) -> Any:
    """A hashable form of a rule value that tells its type: ``1`` from ``True``, a list from a
    tuple; a value that cannot be hashed is told by its ``repr``."""
    if isinstance(v, list | tuple):
        return (type(v).__name__, tuple(freeze(x) for x in v))
    if isinstance(v, Mapping):
        return (type(v).__name__, frozenset((k, freeze(x)) for k, x in v.items()))
    try:
        hash(v)
    except TypeError:
        return (type(v).__name__, repr(v))
    return (type(v).__name__, v)


class FrozenMap(Mapping[str, Any]):
    """A mapping that cannot be changed and can be hashed (a dict's copy inside)."""

    __slots__ = ("_data", "_key")
    _data: dict[str, Any]
    _key: frozenset[tuple[str, Any]]

    def __init__(self, data: Mapping[str, Any] | None = None) -> None:
        if isinstance(data, FrozenMap):  # nothing to copy: it never changes
            self._data, self._key = data._data, data._key
            return
        self._data = copy.deepcopy(dict(data)) if data else {}
        self._key = frozenset((k, freeze(v)) for k, v in self._data.items())

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        return hash(self._key)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenMap):
            return self._key == other._key
        if isinstance(other, Mapping):
            return self._data == dict(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenMap:
        return self  # it never changes


#: The empty :class:`FrozenMap` (the default of ``HandInput.rules``).
EMPTY = FrozenMap()
