"""Row ends: a tile the localiser saw only weakly one pitch beyond a row's end, cut and read.

`vision.gaps` reads a tile missed *between* two neighbours of a row. At a row's *end* nothing
beside the place says a tile stands there, and the same rule without a second neighbour read 白 on
any white table (80 of 182 boxes past a row's end on the val split, none a tile; issue 35). What
does say so is the localiser itself: it often sees the tile there, below its score cut (set G's
7p, 7p and 6p at 0.18-0.25; R5's blank 白 at 0.21, `ReaderConfig.conf_threshold` 0.3). This
stage (`fill_ends`, after `vision.gaps.fill_gaps`) keeps those weak boxes as *evidence*, never as
boxes:

1. **Weak boxes** (`weak_floor`, `split_weak`): the localiser's boxes are decoded from `WEAK_CONF`
   on; those under the score cut go aside (`weak`). The boxes at or over it are the very same as
   before: NMS is greedy by score, a weaker box never removes a stronger one.
2. **Places** (`end_boxes`, geometry only): for each row (`vision.gaps.rows`: same height, mutual
   nearest neighbours, a pitch from touching pairs) whose end box is a face (not a back: a wall's
   end), a box one pitch further on, as tall as the end box, its foot on the row's baseline (the
   boxes' bottom edges fitted by a straight line, from the end box's), then a second and a third,
   as long as each place holds a weak box (its centre within `ON_PITCH` of a pitch and of a
   tile's height of the place's, its size at least `MIN_SIZE` of the row's tiles: not a die; at
   most `MAX_SIZE`: not a box around a group) and no box of the photo already covers it.
3. **Face and rim**: a place is read only when its median colour is the end tile's face colour
   (`vision.gaps.face_like`) and it shows a rim where the end tile does (`vision.gaps.rimless`).
4. **Reading**: the places are cut and classified in one batch, each with the weak box that put it
   there (`support`: the localiser's own box of the tile). A place is kept when it reads a face
   (not `none`, not `back`) with `p >= END_MIN_P`, and every place between it and the row's end was
   kept; where the place's cut does not, its weak box does, when it passes the face and rim checks
   itself: a tile lying flat past the row's end is larger than the standing tiles and off their
   baseline, and the row's box shows half its face (set G's last 6p, issue 35). A 白 (`P`: a
   blank face, nothing printed to tell it from a light table) is kept only with a full rim (a step
   over `RIM_STEP` at its top or bottom edge, like a tile's) and beside a printed face
   (`printed_beside`: the lavender backs of a wall read 白 vouch for nothing).

Nothing here was fitted on a photo: the sizes are in units of the row's own tiles, the colours
against the row's own faces, `WEAK_CONF` and `END_MIN_P` were set before measuring.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from vision.detection import BACK
from vision.gaps import (
    MIN_PITCHES,
    MIN_ROW,
    RIM_STEP,
    TOUCH,
    Filled,
    appended,
    face_like,
    median_colours,
    rim_steps,
    rimless,
    rows,
)
from vision.modelfiles import NONE_CLASS
from vision.reading import Readings

WEAK_CONF = 0.1
"""Localiser boxes from this score on (under the score cut) are kept aside as evidence."""

MAX_END = 3
"""At most this many tiles added at one end of a row."""

ON_PITCH = 0.35
"""A weak box supports a place when its centre lies within this share of a pitch (across) and of
a tile's height (along the row's line) of the place's centre."""

MIN_SIZE = 0.6
"""... and it is at least this share of the row's tiles' height and width (a die is not)."""

MAX_SIZE = 2.2
"""... and at most this many times their height and width (not a box around several tiles)."""

END_MIN_P = 0.5
"""A place is a tile when its reading is at least this likely (the model's calibrated `p`)."""

WHITE_DRAGON = "P"


def weak_floor(config: Any, weak: list | None) -> float:
    """The localiser's decode threshold: `WEAK_CONF` (when under the score cut) when the stage is on
    (`config.row_ends`, a `vision.ReaderConfig`) and the weak boxes are wanted (`weak` a list)."""
    on = config.row_ends and weak is not None
    return min(config.conf_threshold, WEAK_CONF) if on else config.conf_threshold


