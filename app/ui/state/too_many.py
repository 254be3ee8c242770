"""A hand with more tiles than a winning hand, and the likeliest hand inside it.

A winning hand holds 14 tiles plus one per kong: at most 18 (four kongs). A photo taken at the
table often holds more — discards, a neighbour's melds — and the reader's hand has them too.
`over_hand`: more tiles than a winning hand with the kongs laid apart (`wanted`); the page says
so and `likeliest` offers the hand the photo most probably shows, one tap away. Four alike
standing may be a kong the photo did not lay apart (the editor asks about that); but when the
tiles over 14 are more than such kongs could explain, or more than 18 in all (`too_many`), no
kong question helps.

Pure (no Streamlit).

>>> hand = EditHand.typed(["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["5m"] * 3)
>>> physical(hand), wanted(hand), over_hand(hand), too_many(hand)
(15, 14, True, True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations

from app.photo_hand import UNKNOWN
from app.ui.state.hand import EditHand
from scoring import HandError, is_complete
from scoring.model import KONG_KINDS

MOST_TILES = 18
"""The most tiles a winning hand holds (four kongs of four, and a pair)."""


def physical(hand: EditHand) -> int:
    """Tiles as they lie: every tile of every meld (a kong is 4)."""
    return len(hand.concealed) + sum(len(m.tiles) for m in hand.melds)


def wanted(hand: EditHand) -> int:
    """The tiles a winning hand with `hand`'s laid-apart kongs holds: 14 plus one per kong."""
    return 14 + sum(1 for m in hand.melds if m.kind in KONG_KINDS)


def over_hand(hand: EditHand) -> bool:
    """More tiles than a winning hand with the kongs laid apart (`physical` > `wanted`)."""
    return physical(hand) > wanted(hand)


def over_hand_words(hand: EditHand) -> tuple[str, dict[str, int]]:
    """The catalog key and fields of the words for an over-full hand (`over_hand`), each count
    said once: ``hand.over_hand`` (``n`` tiles, ``want`` = 14) without a kong laid apart,
    ``hand.over_hand_kongs`` (also ``kongs``, and ``want`` = 14 + kongs) with one.

    >>> over_hand_words(EditHand.typed(["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["5m"] * 3))
    ('hand.over_hand', {'n': 15, 'want': 14})
    """
    kongs = wanted(hand) - 14
    fields = {"n": physical(hand), "want": wanted(hand)}
    return ("hand.over_hand_kongs", {**fields, "kongs": kongs}) if kongs else ("hand.over_hand", fields)


def too_many(hand: EditHand) -> bool:
    """More tiles than any winning hand: over `MOST_TILES`, or more over 14 + kongs than there
    are four-alike standing, each read sure (each may be a kong not laid apart; an unsure
    reading never completes one, `EditHand.kong_candidates`)."""
    kongs = sum(1 for m in hand.melds if m.kind in KONG_KINDS)
    n = physical(hand)
    return n > MOST_TILES or n - 14 - kongs > len(_sure_quads(hand))


def kong_first(hand: EditHand) -> bool:
    """Four alike standing explain the tiles over the hand (`over_hand`, not `too_many`): the kong
    question comes first (the editor's), and no smaller hand is offered or said over."""
    return over_hand(hand) and not too_many(hand) and bool(_sure_quads(hand))


def _sure_quads(hand: EditHand) -> list[str]:
    """Codes standing four times, each read sure."""
    counts = Counter(x.code for x in hand.concealed if x.code != UNKNOWN and not x.needs_check)
    return [c for c, n in counts.items() if n >= 4]


