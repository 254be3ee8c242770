"""Synthetic dice (骰子) beside a synthetic hand row, and loose tiles laid the same way: the
photos `datasets.dice_cut` reads with the real reader to choose `vision.dice`'s thresholds
without looking at `real_sets_dev` (issue 35).

- `die_image`: one die as a small cube seen from above the table: its front face, its top face
  (foreshortened by the camera's slant) and one side face, each with its pips (1-6, Western
  or Chinese layout: a red 1, and a red 4 on Chinese dice), white, ivory or red (white pips),
  lit from one side, turned in the picture plane.
- `loose_tile`: a true tile (dot, 白, flower) the same way: small (farther than the row),
  slanted, lying flat (foreshortened), turned.
- `dice_scene`: a hand row (`datasets.scenes.make_scene`, the training renderer) with dice or
  loose tiles put behind it, in front of it or beside its ends, then degraded as a phone photo
  (`datasets.backdrop.photometric`). Returns the image, the row's boxes and the objects' boxes.

Sizes (tile and die geometry, before any measuring): a die's edge is 10-16 mm, a tile's face
about 20-22 x 26-30 mm; so the die's edge is 0.45-0.8 of a tile's face width, the top face adds
0-0.7 of an edge (the camera's slant) and the side face up to half an edge.

Pure numpy / OpenCV; training-side only (nothing that runs imports `datasets`).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from datasets.backdrop import photometric
from datasets.scenes import make_scene
from datasets.tiles import CLASSES, CLS_INDEX, FLOWER, make_tile, random_style

PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.28, 0.22), (0.72, 0.22), (0.28, 0.5), (0.72, 0.5), (0.28, 0.78), (0.72, 0.78)],
}
"""Pip centres of each face, as fractions of the face."""

BODIES = {
    "white": ((245, 245, 240), (20, 20, 20)),
    "ivory": ((236, 226, 200), (25, 25, 30)),
    "red": ((190, 30, 35), (245, 245, 240)),
}
"""Die body colour and pip colour."""

LOOSE = (*(f"{n}p" for n in range(1, 10)), "P", "flower")
"""The true tiles laid loose beside a row: what a die reads as (dots, 白), and flowers."""

FACE = 96
"""Pixels of one die face as drawn (resized to the scene's size afterwards)."""


def die_face(n: int, body: str, chinese: bool) -> np.ndarray:
    """One face (`FACE` square, RGB float) with `n` pips."""
    col, pip = BODIES[body]
    face = np.full((FACE, FACE, 3), col, np.float32)
    r = FACE * (0.13 if n == 1 else 0.085)
    for fx, fy in PIPS[n]:
        c = (200, 25, 30) if (chinese and n in (1, 4) and body != "red") else pip
        cv2.circle(face, (int(fx * FACE), int(fy * FACE)), int(r), c, -1, cv2.LINE_AA)
    return face


def die_image(rng: np.random.Generator, edge: float) -> np.ndarray:
    """One die (RGBA uint8) whose face edge is `edge` pixels (module docstring)."""
    body = str(rng.choice(list(BODIES), p=[0.5, 0.3, 0.2]))
    chinese = bool(rng.random() < 0.5)
    n = [int(k) for k in rng.permutation(6)[:3] + 1]
    e = FACE
    top, side = e * rng.uniform(0.0, 0.7), e * rng.uniform(-0.5, 0.5)
    w, h = int(e + abs(side)) + 2, int(e + top) + 2
    x0 = max(0.0, -side)
    front = [(x0, top), (x0 + e, top), (x0 + e, top + e), (x0, top + e)]
    upper = [(x0 + side, 0), (x0 + e + side, 0), (x0 + e, top), (x0, top)]
    edge_x = x0 + e if side > 0 else x0
    flank = [(edge_x, top), (edge_x + side, 0), (edge_x + side, e), (edge_x, top + e)]
    if side < 0:
        flank = [(edge_x + side, 0), (edge_x, top), (edge_x, top + e), (edge_x + side, e)]
    light = rng.uniform(0.75, 1.1, 3)
    canvas = np.zeros((h, w, 3), np.float32)
    alpha = np.zeros((h, w), np.float32)
    src = np.float32([(0, 0), (e, 0), (e, e), (0, e)])
    for quad, k, shade in ((upper, 1, light[0] * 1.08), (flank, 2, light[1] * 0.7), (front, 0, light[2])):
        q = np.float32(quad)
        if cv2.contourArea(q) < 4:
            continue
        m = cv2.getPerspectiveTransform(src, q)
        img = cv2.warpPerspective(die_face(n[k], body, chinese) * shade, m, (w, h), flags=cv2.INTER_LINEAR)
        a = cv2.warpPerspective(np.ones((e, e), np.float32), m, (w, h), flags=cv2.INTER_LINEAR)
        canvas = img * a[..., None] + canvas * (1 - a[..., None])
        alpha = np.maximum(alpha, a)
    # rounded corners and edges: a die's edges are soft
    alpha = cv2.GaussianBlur(alpha, (0, 0), e * 0.03)
    s = edge / e
    size = (max(3, round(w * s)), max(3, round(h * s)))
    rgba = np.dstack([np.clip(canvas, 0, 255), alpha * 255]).astype(np.uint8)
    return _turn(cv2.resize(rgba, size, interpolation=cv2.INTER_AREA), float(rng.uniform(-35, 35)))


def loose_tile(
    rng: np.random.Generator, code: str, face_w: float, style: dict, source: str | None = None
) -> np.ndarray:
    """A true tile `code` (RGBA uint8) lying beside the row: 0.55-1.0 of the row's size (farther
    away), lying flat half the time (foreshortened to 0.45-0.9 of its height), turned. `source`:
    the face's (`datasets.tiles.make_tile`), else font or CC0 art at random."""
    cls = FLOWER if code == "flower" else CLS_INDEX[code]
    tile = make_tile(cls, rng, source or str(rng.choice(["font", "cc0"])), style)
    s = face_w * rng.uniform(0.55, 1.0) / tile.shape[1]
    squash = rng.uniform(0.45, 0.9) if rng.random() < 0.5 else 1.0
    size = (max(3, round(tile.shape[1] * s)), max(3, round(tile.shape[0] * s * squash)))
    turn = float(rng.choice([rng.uniform(-40, 40), 90 + rng.uniform(-20, 20)]))
    return _turn(cv2.resize(tile, size, interpolation=cv2.INTER_AREA), turn)


def _turn(rgba: np.ndarray, degrees: float) -> np.ndarray:
    """`rgba` turned by `degrees` on a canvas that holds it all."""
    h, w = rgba.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    c, s = abs(m[0, 0]), abs(m[0, 1])
    nw, nh = int(h * s + w * c) + 1, int(h * c + w * s) + 1
    m[:, 2] += (nw - w) / 2, (nh - h) / 2
    return cv2.warpAffine(rgba, m, (nw, nh), flags=cv2.INTER_LINEAR)


def _tight(rgba: np.ndarray) -> tuple[int, int, int, int]:
    """The box of `rgba`'s opaque pixels (alpha > 40%)."""
    ys, xs = np.nonzero(rgba[..., 3] > 100)
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


@dataclass
class Thing:
    """One object put beside the row: `kind` (`die` or a tile code), `xyxy` (its opaque pixels),
    `where` (`behind`, `front` or `end`)."""

    kind: str
    xyxy: tuple[float, float, float, float]
    where: str


def dice_scene(
    rng: np.random.Generator, dice: bool, count: int = 2, source: str | None = None
) -> tuple[np.ndarray, list[tuple[tuple[float, ...], str]], list[Thing]]:
    """A hand row with `count` dice (`dice`) or loose true tiles (`LOOSE`) beside it (module
    docstring): `(RGB uint8 image, the row's (box, code)s, the things put)`. `source`: every
    face's (`"font"`: no `../shared` needed), else as the training renderer draws them."""
    style = random_style(rng)
    opts = {"rows": 1, "clean": True, "center": True, "angle": rng.normal(0, 4), "portrait": False}
    opts["row_frac"] = rng.uniform(0.55, 0.9)
    img, boxes = make_scene(rng, 1280, 960, style=style, source=source, opts=opts)
    rows = [b.xyxy for b in boxes if not b.rotated]
    codes = [(b.xyxy, CLASSES[b.cls]) for b in boxes]
    if not rows:
        return np.clip(img, 0, 255).astype(np.uint8), codes, []
    fw = float(np.median([x1 - x0 for x0, _y0, x1, _y1 in rows]))
    fh = float(np.median([y1 - y0 for _x0, y0, _x1, y1 in rows]))
    left, right = min(b[0] for b in rows), max(b[2] for b in rows)
    top, bottom = min(b[1] for b in rows), max(b[3] for b in rows)
    taken = [b.xyxy for b in boxes]
    things: list[Thing] = []
    for _ in range(count * 6):
        if len(things) == count:
            break
        kind = "die" if dice else str(rng.choice(LOOSE))
        if dice:
            obj = die_image(rng, fw * rng.uniform(0.45, 0.8))
        else:
            obj = loose_tile(rng, kind, fw, style, source)
        bx0, by0, bx1, by1 = _tight(obj)
        ow, oh = bx1 - bx0, by1 - by0
        where = str(rng.choice(["behind", "front", "end"], p=[0.6, 0.2, 0.2]))
        gap = rng.uniform(0.0, 0.8) * fh
        if where == "behind":
            x, y = rng.uniform(left, max(left, right - ow)), top - gap - oh
        elif where == "front":
            x, y = rng.uniform(left, max(left, right - ow)), bottom + gap
        else:
            x = right + gap if rng.random() < 0.5 else left - gap - ow
            y = rng.uniform(top - 0.3 * fh, max(top - 0.3 * fh, bottom - oh + 0.3 * fh))
        box = (float(x), float(y), float(x + ow), float(y + oh))
        if box[0] < 0 or box[1] < 0 or box[2] > img.shape[1] or box[3] > img.shape[0]:
            continue
        if any(_overlap(box, t) for t in taken):
            continue
        _paste(img, obj, int(x) - bx0, int(y) - by0)
        box = (float(int(x)), float(int(y)), float(int(x) + ow), float(int(y) + oh))
        taken.append(box)
        things.append(Thing(kind, box, where))
    return photometric(rng, img, fw), codes, things


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """The boxes overlap (touching is no overlap)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _paste(img: np.ndarray, rgba: np.ndarray, x: int, y: int) -> None:
    """`rgba` over the float image `img` with its top-left at `(x, y)` (clipped to the image)."""
    h, w = rgba.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, img.shape[1]), min(y + h, img.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    part = rgba[y0 - y : y1 - y, x0 - x : x1 - x].astype(np.float32)
    a = part[..., 3:4] / 255
    img[y0:y1, x0:x1] = part[..., :3] * a + img[y0:y1, x0:x1] * (1 - a)
