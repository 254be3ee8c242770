"""What an item function looks at, and the registry: one registered function per scored key.

Two kinds of item function, both registered with :func:`register` under the item key of the
rule tables (``scoring/rules/*.toml``):

- a **pattern** (``kind="pattern"``, a ``[patterns.*]`` row): ``fn(reading) -> bool`` (or a
  count, 开杠 per kong), with a one-line ``reason(reading) -> (en, zh)``; its value (base 炮 or
  multiplier) is the table row's;
- a **counting item** (``kind="extra" | "adder" | "bonus" | "basic" | "cap"``):
  ``fn(ctx) -> list[((en, zh), value)]``, one entry per time it applies (one per 發, one per
  潇洒 run); the function reads its values from the table through ``ctx``.

A reason is always a pair (English, Chinese): every user-facing word exists in both.

The same function scores the winner's hand and, for the keys of a table's ``[eaten]`` section,
what the winner eats from a payer (吃炮, DECISIONS §1.5): then ``ctx.payer`` is set, the reading
holds only that payer's melds (shape ``"payer"``) and ``ctx.values`` is ``rules.eaten``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from scoring.model import Meld, Payer
from scoring.tiles import NUM_KINDS, SUIT_EN, SUIT_ZH, SUITS

__all__ = ["FAN", "PAO", "Counted", "Ctx", "HandFacts", "ItemDef", "Reading", "Reason", "register"]

#: A reason in both languages: (English, Chinese).
Reason = tuple[str, str]
#: What a counting item returns: one (reason, value) per time it applies.
Counted = list[tuple[Reason, int]]
_Fn = TypeVar("_Fn", bound=Callable[..., Any])


class _Checked(Protocol):
    """What :meth:`HandFacts.of_hand` reads of a :class:`scoring.validate.CheckedHand` (named by
    shape: ``validate`` imports the rules, which import this registry)."""

    @property
    def rules(self) -> Any: ...
    @property
    def melds(self) -> tuple[Meld, ...]: ...
    @property
    def held(self) -> list[int]: ...
    @property
    def win(self) -> int: ...
    @property
    def self_drawn(self) -> bool: ...
    @property
    def events(self) -> frozenset[str]: ...


_NONE: frozenset[int] = frozenset()
_KONGS = frozenset({"kong", "added_kong", "concealed_kong"})


class HandFacts:
    """Facts of the whole hand that do not depend on the reading (computed once per score).

    Built from a checked hand (:class:`scoring.validate.CheckedHand`) or, with
    :meth:`of_payer`, from a payer's melds (吃炮)."""

    __slots__ = (
        "all_counts",
        "events",
        "exposed",
        "honours",
        "kongs",
        "meld_chows",
        "meld_trips",
        "melds",
        "n_melds",
        "rules",
        "self_drawn",
        "suits",
        "win",
    )

    meld_chows: Sequence[int]
    meld_trips: Sequence[int]

    def __init__(
        self,
        rules: Any,  # a RuleTable (scoring.rules imports this registry)
        melds: Sequence[Meld],
        held: list[int],
        win: int,
        self_drawn: bool,
        events: frozenset[str],
    ) -> None:
        self.rules = rules
        self.melds = melds
        self.n_melds = len(melds)
        self.win = win
        self.self_drawn = self_drawn
        self.events = events
        c = held  # standing tiles + melds
        self.all_counts = c
        self.suits = frozenset(s for s in range(3) if any(c[9 * s : 9 * s + 9]))
        self.honours = frozenset(t for t in range(27, NUM_KINDS) if c[t]) if any(c[27:]) else _NONE
        if melds:
            self.exposed = any(m.kind != "concealed_kong" for m in melds)
            self.kongs = sum(1 for m in melds if m.kind in _KONGS)
            self.meld_chows = [m.tiles[0] for m in melds if m.kind == "chow"]
            self.meld_trips = [m.tiles[0] for m in melds if m.kind != "chow"]
        else:
            self.exposed = False
            self.kongs = 0
            self.meld_chows = self.meld_trips = ()

    @classmethod
    def of_hand(cls, hand: _Checked) -> HandFacts:
        return cls(hand.rules, hand.melds, hand.held, hand.win, hand.self_drawn, hand.events)

    @classmethod
    def of_payer(cls, rules: Any, payer: Payer) -> HandFacts:
        held = [0] * NUM_KINDS
        for m in payer.melds:
            for t in m.tiles:
                held[t] += 1
        events: frozenset[str] = frozenset({"ready_declared"}) if payer.ready_declared else frozenset()
        return cls(rules, payer.melds, held, -1, False, events)

    def suit_name(self) -> str:
        """The one suit in English with its Chinese: ``dots 筒`` (``honours 字`` when none)."""
        s = SUITS[next(iter(self.suits))] if self.suits else "z"
        return f"{SUIT_EN.get(s, 'honours').lower()} {SUIT_ZH[s]}"

    def suit_zh(self) -> str:
        """The one suit in Chinese: 万子 / 筒子 / 条子 (字牌 when there is none)."""
        s = SUITS[next(iter(self.suits))] if self.suits else "z"
        return f"{SUIT_ZH[s]}{'牌' if s == 'z' else '子'}"