def likeliest(
    hand: EditHand, detections: Sequence, groups: Sequence, variant: str = "jiujiang"
) -> EditHand | None:
    """The whole hand the photo most likely shows, or None: not over a hand, or the kong question
    comes first (`kong_first`).

    A whole hand: `wanted` tiles (14 + one per kong laid apart; four alike standing are asked
    about once the hand is offered, never assumed: a trial's row of 17 held two such and was a
    neighbour's three tiles beside 14). Its tiles are taken likeliest first (`_tier`): the sure
    tiles of the main row (the photo's row holding most of the hand, the lowest of equals:
    nearest the camera) and every meld read sure; the main row's unsure readings; the other rows'
    sure tiles, nearer rows first (below before above); their unsure ones; unknown tiles (a logo,
    a face-down tile) last. So a confident tile of the hand row is never dropped to keep an
    unsure one or a logo. A meld is kept or left whole. Among the tiles of the tier where the
    hand is cut, the choice that makes a complete hand (`scoring.is_complete`) wins, then the
    most confident. Tiles not from the photo (picked or typed) always stay; the rest are taken
    out, to be taken back from the greyed tiles.
    """
    if not over_hand(hand) or kong_first(hand):
        return None
    used = {x.detection for x in hand.tiles if x.detection is not None}
    mine = [g for g in groups if used & set(g.tiles)]
    if not mine:
        return None
    row_of = {k: g.row for g in groups for k in g.tiles}

    def y(g) -> float:
        return sum(detections[k].center[1] for k in g.tiles) / len(g.tiles)

    per_row: Counter[int] = Counter()
    for g in mine:
        per_row[g.row] += len(used & set(g.tiles))
    main_row = max(per_row, key=lambda r: (per_row[r], max(y(g) for g in mine if g.row == r)))
    first = max((g for g in mine if g.row == main_row), key=lambda g: len(g.tiles))
    fy, scale = y(first), max(detections[k].height for k in first.tiles)
    row_y = {g.row: y(g) for g in groups}

    units = _units(hand)
    ranked = sorted(units, key=lambda u: _rank(u, row_of, main_row, row_y, fy, scale))
    keep: list[tuple] = []
    n = sum(_weight(u) for u in units if not _photo(u))  # typed or picked tiles always stay
    for u in ranked:
        if _photo(u) and n + _weight(u) <= 14:
            keep.append(u)
            n += _weight(u)
    keep = _fill(keep, ranked, 14 - n, lambda u: _tier(u, row_of, main_row))
    group_of = {k: i for i, g in enumerate(groups) for k in g.tiles}
    keep = _complete(hand, units, keep, ranked, (row_of, main_row, group_of), variant)
    kept = {x.detection for u in keep for x in u}
    best = hand.without_detections(used - kept)
    return None if physical(best) >= physical(hand) else best


def _units(hand: EditHand) -> list[tuple]:
    """The hand as what is kept or left whole: each standing tile alone, each meld whole."""
    return [(x,) for x in hand.concealed] + [tuple(m.tiles) for m in hand.melds]


def _weight(unit: tuple) -> int:
    """What a unit counts towards the 14 of a hand: a kong (4 tiles) as 3, a tile as 1."""
    return 3 if len(unit) == 4 else len(unit)


def _fill(keep: list, ranked: list, short: int, tier) -> list:
    """`keep` filled up to a whole hand when it stops `short` (1 or 2) of 14 because only melds
    are left: the likeliest meld left out comes in for the 3 - `short` least likely tiles kept
    (a 13-tile offer is no hand), never for a tile of a likelier `tier` (a sure tile of the hand
    row for an unsure meld). `keep` itself when not short or no such swap exists."""
    melds = [u for u in ranked if _photo(u) and len(u) > 1 and u not in keep]
    singles = [u for u in keep if len(u) == 1 and _photo(u)]
    if short <= 0 or not melds or len(singles) < 3 - short:
        return keep
    out = singles[len(singles) - (3 - short) :]
    if any(tier(u) < tier(melds[0]) for u in out):
        return keep
    chosen = [u for u in keep if u not in out] + [melds[0]]
    return sorted(chosen, key=ranked.index)


def _photo(unit: tuple) -> bool:
    return any(x.detection is not None for x in unit)


def _tier(unit: tuple, row_of: dict, main_row: int) -> int:
    """How likely the unit is the hand's, likeliest 0 (the module docstring of `likeliest`)."""
    if any(x.code == UNKNOWN for x in unit):
        return 4
    sure = not any(x.needs_check for x in unit)
    main = all(row_of.get(x.detection, main_row) == main_row for x in unit)
    if sure and (main or len(unit) > 1):
        return 0
    return (1 if main else 3) if not sure else 2


def _rank(unit: tuple, row_of: dict, main_row: int, row_y: dict, fy: float, scale: float) -> tuple:
    tier = _tier(unit, row_of, main_row)
    rows = [row_of[x.detection] for x in unit if x.detection in row_of]
    ys = [row_y[r] for r in rows] or [fy]
    dy = sum(ys) / len(ys) - fy
    conf = min((x.conf if x.conf is not None else 1.0) for x in unit)
    return (tier, round(abs(dy) / scale), dy < 0, -conf)


MOST_GROUPS = 12
"""The most groups `_whole_groups` tries leaving out whole (2^12 = 4,096 ways at most)."""
CHOICES = 5000
"""The most ways of cutting one tier `likeliest` tries for a complete hand (how many of each kind
it keeps, `_counts`), else the surest tiles."""


