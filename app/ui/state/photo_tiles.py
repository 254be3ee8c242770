"""The photo's tiles against the hand: which are in it, which are left out, and its rows.

A tile left out of the hand is every detection no tile of the `EditHand` points at: the
reader's `off_row` tiles (`Detection.role` neither `hand` nor `meld`: discards, walls, logos;
`vision.roles`) and the tiles the player took out. They are not
state of their own: the hand holds the detection index of each of its tiles, so the hand in
progress (and its draft) says exactly which are out. Flowers and the variant's bonus tile are
set aside, never left out.

Pure (no Streamlit); the page draws these greyed on the photo and lists them to take back.

>>> from vision.detection import Detection
>>> dets = [Detection((0, 0, 10, 14), "1m", 0.9), Detection((90, 0, 100, 14), "5p", 0.44, role="discard")]
>>> hand = EditHand.typed([]).with_photo_tiles([photo_tile(dets[0], 0)])
>>> left_out(dets, hand), photo_tile(dets[1], 1).needs_check
([1], True)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace

from app.photo_hand import TILE_CODES, UNKNOWN
from app.ui.state.hand import EditHand, EditTile, Selection
from scoring.rules import load_rules
from scoring.tiles import ALL_TILES

SET_ASIDE = ("F", "flower")
"""Codes that are set aside, not left out, when no tile of the hand holds them (九江 / 星子)."""


def set_aside_codes(variant: str) -> tuple[str, ...]:
    """Flowers, and the variant's bonus tile (發 in 九江 / 星子; none in 新余, where 發 is a tile)."""
    bonus = load_rules(variant).bonus_tile
    return ("flower",) if bonus is None else (ALL_TILES[bonus].code, "flower")


def photo_tile(det, k: int) -> EditTile:
    """Detection `k` as a tile of the hand: its reading, or an unknown tile for a face-down one."""
    if det.tile in TILE_CODES:
        return EditTile(det.tile, float(det.conf), k, bool(det.uncertain))
    return EditTile(UNKNOWN, 0.0, k, True)


def in_hand(hand: EditHand) -> set[int]:
    """Detection indices the hand's tiles (standing and melds) come from."""
    return {x.detection for x in hand.tiles if x.detection is not None}


def left_out(detections: Sequence, hand: EditHand, set_aside: Collection[str] = SET_ASIDE) -> list[int]:
    """Indices of the detections not in the hand, in photo order (set-aside codes excepted)."""
    used = in_hand(hand)
    return [k for k, d in enumerate(detections) if k not in used and d.tile not in set_aside]


def rows(detections: Sequence, groups: Sequence) -> list[tuple[int, ...]]:
    """The photo's rows of tiles (`Group.row`, top first), each its detection indices left to
    right; the tiles in no group (`off_row`) are left out of every row."""
    by_row: dict[int, list[int]] = {}
    for g in groups:
        by_row.setdefault(g.row, []).extend(g.tiles)
    return [tuple(sorted(ks, key=lambda k: detections[k].xyxy[0])) for _, ks in sorted(by_row.items())]


def for_variant(hand: EditHand, detections: Sequence, groups: Sequence, variant: str) -> EditHand:
    """`hand` with what `variant` sets aside derived again (issue 36 item 7: choosing 新余 after a
    photo lost the 發 the reader set aside for 九江). The photo's reading keeps every tile it saw:

    - a variant with a bonus tile (九江 / 星子): every standing 發 and every meld of 發 alone leave
      the hand and count as bonus tiles (at most 4);
    - a variant without one (新余): the photo's 發 of the hand's rows (`Detection.role` `hand` or
      `meld`) that the hand does not hold stand in it again, the bonus count less as many; three
      or four laid apart by themselves (the set the reader called `bonus`) are a pung or kong.

    >>> from vision.detection import Detection, Group
    >>> dets = [Detection((60.0 * k, 0.0, 60.0 * k + 50, 70.0), "F", 0.9) for k in range(3)]
    >>> h = EditHand.typed(["1m"], bonus=3)
    >>> xinyu = for_variant(h, dets, [Group((0, 1, 2), "bonus")], "xinyu")
    >>> [m.codes for m in xinyu.melds], xinyu.bonus_tiles
    ([['F', 'F', 'F']], 0)
    >>> back = for_variant(xinyu, dets, [Group((0, 1, 2), "bonus")], "jiujiang")
    >>> back.melds, back.bonus_tiles, in_hand(back)
    ((), 3, set())
    """
    bonus = load_rules(variant).bonus_tile
    if bonus is not None:
        code = ALL_TILES[bonus].code
        melds = [m for m in hand.melds if set(m.codes) == {code}]
        n = sum(len(m.tiles) for m in melds) + sum(1 for x in hand.concealed if x.code == code)
        if not n:
            return hand
        kept = replace(hand, melds=tuple(m for m in hand.melds if m not in melds))
        standing = [i for i, x in enumerate(kept.concealed) if x.code == code]
        for i in reversed(standing):
            kept = kept.without(Selection(i))
        return kept.with_bonus(hand.bonus_tiles + n)
    used = in_hand(hand)
    back = [k for k, d in enumerate(detections) if d.tile == "F" and not d.off_row and k not in used]
    if not back:
        return hand
    out = hand.with_photo_tiles([photo_tile(detections[k], k) for k in back])
    out = out.with_bonus(hand.bonus_tiles - len(back))
    for g in groups:
        if len(g.tiles) in (3, 4) and set(g.tiles) <= set(back) and g.kind_guess == "bonus":
            at = next(i for i, x in enumerate(out.concealed) if x.detection == g.tiles[0])
            out = out.with_meld(at, "pung" if len(g.tiles) == 3 else "kong")
    return out


__all__ = ["SET_ASIDE", "for_variant", "in_hand", "left_out", "photo_tile", "rows", "set_aside_codes"]
