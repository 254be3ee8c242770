"""Wide boxes: one localizer box around several tiles, looked at again closer and cut into its tiles.

On a large photo where the hand fills a small part (a street table, issue 35: a 3720 x 2800 photo
whose standing row of six tiles is ~560 px wide), the localizer at its coarse input sees the row as
one object: it draws boxes that span three or four tiles along the row and twice a tile's height
(the faces and the tiles' bodies at a slant). Each box is read as one tile (9p, 8p) and the tiles
it holds are lost. No row of single-tile boxes lies around them, so no pitch can cut them
(`vision.gaps`, `vision.row_pitch`); but the localizer itself, given the box's region at its own
input size, sees the tiles one by one (there: six boxes of one tile each, scores 0.6-0.7).

This stage (`split_wide`) runs after the first classifier pass and the split merge:

1. **Wide boxes** (`wide`, geometry only): a box whose area is at least `WIDE_AREA` x the median
   box's of the photo (at least `MIN_OTHERS` other boxes to measure it), not read as one tile
   with `SURE_P` or more, the largest `MAX_WIDE` of them. A tile is one tile's area however it
   lies (upright 3:4 or sideways 4:3: ~1 x; the nearest tiles of a photo in perspective up to
   ~2 x); a box of three tiles or more is >= 3 x (the street photo's: 3.8-6.9 x). Two tiles in
   one box (2 x) are not looked at.
2. **Closer look** (`localize`): the box widened by `PAD` of its size on every side, localized
   alone (one extra localizer run per wide box, only where there are any).
3. **Pieces** (`vision.wide_pieces`: `inside`, `boxed`): the boxes found there whose centre
   lies inside the wide box, each at most `PIECE_AREA` of its area (a box as large is the same
   box again), none the same tile as another box of the photo that is not wide (`SAME_TILE` of
   the smaller one covered by it); the pieces of every closer look through NMS (two wide boxes
   that overlap see the same tiles).
4. **Reading and cut** (`split_wide`): the pieces are classified like any box (one extra
   classifier batch). A wide box is replaced by its pieces that read a tile or a back (not
   `none`) with `p >= PIECE_MIN_P` when at least `MIN_PIECES` of them stand side by side as a
   row's tiles do (`side_by_side`: a heap of discards boxed loosely gives pieces that lie apart
   or on one another), or when the closer look does not box it again (no box of `SEEN_IOU` with
   it) and it reads no tile with `p >= PIECE_MIN_P` itself: no object at the closer scale (a box
   around a heap of discards lying flat, read 8s at p 0.19; a tile with its long shadow, read
   weakly, is its piece boxed tight). Else it stays as it is: a tile boxed large and read
   confidently (a close-up) gives one piece at most; a region of table or of hands gives pieces
   that read `none`.

The rule uses no photo's numbers: sizes against the photo's own boxes, the cut from the
localizer and the classifier on the box's own pixels.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from typing import Any

import numpy as np

from vision.boxes import nms
from vision.modelfiles import NONE_CLASS
from vision.reading import Readings
from vision.wide_pieces import boxed, inside, iou, side_by_side

WIDE_AREA = 2.5
"""A box at least this many times the median box's area may hold several tiles."""

SURE_P = 0.95
"""... unless read as one tile with at least this probability (calibrated): a tile near the camera
seen large (one of the 9 photos of 12 MP of `real_rows_public`: an N at 0.99, looked at closer for
nothing, +50 % of its time). The street photo's wide boxes read 0.19-0.87."""

MIN_OTHERS = 3
"""... measured against at least this many other boxes."""

MAX_WIDE = 4
"""At most this many wide boxes (the largest) are looked at again: one localizer run each."""

PAD = 0.25
"""The closer look's region: the wide box widened by this share of its width / height a side."""

PIECE_MIN_P = 0.5
"""A piece reads a tile when its reading (not `none`) is at least this likely (calibrated `p`)."""

MIN_PIECES = 2
"""A wide box is cut when at least this many of its pieces read tiles."""

DEDUPE_IOU, DEDUPE_CONTAINED = 0.45, 1.0
"""The pieces' NMS: `ReaderConfig`'s `iou_threshold` default, no containment rule (as measured)."""