class Reading:
    """One reading of the hand with the block the winning tile completes.

    ``shape``: ``"standard"`` (four sets + pair), ``"seven_pairs"``, ``"free"`` (xinyu's
    all-honour shape) or ``"payer"`` (a payer's melds only, for 吃炮). For standard: ``sets`` =
    hand sets ``(kind, tile)`` (kind ``chow`` / ``pung``), ``pair`` = the pair tile,
    ``win_block`` = ``("pair", t)`` or a set, ``wait`` = edge / closed / single / open / pung.
    For seven pairs: ``pairs`` (a quad appears twice).
    """

    __slots__ = ("_chows", "_trips", "facts", "pair", "pairs", "sets", "shape", "wait", "win_block")

    def __init__(
        self,
        facts: HandFacts,
        shape: str,
        sets: tuple[tuple[str, int], ...] = (),
        pair: int = -1,
        pairs: tuple[int, ...] = (),
        win_block: tuple[str, int] | None = None,
        wait: str | None = None,
    ) -> None:
        self.facts: HandFacts = facts
        self.shape: str = shape
        self.sets: tuple[tuple[str, int], ...] = sets
        self.pair: int = pair
        self.pairs: tuple[int, ...] = pairs
        self.win_block = win_block
        self.wait: str | None = wait
        self._chows: list[int] | None = None
        self._trips: list[int] | None = None

    def triplet_tiles(self) -> list[int]:
        """Tiles of every triplet and kong: standing pungs and pung/kong melds."""
        if self._trips is None:
            self._trips = self._sets_of("pung", self.facts.meld_trips)
        return self._trips

    def chow_starts(self) -> list[int]:
        """Lowest tile of every sequence: standing chows and chow melds."""
        if self._chows is None:
            self._chows = self._sets_of("chow", self.facts.meld_chows)
        return self._chows

    def _sets_of(self, kind: str, melded: Sequence[int]) -> list[int]:
        out = [t for k, t in self.sets if k == kind]
        out.extend(melded)
        return out


@dataclass(slots=True)
class Ctx:
    """What a counting item looks at (see the module docstring).

    ``holding``: the flower patterns (花) that hold in this reading, after ``replaces``;
    ``removed``: the keys those patterns replace; ``n_waits``: how many tile kinds the hand
    waited on before the win (独听 = 1); ``values``: ``rules.bonus`` for the winner,
    ``rules.eaten`` for a payer; ``payer``: the payer eaten from, or None.
    """

    reading: Reading
    rules: Any
    holding: list[str] = field(default_factory=list)
    removed: set[str] = field(default_factory=set)
    n_waits: int = 0
    bonus_tiles: int = 0
    values: Mapping[str, int] = field(default_factory=dict)
    payer: Any = None

    @property
    def whose(self) -> str:
        """``own`` for the winner, ``b's`` for payer b (the start of a reason)."""
        return "own" if self.payer is None else f"{self.payer.name}'s"

    @property
    def whose_zh(self) -> str:
        """``自己的`` for the winner, ``b的`` for payer b (a default name in Chinese: ``放炮者的``)."""
        return "自己的" if self.payer is None else f"{self.payer.name_zh}的"


@dataclass(frozen=True)
class ItemDef:
    """One scored key: its function, its kind and (patterns) its one-line reason."""

    key: str
    kind: str
    fn: Callable[..., Any]
    reason: Callable[[Reading], tuple[str, str]]
    event: bool = False  # a pattern that holds only when its event is in the input

    def holds(self, r: Reading) -> bool:
        return bool(self.fn(r))


#: jiujiang / xingzi (炮, DECISIONS §1) and xinyu (番, §2): key → the one function of that key.
PAO: dict[str, ItemDef] = {}
FAN: dict[str, ItemDef] = {}


def register(
    table: dict[str, ItemDef],
    key: str,
    reason: Callable[[Reading], tuple[str, str]] | tuple[str, str] = ("", ""),
    *,
    kind: str = "pattern",
    event: bool = False,
) -> Callable[[_Fn], _Fn]:
    """Decorator: ``@register(PAO, "all_pungs", ("four triplets", "四副刻子"))``; a key registers once."""

    def deco(fn: _Fn) -> _Fn:
        if key in table:
            raise ValueError(f"item key {key!r} is registered twice")
        why = reason if callable(reason) else (lambda _r, _s=reason: _s)
        table[key] = ItemDef(key, kind, fn, why, event)
        return fn

    return deco
