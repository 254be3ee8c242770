"""Walls from the layout: long runs of face-down tiles (one layer or two, along a row or down
a column) and the tiles lying on them (`Detection.role` `wall`, `vision.roles` rule 1).

Boxes only, pixels of one image; lengths relative to the backs' tile width.
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import median

from vision.detection import Detection

WALL_MIN = 5
"""Touching face-down tiles in a cluster this large are a wall (a concealed kong has <= 4)."""

WALL_GAP = 0.4
"""Two backs touch (one wall) when their boxes are at most this many tile widths apart, in x
or y; a face-up tile that near a wall's box lies on it."""

Box = tuple[float, float, float, float]


def box_gap(a: Box, b: Box) -> float:
    """The larger of the x and y gaps between two boxes, pixels (0 when they overlap).

    >>> box_gap((0, 0, 10, 10), (15, 2, 20, 8)), box_gap((0, 0, 10, 10), (5, 5, 20, 20))
    (5, 0.0)
    """
    return max(0.0, a[0] - b[2], b[0] - a[2], a[1] - b[3], b[1] - a[3])


def span(ds: Sequence[Detection]) -> Box:
    """The box around all of `ds`."""
    return (
        min(d.xyxy[0] for d in ds),
        min(d.xyxy[1] for d in ds),
        max(d.xyxy[2] for d in ds),
        max(d.xyxy[3] for d in ds),
    )


def walls(detections: Sequence[Detection]) -> list[list[int]]:
    """Clusters (indices, ascending) of touching face-down tiles, `WALL_MIN` or more each."""
    backs = [i for i, d in enumerate(detections) if d.face_down]
    if len(backs) < WALL_MIN:
        return []
    unit = median(min(detections[i].width, detections[i].height) for i in backs)
    parent = {i: i for i in backs}

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for k, a in enumerate(backs):
        for b in backs[k + 1 :]:
            if box_gap(detections[a].xyxy, detections[b].xyxy) <= WALL_GAP * unit:
                parent[root(a)] = root(b)
    clusters: dict[int, list[int]] = {}
    for i in backs:
        clusters.setdefault(root(i), []).append(i)
    return [sorted(c) for c in clusters.values() if len(c) >= WALL_MIN]


def wall_tiles(detections: Sequence[Detection]) -> list[bool]:
    """Which detections are a wall: in a `walls` cluster, or face up within `WALL_GAP` tile
    widths of a cluster's box (lying on the wall).

    >>> wall = [Detection((40 * k, 100, 40 * k + 40, 130), "back", 0.9, face_down=True) for k in range(6)]
    >>> on_top, apart = Detection((80, 72, 120, 102), "5p", 0.9), Detection((0, 300, 30, 340), "1m", 0.9)
    >>> wall_tiles([*wall, on_top, apart])[-3:]
    [True, True, False]
    """
    out = [False] * len(detections)
    for cluster in walls(detections):
        box = span([detections[i] for i in cluster])
        unit = median(min(detections[i].width, detections[i].height) for i in cluster)
        for i, d in enumerate(detections):
            out[i] = out[i] or i in cluster or (not d.face_down and box_gap(d.xyxy, box) <= WALL_GAP * unit)
    return out


__all__ = ["WALL_GAP", "WALL_MIN", "box_gap", "span", "wall_tiles", "walls"]
