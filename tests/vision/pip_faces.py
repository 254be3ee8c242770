"""Synthetic suit faces drawn with OpenCV for the pip counter's tests (`vision.pips`)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.pip_layouts import LAYOUTS, STICK_LAYOUTS

INKS = {
    "red": (40, 40, 200),
    "green": (60, 150, 30),
    "blue": (180, 70, 20),
    "black": (25, 25, 25),
    "dark_green": (40, 80, 20),
}
"""BGR inks a set may paint its pips in."""
IVORY = (225, 240, 245)


def _blank(w: int, h: int) -> np.ndarray:
    face = np.full((h, w, 3), IVORY, np.uint8)
    cv2.rectangle(face, (0, 0), (w - 1, h - 1), (150, 160, 160), 2)  # the tile's rim
    return face


def dot_face(n: int, ink: str, w: int = 60, h: int = 80, turn: bool = False) -> np.ndarray:
    """A dot tile of `n` (1..9): ringed circles at the standard layout, BGR `(h, w, 3)`."""
    face = _blank(w, h)
    colour = INKS[ink]
    if n == 1:
        r = int(0.36 * w)
        cv2.circle(face, (w // 2, h // 2), r, colour, -1)
        cv2.circle(face, (w // 2, h // 2), int(r * 0.7), IVORY, 2)
        cv2.circle(face, (w // 2, h // 2), int(r * 0.3), IVORY, -1)
    else:
        pts = np.array(LAYOUTS[n])
        cols = len(set(np.round(pts[:, 0], 2)))
        rows = len(set(np.round(pts[:, 1], 2)))
        x0, x1, y0, y1 = 0.3 * w, 0.7 * w, 0.24 * h, 0.76 * h
        r = int(min((x1 - x0) / max(cols, 2), (y1 - y0) / max(rows, 2)) * 0.42)
        for px, py in pts:
            c = (int(x0 + px * (x1 - x0)), int(y0 + py * (y1 - y0)))
            cv2.circle(face, c, r, colour, -1)
            cv2.circle(face, c, max(r // 2, 1), IVORY, 1)
    return np.ascontiguousarray(np.rot90(face, 2)) if turn else face


def stick_face(n: int, ink: str, w: int = 60, h: int = 80, turn: bool = False) -> np.ndarray:
    """A bamboo tile of `n` (2..9): upright sticks with a joint, at the standard layout."""
    face = _blank(w, h)
    colour = INKS[ink]
    pts = np.array(STICK_LAYOUTS[n])
    cols = len(set(np.round(pts[:, 0], 2)))
    rows = len(set(np.round(pts[:, 1], 2)))
    half = 0.68 * h / rows * 0.36
    x0, x1, y0, y1 = 0.25 * w, 0.75 * w, 0.16 * h + half, 0.84 * h - half
    thick = max(int((x1 - x0) / max(cols, 3) * 0.28), 2)
    for px, py in pts:
        cx, cy = int(x0 + px * (x1 - x0)), int(y0 + py * (y1 - y0))
        cv2.rectangle(face, (cx - thick, int(cy - half)), (cx + thick, int(cy + half)), colour, -1)
        cv2.line(face, (cx - thick, cy), (cx + thick, cy), IVORY, 1)
    return np.ascontiguousarray(np.rot90(face, 2)) if turn else face


def bird_face(ink: str = "green", w: int = 60, h: int = 80) -> np.ndarray:
    """一條: a bird, an irregular blob with a tail."""
    face = _blank(w, h)
    cv2.ellipse(face, (w // 2, h // 2), (w // 4, h // 6), 20, 0, 360, INKS[ink], -1)
    cv2.fillPoly(face, [np.array([[w // 2, h // 2], [w - 10, h - 12], [w // 2 + 4, h - 10]])], INKS["red"])
    cv2.circle(face, (w // 3, h // 3), 6, INKS[ink], -1)
    return face


def scribble_face(seed: int = 0, w: int = 60, h: int = 80) -> np.ndarray:
    """No structure: random strokes of random inks."""
    rng = np.random.default_rng(seed)
    face = _blank(w, h)
    for _ in range(6):
        p = rng.integers(8, min(w, h) - 8, size=(4, 2))
        cv2.polylines(
            face,
            [p.reshape(-1, 1, 2).astype(np.int32)],
            False,
            tuple(int(v) for v in rng.integers(0, 200, 3)),
            3,
        )
    return face


TOUCHING = {6: (3, 2), 8: (4, 2), 9: (3, 3)}
"""Columns and sticks per column of the faces `touching_stick_face` draws."""


def touching_stick_face(n: int, ink: str, h: int = 60, shear: float = 0.0, turn: bool = False) -> np.ndarray:
    """A bamboo tile of `n` (6, 8, 9: `TOUCHING`) as some sets draw it: columns of sticks that
    touch end to end, each stick pinched at its ends and with a waist at its node, the face
    sheared by `shear` degrees (the photo's slant), BGR `(h, 3h/4, 3)`; drawn 4x and scaled down."""
    big_h = 4 * h
    big_w = big_h * 3 // 4
    face = np.full((big_h, big_w, 3), IVORY, np.uint8)
    colour = INKS[ink]
    cols, per = TOUCHING[n]
    x0, x1, y0, y1 = 0.2 * big_w, 0.8 * big_w, 0.16 * big_h, 0.84 * big_h
    pitch = (x1 - x0) / cols
    half = pitch * 0.3
    length = (y1 - y0) / per
    for c in range(cols):
        cx = x0 + (c + 0.5) * pitch
        for k in range(per):
            top = y0 + k * length
            ys = [top + f * length for f in (0.0, 0.2, 0.5, 0.8, 1.0)]
            ws = [0.45 * half, half, 0.7 * half, half, 0.45 * half]  # pinched ends, a waist
            left = [(cx - w, y) for y, w in zip(ys, ws, strict=True)]
            poly = left + [(2 * cx - x, y) for x, y in left[::-1]]
            cv2.fillPoly(face, [np.array(poly, np.int32)], colour)
    s = np.tan(np.radians(shear))
    m = np.float32([[1, s, -s * big_h / 2], [0, 1, 0]])
    face = cv2.warpAffine(face, m, (big_w, big_h), borderValue=IVORY)
    cv2.rectangle(face, (0, 0), (big_w - 1, big_h - 1), (150, 160, 160), 8)  # the tile's rim
    face = cv2.resize(face, (big_w // 4, h), interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(np.rot90(face, 2)) if turn else face


TABLE = (40, 60, 90)
"""BGR of a dark wooden table."""


def on_table(face: np.ndarray, side: str, share: float = 0.2) -> np.ndarray:
    """`face` as a loose crop cuts it: a strip of dark table `share` of its width (or height) on
    `side` ("left", "right", "top") in place of the face."""
    out = face.copy()
    h, w = out.shape[:2]
    if side == "left":
        out[:, : round(share * w)] = TABLE
    elif side == "right":
        out[:, w - round(share * w) :] = TABLE
    else:
        out[: round(share * h)] = TABLE
    return out


def beside_neighbour(face: np.ndarray, share: float = 0.2) -> np.ndarray:
    """`face` with the neighbouring tile's edge on its right, `share` of its width: a dark gap,
    the neighbour's ivory face and a piece of its red ink."""
    out = face.copy()
    h, w = out.shape[:2]
    x = w - round(share * w)
    out[:, x:] = IVORY
    out[:, x : x + 2] = (60, 60, 60)
    out[h // 4 : h // 2, x + 4 :] = INKS["red"]
    return out


def pale_side_columns(n: int, h: int, shear: float, pale: float = 0.6) -> np.ndarray:
    """`touching_stick_face(n)` whose middle column is black and its side columns pale green
    (`pale` of green's way from the ivory): a dark middle column sets the ink threshold."""
    green = touching_stick_face(n, "green", h, shear).astype(np.float32)
    black = touching_stick_face(n, "black", h, shear)
    ivory = np.array(IVORY, np.float32)
    out = (ivory + pale * (green - ivory)).clip(0, 255).astype(np.uint8)
    w = out.shape[1]
    out[:, w // 3 : 2 * w // 3] = black[:, w // 3 : 2 * w // 3]
    return out
