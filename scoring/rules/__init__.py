"""Rule tables: one TOML file per variant (`jiujiang.toml`, `xingzi.toml`, `xinyu.toml`).

Every number of `docs/rules/DECISIONS.md` lives in these tables, with the section it comes
from beside it. :func:`load_rules` reads one (cached); :func:`load_rules_file` reads a house
table with other values and the same layout.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scoring import errors as E
from scoring.errors import HandError
from scoring.frozen import FrozenMap
from scoring.items import ItemDef, registry
from scoring.model import VARIANTS
from scoring.rules.options import Options, kong_money
from scoring.rules.overrides import ADDER_KEYS, apply_overrides, flatten, flatten_object
from scoring.rules.schema import check_table, known_keys
from scoring.tiles import HONOURS, Tile

__all__ = [
    "VARIANTS",
    "Options",
    "PatternRule",
    "RuleTable",
    "kong_money",
    "load_overrides",
    "load_rules",
    "load_rules_file",
]

_HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class PatternRule:
    """One pattern row of a table: base 炮 (jiujiang/xingzi) or multiplier (xinyu)."""

    key: str
    name_zh: str
    name_en: str
    rule: str
    base: int = 0
    base_self_drawn: int | None = None
    multiplier: int = 1
    adders: dict[str, int] = field(default_factory=dict)
    replaces: tuple[str, ...] = ()
    #: an add-on, not a 花: its base is added on top of the hand's own 炮; it neither displaces 平胡
    #: nor gives adders (the table's option ``<key>_is_addon``, e.g. JJ ``red_flag_is_addon``, §1.3a)
    addon: bool = False
    #: 计大不计小 also scores the same reading without this pattern, and keeps the larger (七仙女, §1.3)
    compare_without: bool = False


@dataclass(frozen=True)
class RuleTable:
    """A parsed rule table. ``raw`` keeps the whole TOML document."""

    variant: str
    name_zh: str
    name_en: str
    family: str  # "pao" (炮, DECISIONS §1) or "fan" (multipliers, DECISIONS §2)
    honours: frozenset[int]
    bonus_tile: int | None
    chow: str  # "fourth_meld_only" | "never" | "any"
    self_draw_only: bool
    events: tuple[str, ...]  # the variant's events, in table order (a subset of scoring.model.EVENTS)
    all_honours_free_shape: bool
    payer_ready_declared: bool
    options: Options  # the table's [options], typed (scoring/rules/options.py)
    basic: dict[str, Any]
    patterns: dict[str, PatternRule]
    adder_rules: dict[str, tuple[str, ...]]
    extras: dict[str, int]
    bonus: dict[str, int]
    eaten: dict[str, int]
    names: dict[str, tuple[str, str, str]]
    exclusion_groups: tuple[tuple[str, ...], ...]
    raw: dict[str, Any]
    applied: dict[str, Any] = field(default_factory=dict)  # house-rule overrides baked into this table

    @functools.cached_property
    def tile_kinds(self) -> tuple[int, ...]:
        """Tile kinds that can stand in a hand (the bonus tile excluded)."""
        return tuple(t for t in range(34) if (t < 27 or t in self.honours) and t != self.bonus_tile)

    @functools.cached_property
    def allowed_kinds(self) -> frozenset[int]:
        """:attr:`tile_kinds` as a set."""
        return frozenset(self.tile_kinds)

    @functools.cached_property
    def exclusions(self) -> dict[str, frozenset[str]]:
        """adder → the patterns that exclude it for the whole hand (``[adder_rules] <adder>_excluded_by``)."""
        return {
            k.removesuffix("_excluded_by"): frozenset(v)
            for k, v in self.adder_rules.items()
            if k.endswith("_excluded_by")
        }

    @functools.cached_property
    def item_names(self) -> dict[str, tuple[str, str, str]]:
        """item key → (name_zh, name_en, rule reference) for every key the table names."""
        out = dict(self.names)
        out[self.basic.get("key", "basic")] = (
            self.basic["name_zh"],
            self.basic["name_en"],
            self.basic["rule"],
        )
        out.update({k: (p.name_zh, p.name_en, p.rule) for k, p in self.patterns.items()})
        return out

    @functools.cached_property
    def item_keys(self) -> frozenset[str]:
        """The item keys this table declares, so uses: its ``[patterns.*]``, its 平胡 (``[basic]``)
        and the counting items it names (``[names]``); what it eats from a payer (``[eaten]``) is
        scored under those keys. Each must have one registered function of the table's family, and
        each function of a family is used by at least one of its tables (a key one table lacks,
        such as xingzi's missing 报听, needs no exception anywhere)."""
        return frozenset(self.item_names)

    @functools.cached_property
    def pattern_items(self) -> tuple[tuple[str, ItemDef, PatternRule], ...]:
        """``(key, its registered function, its row)`` for every pattern, in table order."""
        reg = registry(self.family)
        missing = [k for k in self.patterns if k not in reg or reg[k].kind != "pattern"]
        if missing:
            raise HandError(
                E.BAD_RULE_TABLE,
                f"rule table {self.variant}: no predicate for pattern(s) {', '.join(missing)}",
            )
        return tuple((k, reg[k], p) for k, p in self.patterns.items())

    @functools.cached_property
    def plain_pattern_items(self) -> tuple[tuple[str, ItemDef, PatternRule], ...]:
        """:attr:`pattern_items` without the event patterns (enough when the input has no events)."""
        return tuple(x for x in self.pattern_items if not x[1].event)

    @functools.cached_property
    def counting_items(self) -> tuple[ItemDef, ...]:
        """The counting items of the family in the order items are listed: 平胡, extras, adders,
        bonus (registration order within a kind)."""
        order = ("basic", "extra", "adder", "bonus", "cap")
        found = [d for d in registry(self.family).values() if d.kind != "pattern"]
        return tuple(sorted(found, key=lambda d: order.index(d.kind)))

    def name(self, key: str) -> tuple[str, str, str]:
        """(name_zh, name_en, rule reference) of an item key."""
        return self.item_names.get(key, (key, key, ""))

    def with_overrides(self, overrides: Mapping[str, Any]) -> RuleTable:
        """This table with house-rule ``overrides`` (table key → value) applied; cached per table.

        Keys are dotted paths of the TOML table (``options.cap``, ``patterns.full_flush.base``,
        ``patterns.half_flush.adders.self_drawn``, ``extras.pair_run``, ``bonus.kong``,
        ``eaten.red_flag``, ``basic.points``) or the short forms ``cap`` (an option) and
        ``full_flush.base`` (a pattern field); docs/rules/README.md lists them; a nested object
        (``{"options": {"cap": 16}}``) is read as its dotted keys, so an unknown key is named by its
        whole path at every level (``patterns.seven_pairs.bsae``). Raises
        :class:`HandError` ``unknown_rule_key`` / ``bad_rule_value`` naming the key.

        >>> load_rules("xinyu").with_overrides({"cap": 16}).applied
        {'options.cap': 16}
        """
        if not overrides:
            return self
        if any(isinstance(v, Mapping) for v in overrides.values()):
            overrides = flatten_object(overrides)  # {"options": {"cap": 16}}: options.cap
        try:
            key = FrozenMap(overrides)  # hashable, and 1 is not True in it
            hash(key)
        except TypeError:  # a key that is not a string, a list value: let apply_overrides name it
            key = None
        cache = self._override_cache
        got = cache.get(key) if key is not None else None
        if got is None:
            doc, applied = apply_overrides(self.raw, overrides, self.variant)
            got = _parse(doc)
            object.__setattr__(got, "applied", {**self.applied, **applied})
            if key is not None and len(cache) < 256:
                cache[key] = got
        return got

    @functools.cached_property
    def _override_cache(self) -> dict[Any, RuleTable]:
        return {}


def _tile(code: str) -> int:
    if code not in HONOURS:
        raise ValueError(f"rule table: {code!r} is not an honour letter")
    return int(Tile[code])


def _parse(doc: dict[str, Any]) -> RuleTable:
    tiles = doc.get("tiles", {})
    play = doc.get("play", {})
    patterns: dict[str, PatternRule] = {}
    for key, row in doc.get("patterns", {}).items():
        adders = dict(row.get("adders", {}))
        unknown = set(adders) - set(ADDER_KEYS)
        if unknown:
            raise ValueError(f"rule table {doc.get('variant')}: pattern {key} has unknown adders {unknown}")
        patterns[key] = PatternRule(
            key=key,
            name_zh=row["name_zh"],
            name_en=row["name_en"],
            rule=row.get("rule", ""),
            base=int(row.get("base", 0)),
            base_self_drawn=row.get("base_self_drawn"),
            multiplier=int(row.get("multiplier", 1)),
            adders=adders,
            replaces=tuple(row.get("replaces", ())),
            addon=bool(doc.get("options", {}).get(f"{key}_is_addon", row.get("addon", False))),
            compare_without=bool(row.get("compare_without", False)),
        )
    adder_rules = {k: tuple(v) for k, v in doc.get("adder_rules", {}).items()}
    bonus = tiles.get("bonus_tile", "")
    return RuleTable(
        variant=doc["variant"],
        name_zh=doc.get("name_zh", doc["variant"]),
        name_en=doc.get("name_en", doc["variant"]),
        family=doc.get("family", "pao"),
        honours=frozenset(_tile(c) for c in tiles.get("honours", [])),
        bonus_tile=_tile(bonus) if bonus else None,
        chow=play.get("chow", "any"),
        self_draw_only=bool(play.get("self_draw_only", False)),
        events=tuple(play.get("events", [])),
        all_honours_free_shape=bool(play.get("all_honours_free_shape", False)),
        payer_ready_declared=bool(play.get("payer_ready_declared", False)),
        options=Options.of(doc.get("options", {})),
        basic=dict(doc.get("basic", {"key": "basic", "name_zh": "平胡", "name_en": "Basic", "rule": ""})),
        patterns=patterns,
        adder_rules=adder_rules,
        extras={k: int(v) for k, v in doc.get("extras", {}).items()},
        bonus={k: int(v) for k, v in doc.get("bonus", {}).items()},
        eaten={k: int(v) for k, v in doc.get("eaten", {}).items()},
        names={k: (v[0], v[1], v[2] if len(v) > 2 else "") for k, v in doc.get("names", {}).items()},
        exclusion_groups=tuple(tuple(g) for g in doc.get("exclusions", {}).get("groups", [])),
        raw=doc,
    )


@functools.cache
def load_rules(variant: str) -> RuleTable:
    """The built-in table of ``variant`` (``"jiujiang"``, ``"xingzi"`` or ``"xinyu"``)."""
    if variant not in VARIANTS:
        raise HandError(
            E.UNKNOWN_VARIANT, f"unknown variant {variant!r}: choose one of {', '.join(VARIANTS)}"
        )
    with open(_HERE / f"{variant}.toml", "rb") as fh:
        return _parse(tomllib.load(fh))


@functools.cache
def _known_keys() -> dict[str, set[str]]:
    """Every key a house table may hold (:mod:`scoring.rules.schema`): the built-in tables' own."""
    return known_keys([load_rules(v).raw for v in VARIANTS])


MAX_RULE_FILE = 2**20  # a rule table is a few kB; /dev/zero or a stray photo is refused


def _read_toml(path: str | Path) -> dict[str, Any]:
    with open(path, "rb") as fh:
        data = fh.read(MAX_RULE_FILE + 1)
    if len(data) > MAX_RULE_FILE:
        raise ValueError("the file is larger than 1 MiB; a rule table is a few kB")
    try:
        table = tomllib.loads(data.decode("utf-8"))
    except RecursionError:
        raise ValueError(f"arrays or tables nested more than {MAX_RULE_DEPTH} levels deep") from None
    _check_depth(table)
    return table


MAX_RULE_DEPTH = 16
"""Tables and arrays inside each other in a rule file (a rule table is 3 deep)."""


def _check_depth(value: Any) -> None:
    """Raise ValueError when ``value`` nests tables / arrays more than :data:`MAX_RULE_DEPTH` deep."""
    level = [value]
    for _ in range(MAX_RULE_DEPTH + 1):
        level = [
            c
            for v in level
            for c in (v.values() if isinstance(v, dict) else v if isinstance(v, list) else ())
        ]
        level = [c for c in level if isinstance(c, (dict, list))]
        if not level:
            return
    raise ValueError(f"arrays or tables nested more than {MAX_RULE_DEPTH} levels deep")


def load_rules_file(path: str | Path) -> RuleTable:
    """A whole house table in the same layout as the built-in ones (for a few changed values,
    prefer :meth:`RuleTable.with_overrides`). Raises :class:`HandError` ``bad_rule_table``, or
    ``unknown_rule_key`` for a key the layout does not know, named by its path
    (``extras.pair_runn``; :mod:`scoring.rules.schema`, issue 25)."""
    try:
        doc = _read_toml(path)
        check_table(doc, _known_keys())
        return _parse(doc)
    except HandError as e:
        raise e.with_prefix(f"the rule table {path}: ") from None
    except (OSError, tomllib.TOMLDecodeError, KeyError, ValueError, TypeError) as e:
        raise HandError(E.BAD_RULE_TABLE, f"cannot read the rule table {path}: {e}") from None


def load_overrides(path: str | Path) -> dict[str, Any]:
    """House-rule overrides from a TOML file (``jxmj score --rules FILE.toml``) as dotted table
    keys: ``cap = 32``, ``"full_flush.base" = 15`` or ``[options] cap = 32`` all work. The keys
    are checked when a hand is scored. Raises :class:`HandError` ``bad_rule_table``."""
    try:
        return flatten(_read_toml(path))
    except (OSError, tomllib.TOMLDecodeError, ValueError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else e  # not "[Errno 21] ...: '/tmp'"
        raise HandError(E.BAD_RULE_TABLE, f"cannot read the house rules {path}: {why}") from None