SEEN_IOU = 0.5
"""The closer look boxes the wide box again when one of its boxes overlaps it this much (IoU)."""


Boxes = tuple[np.ndarray, np.ndarray, np.ndarray]
"""`(xyxy float32 (N, 4), scores (N,), class_ids (N,))` in the photo's pixels."""


@dataclass(frozen=True, slots=True)
class Cut:
    """The boxes after the stage: the input boxes less the `cut` ones, then the pieces kept;
    `xyxy`, `scores`, `class_ids`, `readings`; `keep` int: the input boxes kept (in order);
    `kept` int: the index of each kept piece among the pieces classified; `cut` int: the input
    boxes replaced by their pieces; `read`: how many pieces were classified."""

    xyxy: np.ndarray
    scores: np.ndarray
    class_ids: np.ndarray
    readings: Readings
    keep: np.ndarray
    kept: np.ndarray
    cut: np.ndarray
    read: int = 0

    def boxes(
        self, origin: np.ndarray, views: dict
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, Readings, np.ndarray]:
        """`(xyxy, scores, class_ids, readings, origin)`: `origin` says where each box's views are
        (`vision.splits.Merged.origin`): the kept boxes' `origin`, then the pieces, read after the
        `views["unions"]` the reader held before the pieces (`vision.reader`)."""
        n = max(views["unions"][2], default=-1) + 1 - self.read if "unions" in views else 0
        origin = np.concatenate([origin[self.keep], -(n + self.kept + 1)])
        return self.xyxy, self.scores, self.class_ids, self.readings, origin


def wide(xyxy: np.ndarray, p: np.ndarray | None = None) -> np.ndarray:
    """Int: the boxes that may hold several tiles (step 1), the largest first; `p` (the readings'
    calibrated probabilities): a box read `SURE_P` or likelier is one tile.

    >>> row = [[x, 0, x + 30, 40] for x in (0, 32, 64, 96)]
    >>> wide(np.array(row + [[0, 60, 100, 110], [0, 120, 44, 150]], np.float32)).tolist()
    [4]
    >>> wide(np.array(row[:2] + [[0, 60, 100, 110]], np.float32)).tolist()  # too few to compare
    []
    """
    b = np.asarray(xyxy, np.float32).reshape(-1, 4)
    if len(b) < MIN_OTHERS + 1:
        return np.zeros(0, np.int64)
    area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    big = area >= WIDE_AREA * np.median(area)
    big = np.flatnonzero(big if p is None else big & (np.asarray(p) < SURE_P))
    return big[np.argsort(-area[big], kind="stable")][:MAX_WIDE].astype(np.int64)


def region(box: np.ndarray) -> tuple[int, int, int, int]:
    """The closer look's region (step 2): `box` widened by `PAD` a side, whole pixels (the
    localizer's caller clips it to the photo).

    >>> region(np.array([100, 100, 200, 140], np.float32))
    (75, 90, 225, 150)
    """
    x0, y0, x1, y1 = (float(v) for v in box)
    pw, ph = PAD * (x1 - x0), PAD * (y1 - y0)
    return int(x0 - pw), int(y0 - ph), int(np.ceil(x1 + pw)), int(np.ceil(y1 + ph))


def closer(
    localize: Callable[[np.ndarray], Boxes], source: tuple[np.ndarray, float], scale: float
) -> Callable[[tuple[int, int, int, int]], Boxes]:
    """`split_wide`'s `localize`: `localize` (the localizer on an image: its boxes there) on a
    region of `source = (pixels, their scale)`, the region and the boxes in pixels at `scale`."""
    pixels, k = source[0], float(source[1]) / float(scale)

    def look(region: tuple[int, int, int, int]) -> Boxes:
        x0, y0 = max(0, int(region[0] * k)), max(0, int(region[1] * k))
        x1, y1 = int(np.ceil(region[2] * k)), int(np.ceil(region[3] * k))
        crop = pixels[y0:y1, x0:x1]
        if min(crop.shape[:2]) < 2:  # nothing of the photo there
            return np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int64)
        xyxy, scores, ids = localize(crop)
        return (xyxy + np.array([x0, y0, x0, y0], np.float32)) / np.float32(k), scores, ids

    return look


