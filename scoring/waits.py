"""Waits and fixes, for callers that hold a hand which may not be complete yet (the web app, `jxmj photo`).

- :func:`is_complete` — is this a winning shape (DECISIONS §1.2 / §2)?
- :func:`waits` — the tiles a hand one short of winning waits on (独听 when there is one, §1.3).
- :func:`suggest_fixes` — the smallest single-tile changes that make a hand a winning one
  (a misread tile in a photo is usually one tile off).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring import errors as E
from scoring.decompose import is_complete as _is_complete
from scoring.decompose import waits_of
from scoring.errors import HandError
from scoring.model import Meld
from scoring.rules import RuleTable, load_rules
from scoring.tiles import Tile, counts_of, parse_tile, parse_tiles
from scoring.validate import check_meld, check_tiles

#: The melds the helpers take: :class:`~scoring.model.Meld` objects or ``{"kind", "tiles"}`` mappings.
Melds = Sequence[Meld | Mapping[str, Any]]

__all__ = ["Fix", "is_complete", "suggest_fixes", "waits"]


def _prep(
    concealed: str | Sequence[Tile | str], melds: Melds, variant: str | RuleTable
) -> tuple[RuleTable, list[Tile], tuple[Meld, ...], list[int], list[int]]:
    rules = variant if isinstance(variant, RuleTable) else load_rules(variant)
    tiles = sorted(parse_tiles(concealed))
    check_tiles(tiles, rules, "the hand", standing=True)
    ms = tuple(Meld.from_json(m, f"meld {i + 1}") for i, m in enumerate(melds))
    for i, m in enumerate(ms):
        check_meld(m, rules, f"meld {i + 1}")
    counts = counts_of(tiles)
    held = list(counts)
    for m in ms:
        for t in m.tiles:
            held[t] += 1
    for k, n in enumerate(held):
        if n > 4:
            raise HandError(
                E.FIFTH_COPY, f"five or more copies of {Tile(k).code} ({Tile(k).zh}) in the hand and melds"
            )
    return rules, tiles, ms, counts, held


def is_complete(
    concealed: str | Sequence[Tile | str], melds: Melds = (), variant: str | RuleTable = "jiujiang"
) -> bool:
    """True when the standing tiles plus ``melds`` form a winning shape of ``variant``:
    four sets + a pair, seven pairs (no melds), or xinyu's all-honour free shape (§1.2, §2).

    ``melds``: :class:`~scoring.model.Meld` objects or ``{"kind", "tiles"}`` mappings.

    >>> is_complete("11223344556677m"), is_complete("123m456p789s345s56p")
    (True, False)
    >>> is_complete("99s", [Meld.of("pung", "111m"), Meld.of("pung", "777p"),
    ...                     {"kind": "pung", "tiles": "555s"}, {"kind": "chow", "tiles": "678s"}])
    True
    """
    rules, _tiles, ms, counts, _held = _prep(concealed, melds, variant)
    return _is_complete(counts, len(ms), free_honours=rules.all_honours_free_shape)


def waits(
    concealed: str | Sequence[Tile | str], melds: Melds = (), variant: str | RuleTable = "jiujiang"
) -> list[Tile]:
    """The tile kinds that would complete a hand one tile short (13 standing tiles minus three
    per meld). A kind the player already holds four of is no wait. One kind = 独听 (§1.3).

    >>> [t.code for t in waits("123m456p789s345s5p")], [t.code for t in waits("123m456p789s13s55p")]
    (['5p'], ['2s'])
    """
    rules, tiles, ms, counts, held = _prep(concealed, melds, variant)
    if len(tiles) + 3 * len(ms) != 13:
        raise HandError(
            E.WRONG_TILE_COUNT,
            f"waits needs a hand one tile short of winning: 13 tiles plus one per kong, got "
            f"{len(tiles)} standing with {len(ms)} meld(s)",
        )
    found = waits_of(counts, len(ms), rules.tile_kinds, held, free_honours=rules.all_honours_free_shape)
    return [Tile(t) for t in found]


@dataclass(frozen=True)
class Fix:
    """One single-tile change: take out ``remove`` and/or put in ``add`` (either may be None)."""

    remove: Tile | None
    add: Tile | None
    cost: float

    def describe(self) -> str:
        if self.remove is None and self.add is not None:
            return f"{self.add.code} added"
        if self.add is None and self.remove is not None:
            return f"{self.remove.code} removed"
        assert self.remove is not None and self.add is not None
        return f"{self.add.code} instead of {self.remove.code}"


def _cost(a: int, b: int) -> float:
    """How far apart two tiles look: same suit by rank distance, then same rank, then honours."""
    if a < 27 and b < 27:
        if a // 9 == b // 9:
            return abs(a - b)
        return 3.0 if a % 9 == b % 9 else 6.0 + abs(a % 9 - b % 9) / 10
    if a >= 27 and b >= 27:
        return 2.0
    return 9.0


def suggest_fixes(
    concealed: str | Sequence[Tile | str],
    melds: Melds = (),
    variant: str | RuleTable = "jiujiang",
    *,
    winning_tile: str | Tile | None = None,
    limit: int = 10,
) -> list[Fix]:
    """The smallest single-tile changes that make the hand a winning shape, cheapest first.

    Fourteen tiles (plus one per kong): replacements of one standing tile by another (the
    winning tile is kept). One tile short: the tiles to add (its waits). One tile over: the
    tiles to take out. Returns ``[]`` when the hand is already complete or no single change
    helps. Cost: same suit by rank distance < same rank in another suit < anything else.

    >>> [f.describe() for f in suggest_fixes("123m456p789s345s59p", winning_tile="9p")]
    ['9p instead of 5p']
    """
    rules, tiles, ms, counts, held = _prep(concealed, melds, variant)
    win = parse_tile(winning_tile) if winning_tile is not None else None
    free = rules.all_honours_free_shape
    n = len(tiles) + 3 * len(ms)
    kinds = rules.tile_kinds
    out: list[Fix] = []
    if n == 14:
        if _is_complete(counts, len(ms), free_honours=free):
            return []
        for r in sorted(set(tiles)):
            if r == win and counts[r] == 1:
                continue
            counts[r] -= 1
            held[r] -= 1
            for a in kinds:
                if a == r or held[a] >= 4:
                    continue
                counts[a] += 1
                if _is_complete(counts, len(ms), free_honours=free):
                    out.append(Fix(Tile(r), Tile(a), _cost(r, a)))
                counts[a] -= 1
            counts[r] += 1
            held[r] += 1
    elif n == 13:
        for a in waits_of(counts, len(ms), kinds, held, free_honours=free):
            out.append(Fix(None, Tile(a), 1.0))
    elif n == 15:
        for r in sorted(set(tiles)):
            if r == win and counts[r] == 1:
                continue
            counts[r] -= 1
            if _is_complete(counts, len(ms), free_honours=free):
                out.append(Fix(Tile(r), None, 1.0))
            counts[r] += 1
    out.sort(
        key=lambda f: (f.cost, -1 if f.remove is None else int(f.remove), -1 if f.add is None else int(f.add))
    )
    return out[:limit]
