"""The scoring vocabulary and the input dataclasses (docs/score-json.md "Input" in Python form).

A leaf module (it imports :mod:`scoring.tiles`, :mod:`scoring.errors` and :mod:`scoring.result`
only). The one place where the rule vocabulary is declared — :data:`VARIANTS`, :data:`EVENTS`,
:data:`MELD_KINDS` — and the one layer where input *types* are checked: each dataclass checks
and normalises its fields in ``__post_init__`` (tile strings parsed, melds sorted), and
:meth:`HandInput.from_json` adds only what belongs to JSON (field names, strings for tiles).
Rule checks (a wind in jiujiang, a fifth copy, the chow rule) are :mod:`scoring.validate`'s.

>>> hand = HandInput.from_json({"variant": "xingzi", "concealed": "234p456p777pCCCPP",
...                             "winning_tile": "P", "self_drawn": True})
>>> hand.winning_tile.zh, len(hand.concealed), hand.melds
('白', 14, ())
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from scoring import errors as E
from scoring.errors import HandError
from scoring.frozen import EMPTY, FrozenMap
from scoring.jsontype import json_type, not_a_count
from scoring.result import Block, DefaultName, Item, Payment, ScoreResult
from scoring.tiles import Tile, format_tiles, parse_tile, parse_tiles

__all__ = [
    "EVENTS",
    "MAX_POINT_VALUE",
    "MELD_KINDS",
    "MIN_POINT_VALUE",
    "VARIANTS",
    "Block",
    "DefaultName",
    "HandInput",
    "Item",
    "Meld",
    "Payer",
    "Payment",
    "ScoreResult",
    "json_type",
]

#: The rule variants, each with a table ``scoring/rules/<variant>.toml``.
VARIANTS = ("jiujiang", "xingzi", "xinyu")
#: ``kind`` values of a declared meld (docs/score-json.md).
MELD_KINDS = ("pung", "kong", "added_kong", "concealed_kong", "chow")
#: ``events`` values (docs/score-json.md); which ones a variant knows is ``RuleTable.events``.
EVENTS = ("kong_bloom", "robbing_kong", "kong_discard", "last_tile", "heavenly", "earthly", "ready_declared")
KONG_KINDS = frozenset({"kong", "added_kong", "concealed_kong"})
#: A payer's sets by count (``Payer`` fields; laid out as melds by :mod:`scoring.payer_sets`).
SET_KEYS = ("dragon_pungs", "dragon_kongs", "dragon_concealed_kongs", "kongs", "concealed_kongs")
#: point_value bounds: the largest keeps every amount finite (1e308 would pay Infinity, which is
#: no JSON); the smallest is the table ledger's money step (4 decimals, ledger.model.parse_money),
#: so 1e-320 (a subnormal float) or 1e-9 is refused rather than paid as 0.
MAX_POINT_VALUE = 10**12
MIN_POINT_VALUE = 0.0001
_MIN_DECIMAL = Decimal("0.0001")


def _bool(v: Any, name: str) -> bool:
    if v is not True and v is not False:
        raise HandError(E.BAD_FIELD, f"{name} must be true or false, not {json_type(v)}")
    return v


def _bonus(v: Any, name: str) -> int:
    if type(v) is not int or not 0 <= v <= 4:
        raise HandError(
            E.BAD_FIELD, f"{name} must be a whole number from 0 to 4 (發 set aside): {not_a_count(v)}"
        )
    return v


def check_point_value(pv: Any) -> float | Decimal:
    """point_value: a finite number or Decimal from :data:`MIN_POINT_VALUE` to
    :data:`MAX_POINT_VALUE`. Raises :class:`HandError` ``bad_point_value`` naming the bound."""
    if isinstance(pv, Decimal):  # compared exactly: the float 0.0001 is a little above 0.0001
        if not (pv.is_finite() and _MIN_DECIMAL <= pv <= MAX_POINT_VALUE):
            raise HandError(
                E.BAD_POINT_VALUE, f"point_value must be {_MIN_DECIMAL} to {MAX_POINT_VALUE:,}, not {pv}"
            )
        return pv
    if isinstance(pv, bool) or not isinstance(pv, (int, float)):
        raise HandError(E.BAD_POINT_VALUE, f"point_value must be a positive number, not {json_type(pv)}")
    if pv > MAX_POINT_VALUE:  # before isfinite: an int beyond a float's range would crash it
        raise HandError(
            E.BAD_POINT_VALUE, f"point_value is too large: at most {MAX_POINT_VALUE:,} points per 炮"
        )
    if (isinstance(pv, float) and not math.isfinite(pv)) or pv <= 0:
        raise HandError(E.BAD_POINT_VALUE, f"point_value must be a positive number, not {pv!r}")
    if pv < MIN_POINT_VALUE:
        raise HandError(
            E.BAD_POINT_VALUE,
            f"point_value is too small: at least {MIN_POINT_VALUE:g} points per 炮, not {pv!r}",
        )
    return pv


def _set(obj: Any, name: str, value: Any) -> None:
    object.__setattr__(obj, name, value)


@dataclass(frozen=True)
class Meld:
    """A declared meld: ``kind`` one of :data:`MELD_KINDS`, ``tiles`` sorted (a string is parsed).

    ``pung`` and ``kong`` come from a discard, ``added_kong`` is a pung plus the player's own
    draw (补杠), ``concealed_kong`` is four drawn tiles (暗杠), ``chow`` a sequence (吃). The
    shape (three alike, a run of one suit) is a rule check: :func:`scoring.validate.check_meld`.

    >>> Meld("chow", "876s")
    Meld(kind='chow', tiles=(<Tile.S6: 23>, <Tile.S7: 24>, <Tile.S8: 25>))
    """

    kind: str
    tiles: tuple[Tile, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or self.kind not in MELD_KINDS:
            raise HandError(
                E.BAD_FIELD, f"unknown meld kind {self.kind!r}; use one of {', '.join(MELD_KINDS)}"
            )
        t = self.tiles
        if not (type(t) is tuple and all(type(x) is Tile for x in t) and list(t) == sorted(t)):
            _set(self, "tiles", tuple(sorted(parse_tiles(t))))

    @classmethod
    def of(cls, kind: str, tiles: str | Sequence[Tile | str]) -> Meld:
        """Build from a kind and a tile string (``Meld.of("pung", "777p")``)."""
        return cls(kind, tiles)  # type: ignore[arg-type]

    @classmethod
    def from_json(cls, obj: Any, where: str = "meld") -> Meld:
        """A meld object ``{"kind": "pung", "tiles": "777p"}`` (or a Meld, returned as is)."""
        if isinstance(obj, Meld):
            return obj
        if not isinstance(obj, Mapping):
            raise HandError(
                E.BAD_FIELD, f"{where} must be an object with 'kind' and 'tiles', not {json_type(obj)}"
            )
        _unknown(obj, _MELD_FIELDS, where)
        for k in ("kind", "tiles"):
            if k not in obj:
                raise HandError(E.BAD_FIELD, f"{where} has no {k!r}")
        if not isinstance(obj["tiles"], str):
            raise HandError(
                E.BAD_FIELD,
                f"{where}: tiles must be a tile string such as '777p', not {json_type(obj['tiles'])}",
            )
        try:
            return cls.of(obj["kind"], obj["tiles"])
        except HandError as e:
            raise e.with_prefix(f"{where}: ") from None

    @property
    def is_kong(self) -> bool:
        return self.kind in KONG_KINDS

    @property
    def is_exposed(self) -> bool:
        """Everything but a concealed kong breaks 门清 (DECISIONS §1.3)."""
        return self.kind != "concealed_kong"

    @property
    def tile(self) -> Tile:
        """The lowest tile (the tile of a pung/kong, the start of a chow)."""
        return self.tiles[0]

    @property
    def code(self) -> str:
        return format_tiles(self.tiles)

    def __str__(self) -> str:
        return f"{self.kind} {self.code}"


def _melds(v: Any, name: str) -> tuple[Meld, ...]:
    if isinstance(v, (str, bytes, Mapping)) or not isinstance(v, Sequence):
        raise HandError(E.BAD_FIELD, f"{name} must be a list of {{kind, tiles}} objects, not {json_type(v)}")
    if len(v) > 4:  # before looking at one: a 200k-meld list is answered at once
        raise HandError(E.TOO_MANY_MELDS, f"{name}: {len(v)} given, a hand has at most four")
    return tuple(Meld.from_json(m, f"{name.removesuffix('melds')}meld {i + 1}") for i, m in enumerate(v))


@dataclass(frozen=True)
class Payer:
    """A losing player who pays the winner (DECISIONS §1.5): their melds and 發 can be eaten (吃炮).

    ``name`` ``""`` gets a default (``"discarder"``, ``"player 2"``) when the hand is scored;
    ``default_name`` is then its :class:`~scoring.result.DefaultName` code (set by the engine
    only, never read from JSON), from which Chinese text writes it (放炮者, 玩家2).
    ``dragon_pungs`` … ``concealed_kongs`` (:data:`SET_KEYS`, each 0-4): sets shown by count,
    beside ``melds``; the engine lays them out as melds (:func:`scoring.payer_sets.lay_out`).
    """

    name: str = ""
    is_dealer: bool = False
    bonus_tiles: int = 0
    melds: tuple[Meld, ...] = ()
    ready_declared: bool = False
    default_name: DefaultName | None = None
    dragon_pungs: int = 0
    dragon_kongs: int = 0
    dragon_concealed_kongs: int = 0
    kongs: int = 0
    concealed_kongs: int = 0

    @property
    def name_zh(self) -> str:
        """The name in Chinese text: ``玩家2`` for the engine's ``player 2``, a given name as given."""
        return self.name if self.default_name is None else self.default_name.zh

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise HandError(E.BAD_FIELD, f"name must be a string, not {json_type(self.name)}")
        if self.default_name is not None and type(self.default_name) is not DefaultName:
            raise HandError(E.BAD_FIELD, "default_name is the engine's: a DefaultName code or None")
        _bool(self.is_dealer, "is_dealer")
        _bonus(self.bonus_tiles, "bonus_tiles")
        _bool(self.ready_declared, "ready_declared")
        for key in SET_KEYS:
            n = getattr(self, key)
            if type(n) is not int or not 0 <= n <= 4:
                raise HandError(E.BAD_FIELD, f"{key} must be a whole number from 0 to 4: {not_a_count(n)}")
        if type(self.melds) is not tuple or not all(type(m) is Meld for m in self.melds):
            _set(self, "melds", _melds(self.melds, "melds"))