def split_weak(
    found: tuple[np.ndarray, np.ndarray, np.ndarray], config: Any, weak: list | None, offset=None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The boxes of `found` (`xyxy, scores, class_ids`, decoded at `weak_floor`) scored
    `config.conf_threshold` or more; the others' `xyxy` are appended to `weak` (when given), mapped
    by `offset(xyxy)`.

    >>> from types import SimpleNamespace

    >>> found = (np.array([[0, 0, 9, 9], [20, 0, 29, 9]], np.float32), np.array([0.8, 0.2]), np.zeros(2, int))
    >>> weak = []
    >>> split_weak(found, SimpleNamespace(conf_threshold=0.3), weak)[1].tolist(), [w.tolist() for w in weak]
    ([0.8], [[[20.0, 0.0, 29.0, 9.0]]])
    """
    strong = found[1] >= config.conf_threshold
    if weak is not None and not strong.all():
        boxes = found[0][~strong]
        weak.append(offset(boxes) if offset is not None else boxes)
    return found[0][strong], found[1][strong], found[2][strong]


def end_boxes(xyxy: np.ndarray, weak: np.ndarray, faces: np.ndarray, others: np.ndarray | None = None):
    """Places one to `MAX_END` pitches beyond each end of each row of `xyxy` (float `(K, 4)`),
    each holding a weak box (`weak` `(W, 4)`), none covered by a box of `others` (default `xyxy`);
    only rows whose end box is a face (`faces` bool `(K,)`). Returns float32 `(G, 4)` boxes, int
    `(G,)` the end box beside each (index into `xyxy`), int `(G,)` its step (1, 2, ...).

    >>> row = np.array([[x, 0, x + 30, 40] for x in (0, 32, 64)], np.float32)
    >>> boxes, end, step = end_boxes(row, np.array([[97, 2, 127, 41]], np.float32), np.ones(3, bool))
    >>> boxes.round(3).tolist(), end.tolist(), step.tolist()
    ([[96.0, 0.0, 126.0, 40.0]], [2], [1])
    >>> len(end_boxes(row, np.array([[110, 2, 140, 41]], np.float32), np.ones(3, bool))[0])  # half off
    0
    """
    xyxy = np.asarray(xyxy, np.float32).reshape(-1, 4)
    weak = np.asarray(weak, np.float32).reshape(-1, 4)
    others = xyxy if others is None else np.asarray(others, np.float32).reshape(-1, 4)
    out: list[list[float]] = []
    end: list[int] = []
    steps: list[int] = []
    if not len(weak):
        return np.zeros((0, 4), np.float32), np.zeros(0, np.int64), np.zeros(0, np.int64)
    cx = (xyxy[:, 0] + xyxy[:, 2]) / 2
    wx, wy = (weak[:, 0] + weak[:, 2]) / 2, (weak[:, 1] + weak[:, 3]) / 2
    ww, wh = weak[:, 2] - weak[:, 0], weak[:, 3] - weak[:, 1]
    for chain in rows(xyxy):
        d = np.diff(cx[chain])
        w = float(np.median(xyxy[chain, 2] - xyxy[chain, 0]))
        h = float(np.median(xyxy[chain, 3] - xyxy[chain, 1]))
        touch = d < TOUCH * w
        if touch.sum() < MIN_PITCHES:
            continue
        pitch = float(np.median(d[touch]))
        slope = float(np.polyfit(cx[chain], xyxy[chain, 3], 1)[0])  # the row's baseline, its tiles' feet
        sized = (wh >= MIN_SIZE * h) & (ww >= MIN_SIZE * w) & (wh <= MAX_SIZE * h) & (ww <= MAX_SIZE * pitch)
        for e, sign in ((chain[0], -1), (chain[-1], 1)):
            if not faces[e]:
                continue  # a wall's end, a back at the rack's end
            for k in range(1, MAX_END + 1):
                x = float(cx[e]) + sign * k * pitch
                foot, tall = float(xyxy[e, 3]) + slope * (x - float(cx[e])), float(xyxy[e, 3] - xyxy[e, 1])
                y = foot - tall / 2
                near = sized & (np.abs(wx - x) <= ON_PITCH * pitch) & (np.abs(wy - y) <= ON_PITCH * h)
                covered = (others[:, 0] <= x) & (x <= others[:, 2])
                covered &= (others[:, 1] <= y) & (y <= others[:, 3])
                if not near.any() or covered.any():
                    break
                out.append([x - w / 2, foot - tall, x + w / 2, foot])
                end.append(e)
                steps.append(k)
    return (
        np.array(out, np.float32).reshape(-1, 4),
        np.array(end, np.int64),
        np.array(steps, np.int64),
    )


def contiguous(end: np.ndarray, step: np.ndarray, ok: np.ndarray) -> np.ndarray:
    """Bool `(G,)`: `ok`, and so is every place between it and its row's end (same `end`, lower
    `step`), on the same side (the places of one end come in order of `step`).

    >>> contiguous(np.array([4, 4, 4, 0]), np.array([1, 2, 3, 1]), np.array([True, False, True, True]))
    array([ True, False, False,  True])
    """
    keep = np.zeros(len(ok), bool)
    for g in range(len(ok)):
        keep[g] = ok[g] and (step[g] == 1 or (g > 0 and end[g - 1] == end[g] and keep[g - 1]))
    return keep


def printed_beside(ends: np.ndarray, cls: np.ndarray, step: np.ndarray, blank: Sequence[int]) -> np.ndarray:
    """Bool `(G,)`: the tile beside each place on the row's side (the end box, class `ends[g]`, for
    step 1; the place before it, `cls[g - 1]`, further on) is read as a printed face, not one of
    `blank` (白, `none`, `back`). A blank face is a tile only when a printed one vouches for the
    face: a wall's backs or a light table read 白 beside each other prove nothing.

    >>> printed_beside(np.array([5, 5, 33]), np.array([33, 33, 33]), np.array([1, 2, 1]), (33, 42, 43))
    array([ True, False, False])
    """
    prev = np.where(step == 1, ends, np.roll(cls, 1))
    return ~np.isin(prev, blank)


def fill_ends(
    xyxy: np.ndarray,
    scores: np.ndarray,
    class_ids: np.ndarray,
    readings: Readings,
    read: Callable[[np.ndarray], Readings],
    classes: Sequence[str],
    pixels: tuple[np.ndarray, float] | None,
    score: float,
    weak: np.ndarray | None = None,
) -> Filled:
    """Read the places beyond the rows' ends that the localiser's weak boxes point at (module
    docstring); the arguments as `vision.gaps.fill_gaps`'s (the boxes after it; `read` its
    `classify`), `weak` float
    `(W, 4)` the weak boxes (pixels of the boxes). Returns the boxes with the places kept appended
    (`kept`: their indices among the places classified)."""
    names = list(classes)
    drop = [names.index(c) if c in names else -1 for c in (NONE_CLASS, BACK)]
    found = Filled(xyxy, scores, class_ids, readings, np.zeros(0, np.int64))
    member = readings.cls != drop[0]
    idx = np.flatnonzero(member)
    if len(idx) < MIN_ROW or weak is None or not len(weak):
        return found
    faces = readings.cls[idx] != drop[1]
    places, end, step = end_boxes(xyxy[idx], weak, faces, others=xyxy)
    boxes = np.concatenate([places, support(places, weak)])  # the place, then its weak box itself
    g = len(places)
    seen = np.ones(2 * g, bool)  # each box looks like a face beside the row's end
    if g and pixels is not None:
        k = np.float32(pixels[1])
        pairs = np.tile(np.stack([end, end], axis=1), (2, 1))
        colours = np.zeros((len(idx), 3), np.float32)
        colours[np.unique(end)] = median_colours(pixels[0], xyxy[idx][np.unique(end)] * k)
        seen = face_like(colours, pairs, median_colours(pixels[0], boxes * k))
        seen &= ~rimless(pixels[0], xyxy[idx] * k, pairs, boxes * k)
        keep = contiguous(end, step, seen[:g] | seen[g:])
        boxes, seen = boxes[np.tile(keep, 2)], seen[np.tile(keep, 2)]
        places, end, step = places[keep], end[keep], step[keep]
    if not len(places):
        return found
    g = len(places)
    both = read(boxes)
    face = seen & ~np.isin(both.cls, drop) & (both.p >= END_MIN_P)
    pick = np.where(face[:g] | ~face[g:], np.arange(g), g + np.arange(g))  # the place's cut first
    got = both.rows(pick)
    ok = face[pick]
    white = names.index(WHITE_DRAGON) if WHITE_DRAGON in names else -1
    if (got.cls == white).any():  # a blank face: beside a printed one, and with a tile's rim
        ok &= (got.cls != white) | printed_beside(readings.cls[idx][end], got.cls, step, (white, *drop))
        if pixels is not None:
            rim = rim_steps(pixels[0], boxes[pick] * np.float32(pixels[1])).max(axis=1)
            ok &= (got.cls != white) | (rim > RIM_STEP)
    kept = pick[contiguous(end, step, ok)]
    if not len(kept):
        return found
    return appended(found, boxes, both, kept, score)


def support(places: np.ndarray, weak: np.ndarray) -> np.ndarray:
    """Float32 `(G, 4)`: the weak box nearest each place's centre (the one that put it there,
    `end_boxes`): the localiser's own box of the tile, which may lie flat past the row's end, larger
    than the row's standing tiles and off their baseline (set G's last 6p: cut at the row's size it
    shows half its face and reads 1p at 0.44; its weak box reads 6p at 0.92).

    >>> weak = np.array([[50, 0, 60, 9], [1, -4, 13, 12]], np.float32)
    >>> support(np.array([[0, 0, 10, 10]], np.float32), weak)
    array([[ 1., -4., 13., 12.]], dtype=float32)
    """
    pc = (places[:, :2] + places[:, 2:]) / 2
    wc = (weak[:, :2] + weak[:, 2:]) / 2
    near = np.argmin(((pc[:, None, :] - wc[None, :, :]) ** 2).sum(-1), axis=1)
    return np.asarray(weak, np.float32)[near].reshape(-1, 4)


__all__ = [
    "END_MIN_P",
    "MAX_END",
    "MAX_SIZE",
    "MIN_SIZE",
    "ON_PITCH",
    "WEAK_CONF",
    "contiguous",
    "end_boxes",
    "fill_ends",
    "printed_beside",
    "split_weak",
    "support",
    "weak_floor",
]
