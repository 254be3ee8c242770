"""The ink of a suit tile's face, whatever its colour, and its blobs (`vision.pips`)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

FACE_H = 96
"""Height in pixels the inner face is scaled to."""
MARGIN = (0.07, 0.09)
"""Fraction of the face cut away on each side (top/bottom, left/right): the tile's rim."""
MIN_INK = 28.0
"""The least CIELAB distance (0..~250 in OpenCV's 8-bit scale) from the background that is ink."""


def face_inner(face_bgr: np.ndarray) -> np.ndarray:
    """The face inside its `MARGIN`, scaled to `FACE_H` rows (at least 8 columns), BGR uint8."""
    h, w = face_bgr.shape[:2]
    my, mx = round(h * MARGIN[0]), round(w * MARGIN[1])
    inner = face_bgr[my : h - my, mx : w - mx]
    scale = FACE_H / max(inner.shape[0], 1)
    size = (max(round(inner.shape[1] * scale), 8), FACE_H)
    return cv2.resize(inner, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)


def face_lab(face_bgr: np.ndarray) -> np.ndarray:
    """The inner face (`face_inner`) blurred 3 x 3, in CIELAB, `(FACE_H, w, 3)` float32."""
    return cv2.cvtColor(cv2.GaussianBlur(face_inner(face_bgr), (3, 3), 0), cv2.COLOR_BGR2LAB).astype(
        np.float32
    )


def ink_distance(face_bgr: np.ndarray) -> tuple[np.ndarray, float]:
    """The inner face's CIELAB distance from its background colour, `(FACE_H, w)` float32, and
    the ink threshold (Otsu on it, at least `MIN_INK`).

    Args:
        face_bgr: `(h, w, 3)` uint8 BGR, the tile's face upright or turned 180°.
    """
    lab = face_lab(face_bgr)
    bg = np.median(lab.reshape(-1, 3), axis=0)
    dist = np.linalg.norm(lab - bg, axis=2)
    return dist, _otsu(dist)


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


FACE_NEAR = 0.6
"""A pixel is the face's own colour (not ink, table, neighbour) within this share of the ink
threshold of the face's colour."""
LOCAL_BLOCK = (9, 25)
"""The window (w, h pixels at `FACE_H`) of the local ink threshold: about a column of sticks."""
LOCAL_SHARE = 0.5
"""Local ink: at least this share of the darkest ink in its window (a pale column beside a dark one)."""


def face_region(dist: np.ndarray, th: float) -> np.ndarray:
    """The tile's face inside the crop, `(FACE_H, w)` bool: the convex hull of the largest
    region of the face's own colour (its ink inside it; the table, a neighbour or the tile's
    side outside)."""
    near = cv2.morphologyEx((dist < FACE_NEAR * th).astype(np.uint8), cv2.MORPH_OPEN, _K3)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(near, connectivity=4)
    if n < 2:
        return np.ones(dist.shape, bool)
    big = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    pts = cv2.findNonZero((labels == big).astype(np.uint8))
    hull = np.zeros(dist.shape, np.uint8)
    cv2.fillConvexPoly(hull, cv2.convexHull(pts), 1)
    return cv2.erode(hull, _K3) > 0


def face_masks(face_bgr: np.ndarray) -> list[np.ndarray]:
    """The ink inside the face region only (`face_region`; issue 35: a loose crop's table or
    neighbour, pale columns), three masks. The face's colour is the median of its light half
    (sticks may cover more than half of it); the ink is at the Otsu threshold of the region's
    pixels, at 0.6 of it, and at least `LOCAL_SHARE` of the darkest ink around (a pale column
    beside a dark one). Each `(FACE_H + 4, w + 4)` uint8 0/255 with a border of 2 empty pixels:
    nothing touches the edge (the table is gone already; a column the crop's side cuts stays)."""
    lab = face_lab(face_bgr)
    light = lab[..., 0] >= np.percentile(lab[..., 0], 50)
    dist = np.linalg.norm(lab - np.median(lab[light], axis=0), axis=2)
    th0 = _otsu(dist)
    region = face_region(dist, th0)
    th = _otsu(dist[region]) if region.sum() > 0.2 * region.size else th0
    local = cv2.dilate(dist, np.ones(LOCAL_BLOCK[::-1], np.uint8))
    out = []
    for m in (dist > th, dist > 0.6 * th, (dist > LOCAL_SHARE * local) & (dist > 0.35 * th)):
        m = cv2.morphologyEx(((m & region) * 255).astype(np.uint8), cv2.MORPH_CLOSE, _K3)
        out.append(cv2.copyMakeBorder(m, 2, 2, 2, 2, cv2.BORDER_CONSTANT, value=0))
    return out


def runs(on: np.ndarray, min_len: int) -> list[tuple[int, int]]:
    """`[start, end)` of the runs of True in the 1-d `on` at least `min_len` long.

    >>> runs(np.array([0, 1, 1, 0, 1, 1, 1]) > 0, 2)
    [(1, 3), (4, 7)]
    """
    edges = np.flatnonzero(np.diff(np.concatenate([[0], np.asarray(on, np.int8), [0]]))).reshape(-1, 2)
    return [(int(a), int(b)) for a, b in edges if b - a >= min_len]


def _otsu(values: np.ndarray) -> float:
    """Otsu's threshold of the distances `values` (any shape), at least `MIN_INK`."""
    got, _ = cv2.threshold(
        np.clip(values, 0, 255).astype(np.uint8).reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU
    )
    return max(float(got), MIN_INK)


@dataclass(frozen=True, slots=True)
class Blob:
    centre: tuple[float, float]
    area: float
    round: float  # 4 pi A / P^2 of the filled outline
    long: float  # the longer side of the min-area rectangle
    short: float


def inner(mask: np.ndarray) -> np.ndarray:
    """`mask` less the blobs that touch its border (the tile's side, the table, a neighbour)."""
    _n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = mask.shape
    x, y, bw, bh = stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3]
    edge = (x == 0) | (y == 0) | (x + bw >= w) | (y + bh >= h)
    edge[0] = True
    return np.where(edge[labels], 0, 255).astype(np.uint8)


def blobs(mask: np.ndarray) -> list[Blob]:
    contours, _ = cv2.findContours(inner(mask), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    min_area = 0.003 * mask.size
    out = []
    for c in contours:
        area = float(cv2.contourArea(c))
        if area < min_area:
            continue
        per = float(cv2.arcLength(c, True)) or 1.0
        (cx, cy), (a, b), _ = cv2.minAreaRect(c)
        out.append(Blob((cx, cy), area, min(4 * np.pi * area / per**2, 1.0), max(a, b), max(min(a, b), 1.0)))
    return out


def filled(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(inner(mask), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(mask)
    cv2.drawContours(out, contours, -1, 255, -1)
    return out


def same_size(values: list[float], band: float) -> tuple[list[int], float]:
    """Indices of `values` within `band`x of their median either way, and their agreement
    (1 - the kept values' relative spread)."""
    med = float(np.median(values))
    keep = [k for k, v in enumerate(values) if med / band <= v <= med * band]
    kept = np.array([values[k] for k in keep])
    return keep, float(max(0.0, 1.0 - kept.std() / max(kept.mean(), 1e-6))) if len(keep) else 0.0


__all__ = [
    "FACE_H",
    "MASK_VARIANTS",
    "Blob",
    "blobs",
    "face_lab",
    "face_masks",
    "face_region",
    "filled",
    "ink_distance",
    "ink_mask",
    "ink_masks",
    "inner",
    "runs",
    "same_size",
]
