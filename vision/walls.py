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

END_CLEAR = 1.0
"""Past the rack's end no tile of the back's height lies within this many of the back's widths: a
back lower than the face beside it with one there is a tile laid out flat past the standing row (a
concealed kong's end, its tiles apart), not the rack's end (`rack_gaps`)."""

LOW_SLACK = 0.05
"""A back lies within a face's height when its top and bottom are inside the face's, give or
take this share of the face's height (a box's edges wander by a few percent)."""

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


def _beside(a: Detection, b: Detection, reach: float = WALL_GAP) -> bool:
    """`b` stands next to `a` in one row: a tile of its height (within a third), overlapping it in
    height by half, at most `reach` (`WALL_GAP`) tile widths apart in x."""
    ha, hb = a.height, b.height
    over = min(a.xyxy[3], b.xyxy[3]) - max(a.xyxy[1], b.xyxy[1])
    gap = max(a.xyxy[0] - b.xyxy[2], b.xyxy[0] - a.xyxy[2])
    return 0.75 <= hb / ha <= 4 / 3 and over >= 0.5 * min(ha, hb) and gap <= reach * a.width


def rack_gaps(detections: Sequence[Detection]) -> list[bool]:
    """Which face-down boxes are a gap in a row of standing faces, not a tile: a back with a face
    up beside it (`_beside`) on both sides, or on one side at a row's end, and no back beside it,
    where no side continues as a concealed kong (the face next to it and the next one over the same
    tile: `back X X`). A player's standing hand faces one way, so a lone back among its faces is
    the rack (or the table) seen between two groups or past the last tile; issue 35: 6 of
    `real_sets_dev`'s extra boxes, a wooden rack's gap read `back` and taken into the hand.
    A back lower than the face beside it and within its height (`_below`) counts as beside it: the
    rack's end past the last tile, shorter than the tiles standing on it.

    >>> row = [Detection((60 * k, 0, 60 * k + 50, 70), t, 0.9, face_down=t == "back")
    ...        for k, t in enumerate(["1p", "N", "back", "F", "S"])]
    >>> rack_gaps(row)
    [False, False, True, False, False]
    >>> kong = [Detection((60 * k, 0, 60 * k + 50, 70), t, 0.9, face_down=t == "back")
    ...         for k, t in enumerate(["1p", "back", "5s", "5s", "back", "N"])]
    >>> rack_gaps(kong)
    [False, False, False, False, False, False]
    """
    out = [False] * len(detections)
    for i, d in enumerate(detections):
        if not d.face_down:
            continue
        sides = [_next_in_row(detections, i, left, low=True) for left in (True, False)]
        if all(j is None for j in sides) or any(j is not None and detections[j].face_down for j in sides):
            continue  # alone, or a back beside it: a wall, a kong shown back back, a rack of backs
        ends = zip(sides, sides[::-1], strict=True)  # each side with the other one
        if any(_laid_past(detections, i, j, other is None) for j, other in ends):
            continue  # lower than the face beside it, with a tile of its own height past it
        kong = False
        for left, j in zip((True, False), sides, strict=True):
            if j is None:
                continue
            k = _next_in_row(detections, j, left)
            kong = kong or (k is not None and detections[k].tile == detections[j].tile)
        out[i] = not kong
    return out


def _laid_past(detections: Sequence[Detection], i: int, j: int | None, end: bool) -> bool:
    """Back `i` is beside face `j` only as lower than it (`_below`), at the row's `end` (nothing
    beside it on its other side), and a tile of its own height lies past it within `END_CLEAR` of
    its widths: a tile laid there (a concealed kong laid flat, `back X X back`, its tiles apart),
    not the rack's end, which no tile lies past.

    >>> face = Detection((0, 0, 60, 80), "9s", 0.9)
    >>> back = Detection((62, 30, 112, 78), "back", 0.9, face_down=True)
    >>> kong = Detection((150, 30, 200, 78), "5s", 0.9)
    >>> _laid_past([face, back, kong], 1, 0, True), _laid_past([face, back], 1, 0, True)
    (True, False)
    """
    if j is None or not end or _beside(detections[i], detections[j]):
        return False
    d = detections[i]
    cx = d.center[0]
    left = detections[j].center[0] > cx  # past it: away from the face
    return any(
        k != i and (e.center[0] < cx if left else e.center[0] > cx) and _beside(d, e, END_CLEAR)
        for k, e in enumerate(detections)
    )


def _below(a: Detection, b: Detection) -> bool:
    """`a` is shorter than the face `b` beside it than one row's tiles are (`_beside`: within a
    third) and lies within `b`'s height (`LOW_SLACK` of it either way), at most `WALL_GAP` tile
    widths apart in x: not a tile standing in `b`'s row but something lower beside it (the rack's
    end, a tray's edge). A tile of one set standing in one row is as tall as its neighbours.

    >>> face = Detection((0, 0, 60, 80), "9s", 0.9)
    >>> rack_end = Detection((50, 20, 110, 78), "back", 0.3, face_down=True)
    >>> _below(rack_end, face), _below(Detection((60, 40, 110, 120), "back", 0.3), face)
    (True, False)
    """
    slack = LOW_SLACK * b.height
    gap = max(a.xyxy[0] - b.xyxy[2], b.xyxy[0] - a.xyxy[2])
    return (
        b.height > 4 / 3 * a.height
        and a.xyxy[1] >= b.xyxy[1] - slack
        and a.xyxy[3] <= b.xyxy[3] + slack
        and gap <= WALL_GAP * a.width
    )


def _next_in_row(detections: Sequence[Detection], i: int, left: bool, low: bool = False) -> int | None:
    """The nearest tile standing beside detection `i` (`_beside`; with `low`, also one it is lower
    than, `_below`) on its left (or right), or None."""
    d = detections[i]
    cx = d.center[0]
    near = [
        j
        for j, e in enumerate(detections)
        if j != i
        and (_beside(d, e) or (low and not e.face_down and _below(d, e)))
        and (e.center[0] < cx if left else e.center[0] > cx)
    ]
    return min(near, key=lambda j: abs(detections[j].center[0] - cx), default=None)


__all__ = [
    "END_CLEAR",
    "LOW_SLACK",
    "WALL_GAP",
    "WALL_MIN",
    "box_gap",
    "rack_gaps",
    "span",
    "wall_tiles",
    "walls",
]