def split_wide(
    xyxy: np.ndarray,
    scores: np.ndarray,
    class_ids: np.ndarray,
    readings: Readings,
    localize: Callable[[tuple[int, int, int, int]], Boxes],
    classify: Callable[[np.ndarray], Readings],
    classes: Sequence[str],
    dedupe: Callable[[np.ndarray, np.ndarray, np.ndarray], Boxes] | None = None,
) -> Cut:
    """Look again at the wide boxes, cut those whose pieces read tiles (the module docstring).

    Args:
        xyxy: float32 `(K, 4)` boxes (pixels); `scores` `(K,)` localizer scores; `class_ids` `(K,)`.
        readings: the classifier's readings of the `K` boxes.
        localize: the localizer on a region `(x0, y0, x1, y1)` of the photo: its boxes there, in
            the photo's pixels.
        classify: reads a float32 `(P, 4)` array of boxes (the same pixels) as `Readings`.
        classes: the classifier's class names (`none` among them, or not).
        dedupe: NMS over the pieces of every closer look (two wide boxes that overlap see the
            same tiles); None: `vision.boxes.nms` at IoU `DEDUPE_IOU`, containment `DEDUPE_CONTAINED`.

    Returns:
        `Cut`; the same arrays (`cut` and `kept` empty) when no box is cut.
    """
    k = len(xyxy)
    nothing = Cut(
        xyxy, scores, class_ids, readings, np.arange(k), np.zeros(0, np.int64), np.zeros(0, np.int64)
    )
    big = wide(xyxy, readings.p)
    if not len(big):
        return nothing
    others = np.delete(xyxy, big, axis=0)
    found: list[Boxes] = []
    seen = np.zeros(len(big), bool)  # the closer look boxes the wide box again
    for n, i in enumerate(big):
        boxes, s, c = localize(region(xyxy[i]))
        seen[n] = bool(len(boxes)) and float(iou(xyxy[i], boxes).max()) >= SEEN_IOU
        take = inside(xyxy[i], boxes) & ~boxed(boxes, others)
        found.append((boxes[take], s[take], c[take]))
    dedupe = dedupe or (lambda b, s, c: nms(b, s, c, DEDUPE_IOU, len(b), DEDUPE_CONTAINED))
    p_xyxy, p_scores, p_ids = dedupe(*(np.concatenate([f[n] for f in found]) for n in range(3)))
    if not len(p_xyxy):
        return nothing
    p_xyxy = p_xyxy.astype(np.float32)
    got = classify(p_xyxy)
    none = list(classes).index(NONE_CLASS) if NONE_CLASS in classes else -1
    good = (got.cls != none) & (got.p >= PIECE_MIN_P)
    within = np.stack([inside(xyxy[i], p_xyxy) for i in big])  # (W, P)
    unsure = (readings.cls[big] == none) | (readings.p[big] < PIECE_MIN_P)
    row = np.stack([side_by_side(p_xyxy[w & good]).sum() for w in within])  # (W,)
    cut_rows = (row >= MIN_PIECES) | (~seen & unsure)
    if not cut_rows.any():
        return nothing
    cut = big[cut_rows]
    kept = np.flatnonzero(good & within[cut_rows].any(axis=0))
    keep = np.setdiff1d(np.arange(k), cut)
    parts: dict[str, Any] = {}
    for f in dataclass_fields(Readings):
        a, b = getattr(readings, f.name), getattr(got, f.name)
        parts[f.name] = None if a is None or b is None else np.concatenate([a[keep], b[kept]])
    return Cut(
        np.concatenate([xyxy[keep], p_xyxy[kept]]).astype(np.float32),
        np.concatenate([scores[keep], p_scores[kept].astype(scores.dtype)]),
        np.concatenate([class_ids[keep], p_ids[kept].astype(class_ids.dtype)]),
        Readings(**parts),
        keep,
        kept,
        cut,
        len(p_xyxy),
    )


__all__ = [
    "DEDUPE_CONTAINED",
    "DEDUPE_IOU",
    "MAX_WIDE",
    "MIN_OTHERS",
    "MIN_PIECES",
    "PAD",
    "PIECE_MIN_P",
    "SEEN_IOU",
    "SURE_P",
    "WIDE_AREA",
    "Cut",
    "closer",
    "region",
    "split_wide",
    "wide",
]
