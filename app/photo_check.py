"""The hand-level check of a photo's hand guess: a tile that makes the hand impossible where its
runner-up reading (`vision.detection.Detection.second`) makes it whole.

When the standing tiles and the melds are not a winning shape of the variant (`scoring.is_complete`)
or show a fifth copy of a tile, each standing tile read from the photo is tried as its runner-up
reading; every tile whose runner-up alone makes the hand whole, with no fifth copy, is flagged
`uncertain` (the app draws it red and its single-tile fixes try the unsure tiles first,
`app.ui.services.suggest`). Nothing changes for a whole hand, for tiles without a runner-up, or
when no single runner-up helps.

>>> from vision.detection import Detection
>>> from app.photo_guess import HandGuess, PhotoTile
>>> codes = "1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s 9p 6p".split()  # 9p read, 9p the pair's twin
>>> dets = [Detection((0, 0, 1, 1), c, 0.9, second="9p" if k == 13 else None) for k, c in enumerate(codes)]
>>> guess = HandGuess([PhotoTile(c, k, 0.9) for k, c in enumerate(codes)], winning_index=12)
>>> [t.uncertain for t in second_readings(guess, dets, "jiujiang").concealed].index(True)
13
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from app.photo_guess import HandGuess
from scoring import HandError, is_complete
from scoring.rules import load_rules
from scoring.tiles import ALL_TILES, TILE_CODES
from vision.detection import Detection

SET_COPIES = 4
"""A set holds four of each tile: a fifth reading is wrong."""


def _whole(codes: Sequence[str], melds: list[dict], variant: str) -> bool:
    """The standing `codes` and `melds` are a winning shape with no fifth copy of a tile."""
    counts = Counter(codes)
    for m in melds:
        counts.update(m["codes"])
    if any(n > SET_COPIES for n in counts.values()):
        return False
    try:
        return is_complete("".join(codes), [{"kind": m["kind"], "tiles": m["tiles"]} for m in melds], variant)
    except HandError:  # a shape the engine refuses (a wrong tile count, an unknown tile)
        return False


def second_readings(guess: HandGuess, detections: Sequence[Detection], variant: str) -> HandGuess:
    """`guess` with every standing tile flagged `uncertain` whose runner-up reading alone makes the
    hand whole (the module docstring); `guess` itself when the hand is whole or nothing helps.

    Args:
        guess: the hand guess (`app.photo_hand.hand_from_photo`); its tiles' `detection` index
            `detections`.
        detections: the photo's detections.
        variant: `jiujiang`, `xingzi` or `xinyu`: a runner-up must be one of its standing tiles
            (no winds in jiujiang; 發 is a bonus tile set aside in jiujiang and xingzi).
    """
    codes = [t.code for t in guess.concealed]
    if any(c not in TILE_CODES for c in codes):
        return guess  # an unknown tile `?`: the player names it first
    melds = []
    for m in guess.melds:
        if any(c not in TILE_CODES for c in m.codes):
            return guess
        melds.append({"kind": m.kind, "tiles": "".join(m.codes), "codes": m.codes})
    if _whole(codes, melds, variant):
        return guess
    kinds = {ALL_TILES[k].code for k in load_rules(variant).tile_kinds}  # 發 aside where a bonus tile
    flagged = []
    for i, tile in enumerate(guess.concealed):
        d = tile.detection
        alt = detections[d].second if d is not None and d < len(detections) else None
        if alt is None or alt == tile.code or alt not in kinds:
            continue
        if _whole([*codes[:i], alt, *codes[i + 1 :]], melds, variant):
            flagged.append(i)
    if not flagged:
        return guess
    tiles = [replace(t, uncertain=True) if i in flagged else t for i, t in enumerate(guess.concealed)]
    return replace(guess, concealed=tiles)


__all__ = ["SET_COPIES", "second_readings"]
