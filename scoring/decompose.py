"""Decomposition of a hand into sets and a pair, seven pairs, and wait sets (DECISIONS §1.2, §2).

Everything works on count vectors (length 34, see :mod:`scoring.tiles`). A suit is decomposed
on its own — its nine counts are the memo key — so a random hand costs a few dictionary
look-ups once the common suit shapes are known. Honours form only triplets and pairs.

A *standard reading* is ``(pair_tile, sets)`` where ``sets`` is a tuple of ``(kind, tile)``
with kind ``"chow"`` (``tile`` is its lowest tile) or ``"pung"``; only the tiles standing in
the hand are decomposed, declared melds are added by the caller.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

__all__ = [
    "CHOW",
    "PUNG",
    "decompose_all",
    "is_complete",
    "is_seven_pairs",
    "is_standard",
    "seven_pairs_of",
    "standard_readings",
    "waits_of",
]

CHOW = "chow"
PUNG = "pung"

Block = tuple[str, int]
SuitReading = tuple[int, tuple[Block, ...]]  # (pair tile or -1, sets)

_SuitCache = dict[tuple[int, ...], tuple[tuple[SuitReading, ...], tuple[SuitReading, ...]]]
_SUIT_CACHE: tuple[_SuitCache, _SuitCache, _SuitCache] = ({}, {}, {})
_FLAG_CACHE: dict[tuple[int, ...], int] = {}
_MAX_CACHE = 200_000


def _enumerate_suit(
    key: tuple[int, ...], off: int
) -> tuple[tuple[SuitReading, ...], tuple[SuitReading, ...]]:
    """All ways to split one suit into sets plus at most one pair: (without pair, with pair).

    Canonical order — the lowest remaining rank takes 0/1 pung, 0/1 pair and the rest as
    chows starting there — so each multiset of blocks is produced exactly once.
    """
    c = list(key)
    no_pair: list[SuitReading] = []
    with_pair: list[SuitReading] = []

    def rec(i: int, pair: int, blocks: tuple[Block, ...]) -> None:
        while i < 9 and c[i] == 0:
            i += 1
        if i == 9:
            (with_pair if pair >= 0 else no_pair).append((pair, blocks))
            return
        n = c[i]
        for p in (0, 1):
            for q in (0, 1):
                if q and pair >= 0:
                    continue
                k = n - 3 * p - 2 * q
                if k < 0:
                    continue
                if k and (i > 6 or c[i + 1] < k or c[i + 2] < k):
                    continue
                c[i] = 0
                if k:
                    c[i + 1] -= k
                    c[i + 2] -= k
                new = blocks + ((CHOW, off + i),) * k + (((PUNG, off + i),) if p else ())
                rec(i + 1, off + i if q else pair, new)
                c[i] = n
                if k:
                    c[i + 1] += k
                    c[i + 2] += k

    rec(0, -1, ())
    return tuple(no_pair), tuple(with_pair)


def _suit(key: tuple[int, ...], s: int) -> tuple[tuple[SuitReading, ...], tuple[SuitReading, ...]]:
    cache = _SUIT_CACHE[s]
    got = cache.get(key)
    if got is None:
        if len(cache) > _MAX_CACHE:
            cache.clear()
        got = cache[key] = _enumerate_suit(key, 9 * s)
    return got


def _flags(key: tuple[int, ...]) -> int:
    """Bit 1: the suit splits into sets alone; bit 2: into sets plus one pair."""
    got = _FLAG_CACHE.get(key)
    if got is None:
        if len(_FLAG_CACHE) > _MAX_CACHE:
            _FLAG_CACHE.clear()
        no_pair, with_pair = _suit(key, 0)
        got = _FLAG_CACHE[key] = (1 if no_pair else 0) | (2 if with_pair else 0)
    return got


def _honour_shape(counts: Sequence[int]) -> tuple[int, int]:
    """(pairs, kinds that are neither a pair nor a triplet) among the honours: they form no runs."""
    pairs = bad = 0
    for t in range(27, 34):
        n = counts[t]
        if n == 2:
            pairs += 1
        elif n and n != 3:
            bad += 1
    return pairs, bad


def is_standard(counts: Sequence[int]) -> bool:
    """Do the standing tiles split into sets plus exactly one pair? (melds are not in ``counts``)"""
    pairs, bad = _honour_shape(counts)
    if bad:
        return False
    for off in (0, 9, 18):
        key = tuple(counts[off : off + 9])
        r = sum(key) % 3
        if r == 1:
            return False
        if r == 2:
            pairs += 1
            if not _flags(key) & 2:
                return False
        elif not _flags(key) & 1:
            return False
    return pairs == 1


def is_seven_pairs(counts: Sequence[int]) -> bool:
    """Seven pairs: 14 standing tiles, every count even (a quad is two pairs, DECISIONS §1.2)."""
    total = 0
    for n in counts:
        if n & 1:
            return False
        total += n
    return total == 14


def is_all_honours(counts: Sequence[int]) -> bool:
    """Only honours stand in the hand (and at least one tile)."""
    return not any(counts[:27]) and any(counts[27:])


def is_complete(counts: Sequence[int], n_melds: int = 0, *, free_honours: bool = False) -> bool:
    """Is the hand (standing tiles ``counts`` plus ``n_melds`` declared melds) a winning shape?

    Four sets + a pair, seven pairs (no melds), or — with ``free_honours`` (xinyu, DECISIONS §2)
    — fourteen honours of any shape with no melds.
    """
    total = sum(counts)
    if total + 3 * n_melds != 14:
        return False
    if is_standard(counts):
        return True
    if n_melds == 0:
        if is_seven_pairs(counts):
            return True
        if free_honours and is_all_honours(counts):
            return True
    return False


def standard_readings(counts: Sequence[int]) -> list[tuple[int, tuple[Block, ...]]]:
    """Every split of the standing tiles into sets plus one pair: ``[(pair_tile, sets), ...]``."""
    honour_sets: list[Block] = []
    honour_pair = -1
    for t in range(27, 34):
        n = counts[t]
        if n == 0:
            continue
        if n == 3:
            honour_sets.append((PUNG, t))
        elif n == 2 and honour_pair < 0:
            honour_pair = t
        else:
            return []
    partial: list[tuple[int, tuple[Block, ...]]] = [(honour_pair, ())]
    for s in range(3):
        off = 9 * s
        key = tuple(counts[off : off + 9])
        if not any(key):
            continue
        r = sum(key) % 3
        if r == 1:
            return []
        no_pair, with_pair = _suit(key, s)
        options = with_pair if r == 2 else no_pair
        if not options:
            return []
        nxt = []
        for pair, sets in partial:
            for spair, ssets in options:
                if spair >= 0:
                    if pair >= 0:
                        continue
                    nxt.append((spair, sets + ssets))
                else:
                    nxt.append((pair, sets + ssets))
        partial = nxt
        if not partial:
            return []
    tail = tuple(honour_sets)
    return [(pair, sets + tail) for pair, sets in partial if pair >= 0]


def seven_pairs_of(counts: Sequence[int]) -> list[int] | None:
    """The seven pair tiles (a quad appears twice), or None."""
    if not is_seven_pairs(counts):
        return None
    out: list[int] = []
    for t, n in enumerate(counts):
        out.extend([t] * (n // 2))
    return out


def decompose_all(counts: Sequence[int]) -> list[tuple[int, tuple[Block, ...]] | tuple[str, list[int]]]:
    """All readings of a 14-tile concealed hand: standard ones plus seven pairs (for benchmarks)."""
    out: list[tuple[int, tuple[Block, ...]] | tuple[str, list[int]]] = list(standard_readings(counts))
    pairs = seven_pairs_of(counts)
    if pairs is not None:
        out.append(("seven_pairs", pairs))
    return out


_ADD_CACHE: dict[tuple[int, ...], tuple[int, ...]] = {}


def _suit_wait_ranks(key: tuple[int, ...]) -> tuple[int, ...]:
    """Ranks (0-8) whose addition leaves the suit decomposable (with a pair iff its size is 3k+2)."""
    got = _ADD_CACHE.get(key)
    if got is None:
        if len(_ADD_CACHE) > _MAX_CACHE:
            _ADD_CACHE.clear()
        out = []
        r = (sum(key) + 1) % 3
        if r != 1:
            need = 2 if r == 2 else 1
            present = [i for i in range(9) if key[i]]
            for i in range(9):
                if key[i] >= 4 or (not any(abs(i - j) <= 2 for j in present) and key != (0,) * 9):
                    continue
                k = list(key)
                k[i] += 1
                if _flags(tuple(k)) & need:
                    out.append(i)
        got = _ADD_CACHE[key] = tuple(out)
    return got


def waits_of(
    counts: Sequence[int],
    n_melds: int,
    kinds: Collection[int],
    held: Sequence[int] | None = None,
    *,
    free_honours: bool = False,
) -> list[int]:
    """The wait set of a hand one tile short of winning (DECISIONS §1.3 独听).

    ``kinds``: tile kinds that exist in the variant (a set is used as is); ``held``: the
    player's own count of each
    kind (hand + melds) — a kind the player already holds four of is not a wait. Each suit's
    verdict and its completing ranks are memoised by the suit's nine counts.
    """
    held = counts if held is None else held
    keys = (tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27]))
    sums = (sum(keys[0]), sum(keys[1]), sum(keys[2]))
    if sums[0] + sums[1] + sums[2] + sum(counts[27:34]) + 3 * n_melds != 13:
        return []
    found: set[int] = set()
    # seven pairs: six pairs (a quad is two) and one odd tile
    if n_melds == 0:
        odd = [t for t in range(34) if counts[t] & 1]
        if len(odd) == 1:
            found.add(odd[0])
        if free_honours and is_all_honours(counts):
            found.update(range(27, 34))
    # standard: per-suit verdicts (ok, pairs) of the hand as it stands
    honour_pairs, honour_bad = _honour_shape(counts)
    suit_ok = []
    suit_pairs = []
    for s in range(3):
        key = keys[s]
        r = sums[s] % 3
        suit_ok.append(r != 1 and (not sums[s] or bool(_flags(key) & (2 if r == 2 else 1))))
        suit_pairs.append(1 if r == 2 else 0)
    bad_suits = suit_ok.count(False)
    pairs_suits = sum(suit_pairs)
    if honour_bad <= 1:
        for s in range(3):
            if bad_suits - (0 if suit_ok[s] else 1) or honour_bad:
                continue
            key = keys[s]
            after_pair = 1 if (sums[s] + 1) % 3 == 2 else 0
            if pairs_suits - suit_pairs[s] + after_pair + honour_pairs != 1:
                continue
            off = 9 * s
            found.update(off + i for i in _suit_wait_ranks(key))
        if not bad_suits:
            for t in range(27, 34):
                n = counts[t]
                if n == 0 or n >= 3:
                    continue
                if n == 1:  # the single becomes a pair
                    hb, hp = honour_bad - 1, honour_pairs + 1
                else:  # a pair becomes a triplet
                    hb, hp = honour_bad, honour_pairs - 1
                if hb == 0 and hp + pairs_suits == 1:
                    found.add(t)
    kind_set = kinds if isinstance(kinds, (set, frozenset)) else set(kinds)
    return sorted(t for t in found if held[t] < 4 and t in kind_set)
