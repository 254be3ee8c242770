"""The hand-level check as a signal for fitting and measuring flag 3 (`datasets.flag3_signals`).

At run time the check lives in `app.photo_check` (vision may not import the scoring engine,
docs/ARCHITECTURE.md); here, outside the runtime, the same idea over the reader's hand boxes alone,
variant-free: the tiles are a 14-tile shape (14, or 11 / 8 / 5 / 2 with the melds laid elsewhere),
not a winning shape (`scoring.decompose.is_complete`: four sets and a pair, or seven pairs), and a
tile's runner-up reading alone makes them one.

>>> codes = "1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s 9p 6p".split()  # the last 9p read as 6p
>>> hand_breakers(codes, [None] * 13 + ["9p"])[-1]
True
>>> any(hand_breakers(codes[:-1] + ["9p"], [None] * 13 + ["6p"]))  # whole already: nothing
False
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.decompose import is_complete
from scoring.tiles import TILE_CODES

_INDEX = {c: k for k, c in enumerate(TILE_CODES)}


def _complete(codes: Sequence[str], n_melds: int) -> bool:
    counts = [0] * len(TILE_CODES)
    for c in codes:
        counts[_INDEX[c]] += 1
    return max(counts) <= 4 and is_complete(counts, n_melds)


def hand_breakers(codes: Sequence[str], seconds: Sequence[str | None]) -> list[bool]:
    """Per tile: the hand `codes` (a winning shape's count, not whole) is made whole by this tile's
    runner-up `seconds[i]` alone. Backs and flowers are left out of the hand; a code that is no
    tile (`?`) makes nothing flagged."""
    idx = [i for i, c in enumerate(codes) if c in _INDEX]
    out = [False] * len(codes)
    n = len(idx)
    if n == 0 or n > 14 or n % 3 != 2 or len(idx) < sum(c not in ("back", "flower") for c in codes):
        return out
    hand = [codes[i] for i in idx]
    melds = (14 - n) // 3
    if _complete(hand, melds):
        return out
    for j, i in enumerate(idx):
        alt = seconds[i]
        if alt in _INDEX and alt != codes[i] and _complete([*hand[:j], alt, *hand[j + 1 :]], melds):
            out[i] = True
    return out
