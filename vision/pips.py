"""Count what a suit tile shows: the circles of a dot tile (筒), the sticks of a bamboo tile (條).

A structural reading that does not care what colour a set paints its pips (issue 35 item 2):

1. the face is cut to its inner part (`MARGIN`), scaled to `FACE_H` pixels high and turned to
   CIELAB; its background colour is the median colour, and the ink is every pixel far from it
   (Otsu on the distance, never below `MIN_INK`): red, green, blue or black pips alike;
2. each outer contour of the ink, holes filled, is a candidate: a **dot** is round (circularity,
   aspect) and all dots of a tile are the same size (the median's band) — one large round blob
   is 一筒's flower; a **stick** is elongated and the sticks of a tile are the same length;
3. the centres are fitted to the standard layouts of that count (`LAYOUTS`: 2 a vertical pair,
   4 a square, 5 a quincunx, 6 two by three, 7 a slanted three over a square, 8 two by four, 9
   three by three; each also turned 180° and mirrored) after each axis is scaled to unit spread;
   the fit's error and the blobs' roundness and size agreement make the confidence.

一條 (a bird) and faces without that structure give None. Measured on real crops:
`models/MODEL.md`, "The pip counter"; used by `vision.pips_check`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.pip_layouts import LAYOUTS, STICK_LAYOUTS, PipCount, fit_layout, vote

FACE_H = 96
"""Height in pixels the inner face is scaled to."""
MARGIN = (0.07, 0.09)
"""Fraction of the face cut away on each side (top/bottom, left/right): the tile's rim."""
MIN_INK = 28.0
"""The least CIELAB distance (0..~250 in OpenCV's 8-bit scale) from the background that is ink."""


def ink_distance(face_bgr: np.ndarray) -> tuple[np.ndarray, float]:
    """The inner face's CIELAB distance from its background colour, `(FACE_H, w)` float32, and
    the ink threshold (Otsu on it, at least `MIN_INK`).

    Args:
        face_bgr: `(h, w, 3)` uint8 BGR, the tile's face upright or turned 180°.
    """
    h, w = face_bgr.shape[:2]
    my, mx = round(h * MARGIN[0]), round(w * MARGIN[1])
    inner = face_bgr[my : h - my, mx : w - mx]
    scale = FACE_H / max(inner.shape[0], 1)
    size = (max(round(inner.shape[1] * scale), 8), FACE_H)
    inner = cv2.resize(inner, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    lab = cv2.cvtColor(cv2.GaussianBlur(inner, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    bg = np.median(lab.reshape(-1, 3), axis=0)
    dist = np.linalg.norm(lab - bg, axis=2)
    otsu, _ = cv2.threshold(
        np.clip(dist, 0, 255).astype(np.uint8), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU
    )
    return dist, max(float(otsu), MIN_INK)


def ink_mask(face_bgr: np.ndarray) -> np.ndarray:
    """The ink of the inner face: `(FACE_H, w)` uint8 0/255, holes of each blob not filled."""
    dist, th = ink_distance(face_bgr)
    mask = (dist > th).astype(np.uint8) * 255
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))


_K3 = np.ones((3, 3), np.uint8)
MASK_VARIANTS = (
    (1.0, "close"),
    (1.0, "open"),
    (1.0, "erode"),
    (1.5, "close"),
    (1.5, "erode"),
    (1.0, "close5"),
)
"""The ink masks a face is counted on (threshold factor, morphology): thin and fat inks, dots
that touch, rings broken in the scan; the count of the best fit is kept."""


def ink_masks(face_bgr: np.ndarray) -> list[np.ndarray]:
    """The `MASK_VARIANTS` of the face's ink, each `(FACE_H, w)` uint8 0/255."""
    dist, th = ink_distance(face_bgr)
    out: list[np.ndarray] = []
    for factor, op in MASK_VARIANTS:
        m: np.ndarray = (dist > th * factor).astype(np.uint8) * 255
        if op == "close":
            m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, _K3)
        elif op == "open":
            m = cv2.morphologyEx(m, cv2.MORPH_OPEN, _K3)
        elif op == "erode":
            m = cv2.erode(cv2.morphologyEx(m, cv2.MORPH_CLOSE, _K3), _K3, iterations=2)
        else:
            m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        out.append(m)
    return out


def _best(counts: list[PipCount | None]) -> PipCount | None:
    return max((c for c in counts if c is not None), key=lambda c: c.conf, default=None)


@dataclass(frozen=True, slots=True)
class _Blob:
    centre: tuple[float, float]
    area: float
    round: float  # 4 pi A / P^2 of the filled outline
    long: float  # the longer side of the min-area rectangle
    short: float


