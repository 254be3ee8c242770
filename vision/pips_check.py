"""The pip counter's word on the suit tiles of a reading (`vision.pips`), as `vision.text_check`
has the text reader's on the character tiles.

Only the flagged tiles (`uncertain`) that the classifier reads as a dot or bamboo tile, or names
one as its runner-up, are counted: the cost stays with the faces where it can help. The rule, one
threshold (`PIPS_MIN_CONF`, chosen leaving each physical set out in turn; `models/MODEL.md`,
"The pip counter"):

- a count of confidence >= the threshold that is the classifier's reading (same suit, same
  number) clears the flag;
- one that is the runner-up's (the count of its suit) overrides: the tile takes the runner-up,
  the classifier's reading moves to `second`, and the flag is cleared;
- any other count, or one below the threshold, leaves the tile as the classifier read it,
  flagged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from vision.detection import Detection
from vision.pips import PipCount, count_pips
from vision.text_check import face_crop

PIPS_MIN_CONF = 0.7
"""The confidence of a count from which the pip counter decides a flagged suit tile."""


def _suit_rank(code: str | None) -> tuple[str, int] | None:
    """`("p", 4)` for "4p"; None for a code that is not a dot or bamboo tile."""
    if code is None or len(code) != 2 or code[1] not in "ps" or not code[0].isdigit():
        return None
    return code[1], int(code[0])


def pip_suit(det: Detection) -> str | None:
    """The suit to count on `det`'s face: its reading's, else its runner-up's; None when neither
    is a dot or bamboo tile."""
    own = _suit_rank(det.tile) or _suit_rank(det.second)
    return own[0] if own else None


def wants_pips(det: Detection) -> bool:
    """Whether the pip counter should count `det`: a flagged face up tile read as a dot or
    bamboo tile, or with one as its runner-up."""
    return det.uncertain and not det.face_down and pip_suit(det) is not None


def decide(det: Detection, count: PipCount | None, min_conf: float = PIPS_MIN_CONF) -> Detection:
    """`det` as the rule has it (module docstring)."""
    suit = pip_suit(det)
    if count is None or count.conf < min_conf or suit is None:
        return det
    code = f"{count.count}{suit}"
    if code == det.tile:
        return replace(det, uncertain=False)
    if code == det.second:
        return replace(det, tile=code, second=det.tile, uncertain=False)
    return det


def check_with_pips(
    dets: Sequence[Detection], pixels: np.ndarray, scale: float, min_conf: float = PIPS_MIN_CONF
) -> list[Detection]:
    """`dets` with the flagged suit tiles decided by their counts (`decide`).

    Args:
        dets: detections, `xyxy` in pixels of the full photo.
        pixels: `(h, w, 3)` uint8 RGB, the photo at `scale` (the reader's crop source).
    """
    out = list(dets)
    for k, det in enumerate(dets):
        if wants_pips(det):
            suit = pip_suit(det)
            assert suit is not None  # wants_pips checked it
            out[k] = decide(det, count_pips(face_crop(pixels, scale, det), suit), min_conf)
    return out


__all__ = ["PIPS_MIN_CONF", "check_with_pips", "decide", "pip_suit", "wants_pips"]
