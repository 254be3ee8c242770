"""Synthetic photos of shown mahjong hands, with per-tile boxes.

A scene is laid out on a flat "table plane" (tiles in rows, sets split by gaps, sideways claimed
tiles, kongs, a lone winning tile, flowers set aside), then projected into the photo with a random
homography (rotation, scale, perspective tilt), composited over a procedural background with a
shadow, and degraded (uneven light, glare, colour cast, blur, noise, JPEG): `datasets.backdrop`.
The classifier crops of a scene: `datasets.crops`.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from datasets import render_options
from datasets.backdrop import background, distractors, photometric
from datasets.tiles import BACK, FLOWER, make_tile, random_style


@dataclass
class Box:
    cls: int
    xyxy: tuple[float, float, float, float]
    rotated: bool
    quad: np.ndarray  # 4x2 corners in the image (tile top-left, top-right, bottom-right, bottom-left)


def random_hand(rng: np.random.Generator, p_back=0.06, p_flower=0.05) -> list[list[int]]:
    """A hand as sets (lists of class ids), realistic-ish: runs, pungs, pairs, kongs, honours."""
    n_sets = int(rng.integers(4, 6))
    sets = []
    for _ in range(n_sets):
        r = rng.random()
        if r < 0.4:  # run
            s = int(rng.integers(3))
            start = int(rng.integers(1, 8))
            sets.append([s * 9 + start - 1 + k for k in range(3)])
        elif r < 0.75:  # pung
            c = int(rng.integers(34))
            sets.append([c] * 3)
        elif r < 0.88:  # kong (maybe concealed: backs at the ends)
            c = int(rng.integers(34))
            if rng.random() < 0.3:
                sets.append([BACK, c, c, BACK])
            else:
                sets.append([c] * 4)
        else:  # random triple (distribution coverage)
            sets.append([int(rng.integers(34)) for _ in range(3)])
    pair = int(rng.integers(34))
    sets.append([pair, pair])
    if rng.random() < p_back:
        sets.append([BACK] * int(rng.integers(1, 4)))
    if rng.random() < p_flower:
        sets.append([FLOWER] * int(rng.integers(1, 4)))
    # sometimes mix everything randomly (uniform class coverage incl. 5s/2p-style hands)
    if rng.random() < 0.35:
        flat = [
            int(rng.integers(36 if rng.random() < 0.15 else 34)) for _ in range(int(rng.integers(13, 19)))
        ]
        sets = [flat]
    return sets


def _layout(rng, sets, tile_w, tile_h, rows=1, last_apart=None):
    """Place tiles on the plane. Returns list of (cls, x, y, rotated) of tile top-left.

    ``rows`` > 1 wraps the hand into that many rows; they are spaced loosely or packed edge to
    edge (a tile chart, a hand laid in two touching rows).
    """
    placed = []
    x, y = 0.0, 0.0
    row_h = tile_h
    gap_p = rng.uniform(0.0, 0.02)
    big_gap = rng.uniform(0.15, 0.8) if rng.random() < 0.75 else rng.uniform(0.0, 0.1)
    n_total = sum(len(s) for s in sets)
    splits = {n_total * k // rows + int(rng.integers(-2, 3)) for k in range(1, rows)}
    spacing = rng.uniform(1.15, 1.8) if rng.random() < 0.6 else rng.uniform(1.0, 1.08)
    count = 0
    for si, s in enumerate(sets):
        sideways_idx = int(rng.integers(len(s))) if (len(s) >= 3 and rng.random() < 0.15) else -1
        if si == len(sets) - 1 and (last_apart if last_apart is not None else rng.random() < 0.3):
            x += tile_w * rng.uniform(0.5, 1.5)  # lone / set-aside group
        for k, c in enumerate(s):
            if count in splits:
                x = tile_w * (rng.uniform(-0.3, 1.0) if spacing > 1.1 else rng.uniform(-0.1, 0.1))
                y += row_h * spacing
            rot = k == sideways_idx
            if rot:
                placed.append((c, x, y + tile_h - tile_w, True))
                x += tile_h * (1 + gap_p)
            else:
                placed.append((c, x, y, False))
                x += tile_w * (1 + gap_p)
            count += 1
        x += tile_w * big_gap * rng.uniform(0.5, 1.5)
    return placed


def _side_faces(rng, placed, tile_w, tile_h, style):
    """The side faces of tiles that a camera sees in the gaps between sets.

    Real tiles are boxes: from a camera above the row, a tile shows the side that faces the
    camera (its left side right of the camera, its right side left of it), the wider the
    farther it is off-centre, unless a touching neighbour hides it. The strip lies in the gap
    and is not part of the tile's box.
    Returns ``(x0, y0, x1, y1, inner_is_left)`` strips on the plane; none for flat (printed) tiles.
    """
    if style["thick"] <= 0 or rng.random() < 0.2:
        return []
    spans = [
        (x, y, x + (tile_h if rot else tile_w), y + (tile_w if rot else tile_h)) for _, x, y, rot in placed
    ]
    left, right = min(s[0] for s in spans), max(s[2] for s in spans)
    cam = (left + right) / 2 + rng.uniform(-0.3, 0.3) * (right - left)
    dist = (right - left) * rng.uniform(0.6, 2.5)
    depth = tile_w * rng.uniform(0.45, 0.85)  # body thickness, in plane pixels
    strips = []
    for i, (x0, y0, x1, y1) in enumerate(spans):
        if x0 < cam < x1:
            continue  # the camera is over this tile: no side shows
        # the side that faces the camera shows: the left one right of it, the right one left of it
        edge, sign = (x0, -1) if x0 >= cam else (x1, 1)
        w = min(depth * abs(edge - cam) / dist, 0.35 * tile_w)
        for j, (a0, b0, a1, b1) in enumerate(spans):  # a neighbour on that side hides the side
            if j != i and b0 < y1 and b1 > y0:
                gap = (a0 - edge) if sign > 0 else (edge - a1)
                if gap > -0.5 * tile_w:
                    w = min(w, max(0.0, gap))
        if w >= 2:
            lo, hi = (edge, edge + w) if sign > 0 else (edge - w, edge)
            strips.append((lo, y0 + 0.04 * tile_h, hi, y1, sign > 0))
    return strips


def _draw_side(plane, strip, minx, miny, style, rng):
    x0, y0, x1, y1, inner_left = strip
    # int(): the coordinates may be numpy floats
    x0, x1 = int(round(x0 - minx)), int(round(x1 - minx))  # noqa: RUF046
    y0, y1 = int(round(y0 - miny)), int(round(y1 - miny))  # noqa: RUF046
    w = x1 - x0
    if w < 1 or y1 <= y0:
        return
    shade = rng.uniform(0.55, 0.85)
    cols = np.empty((w, 3), np.float32)
    n_ivory = int(round(w * style["ivory_part"]))  # noqa: RUF046
    ivory, back = np.array(style["ivory"], np.float32), np.array(style["back"], np.float32)
    order = np.arange(w) if inner_left else np.arange(w)[::-1]
    cols[order[:n_ivory]] = ivory * shade
    cols[order[n_ivory:]] = back * shade
    plane[y0:y1, x0:x1, :3] = cols[None].astype(np.uint8)
    plane[y0:y1, x0:x1, 3] = 255


def _tile_w_h(style):
    return 150, int(200 * (1 + style["thick"]))


def make_scene(
    rng: np.random.Generator,
    out_w: int = 1024,
    out_h: int = 768,
    sets=None,
    style=None,
    source=None,
    opts: dict | None = None,
):
    """Return (image RGB uint8, list[Box]); with ``opts["clean"]`` the image is float 0..255, undegraded.

    ``opts`` pins choices for a fixed rendering: ``portrait``, ``rows`` (or ``two_rows``), ``row_frac``
    (row width as a fraction of the image width), ``angle`` (degrees), ``tilt``, ``last_apart`` (gap
    before the last set).
    """
    opts = opts or {}
    if opts.get("portrait", rng.random() < 0.4):  # portrait photos
        out_w, out_h = out_h, out_w
    style = style or random_style(rng)
    source = source or rng.choice(["font", "cc0", "mit"], p=[0.5, 0.2, 0.3])
    sets = sets if sets is not None else random_hand(rng)
    tw, th = _tile_w_h(style)
    if "rows" in opts or "two_rows" in opts:
        rows = opts.get("rows", 2 if opts.get("two_rows") else 1)
    elif rng.random() < 0.25 and sum(len(s) for s in sets) > 8:
        rows = 2 if rng.random() < 0.75 else 3
    else:
        rows = 1
    placed = _layout(rng, sets, tw, th, rows, opts.get("last_apart"))
    sides = _side_faces(rng, placed, tw, th, style)
    xs = [p[1] for p in placed] + [p[1] + (th if p[3] else tw) for p in placed]
    xs += [s[0] for s in sides] + [s[2] for s in sides]
    ys = [p[2] for p in placed] + [p[2] + (tw if p[3] else th) for p in placed]
    minx, miny = min(xs), min(ys)
    pw, ph = int(max(xs) - minx) + 2, int(max(ys) - miny) + 2
    plane = np.zeros((ph, pw, 4), np.uint8)
    for strip in sides:
        _draw_side(plane, strip, minx, miny, style, rng)
    quads_plane = []
    for cls, x, y, rot in placed:
        src = source if (source != "mit" or rng.random() < 0.85) else "font"
        tile = make_tile(cls, rng, src, style)
        if rot:
            tile = np.ascontiguousarray(np.rot90(tile, k=1 if rng.random() < 0.5 else 3))
        x0, y0 = int(x - minx), int(y - miny)
        h, w = tile.shape[:2]
        h, w = min(h, ph - y0), min(w, pw - x0)
        a = tile[:h, :w, 3:4].astype(np.float32) / 255
        dst = plane[y0 : y0 + h, x0 : x0 + w]
        dst[:, :, :3] = (tile[:h, :w, :3] * a + dst[:, :, :3] * (1 - a)).astype(np.uint8)
        dst[:, :, 3] = np.maximum(dst[:, :, 3], tile[:h, :w, 3])
        quads_plane.append(np.array([[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]], np.float32))

    # homography plane -> image
    scale_mode = rng.random()
    if "row_frac" in opts:
        s = out_w * opts["row_frac"] / pw
    elif scale_mode < 0.55:  # the usual photo: the row spans most of the width
        s = out_w * rng.uniform(0.55, 0.98) / pw
    elif scale_mode < 0.75:
        s = out_w * rng.uniform(0.02, 0.035) / tw
    elif scale_mode < 0.92:
        s = out_w * rng.uniform(0.035, 0.07) / tw
    else:
        s = out_w * rng.uniform(0.07, 0.2) / tw
    if pw * s > out_w * 0.98:
        s *= out_w * 0.98 / (pw * s)
    target_tile_w = tw * s
    src_pts = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float32)
    # perspective: far (top) edge shrinks; tilt in 0..45 deg ~ compression of plane height
    tilt = opts.get("tilt", rng.uniform(0, 0.45))
    persp = opts.get("persp", rng.uniform(0, 0.25) * (1 if rng.random() < 0.5 else 0))
    w_img, h_img = pw * s, ph * s * (1 - tilt * 0.6)
    dst = np.array(
        [[w_img * persp / 2, 0], [w_img * (1 - persp / 2), 0], [w_img, h_img], [0, h_img]],
        np.float32,
    )
    if rng.random() < 0.2 and "angle" not in opts:  # left-right perspective (row recedes to one side)
        k = rng.uniform(0.0, 0.35)
        dst[1, 1] += h_img * k / 2
        dst[2, 1] -= h_img * k / 2
        if rng.random() < 0.5:
            dst[:, 0] = w_img - dst[:, 0]
            dst = dst[[1, 0, 3, 2]]
    ang = opts.get("angle", rng.normal(0, 6) if rng.random() < 0.9 else rng.uniform(-180, 180))
    c = dst.mean(0)
    R = cv2.getRotationMatrix2D((float(c[0]), float(c[1])), float(ang), 1.0)
    dst = (dst - 0) @ R[:, :2].T + R[:, 2]
    # place inside the image
    bx0, by0 = dst.min(0)
    bx1, by1 = dst.max(0)
    free_x, free_y = out_w - (bx1 - bx0), out_h - (by1 - by0)
    if free_x < 0 or free_y < 0:
        f = 0.97 * min(out_w / (bx1 - bx0), out_h / (by1 - by0))
        dst = (dst - dst.mean(0)) * f + dst.mean(0)
        bx0, by0 = dst.min(0)
        bx1, by1 = dst.max(0)
        free_x, free_y = out_w - (bx1 - bx0), out_h - (by1 - by0)
    if opts.get("center"):
        dst += np.array([free_x / 2 - bx0, free_y * 0.55 - by0], np.float32)
    else:
        dst += np.array(
            [rng.uniform(0, max(free_x, 1)) - bx0, rng.uniform(0, max(free_y, 1)) - by0], np.float32
        )
    H = cv2.getPerspectiveTransform(src_pts, dst.astype(np.float32))

    bg = background(rng, out_h, out_w, opts.get("felt_rgb"))
    edges = render_options.OPTIONS.sheet_edges
    if rng.random() < (0.35 if edges else 0.25) and not opts.get("clean"):
        # a sheet of paper, a tray or a light mat under the tiles, a little larger than the hand:
        # light margins next to a tile are not part of it; a side may run right up to the row end
        if edges:
            m = tw * np.where(rng.random(4) < 0.3, rng.uniform(0.0, 0.08, 4), rng.uniform(0.05, 1.2, 4))
        else:
            m = tw * rng.uniform(0.05, 1.2, 4)
        rect = np.float32([[-m[0], -m[1]], [pw + m[2], -m[1]], [pw + m[2], ph + m[3]], [-m[0], ph + m[3]]])
        sheet = cv2.perspectiveTransform(rect[None], H)[0].astype(np.int32)
        col = rng.uniform(190, 255) * rng.uniform(0.9, 1.0, 3)
        cv2.fillPoly(bg, [sheet], tuple(float(c) for c in col))
    warped = cv2.warpPerspective(
        plane, H, (out_w, out_h), flags=cv2.INTER_AREA if s < 0.5 else cv2.INTER_LINEAR
    )
    alpha = warped[:, :, 3:4].astype(np.float32) / 255
    # shadow
    if rng.random() < 0.8:
        sh = cv2.GaussianBlur(alpha[:, :, 0], (0, 0), max(1.0, target_tile_w * rng.uniform(0.03, 0.2)))
        off = target_tile_w * rng.uniform(-0.15, 0.15, 2)
        M = np.float32([[1, 0, off[0]], [0, 1, abs(off[1])]])
        sh = cv2.warpAffine(sh, M, (out_w, out_h))
        bg *= 1 - rng.uniform(0.2, 0.6) * sh[:, :, None]
    if not opts.get("clean"):
        distractors(rng, bg, target_tile_w)
    img = warped[:, :, :3].astype(np.float32) * alpha + bg * (1 - alpha)

    boxes = []
    for (cls, _x, _y, rot), q in zip(placed, quads_plane, strict=True):
        qi = cv2.perspectiveTransform(q[None], H)[0]
        x0, y0 = qi.min(0)
        x1, y1 = qi.max(0)
        x0, y0 = max(0.0, x0), max(0.0, y0)
        x1, y1 = min(float(out_w), x1), min(float(out_h), y1)
        if x1 - x0 < 3 or y1 - y0 < 3:
            continue
        boxes.append(Box(cls, (float(x0), float(y0), float(x1), float(y1)), rot, qi))
    img = img if opts.get("clean") else photometric(rng, img, target_tile_w)
    return img, boxes
