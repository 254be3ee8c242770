"""Read the index a set prints in a suit tile's corner, and flag a reading it contradicts.

Many sets (American, Hong Kong and mainland ones) print a small digit 1..9 in the upper corner of
every suit tile, beside the 萬 numeral, the dots or the bamboo. Where the classifier misreads a
face in a style it never saw (a bold 二萬 read 三萬 by the colour reader, the grey reader and
the text reader alike: their ink is the 三萬's), the index still says 2. The text recogniser
(`vision.text_reader`) reads it on the face's two upper corners (`corner_views`: the upper
`CORNER_H` of the face, the left and right `CORNER_W` of it), scored against the closed lexicon
of the nine digits (`ctc_log_prob`), never decoded freely.

A set prints indices or does not; most do not, and a corner holds the ends of the numeral's
strokes, a dot, a stick. So the index is trusted only where the set shows that it prints them:

1. the photo must already hold a doubt (a face-up suit tile flagged `uncertain`): a photo the
   reader reads without doubt costs nothing (the 12 MP photos of `real_rows_public` hold none);
2. witnesses: the `WITNESSES` most confident unflagged suit tiles are read first, in both upper
   corners; in one corner at least `AGREE` of them must show their own number at `WITNESS_P` or
   more (the set prints its indices there), else nothing more is read;
3. then every other unflagged suit tile is read in that corner only (the other holds the ends of
   the numeral's strokes: a 五's reads "3" at 0.9), and a tile whose corner shows another digit
   at `INDEX_P` or more is flagged, the digit's tile of its suit its runner-up (`second`: a
   fix of one tap), where at least `AGREE` other tiles show their own number at `INDEX_P`.

Measured (`models/MODEL.md`, "The corner index"): on the validation split and the stand-ins it
frames the American set's 二萬 read 三萬 (the bold stand-in's last two unframed wrong tiles) and
frames no right tile (none either when every photo is read, doubt or not: the witnesses open on
28 of 332 photos, sets that print indices).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from vision.detection import Detection
from vision.grey_reader import suit_of
from vision.text_check import MIN_FACE_PX, face_crop
from vision.text_reader import TextReader, ctc_log_prob

INDEX_P = 0.8
"""The CTC probability of a digit from which a corner's digit counts: it flags a tile it
contradicts, and it counts as a witness's agreement for another tile's flag."""
WITNESS_P = 0.5
"""The probability from which a witness's own number in its corner says the set prints indices."""
WITNESSES = 4
"""How many of the most confident unflagged suit tiles are read first, as witnesses."""
AGREE = 2
"""How many tiles must show their own number: among the witnesses, to read on; among the other
tiles read, to flag one."""
CORNER_H = 0.3
"""The share of the face's height, from its top, that holds the index (0.42 read half the
American set's indices at 0.8 and few of set A's smaller ones; 0.25 read a 9筒's ring as "2")."""
CORNER_W = 0.45
"""The share of the face's width, from either side, that holds the index."""

__all__ = ["AGREE", "INDEX_P", "WITNESSES", "WITNESS_P", "corner_views", "flag_by_index", "read_indices"]


def is_suit(det: Detection) -> bool:
    """A face-up reading of a numbered suit tile (1m..9s: `vision.grey_reader.suit_of`)."""
    return not det.face_down and suit_of(det.tile) in "mps"


def corner_views(face: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The upper-left and upper-right corners of an upright face `(h, w, 3)`: each the upper
    `CORNER_H` of its height and `CORNER_W` of its width.

    >>> [v.shape for v in corner_views(np.zeros((70, 50, 3), np.uint8))]
    [(21, 22, 3), (21, 22, 3)]
    """
    h, w = face.shape[:2]
    top, side = max(1, int(h * CORNER_H)), max(1, int(w * CORNER_W))
    return face[:top, :side], face[:top, w - side :]


def read_indices(
    text: TextReader, faces: Sequence[np.ndarray], corners: Sequence[int] = (0, 1)
) -> list[tuple[tuple[int, float], ...]]:
    """Per upright face `(h, w, 3)` uint8 BGR, per corner of `corners` (0 upper left, 1 upper
    right: `corner_views`), the likeliest index digit there and its CTC probability:
    `(digit 1..9, p 0..1)`; `(0, 0.0)` everywhere where the model has no digits. All faces in one
    model batch."""
    if text.digits is None or not faces:
        return [((0, 0.0),) * len(corners) for _ in faces]
    views = [corner_views(f)[c] for f in faces for c in corners]
    lp = iter(text.log_probs(views))
    out = []
    for _ in faces:
        ps = [np.exp(ctc_log_prob(next(lp), text.digits)) for _c in corners]
        out.append(tuple((int(np.argmax(p)) + 1, float(np.max(p))) for p in ps))
    return out


def flag_by_index(
    dets: Sequence[Detection],
    pixels: np.ndarray,
    scale: float,
    text: TextReader | None,
    index_p: float | None = INDEX_P,
) -> list[Detection]:
    """`dets` with each unflagged suit tile flagged whose corner index shows another number (the
    module docstring's three steps; `second` the index's tile). Unchanged without `text`, with
    `index_p` None, or where no suit tile is flagged.

    Args:
        dets: detections, `xyxy` in pixels of the full photo.
        pixels: `(h, w, 3)` uint8 RGB, the photo at `scale` (the reader's crop source).
        index_p: `INDEX_P` (`ReaderConfig.index_p`).
    """
    out = list(dets)
    if text is None or index_p is None or text.digits is None:
        return out
    suits = [k for k, d in enumerate(dets) if is_suit(d)]
    if not any(dets[k].uncertain for k in suits):
        return out

    def faces(ks: Sequence[int]) -> list[np.ndarray]:  # cut when read: most photos stop at the witnesses
        return [face_crop(pixels, scale, dets[k]) for k in ks]

    def big(d: Detection) -> bool:  # a face of `MIN_FACE_PX` a side in the crop source, as text_check reads
        x0, y0, x1, y1 = d.xyxy
        return min(x1 - x0, y1 - y0) * scale >= MIN_FACE_PX

    free = sorted((k for k in suits if not dets[k].uncertain and big(dets[k])), key=lambda k: -dets[k].conf)
    witnesses, rest = free[:WITNESSES], free[WITNESSES:]
    both = dict(zip(witnesses, read_indices(text, faces(witnesses)), strict=True))

    def shows_own(k: int, digit: int, p: float, bar: float) -> bool:
        return p >= bar and digit == int(dets[k].tile[0])

    own = [sum(shows_own(k, *both[k][c], WITNESS_P) for k in witnesses) for c in (0, 1)]
    corner = int(np.argmax(own))  # the set's corner: where its surest tiles show their number
    if own[corner] < AGREE:
        return out
    read = {k: both[k][corner] for k in witnesses}
    read.update((k, r[0]) for k, r in zip(rest, read_indices(text, faces(rest), (corner,)), strict=True))
    sure = {k for k, (d, p) in read.items() if shows_own(k, d, p, index_p)}
    for k, (digit, p) in read.items():
        if p >= index_p and k not in sure and len(sure - {k}) >= AGREE:
            out[k] = replace(dets[k], uncertain=True, second=f"{digit}{dets[k].tile[1]}")
    return out
