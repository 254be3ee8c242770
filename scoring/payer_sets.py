"""Sets a payer shows by count (吃炮, DECISIONS §1.5): 中/白 pungs and kongs, other kongs.

At the table a player says "two kongs", not which tiles: a :class:`~scoring.model.Payer` carries
these counts (:data:`SET_KEYS`) beside its melds. :func:`lay_out` (called by
:mod:`scoring.validate`) lays each counted set out as a meld of legal tiles — the first tile of
its pool whose copies are still free, so no tile shows more than four times — and the items that
score a payer's melds score them (their reasons name the tiles laid out).

>>> from scoring.model import Payer
>>> [m.code for m in lay_out((Payer("a", dragon_pungs=2, kongs=1),), [0] * 34)[0].melds]
['CCC', 'PPP', '9999s']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from scoring import errors as E
from scoring.errors import HandError
from scoring.model import SET_KEYS, Meld, Payer
from scoring.tiles import ALL_TILES, Tile

__all__ = ["PAYER_SETS", "PayerSet", "lay_out"]


@dataclass(frozen=True, slots=True)
class PayerSet:
    """A kind of set counted for 吃炮: ``key`` names the count (a :class:`Payer` field, one of
    :data:`scoring.model.SET_KEYS`, in their order); each one
    is laid out as a ``kind`` meld of ``size`` copies of a tile from ``pool`` (in that order)."""

    key: str
    kind: str
    pool: tuple[Tile, ...]
    size: int


DRAGONS = (Tile.C, Tile.P)
_SUITED_HIGH_FIRST = tuple(ALL_TILES[26::-1])
PAYER_SETS = (
    PayerSet("dragon_pungs", "pung", DRAGONS, 3),
    PayerSet("dragon_kongs", "kong", DRAGONS, 4),
    PayerSet("dragon_concealed_kongs", "concealed_kong", DRAGONS, 4),
    PayerSet("kongs", "kong", _SUITED_HIGH_FIRST, 4),
    PayerSet("concealed_kongs", "concealed_kong", _SUITED_HIGH_FIRST, 4),
)


def lay_out(payers: Sequence[Payer], held: Sequence[int]) -> tuple[Payer, ...]:
    """``payers`` with their counted sets as melds, before the melds they were given, and the
    counts 0. ``held``: copies of each tile the winner's hand uses; the payers' own melds and the
    sets laid out for earlier payers are taken too. A 中/白 pool may share a tile (two 中 sets
    never fit, but a 中 pung beside the winner's 中 pair does not); a suited kong takes a tile
    nobody shows. Raises :class:`HandError` ``payer_sets_impossible`` when a set finds no tile."""
    if not any(_counted(p) for p in payers):
        return tuple(payers)
    used = list(held)
    for p in payers:
        for m in p.melds:
            for t in m.tiles:
                used[t] += 1
    out = []
    for p in payers:
        if not _counted(p):
            out.append(p)
            continue
        laid = []
        for ps in PAYER_SETS:
            for _ in range(getattr(p, ps.key)):
                free = [t for t in ps.pool if used[t] + ps.size <= 4 and (ps.pool is DRAGONS or not used[t])]
                if not free:
                    raise HandError(
                        E.PAYER_SETS_IMPOSSIBLE,
                        f"payer {p.name!r}: no tile is left for another {ps.key.replace('_', ' ')[:-1]} "
                        "(a set has four copies of each tile)",
                    )
                used[free[0]] += ps.size
                laid.append(Meld(ps.kind, (free[0],) * ps.size))
        no_sets: dict[str, Any] = dict.fromkeys(SET_KEYS, 0)
        out.append(replace(p, melds=(*laid, *p.melds), **no_sets))
    return tuple(out)


def _counted(p: Payer) -> bool:
    return bool(p.dragon_pungs or p.dragon_kongs or p.dragon_concealed_kongs or p.kongs or p.concealed_kongs)
