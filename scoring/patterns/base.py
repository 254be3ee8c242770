"""The reading a predicate looks at, and the registry helper."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from scoring.tiles import NUM_KINDS, SUITS

__all__ = ["HandFacts", "PatternDef", "Reading", "register"]

_SUIT_ZH = {"m": "万", "p": "筒", "s": "条"}
_NONE: frozenset[int] = frozenset()
_KONGS = frozenset({"kong", "added_kong", "concealed_kong"})


class HandFacts:
    """Facts of the whole hand that do not depend on the reading (computed once per score)."""

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

    def __init__(self, hand) -> None:
        self.rules = hand.rules
        self.melds = hand.melds
        self.n_melds = len(hand.melds)
        self.win = hand.win
        self.self_drawn = hand.self_drawn
        self.events = hand.events
        c = hand.held  # standing tiles + melds
        self.all_counts = c
        suits = []
        if any(c[0:9]):
            suits.append(0)
        if any(c[9:18]):
            suits.append(1)
        if any(c[18:27]):
            suits.append(2)
        self.suits = frozenset(suits)
        self.honours = frozenset(t for t in range(27, NUM_KINDS) if c[t]) if any(c[27:]) else _NONE
        melds = hand.melds
        if melds:
            self.exposed = any(m.kind != "concealed_kong" for m in melds)
            self.kongs = sum(1 for m in melds if m.kind in _KONGS)
            self.meld_chows = [m.tiles[0] for m in melds if m.kind == "chow"]
            self.meld_trips = [m.tiles[0] for m in melds if m.kind != "chow"]
        else:
            self.exposed = False
            self.kongs = 0
            self.meld_chows = self.meld_trips = ()

    def suit_name(self) -> str:
        s = SUITS[next(iter(self.suits))] if self.suits else "z"
        return f"{_SUIT_ZH.get(s, '字')} {s}"


class Reading:
    """One reading of the hand with the block the winning tile completes.

    ``shape``: ``"standard"`` (four sets + pair), ``"seven_pairs"`` or ``"free"`` (xinyu's
    all-honour shape). For standard: ``sets`` = hand sets ``(kind, tile)`` (kind ``chow`` /
    ``pung``), ``pair`` = the pair tile, ``win_block`` = ``("pair", t)`` or a set, ``wait`` =
    edge / closed / single / open / pung. For seven pairs: ``pairs`` (a quad appears twice).
    """

    __slots__ = ("_chows", "_trips", "facts", "pair", "pairs", "sets", "shape", "wait", "win_block")

    def __init__(self, facts, shape, sets=(), pair=-1, pairs=(), win_block=None, wait=None) -> None:
        self.facts: HandFacts = facts
        self.shape: str = shape
        self.sets: tuple = sets
        self.pair: int = pair
        self.pairs: tuple = pairs
        self.win_block = win_block
        self.wait: str | None = wait
        self._chows: list[int] | None = None
        self._trips: list[int] | None = None

    # helpers used by several predicates
    def triplet_tiles(self) -> list[int]:
        """Tiles of every triplet and kong: standing pungs and pung/kong melds."""
        if self._trips is None:
            out = [t for k, t in self.sets if k == "pung"]
            out.extend(self.facts.meld_trips)
            self._trips = out
        return self._trips

    def chow_starts(self) -> list[int]:
        """Lowest tile of every sequence: standing chows and chow melds."""
        if self._chows is None:
            out = [t for k, t in self.sets if k == "chow"]
            out.extend(self.facts.meld_chows)
            self._chows = out
        return self._chows


@dataclass(frozen=True)
class PatternDef:
    """A pattern: its table key, its predicate and its one-line reason."""

    key: str
    holds: Callable[[Reading], bool]
    reason: Callable[[Reading], str]
    event: bool = False  # holds only when its event is in the input (skipped when there are none)


def register(
    table: dict[str, PatternDef], key: str, reason: Callable[[Reading], str] | str, *, event: bool = False
):
    """Decorator: ``@register(PAO, "half_flush", "one suit plus 中/白")``."""

    def deco(fn: Callable[[Reading], bool]) -> Callable[[Reading], bool]:
        why = reason if callable(reason) else (lambda _r, _s=reason: _s)
        table[key] = PatternDef(key, fn, why, event)
        return fn

    return deco
