"""The drawn parts of the suit and flower faces: dots (筒), bamboo sticks (条) and the 1s bird,
the flower tiles (花) — on a `PIL` face canvas, with ``rng`` choosing colours and styles.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from datasets.glyphs import draw_char
from datasets.palette import BLACK, BLUE, DARK_GREEN, GREEN, RED, pick

# dot layouts in a unit face (cx, cy), radius
DOTS = {
    1: ([(0.5, 0.5)], 0.40),
    2: ([(0.5, 0.27), (0.5, 0.73)], 0.21),
    3: ([(0.24, 0.2), (0.5, 0.5), (0.76, 0.8)], 0.17),
    4: ([(0.28, 0.28), (0.72, 0.28), (0.28, 0.72), (0.72, 0.72)], 0.18),
    5: ([(0.25, 0.22), (0.75, 0.22), (0.5, 0.5), (0.25, 0.78), (0.75, 0.78)], 0.16),
    6: ([(0.28, 0.2), (0.72, 0.2), (0.28, 0.55), (0.72, 0.55), (0.28, 0.83), (0.72, 0.83)], 0.14),
    7: (
        [(0.2, 0.14), (0.5, 0.26), (0.8, 0.38), (0.28, 0.6), (0.72, 0.6), (0.28, 0.85), (0.72, 0.85)],
        0.12,
    ),
    8: ([(x, y) for y in (0.13, 0.38, 0.62, 0.87) for x in (0.28, 0.72)], 0.115),
    9: ([(x, y) for y in (0.18, 0.5, 0.82) for x in (0.2, 0.5, 0.8)], 0.13),
}


def dot_colours(n, rng):
    """The ``n`` RGB colours of an ``n``-dot face, in `DOTS` order: a one-colour set a quarter of
    the time, else the usual blue / green / red pattern of that face."""
    g, r, b = pick(rng, GREEN), pick(rng, RED), pick(rng, BLUE)
    if rng.random() < 0.35:  # dark inks
        g, b = pick(rng, DARK_GREEN), pick(rng, DARK_GREEN + BLACK)
    scheme = rng.random()
    if scheme < 0.25:  # single colour set
        c = pick(rng, [g, r, b])
        return [c] * n
    if n == 1:
        return [pick(rng, [g, r, b])]
    if n == 2:
        return [g, b] if rng.random() < 0.5 else [b, b]
    if n == 3:
        return [b, r, g]
    if n == 4:
        return [b, g, g, b]
    if n == 5:
        return [b, g, r, g, b]
    if n == 6:
        return [g, g, r, r, r, r]
    if n == 7:
        return [g, g, g, r, r, r, r]
    if n == 8:
        return [b] * 8
    return [b, b, b, r, r, r, g, g, g]


def draw_dot(d: ImageDraw.ImageDraw, cx, cy, r, colour, rng, style):
    """One dot of radius ``r`` px at (``cx``, ``cy``); ``style`` 0..3: rings, a disc with a cross
    (Taiwanese), a ring with petals, a disc with a white ring."""
    if style == 0:  # concentric rings
        d.ellipse([cx - r, cy - r, cx + r, cy + r], outline=colour, width=max(2, int(r * 0.18)))
        r2 = r * 0.55
        d.ellipse([cx - r2, cy - r2, cx + r2, cy + r2], outline=colour, width=max(2, int(r * 0.14)))
        r3 = r * 0.18
        d.ellipse([cx - r3, cy - r3, cx + r3, cy + r3], fill=colour)
    elif style == 1:  # filled disc with cross pattern (Taiwanese style)
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=colour)
        rw = r * 0.22
        for ang in (0, 90):
            a = np.deg2rad(ang)
            dx, dy = np.cos(a) * r * 0.6, np.sin(a) * r * 0.6
            d.ellipse([cx + dx - rw, cy + dy - rw, cx + dx + rw, cy + dy + rw], fill=(250, 250, 245))
            d.ellipse([cx - dx - rw, cy - dy - rw, cx - dx + rw, cy - dy + rw], fill=(250, 250, 245))
    elif style == 2:  # ring with petals
        d.ellipse([cx - r, cy - r, cx + r, cy + r], outline=colour, width=max(2, int(r * 0.15)))
        for k in range(8):
            a = k * np.pi / 4
            px, py = cx + np.cos(a) * r * 0.55, cy + np.sin(a) * r * 0.55
            rr = r * 0.16
            d.ellipse([px - rr, py - rr, px + rr, py + rr], fill=colour)
        rr = r * 0.2
        d.ellipse([cx - rr, cy - rr, cx + rr, cy + rr], fill=pick(rng, RED))
    else:  # simple filled disc with white ring
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=colour)
        r2 = r * 0.6
        d.ellipse([cx - r2, cy - r2, cx + r2, cy + r2], outline=(250, 250, 245), width=max(2, int(r * 0.15)))


def draw_stick(d: ImageDraw.ImageDraw, x0, y0, x1, y1, colour, rng, width, chain=False):
    """A bamboo stick from (x0, y0) to (x1, y1) with node bands, or a chain of beads."""
    if chain:
        n = int(rng.integers(4, 7))
        for t in np.linspace(0, 1, n):
            px, py = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
            ry = abs(y1 - y0) / (n - 1) * 0.45 + 1
            rx = width * 0.7
            d.ellipse([px - rx, py - ry, px + rx, py + ry], outline=colour, width=max(2, int(width * 0.35)))
        return
    d.line([x0, y0, x1, y1], fill=colour, width=int(width))
    for t in (0.0, 0.5, 1.0):
        px, py = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        rw = width * 0.85
        d.ellipse([px - rw, py - rw * 0.55, px + rw, py + rw * 0.55], fill=colour)
    # light centre line
    if rng.random() < 0.6:
        d.line([x0, y0, x1, y1], fill=(245, 245, 240), width=max(1, int(width * 0.2)))


def bamboo_layout(n):
    """The sticks of an ``n``-bamboo face as ``(cx, cy, h)`` in unit coordinates; ``[]`` for 1 and 8
    (the bird and the crossed eight are drawn apart)."""
    if n == 2:
        return [(0.5, 0.27, 0.38), (0.5, 0.73, 0.38)]
    if n == 3:
        return [(0.5, 0.27, 0.38), (0.3, 0.73, 0.38), (0.7, 0.73, 0.38)]
    if n == 4:
        return [(x, y, 0.38) for y in (0.27, 0.73) for x in (0.3, 0.7)]
    if n == 5:
        return [
            (0.22, 0.27, 0.38),
            (0.78, 0.27, 0.38),
            (0.5, 0.5, 0.38),
            (0.22, 0.73, 0.38),
            (0.78, 0.73, 0.38),
        ]
    if n == 6:
        return [(x, y, 0.38) for y in (0.27, 0.73) for x in (0.2, 0.5, 0.8)]
    if n == 7:
        return [(0.5, 0.16, 0.26)] + [(x, y, 0.28) for y in (0.5, 0.83) for x in (0.2, 0.5, 0.8)]
    if n == 9:
        return [(x, y, 0.27) for y in (0.17, 0.5, 0.83) for x in (0.2, 0.5, 0.8)]
    return []


def draw_bird(img: Image.Image, rng):
    """The 1-bamboo bird (幺鸡), in place on the face canvas ``img``."""
    d = ImageDraw.Draw(img)
    g, r = pick(rng, GREEN), pick(rng, RED)
    w, h = img.size
    cx, cy = w * rng.uniform(0.45, 0.55), h * rng.uniform(0.5, 0.6)
    d.ellipse([cx - w * 0.25, cy - h * 0.15, cx + w * 0.2, cy + h * 0.2], fill=g)
    d.ellipse([cx + w * 0.05, cy - h * 0.32, cx + w * 0.28, cy - h * 0.1], fill=g)
    d.polygon(
        [(cx + w * 0.28, cy - h * 0.22), (cx + w * 0.4, cy - h * 0.18), (cx + w * 0.28, cy - h * 0.15)],
        fill=r,
    )
    for k in range(5):
        a = np.pi * (0.6 + 0.12 * k)
        d.line(
            [cx - w * 0.15, cy, cx - w * 0.15 + np.cos(a) * w * 0.35, cy - np.sin(a) * h * 0.3],
            fill=pick(rng, [g, r, pick(rng, BLUE)]),
            width=12,
        )
    d.line([cx - w * 0.05, cy + h * 0.2, cx - w * 0.1, cy + h * 0.35], fill=r, width=8)
    d.line([cx + w * 0.05, cy + h * 0.2, cx + w * 0.08, cy + h * 0.35], fill=r, width=8)


def draw_flower(img: Image.Image, rng, font_path):
    """A flower tile (花): stems and blossoms, a number 1-4 and one of 梅蘭竹菊春夏秋冬 in the top
    corners, in place on ``img``."""
    d = ImageDraw.Draw(img)
    w, h = img.size
    g = pick(rng, GREEN)
    for _ in range(int(rng.integers(3, 7))):
        x0 = w * rng.uniform(0.3, 0.7)
        d.line(
            [x0, h * 0.92, w * rng.uniform(0.15, 0.85), h * rng.uniform(0.3, 0.6)],
            fill=g,
            width=int(rng.integers(5, 12)),
        )
    for _ in range(int(rng.integers(1, 4))):
        cx, cy, r = w * rng.uniform(0.3, 0.7), h * rng.uniform(0.35, 0.6), w * rng.uniform(0.08, 0.15)
        col = pick(rng, RED + BLUE)
        for k in range(5):
            a = k * 2 * np.pi / 5
            px, py = cx + np.cos(a) * r * 0.7, cy + np.sin(a) * r * 0.7
            d.ellipse([px - r * 0.55, py - r * 0.55, px + r * 0.55, py + r * 0.55], fill=col)
    num = str(int(rng.integers(1, 5)))
    ch = pick(rng, list("梅蘭竹菊春夏秋冬"))
    corner = rng.random() < 0.5
    col = pick(rng, RED + BLUE)
    if corner:
        draw_char(img, num, (int(w * 0.05), int(h * 0.03), int(w * 0.3), int(h * 0.25)), col, rng, font_path)
        draw_char(img, ch, (int(w * 0.65), int(h * 0.03), int(w * 0.95), int(h * 0.25)), col, rng, font_path)
    else:
        draw_char(img, ch, (int(w * 0.05), int(h * 0.03), int(w * 0.3), int(h * 0.25)), col, rng, font_path)
        draw_char(img, num, (int(w * 0.7), int(h * 0.03), int(w * 0.95), int(h * 0.25)), col, rng, font_path)
