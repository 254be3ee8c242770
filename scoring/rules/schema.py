"""The layout of a rule table: every key a table may hold, at every level.

A whole house table (:func:`scoring.rules.load_rules_file`) is checked against it before it is
parsed, so a misspelt ``pair_runn = 5`` in ``[extras]`` is refused by its path
(``extras.pair_runn``) instead of scoring 潇洒 +0. The known keys are the built-in tables' own
(their union, so a house table may use any section value the engine reads) plus the structural
fields the parser knows. Raises :class:`~scoring.errors.HandError` ``unknown_rule_key`` naming the
key by its dotted path (``bad_rule_table`` for a section that is not a table).

>>> check_table({"variant": "x", "extras": {"pair_runn": 5}}, {"extras": {"pair_run"}})
Traceback (most recent call last):
scoring.errors.HandError: unknown key 'extras.pair_runn' (known in [extras]: pair_run)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring import errors as E
from scoring.errors import HandError
from scoring.jsontype import json_type
from scoring.rules.overrides import ADDER_KEYS

__all__ = ["check_table", "known_keys"]

_TOP = {
    "variant", "name_zh", "name_en", "family", "rule_text", "tiles", "play", "options", "basic",
    "adder_rules", "patterns", "extras", "bonus", "eaten", "names", "exclusions",
}  # fmt: skip
_FIXED = {
    "tiles": {"honours", "bonus_tile"},
    "play": {"chow", "self_draw_only", "events", "all_honours_free_shape", "payer_ready_declared"},
    "basic": {"key", "name_zh", "name_en", "points", "multiplier", "rule", "adders"},
    "basic.adders": set(ADDER_KEYS),
    "adder_rules": {f"{a}_excluded_by" for a in ADDER_KEYS},
    "exclusions": {"groups"},
    "pattern": {
        "name_zh",
        "name_en",
        "rule",
        "base",
        "base_self_drawn",
        "multiplier",
        "adders",
        "replaces",
        "compare_without",
        "addon",
    },
    "pattern.adders": set(ADDER_KEYS),
}
_OPEN = ("options", "extras", "bonus", "eaten", "names")  # keys: those of the built-in tables


def known_keys(builtin: list[Mapping[str, Any]]) -> dict[str, set[str]]:
    """Section → its known keys: the fixed layout plus the union of ``builtin`` tables' keys of
    ``[options]``, ``[extras]``, ``[bonus]``, ``[eaten]``, ``[names]``."""
    out = {k: set(v) for k, v in _FIXED.items()}
    for section in _OPEN:
        out[section] = set().union(*(set(doc.get(section, {})) for doc in builtin))
    return out


def check_table(doc: Mapping[str, Any], known: Mapping[str, set[str]]) -> None:
    """Refuse a key the layout does not know, at every level, naming its dotted path."""
    _keys(doc, _TOP, "", "the table")
    _table(doc.get("patterns", {}), "patterns")  # before [options] reads its keys
    for section in ("tiles", "play", "basic", "adder_rules", "exclusions", *_OPEN):
        value = doc.get(section, {})
        _table(value, section)
        options = known.get(section, set())
        if section == "options":  # <pattern>_is_addon switches one pattern to an add-on (§1.3a)
            options = options | {f"{p}_is_addon" for p in doc.get("patterns", {})}
        _keys(value, options, f"{section}.", f"[{section}]")
    basic = doc.get("basic", {})
    _table(basic.get("adders", {}), "basic.adders")
    _keys(basic.get("adders", {}), known["basic.adders"], "basic.adders.", "[basic.adders]")
    patterns = doc.get("patterns", {})
    _table(patterns, "patterns")
    for key, row in patterns.items():
        _table(row, f"patterns.{key}")
        _keys(row, known["pattern"], f"patterns.{key}.", "a pattern row")
        adders = row.get("adders", {})
        _table(adders, f"patterns.{key}.adders")
        _keys(adders, known["pattern.adders"], f"patterns.{key}.adders.", "a pattern's adders")


def _table(value: Any, path: str) -> None:
    if not isinstance(value, Mapping):
        raise HandError(E.BAD_RULE_TABLE, f"{path} must be a table, not {json_type(value)}")


def _keys(table: Mapping[str, Any], allowed: set[str], prefix: str, where: str) -> None:
    for k in table:
        if k not in allowed:
            name = f"{prefix}{k}"[:80]
            raise HandError(
                E.UNKNOWN_RULE_KEY, f"unknown key {name!r} (known in {where}: {', '.join(sorted(allowed))})"
            )
