"""House rules per call: overrides of a rule table's options and values by table key.

A key is a dotted path of the variant's TOML table — ``options.cap``, ``patterns.full_flush.base``,
``patterns.half_flush.adders.self_drawn``, ``extras.pair_run``, ``bonus.kong``, ``eaten.red_flag``,
``basic.points``, ``basic.adders.concealed``, ``adder_rules.concealed_excluded_by`` — or a short
form: a bare option name (``cap``), a pattern field without ``patterns.`` (``full_flush.base``),
either of them behind the variant's own name (``xinyu.cap``). Structure (tiles, play, names,
exclusion groups) is not overridable: that is a different table, :func:`load_rules_file`.

The value must have the type the table has there (a whole number for 炮 values, true/false for a
switch, a list of names for a list); numbers are 0 … 1,000,000. Anything else is a
:class:`HandError` naming the key (codes ``unknown_rule_key``, ``bad_rule_value``).

>>> doc = {"options": {"cap": 0}, "patterns": {"full_flush": {"base": 20}}}
>>> apply_overrides(doc, {"full_flush.base": 15, "xinyu.cap": 32}, "xinyu")[1]
{'patterns.full_flush.base': 15, 'options.cap': 32}
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from scoring import errors as E
from scoring.errors import HandError
from scoring.jsontype import json_type

__all__ = ["ADDER_KEYS", "MAX_VALUE", "apply_overrides", "flatten", "flatten_object"]

ADDER_KEYS = ("self_drawn", "concealed", "edge_wait", "closed_wait", "single_wait")
MAX_VALUE = 10**6
_VALUE_SECTIONS = ("extras", "bonus", "eaten")
_ANY = "options.<name>, patterns.<key>.<field>, extras/bonus/eaten.<name>, basic.<field>"
_BASIC = "basic.points (basic.multiplier), basic.adders.<adder>"
_PATTERN_FIELDS = {
    "base": int,
    "base_self_drawn": int,
    "multiplier": int,
    "replaces": list,
    "compare_without": bool,
}


def _unknown(key: str, why: str, keys: str) -> HandError:
    """``unknown_rule_key``; its detail: the ``key`` and the ``keys`` that may be written there."""
    return HandError(E.UNKNOWN_RULE_KEY, f"rules: unknown key {key[:80]!r}: {why}", key=key[:80], keys=keys)


def _path(doc: Mapping[str, Any], key: Any, variant: str) -> tuple[tuple[str, ...], type]:
    """The canonical path of an override key and the type its value must have."""
    if not isinstance(key, str):
        raise HandError(
            E.UNKNOWN_RULE_KEY,
            f"rules: keys are strings such as 'options.cap', not {key!r}",
            key=repr(key)[:80],
            keys="options.cap",
        )
    parts = tuple(key.split("."))
    if parts[0] == variant and len(parts) > 1:
        parts = parts[1:]
    options = doc.get("options", {})
    patterns = doc.get("patterns", {})
    if len(parts) == 1:
        parts = ("options", *parts)
    elif parts[0] in patterns:
        parts = ("patterns", *parts)
    head = parts[0]
    if head == "options":
        if len(parts) != 2 or parts[1] not in options:
            names = ", ".join(sorted(options))
            raise _unknown(key, f"{variant} has the options {names}", names)
        return parts, type(options[parts[1]])
    if head in _VALUE_SECTIONS or head == "adder_rules":
        section = doc.get(head, {})
        if len(parts) != 2 or parts[1] not in section:
            has = ", ".join(sorted(section)) or "no keys"
            raise _unknown(
                key,
                f"[{head}] of {variant} has {has}",
                ", ".join(f"{head}.{k}" for k in sorted(section)) or _ANY,
            )
        return parts, type(section[parts[1]])
    if head == "basic":
        if parts[1:] in (("points",), ("multiplier",)) and parts[1] in doc.get("basic", {}):
            return parts, int
        if len(parts) == 3 and parts[1] == "adders" and parts[2] in ADDER_KEYS and doc.get("family") != "fan":
            return parts, int
        raise _unknown(key, "basic takes points (or multiplier) and adders.<adder>", _BASIC)
    if head == "patterns":
        if len(parts) < 3 or parts[1] not in patterns:
            raise _unknown(key, f"{variant} has the patterns {', '.join(patterns)}", ", ".join(patterns))
        row = patterns[parts[1]]
        fan = doc.get("family") == "fan"
        if len(parts) == 4 and parts[2] == "adders" and parts[3] in ADDER_KEYS and not fan:
            return parts, int
        fields = ("multiplier",) if fan else ("base", "base_self_drawn", "replaces", "compare_without")
        if len(parts) == 3 and parts[2] in fields:
            return parts, _PATTERN_FIELDS[parts[2]] if parts[2] not in row else type(row[parts[2]])
        extra = "" if fan else f", adders.<{'|'.join(ADDER_KEYS)}>"
        takes = f"{', '.join(fields)}{extra}"
        raise _unknown(key, f"a pattern takes {takes}", takes)
    why = "use options.<name>, patterns.<key>.<field>, extras/bonus/eaten.<name> or basic.<field>"
    raise _unknown(key, why, _ANY)


def _check(key: str, value: Any, kind: type) -> Any:
    """`value` if `kind` may hold it, else ``bad_rule_value``; its detail: the ``key`` and the
    kind of value it wants, ``want``: ``bool``, ``int`` or ``number`` (0 … :data:`MAX_VALUE`),
    ``names`` (a list of item names) or ``string``."""

    def bad(what: str, want: str) -> HandError:  # the value in the file's words (json_type), not Python's
        return HandError(
            E.BAD_RULE_VALUE, f"rules: {key} must be {what}, not {json_type(value)}", key=key, want=want
        )

    if kind is bool:
        if not isinstance(value, bool):
            raise bad("true or false", "bool")
    elif kind in (int, float):
        want = "int" if kind is int else "number"
        if isinstance(value, bool) or not isinstance(value, (int, float) if kind is float else int):
            raise bad("a whole number" if kind is int else "a number", want)
        if not 0 <= value <= MAX_VALUE:  # a float's inf and nan too (nan: no comparison holds)
            raise bad(f"from 0 to {MAX_VALUE:,}", want)
    elif kind is list:
        if not isinstance(value, list) or not all(isinstance(x, str) for x in value) or len(value) > 64:
            raise bad("a list of names", "names")
    elif kind is str:
        if not isinstance(value, str) or len(value) > 80:
            raise bad("a string", "string")
    return value


def _check_names(doc: Mapping[str, Any], path: tuple[str, ...], names: list[str]) -> None:
    """A list value names items of the table (``replaces``, ``*_excluded_by``, ``min_win_exceptions``)."""
    known = {"basic", *doc.get("patterns", {}), *doc.get("names", {})}
    key = ".".join(path)
    for name in names:
        if name not in known:
            raise HandError(
                E.BAD_RULE_VALUE,
                f"rules: {key} holds the unknown item {name[:80]!r}",
                key=key,
                want="known_item",
                item=name[:80],
            )
    if path[0] == "patterns" and path[1] in names:
        raise HandError(
            E.BAD_RULE_VALUE, f"rules: {key}: a pattern cannot replace itself", key=key, want="not_itself"
        )


def apply_overrides(
    raw: Mapping[str, Any], overrides: Mapping[str, Any], variant: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(document with the overrides set, {canonical key: value} applied)``; raw is not changed."""
    if len(overrides) > 256:
        raise HandError(E.BAD_FIELD, f"rules: {len(overrides)} overrides given; a table has fewer keys")
    doc = copy.deepcopy(dict(raw))
    applied: dict[str, Any] = {}
    for key, value in overrides.items():
        path, kind = _path(doc, key, variant)
        canonical = ".".join(path)
        _check(canonical, value, kind)
        if kind is list:
            _check_names(doc, path, value)
        node = doc
        for p in path[:-1]:
            node = node.setdefault(p, {})
        node[path[-1]] = list(value) if isinstance(value, list) else value
        applied[canonical] = value
    return doc, applied


def flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """A nested TOML document of overrides (``[options] cap = 32``) as dotted keys (``options.cap``).

    >>> flatten({"options": {"cap": 32}, "full_flush.base": 15})
    {'options.cap': 32, 'full_flush.base': 15}
    """
    return flatten_object(table, prefix)  # a TOML key is always a string


def flatten_object(obj: Mapping[Any, Any], prefix: str = "") -> dict[Any, Any]:
    """A ``rules`` object with nested objects as dotted keys, like :func:`flatten`; a key that is
    not a string is kept as given (under no prefix), for :func:`apply_overrides` to name.

    >>> flatten_object({"patterns": {"seven_pairs": {"bsae": 30}}, "cap": 16})
    {'patterns.seven_pairs.bsae': 30, 'cap': 16}
    """
    out: dict[Any, Any] = {}
    for k, v in obj.items():
        if not isinstance(k, str):
            out[k] = v
            continue
        key = f"{prefix}{k}"
        if isinstance(v, Mapping):
            out.update(flatten_object(v, f"{key}."))
        else:
            out[key] = v
    return out