def _complete(hand: EditHand, units, keep: list, ranked: list, layout: tuple, variant: str) -> list:
    """`keep` with the single tiles of its last tier chosen again so that the hand is complete;
    `keep` itself when none is (or too many choices). First the photo's own sets: whole groups
    of the reader left out (a neighbour's tiles, discards lie apart from the hand), the most
    confident such choice; else the most confident choice of any tiles.

    A choice of any tiles is how many of each kind to keep (`_counts`), the most confident tiles
    of each kind: the same hands as every combination of tiles, far fewer to try (a row of 19
    cut to 14 is C(19, 14) = 11,628 combinations, over `CHOICES`: the offer was the surest 14,
    no hand)."""
    row_of, main_row, group_of = layout
    photo = [u for u in ranked if _photo(u)]
    if not keep or len(keep) == len(photo):
        return keep
    cut = _tier(keep[-1], row_of, main_row)
    pool = [u for u in photo if _tier(u, row_of, main_row) == cut and len(u) == 1]
    fixed = [u for u in keep if u not in pool]
    k = len(keep) - len(fixed)
    if not 0 < k < len(pool):
        return keep
    others = [u for u in units if not _photo(u)]
    whole = _whole_groups(
        pool, k, group_of, lambda chosen: _is_whole([*fixed, *chosen, *others], hand, variant)
    )
    if whole is not None:
        return [*fixed, *whole]
    kinds: dict[str, list] = {}
    for u in sorted(pool, key=lambda u: -(u[0].conf or 0.0)):  # the surest of each kind first
        kinds.setdefault(u[0].code, []).append(u)
    counts = _counts([len(v) for v in kinds.values()], k)
    if counts is None:
        return keep
    best, best_conf = None, -1.0
    for n in counts:
        chosen = [u for us, m in zip(kinds.values(), n, strict=True) for u in us[:m]]
        conf = sum(u[0].conf or 0.0 for u in chosen)
        if conf > best_conf and _is_whole([*fixed, *chosen, *others], hand, variant):
            best, best_conf = chosen, conf
    return keep if best is None else [*fixed, *best]


def _whole_groups(pool: list, k: int, group_of: dict, whole: Callable[[list], bool]) -> list | None:
    """`k` tiles of `pool` that are whole (`whole`) with whole groups of the reader left out, the
    most confident such choice, or None (none, or over `MOST_GROUPS` groups to try)."""
    by: dict[int, list] = {}
    for u in pool:
        by.setdefault(group_of.get(u[0].detection, -1), []).append(u)
    sets = list(by.values())
    if len(sets) > MOST_GROUPS:
        return None
    best, best_conf = None, -1.0
    for r in range(1, len(sets)):
        for out in combinations(sets, r):
            if sum(len(x) for x in out) != len(pool) - k:
                continue
            chosen = [u for u in pool if not any(u in x for x in out)]
            conf = sum(u[0].conf or 0.0 for u in chosen)
            if conf > best_conf and whole(chosen):
                best, best_conf = chosen, conf
    return best


def _counts(sizes: list[int], k: int) -> list[tuple[int, ...]] | None:
    """Every way of keeping `k` tiles from kinds of `sizes` tiles (how many of each), or None
    when there are over `CHOICES`.

    >>> _counts([2, 1], 2)
    [(1, 1), (2, 0)]
    """
    out: list[tuple[int, ...]] = []

    def walk(i: int, left: int, got: tuple[int, ...]) -> bool:
        if i == len(sizes):
            if left == 0:
                out.append(got)
            return len(out) <= CHOICES
        room = sum(sizes[i + 1 :])  # the most the kinds after this one can still take
        ms = range(max(0, left - room), min(sizes[i], left) + 1)
        return all(walk(i + 1, left - m, (*got, m)) for m in ms)

    return out if walk(0, k, ()) else None


def _is_whole(units: list[tuple], hand: EditHand, variant: str) -> bool:
    melds = [m for m in hand.melds if tuple(m.tiles) in units]
    standing = "".join(u[0].code for u in units if len(u) == 1 and u not in [tuple(m.tiles) for m in melds])
    try:
        return is_complete(standing, [{"kind": m.kind, "tiles": "".join(m.codes)} for m in melds], variant)
    except (HandError, ValueError):
        return False


__all__ = [
    "MOST_TILES",
    "kong_first",
    "likeliest",
    "over_hand",
    "over_hand_words",
    "physical",
    "too_many",
    "wanted",
]
