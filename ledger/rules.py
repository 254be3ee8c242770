"""Ledger rule tables: the between-hand rules of DECISIONS §1.6 and §2 as data.

One TOML file per variant in ``ledger/rules/`` (``jiujiang.toml``, ``xingzi.toml``,
``xinyu.toml``), each value with its DECISIONS section beside it. A table's house rules
override any value by ``"section.key"`` (``{"drawn.window": 3, "false_win.penalty": 5}``);
an unknown key, a wrong type or a value outside its choices is a :class:`LedgerError`; so is a
number outside today's bounds (:data:`INT_RANGES`), on new input only (``bounded``): a table stored
before a bound existed keeps its values and still loads (nothing the user entered is lost).
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ledger.errors import LedgerError, shown
from scoring import HandError, RuleTable, load_rules
from scoring.frozen import FrozenMap
from scoring.rules import VARIANTS

__all__ = [
    "CHOICES",
    "INT_RANGE",
    "INT_RANGES",
    "LedgerRules",
    "largest_raise",
    "load_ledger_rules",
    "rule_sections",
]

_HERE = Path(__file__).resolve().parent / "rules"

#: The values a text option may take (any other is an error naming the choices).
CHOICES: dict[str, tuple[str, ...]] = {
    "dealer.after_dealer_win": ("keep", "next"),
    "dealer.after_drawn": ("keep", "next"),
    "dealer.several_winners": ("first_from_discarder", "dealer_keeps"),
    "dealer.after_false_win": ("keep", "next"),
    "raises.combine": ("max", "multiply"),
}


@dataclass(frozen=True)
class LedgerRules:
    """A parsed ledger table: ``values`` maps ``"section.key"`` to its value."""

    variant: str
    values: dict[str, Any]

    def __getitem__(self, key: str) -> Any:
        return self.values[key]


@functools.cache
def _defaults(variant: str) -> dict[str, Any]:
    path = _HERE / f"{variant}.toml"
    if variant not in VARIANTS or not path.is_file():
        names = f"{', '.join(VARIANTS[:-1])} or {VARIANTS[-1]}"
        raise LedgerError("unknown_variant", f"unknown variant {variant!r}: use {names}")
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    return {f"{sec}.{k}": v for sec, rows in doc.items() if isinstance(rows, dict) for k, v in rows.items()}


@functools.cache
def rule_sections(variant: str) -> dict[str, str]:
    """Each section of ``variant``'s ledger table and the DECISIONS section its header names
    (``{"dealer": "§1.6", ...}``; a section whose header names none is left out).

    >>> rule_sections("xinyu")["kong_money"]
    '§2'
    """
    import re

    _defaults(variant)  # an unknown variant: LedgerError
    text = (_HERE / f"{variant}.toml").read_text(encoding="utf-8")
    return dict(re.findall(r"^\[(\w+)\][^\n]*?DECISIONS (§[\d.]+)", text, flags=re.M))


#: The whole numbers a number option may take (`INT_RANGE` unless named): a raise multiplies the
#: point value (x1 = none; x16 keeps base 10^6 x several raises far below scoring's
#: MAX_POINT_VALUE), seats are 0-3, the rest are counts of hands or 炮.
RAISES = ("follow.raise", "follow.raise_dragon", "follow.raise_second", "follow.hold", "drawn.raise")
INT_RANGES: dict[str, tuple[int, int]] = {
    **dict.fromkeys((*RAISES, "drawn.consecutive_raise"), (1, 16)),
    "dealer.first": (0, 3),
}
INT_RANGE = (0, 1000)


def _check(key: str, value: Any, default: Any, bounded: bool) -> Any:
    lo, hi = INT_RANGES.get(key, INT_RANGE) if bounded else (0, float("inf"))
    if isinstance(default, bool):
        ok = isinstance(value, bool)
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi
    else:
        ok = isinstance(value, str) and value in CHOICES.get(key, (value,))
    if not ok:
        whole = f"a whole number from {lo} to {hi}" if bounded else "a whole number >= 0"
        kind = "true or false" if isinstance(default, bool) else whole if type(default) is int else "a string"
        want = CHOICES.get(key) or (kind,)
        echo = shown(value) if not isinstance(value, int) or abs(value) < 10**12 else f"{str(value)[:12]}…"
        raise LedgerError("bad_rule", f"house rule {key} = {echo} is not allowed: use {' / '.join(want)}")
    return value


def load_ledger_rules(
    variant: str, overrides: dict[str, Any] | None = None, *, bounded: bool = True
) -> LedgerRules:
    """The ledger table of ``variant`` with ``overrides`` (``{"section.key": value}``) applied.

    ``bounded``: numbers must lie in :data:`INT_RANGES` (new input); ``False`` for a table already
    stored, whose numbers need only be whole and >= 0 (the check before the bounds existed).
    Raises :class:`LedgerError` (``unknown_variant``, ``unknown_rule``, ``bad_rule``).

    >>> load_ledger_rules("jiujiang")["drawn.window"]
    4
    >>> load_ledger_rules("xingzi", {"false_win.penalty": 5})["false_win.penalty"]
    5
    """
    return _load(variant, FrozenMap(overrides), bounded)


@functools.lru_cache(maxsize=64)
def _load(variant: str, overrides: FrozenMap, bounded: bool) -> LedgerRules:
    values = dict(_defaults(variant))
    for key, value in sorted(overrides.items()):
        if key not in values:
            raise LedgerError(
                "unknown_rule", f"unknown house rule {key!r}: the ledger rules are {', '.join(values)}"
            )
        values[key] = _check(key, value, values[key], bounded)
    return LedgerRules(variant, values)


def largest_raise(lr: LedgerRules) -> int:
    """The largest raise a hand of a table with these rules can reach (DECISIONS §1.6, ledger.fold):
    the largest single raise; with ``raises.combine = "multiply"`` the product of all that can be
    active at once: a 黄庄 raise from each of the last ``drawn.window`` hands (all drawn), the
    consecutive-黄庄 raise and one 跟庄 raise (a follow or the dealer's hold, never both).

    >>> largest_raise(load_ledger_rules("jiujiang", {"raises.combine": "multiply"}))
    256
    """
    follow = max(lr[k] for k in RAISES if k.startswith("follow.")) if lr["follow.enabled"] else 1
    drawn, consecutive = lr["drawn.raise"], lr["drawn.consecutive_raise"]
    if lr["raises.combine"] != "multiply":
        return int(max(follow, drawn, consecutive))
    return int(drawn ** lr["drawn.window"] * consecutive * follow)


def scoring_rules(variant: str, overrides: Mapping[str, Any] | None) -> RuleTable:
    """The variant's scoring table with the table's house rules (scoring table keys such as
    ``"full_flush.base"`` or ``"cap"``, scoring/rules/overrides.py); raises ``bad_rule``.
    Cached: the ledger replay asks for it once per fold."""
    return _scoring_rules(variant, FrozenMap(overrides))


@functools.lru_cache(maxsize=64)
def _scoring_rules(variant: str, overrides: FrozenMap) -> RuleTable:
    try:
        return load_rules(variant).with_overrides(dict(sorted(overrides.items())))
    except HandError as e:
        raise LedgerError("bad_rule", f"scoring house rules: {e}") from None
