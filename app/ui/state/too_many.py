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
from collections.abc import Sequence

from app.photo_hand import UNKNOWN
from app.ui.state.hand import EditHand
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
    are four-alike standing (each of which may be a kong not laid apart)."""
    kongs = sum(1 for m in hand.melds if m.kind in KONG_KINDS)
    counts = Counter(x.code for x in hand.concealed if x.code != UNKNOWN)
    quads = sum(1 for n in counts.values() if n >= 4)
    n = physical(hand)
    return n > MOST_TILES or n - 14 - kongs > quads


def likeliest(hand: EditHand, detections: Sequence, groups: Sequence) -> EditHand | None:
    """The hand of the photo's likeliest tiles, or None when there is none smaller.

    The main row is the photo's row (`Group.row`) holding most of the hand, the lowest of
    equals (the player's own row is nearest the camera, at the bottom). Its longest group comes
    first, then whole groups by nearness — in the main row first, then rows below it before rows
    above — each taken while the hand stays within 14 (a kong counts 3, `EditHand.tile_count`).
    When that first group alone is over 14 (one long row: a neighbour's tiles at its ends), the
    run of its tiles, left to right, that fits with the highest summed confidence (`_window`).
    Tiles not from the photo (picked or typed) always stay; the rest are taken out, to be
    taken back from the greyed tiles.
    """
    used = {x.detection for x in hand.tiles if x.detection is not None}
    mine = [g for g in groups if used & set(g.tiles)]
    if not mine:
        return None

    def y(g) -> float:
        return sum(detections[k].center[1] for k in g.tiles) / len(g.tiles)

    def x(g) -> float:
        return sum(detections[k].center[0] for k in g.tiles) / len(g.tiles)

    per_row = Counter()
    for g in mine:
        per_row[g.row] += len(used & set(g.tiles))
    main_row = max(per_row, key=lambda r: (per_row[r], max(y(g) for g in mine if g.row == r)))
    first = max((g for g in mine if g.row == main_row), key=lambda g: len(g.tiles))
    fy, fx = y(first), x(first)
    scale = max(detections[k].height for k in first.tiles)

    def rank(g) -> tuple:
        below = y(g) >= fy
        return (g.row != main_row, not below, round(abs(y(g) - fy) / scale), abs(x(g) - fx))

    keep: set[int] = set(first.tiles)
    best = _restricted(hand, used, keep)
    if best.tile_count > 14:
        keep = _window(hand, used, detections, first)
        best = _restricted(hand, used, keep)
    for g in sorted((g for g in mine if g is not first), key=rank):
        trial = _restricted(hand, used, keep | set(g.tiles))
        if trial.tile_count <= 14:
            keep |= set(g.tiles)
            best = trial
    return None if physical(best) >= physical(hand) else best


def _window(hand: EditHand, used: set[int], detections: Sequence, group) -> set[int]:
    """The longest left-to-right run of `group`'s tiles whose hand is within 14, the most
    confident of equals (the earliest of ties)."""
    order = sorted(group.tiles, key=lambda k: detections[k].center[0])
    for size in range(len(order) - 1, 0, -1):
        fits = [
            order[i : i + size]
            for i in range(len(order) - size + 1)
            if _restricted(hand, used, set(order[i : i + size])).tile_count <= 14
        ]
        if fits:
            return set(max(fits, key=lambda run: sum(detections[k].conf for k in run)))
    return set()


def _restricted(hand: EditHand, used: set[int], keep: set[int]) -> EditHand:
    return hand.without_detections(used - keep)


__all__ = ["MOST_TILES", "likeliest", "over_hand", "over_hand_words", "physical", "too_many", "wanted"]
