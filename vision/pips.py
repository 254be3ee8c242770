"""Count what a suit tile shows: the circles of a dot tile (筒), the sticks of a bamboo tile (條).

A structural reading that does not care what colour a set paints its pips (issue 35 item 2):

1. the ink (`vision.pip_ink`): the face cut to its inner part, scaled to `FACE_H` pixels high, in
   CIELAB; its background colour is its median colour and the ink every pixel far from it (Otsu
   on the distance): red, green, blue or black pips alike; six masks of it (`MASK_VARIANTS`: thin
   and fat inks, dots that touch, rings broken in the photo), blobs touching the border dropped
   (the tile's side, the table, a neighbour); sticks none of them counts are counted again on
   the ink of the face region alone (`face_masks`: a loose crop, pale columns beside a dark one);
2. on each mask the pips are found: **dots** as round blobs of one size (one large round blob is
   一筒's flower) or as the distance transform's peaks (touching dots apart), and once on the grey
   face by `cv2.HoughCircles`; **sticks** (`vision.pip_sticks`) as elongated blobs of one length,
   as rows of ink and the columns in each (beaded sticks), or along columns of sticks that
   touch end to end, the ink deskewed, by the pinches at the joins (`vision.pip_columns`);
3. the centres are fitted to the standard layouts of that count (`vision.pip_layouts`: 2 a
   vertical pair, 4 a square, 5 a quincunx, 6 two by three, 7 a slanted three over a square, 8
   two by four, 9 three by three; turned 180° and mirrored too), each axis scaled to unit spread;
   the fit and the pips' size agreement make each finding's confidence, and the count with the
   most confidence summed over the findings wins (`vote`: its confidence is that sum's share).

一條 (a bird) and faces without that structure give None. Measured on real crops:
`models/MODEL.md`, "The pip counter"; used by `vision.pips_check`.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.pip_ink import FACE_H, Blob, blobs, filled, ink_mask, ink_masks, same_size
from vision.pip_layouts import LAYOUTS, PipCount, fit_layout, vote
from vision.pip_sticks import count_sticks


def _best(counts: list[PipCount | None]) -> PipCount | None:
    return max((c for c in counts if c is not None), key=lambda c: c.conf, default=None)


def dot_peaks(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Dot centres as the peaks of the filled ink's distance transform, touching dots apart:
    `(centres (n, 2), radii (n,), area ratio)` — the ratio of the ink's area to n discs of the
    median radius (about 1 for dots; far above for sticks or smears)."""
    solid = filled(mask)
    dt = cv2.distanceTransform(solid, cv2.DIST_L2, 5)
    peak = (dt >= cv2.dilate(dt, np.ones((5, 5), np.uint8))) & (dt >= 2.5)
    ys, xs = np.nonzero(peak)
    order = np.argsort(-dt[ys, xs])
    kept: list[tuple[float, float, float]] = []
    for k in order:
        x, y, r = float(xs[k]), float(ys[k]), float(dt[ys[k], xs[k]])
        if all((x - a) ** 2 + (y - b) ** 2 >= (1.5 * max(r, c)) ** 2 for a, b, c in kept):
            kept.append((x, y, r))
    if not kept:
        return np.zeros((0, 2)), np.zeros(0), 0.0
    radii = np.array([k[2] for k in kept])
    med = float(np.median(radii[: max(len(radii) // 2, 1)]))
    sel = radii >= 0.6 * med
    pts, radii = np.array([k[:2] for k in kept])[sel], radii[sel]
    r = float(np.median(radii))
    ratio = float((solid > 0).sum()) / max(len(radii) * np.pi * r * r, 1e-6)
    return pts, radii, ratio


def count_dots(face_bgr: np.ndarray) -> PipCount | None:
    """The number of circles on a dot tile's face, or None (see the module docstring)."""
    return vote([_dots_on(m) for m in ink_masks(face_bgr)] + [_dots_by_hough(face_bgr)])


HOUGH_SIZE = (90, 120)
"""The face is resized to this (w, h) for `cv2.HoughCircles` (radius 7..18 px, centres 16 px
apart, accumulator threshold 18: the best of a grid on real_sets_dev's dot tiles)."""


def _dots_by_hough(face_bgr: np.ndarray) -> PipCount | None:
    """Circles by their edges (`cv2.HoughCircles` on the grey face: any ink darker or lighter
    than the face), those of the median's radius fitted to the layouts."""
    grey = cv2.cvtColor(cv2.resize(face_bgr, HOUGH_SIZE, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    found = cv2.HoughCircles(
        cv2.GaussianBlur(grey, (3, 3), 0),
        cv2.HOUGH_GRADIENT,
        dp=1,
        minDist=16,
        param1=100,
        param2=18,
        minRadius=7,
        maxRadius=18,
    )
    if found is None:
        return None
    circles = found[0]
    r = circles[:, 2]
    med = float(np.median(r))
    circles = circles[(r > med / 1.4) & (r < med * 1.4)]
    if len(circles) < 2:
        return None
    agree = max(0.0, 1.0 - float(circles[:, 2].std() / circles[:, 2].mean()) * 2)
    return fit_layout(circles[:, :2].astype(np.float64), LAYOUTS, agree)


def _dots_on(mask: np.ndarray) -> PipCount | None:
    every = blobs(mask)
    ink = sum(b.area for b in every)
    round_ = [b for b in every if b.round >= 0.45 and b.long / b.short <= 1.8]
    if round_:
        biggest = max(round_, key=lambda b: b.area)
        cy = biggest.centre[1] / mask.shape[0]
        if biggest.area >= 0.12 * mask.size and 0.3 <= cy <= 0.7:
            others = sum(b.area for b in round_) - biggest.area
            if others < 0.5 * biggest.area:  # 一筒: one big flower, what else there is its petals
                return PipCount(1, round(biggest.round * (1 - others / biggest.area), 4), 0.0)
    by_blobs = _dots_by_blobs(round_)
    if by_blobs is not None:  # the ink the counted blobs leave aside lowers the confidence
        kept = sum(b.area for b in round_)
        by_blobs = replace(by_blobs, conf=round(by_blobs.conf * kept / max(ink, 1e-6), 4))
    return _best([by_blobs, _dots_by_peaks(mask)])


def _dots_by_blobs(found: list[Blob]) -> PipCount | None:
    """Separate round blobs of one size, fitted to the layouts."""
    if len(found) < 2:
        return None
    keep, agree = same_size([b.area for b in found], 2.2)
    kept = [found[k] for k in keep]
    if len(kept) < 2:
        return None
    roundness = float(np.mean([b.round for b in kept]))
    lost = 1.0 - (len(found) - len(kept)) / len(found)
    centres = np.array([b.centre for b in kept], np.float64)
    return fit_layout(centres, LAYOUTS, min(1.0, roundness / 0.8) * agree * lost)


def _dots_by_peaks(mask: np.ndarray) -> PipCount | None:
    """Touching dots told apart by the distance transform's peaks, fitted to the layouts."""
    pts, radii, ratio = dot_peaks(mask)
    if len(pts) < 2:
        return None
    agree = max(0.0, 1.0 - float(radii.std() / radii.mean()) * 2)
    shape = max(0.0, 1.0 - abs(ratio - 1.1) / 0.6)  # n discs fill about their own area
    return fit_layout(pts, LAYOUTS, agree * shape)


def count_pips(face_bgr: np.ndarray, suit: str) -> PipCount | None:
    """The count a suit tile shows.

    Args:
        face_bgr: `(h, w, 3)` uint8 BGR, the face upright or turned 180° (at least 8 px a side).
        suit: "p" (dots, 筒) or "s" (bamboo, 條).

    Returns:
        A `PipCount` (1..9 for dots, 2..9 for bamboo), or None where the face has no clear
        structure of that suit.
    """
    if face_bgr.ndim != 3 or min(face_bgr.shape[:2]) < 8:
        return None
    if suit == "p":
        return count_dots(face_bgr)
    if suit == "s":
        return count_sticks(face_bgr)
    raise ValueError(f"suit must be 'p' or 's', not {suit!r}")


__all__ = ["FACE_H", "PipCount", "count_dots", "count_pips", "count_sticks", "ink_mask", "ink_masks"]