_FIELDS = {
    "variant", "concealed", "winning_tile", "melds", "bonus_tiles", "self_drawn",
    "events", "winner_is_dealer", "payers", "point_value", "rules",
}  # fmt: skip
_REQUIRED = ("variant", "concealed", "winning_tile", "self_drawn")
_PAYER_FIELDS = {"name", "is_dealer", "bonus_tiles", "melds", "ready_declared", *SET_KEYS}
_MELD_FIELDS = {"kind", "tiles"}


def _unknown(obj: Mapping[str, Any], allowed: set[str], where: str) -> None:
    """No unknown field (a misspelt ``self_drawm`` must not be ignored); ``_notes`` are left alone."""
    for k in obj:
        if not isinstance(k, str):
            raise HandError(E.BAD_FIELD, f"{where}: field names must be strings")
        if k not in allowed and not k.startswith("_"):
            raise HandError(
                E.BAD_FIELD, f"{where}: unknown field {k[:60]!r} (known: {', '.join(sorted(allowed))})"
            )


@dataclass(frozen=True)
class HandInput:
    """A winning hand and how it was won (docs/score-json.md "Input").

    ``concealed``: every tile standing in the hand after the win, winning tile included; a tile
    string (``"234m567p678s99s"``) or a sequence of tiles — kept as a sorted tuple of
    :class:`~scoring.tiles.Tile`. ``payers=None``: one plain discarder on a discard win, three
    plain players on a self-draw. ``point_value``: a number or a Decimal (then the payments are
    exact Decimals). ``rules``: house-rule overrides by table key (``{"full_flush.base": 15}``,
    docs/rules/README.md) as a :class:`~scoring.frozen.FrozenMap`, so a hand is hashable.
    Raises :class:`HandError` (code ``bad_field`` …) on a value of the wrong type.
    """

    variant: str
    concealed: tuple[Tile, ...]
    winning_tile: Tile
    self_drawn: bool
    melds: tuple[Meld, ...] = ()
    bonus_tiles: int = 0
    events: tuple[str, ...] = ()
    winner_is_dealer: bool = False
    payers: tuple[Payer, ...] | None = None
    point_value: float | Decimal = 1
    rules: Mapping[str, Any] = EMPTY

    def __post_init__(self) -> None:
        if not isinstance(self.variant, str) or self.variant not in VARIANTS:
            what = repr(self.variant[:60]) if isinstance(self.variant, str) else json_type(self.variant)
            raise HandError(E.UNKNOWN_VARIANT, f"unknown variant {what}: choose one of {', '.join(VARIANTS)}")
        c = self.concealed
        if not (type(c) is tuple and all(type(x) is Tile for x in c) and list(c) == sorted(c)):
            _set(self, "concealed", tuple(sorted(parse_tiles(c))))
        if type(self.winning_tile) is not Tile:
            _set(self, "winning_tile", parse_tile(self.winning_tile))
        _bool(self.self_drawn, "self_drawn")
        _bool(self.winner_is_dealer, "winner_is_dealer")
        if self.melds != ():
            _set(self, "melds", _melds(self.melds, "melds"))
        if type(self.bonus_tiles) is not int or self.bonus_tiles != 0:  # 0.0 == 0, but is no count
            _bonus(self.bonus_tiles, "bonus_tiles")
        if self.events != ():
            _set(self, "events", _events(self.events))
        if self.payers is not None:
            _set(self, "payers", _payers(self.payers))
        if type(self.point_value) is not int or self.point_value != 1:
            check_point_value(self.point_value)
        if type(self.rules) is not FrozenMap and not isinstance(self.rules, Mapping):
            raise HandError(
                E.BAD_FIELD, f"rules must be an object of table keys, not {json_type(self.rules)}"
            )
        if type(self.rules) is not FrozenMap:
            _set(self, "rules", FrozenMap(self.rules))

    @classmethod
    def of(
        cls, variant: str, concealed: str | Sequence[Tile | str], winning_tile: str | Tile, **fields: Any
    ) -> HandInput:
        """Build from tile strings (``HandInput.of("jiujiang", "123m456p789sCC", "C")``): the
        constructor parses and checks them (its fields are typed as they are kept)."""
        return cls(variant, concealed, winning_tile, **fields)  # type: ignore[arg-type]

    @classmethod
    def from_json(cls, data: Any) -> HandInput:
        """Check a JSON hand (docs/score-json.md "Input") and build a :class:`HandInput`.

        Unknown fields are an error (keys starting with ``_`` are annotations, left alone);
        tiles must be strings. Raises :class:`HandError` naming the field.
        """
        if not isinstance(data, Mapping):
            raise HandError(E.BAD_FIELD, f"the input must be a JSON object (a hand), not {json_type(data)}")
        _unknown(data, _FIELDS, "input")
        for k in _REQUIRED:
            if k not in data:
                raise HandError(E.BAD_FIELD, f"missing required field {k!r}")
        for k, what in (
            ("concealed", "a tile string such as '123m456p99s'"),
            ("winning_tile", "one tile such as '5m' or 'C'"),
        ):
            if not isinstance(data[k], str):
                raise HandError(E.BAD_FIELD, f"{k} must be {what}, not {json_type(data[k])}")
        kw = {k: data[k] for k in _FIELDS if k in data}
        if "melds" in kw:
            kw["melds"] = _melds(kw["melds"], "melds")
        if "events" in kw and not isinstance(kw["events"], list):
            raise HandError(
                E.BAD_FIELD, f"events must be a list of event names, not {json_type(kw['events'])}"
            )
        if "payers" in kw and kw["payers"] is not None:
            kw["payers"] = _payers_json(kw["payers"])
        return cls(**kw)