def _inner(mask: np.ndarray) -> np.ndarray:
    """`mask` less the blobs that touch its border (the tile's side, the table, a neighbour)."""
    _n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = mask.shape
    x, y, bw, bh = stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3]
    edge = (x == 0) | (y == 0) | (x + bw >= w) | (y + bh >= h)
    edge[0] = True
    return np.where(edge[labels], 0, 255).astype(np.uint8)


def _blobs(mask: np.ndarray) -> list[_Blob]:
    contours, _ = cv2.findContours(_inner(mask), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    min_area = 0.003 * mask.size
    out = []
    for c in contours:
        area = float(cv2.contourArea(c))
        if area < min_area:
            continue
        per = float(cv2.arcLength(c, True)) or 1.0
        (cx, cy), (a, b), _ = cv2.minAreaRect(c)
        out.append(_Blob((cx, cy), area, min(4 * np.pi * area / per**2, 1.0), max(a, b), max(min(a, b), 1.0)))
    return out


def _filled(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(_inner(mask), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(mask)
    cv2.drawContours(out, contours, -1, 255, -1)
    return out


def dot_peaks(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Dot centres as the peaks of the filled ink's distance transform, touching dots apart:
    `(centres (n, 2), radii (n,), area ratio)` — the ratio of the ink's area to n discs of the
    median radius (about 1 for dots; far above for sticks or smears)."""
    filled = _filled(mask)
    dt = cv2.distanceTransform(filled, cv2.DIST_L2, 5)
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
    ratio = float((filled > 0).sum()) / max(len(radii) * np.pi * r * r, 1e-6)
    return pts, radii, ratio


def _same_size(values: list[float], band: float) -> tuple[list[int], float]:
    """Indices of `values` within `band`x of their median either way, and their agreement
    (1 - the kept values' relative spread)."""
    med = float(np.median(values))
    keep = [k for k, v in enumerate(values) if med / band <= v <= med * band]
    kept = np.array([values[k] for k in keep])
    return keep, float(max(0.0, 1.0 - kept.std() / max(kept.mean(), 1e-6))) if len(keep) else 0.0


def count_dots(face_bgr: np.ndarray) -> PipCount | None:
    """The number of circles on a dot tile's face, or None (see the module docstring)."""
    return vote([_dots_on(m) for m in ink_masks(face_bgr)])


def _dots_on(mask: np.ndarray) -> PipCount | None:
    every = _blobs(mask)
    ink = sum(b.area for b in every)
    blobs = [b for b in every if b.round >= 0.45 and b.long / b.short <= 1.8]
    if blobs:
        biggest = max(blobs, key=lambda b: b.area)
        cy = biggest.centre[1] / mask.shape[0]
        if biggest.area >= 0.12 * mask.size and 0.3 <= cy <= 0.7:
            others = sum(b.area for b in blobs) - biggest.area
            if others < 0.5 * biggest.area:  # 一筒: one big flower, what else there is its petals
                return PipCount(1, round(biggest.round * (1 - others / biggest.area), 4), 0.0)
    by_blobs = _dots_by_blobs(blobs)
    if by_blobs is not None:  # the ink the counted blobs leave aside lowers the confidence
        kept = sum(b.area for b in blobs)
        by_blobs = replace(by_blobs, conf=round(by_blobs.conf * kept / max(ink, 1e-6), 4))
    return _best([by_blobs, _dots_by_peaks(mask)])


def _dots_by_blobs(blobs: list[_Blob]) -> PipCount | None:
    """Separate round blobs of one size, fitted to the layouts."""
    if len(blobs) < 2:
        return None
    keep, agree = _same_size([b.area for b in blobs], 2.2)
    kept = [blobs[k] for k in keep]
    if len(kept) < 2:
        return None
    roundness = float(np.mean([b.round for b in kept]))
    lost = 1.0 - (len(blobs) - len(kept)) / len(blobs)
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


def count_sticks(face_bgr: np.ndarray) -> PipCount | None:
    """The number of sticks on a bamboo tile's face, or None: 一條's bird, or no sticks of one
    length (see the module docstring)."""
    return vote(
        [
            _sticks_on(cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((4, 1), np.uint8)))
            for m in ink_masks(face_bgr)
        ]
    )


def _sticks_on(mask: np.ndarray) -> PipCount | None:
    sticks = [b for b in _blobs(mask) if b.long / b.short >= 2.2]
    if len(sticks) < 2:
        return None
    keep, agree = _same_size([b.long for b in sticks], 1.6)
    kept = [sticks[k] for k in keep]
    if len(kept) < 2:
        return None
    others = sum(b.area for b in _blobs(mask)) - sum(b.area for b in kept)
    clean = max(0.0, 1.0 - others / max(sum(b.area for b in kept), 1e-6))
    centres = np.array([b.centre for b in kept], np.float64)
    return fit_layout(centres, STICK_LAYOUTS, agree * clean)


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