def _events(ev: Any) -> tuple[str, ...]:
    if isinstance(ev, (str, bytes, Mapping)) or not isinstance(ev, Sequence):
        raise HandError(E.BAD_FIELD, f"events must be a list of event names, not {json_type(ev)}")
    out: list[str] = []
    for e in ev:
        if not isinstance(e, str) or e not in EVENTS:
            shown = repr(e[:60]) if isinstance(e, str) else json_type(e)
            raise HandError(E.UNKNOWN_EVENT, f"unknown event {shown}: use any of {', '.join(EVENTS)}")
        if e not in out:  # a repeated event counts once
            out.append(e)
    return tuple(out)


def _payers(raw: Any) -> tuple[Payer, ...]:
    if type(raw) is not tuple and (isinstance(raw, (str, bytes, Mapping)) or not isinstance(raw, Sequence)):
        raise HandError(E.BAD_FIELD, f"payers must be a list of player objects, not {json_type(raw)}")
    _payer_count(len(raw))
    for i, p in enumerate(raw):
        if not isinstance(p, Payer):
            raise HandError(E.BAD_FIELD, f"payer {i + 1} must be a Payer, not {json_type(p)}")
    return tuple(raw)


def _payer_count(n: int) -> None:
    if n > 3:  # before looking at one: the payers are the (at most three) other players
        raise HandError(E.BAD_PAYERS, f"{n} payers given: the payers are the other players, at most three")


def _payers_json(raw: Any) -> tuple[Payer, ...]:
    if not isinstance(raw, list):
        raise HandError(E.BAD_FIELD, f"payers must be a list of player objects, not {json_type(raw)}")
    _payer_count(len(raw))  # the count, before any payer is looked at
    out = []
    for i, p in enumerate(raw):
        where = f"payer {i + 1}"
        if not isinstance(p, Mapping):
            raise HandError(E.BAD_FIELD, f"{where} must be an object, not {json_type(p)}")
        _unknown(p, _PAYER_FIELDS, where)
        kw = dict(p)
        try:
            if "melds" in kw:
                kw["melds"] = _melds(kw["melds"], "melds")
            out.append(Payer(**{k: v for k, v in kw.items() if not k.startswith("_")}))
        except HandError as e:
            raise e.with_prefix(f"{where}: ") from None
    return tuple(out)
