"""Renderer styles of recipe 0.7.0 (`RenderOptions.world_styles`): the sets the world has, beyond
the ones Jiangxi tables use (issue 35 item 4). A share of the font faces is drawn in one of
`KINDS`, and with `ink_p` a share of every face (font or CC0 art) gets its ink weight changed:

- `numeral_ink`: 萬 (m) with black, blue or green numerals (the 萬 red, or the numeral's ink);
- `dot_ink`: dots (p) all in dark green, black or blue (one or two of those inks);
- `mixed_dots`: dots in red and black (set G of `real_sets_dev`: 6p four red + two black);
- `bamboo_ink`: bamboo sticks (s, not the bird) in blue, black, dark green or teal;
- `beaded`: beaded (dotted) bamboo sticks in green with red accents (set F);
- `red_five`: riichi 赤五 — a 5m / 5p / 5s all in red (it must still read 5; also the CC0 art, `red_art`);
- `white_dragon`: 白 (P) as a thick frame, a diamond, a frame with a corner `B`, or blank;
- `flower`: flowers and seasons (class `flower`, X) of other designs: a big season / plant
  character with its number, a medallion, a figure;
- `marker`: round and seat markers (X in the labels: class `flower`): 場 / 家 in a ring, or
  起 / 庄 / 親 in a box — never a wind character (a wind in a ring made real 南 tiles read X).

`ink_weight` (`INK_KINDS`): `bold` (strokes thicker), `thin` (strokes thinner), `worn` (ink rubbed
off in patches). The stand-ins `hue`, `swap` and `bold` (`datasets.stand_ins`) change whole photos;
here the ink changes per face, in training.
"""

from __future__ import annotations

import cv2
import numpy as np
from PIL import Image, ImageDraw

from datasets.face_parts import DOTS, bamboo_layout, draw_dot, draw_stick
from datasets.glyphs import draw_char
from datasets.palette import BLACK, BLUE, DARK_GREEN, GREEN, RED, pick
from scoring.tiles import RANK_ZH

KINDS = (
    "numeral_ink",
    "dot_ink",
    "mixed_dots",
    "bamboo_ink",
    "beaded",
    "red_five",
    "white_dragon",
    "flower",
    "marker",
)
INK_KINDS = ("bold", "thin", "worn")
TEAL = [(20, 95, 100), (15, 70, 80)]
WAN_INKS = BLACK + BLUE + GREEN + DARK_GREEN  # 萬 numerals of mainland / overseas sets
DOT_INKS = DARK_GREEN + BLACK + BLUE
STICK_INKS = BLUE + BLACK + DARK_GREEN + TEAL
MARKER_TEXT = ("起", "庄", "親")


def kinds_for(name: str) -> tuple[str, ...]:
    """The `KINDS` that draw the face of class `name` (a `CLASS_CODES` code); () for none."""
    if len(name) == 2 and name[0].isdigit():
        suit, n = name[1], int(name[0])
        own = {"m": ("numeral_ink",), "p": ("dot_ink", "mixed_dots"), "s": ("bamboo_ink", "beaded")}[suit]
        if suit == "s" and n == 1:
            own = ()  # the bird stays the bird
        return own + (("red_five",) if n == 5 else ())
    return {"P": ("white_dragon",), "flower": ("flower", "marker")}.get(name, ())


def world_face(name: str, rng: np.random.Generator, font_path: str | None, kind: str | None = None):
    """The face of class `name` in one of its `kinds_for` (`kind`, else drawn at random) on a
    transparent 300 x 400 RGBA canvas; None where no kind draws it (or a character face without a
    font). Raises ValueError for a `kind` that does not draw `name`."""
    own = kinds_for(name)
    if kind is None:
        if not own:
            return None
        kind = own[int(rng.integers(len(own)))]
    elif kind not in own:
        raise ValueError(f"{kind!r} does not draw {name!r}: one of {own}")
    img = Image.new("RGBA", (300, 400), (0, 0, 0, 0))
    if kind in ("numeral_ink", "red_five") and name[1] == "m":
        return _wan(img, int(name[0]), rng, font_path, red=kind == "red_five")
    if name[1:] == "p":
        return _dots(img, int(name[0]), rng, kind)
    if name[1:] == "s":
        return _sticks(img, int(name[0]), rng, kind)
    if kind == "white_dragon":
        return _white_dragon(img, rng, font_path)
    if font_path is None:
        return None
    return _flower(img, rng, font_path) if kind == "flower" else _marker(img, rng, font_path)


def _wan(img, n, rng, font_path, red):
    if font_path is None:
        return None
    W, H = img.size
    ink = pick(rng, RED) if red else pick(rng, WAN_INKS)
    wan_ink = ink if red or rng.random() < 0.25 else pick(rng, RED)
    ch = "伍" if n == 5 and rng.random() < 0.4 else RANK_ZH[n - 1]
    split = rng.uniform(0.4, 0.5)
    draw_char(img, ch, (int(W * 0.22), int(H * 0.04), int(W * 0.78), int(H * split)), ink, rng, font_path)
    wan = "萬" if rng.random() < 0.8 else "万"
    draw_char(
        img,
        wan,
        (int(W * 0.1), int(H * (split + 0.03)), int(W * 0.9), int(H * 0.97)),
        wan_ink,
        rng,
        font_path,
    )
    return img


def dot_inks(n: int, rng: np.random.Generator, kind: str) -> list[tuple]:
    """The `n` colours of a dot face (`DOTS` order) in `kind`: `dot_ink` one or two of dark green /
    black / blue; `mixed_dots` red and black as set G (6p four red + two black, 7p three black +
    four red); `red_five` all red."""
    if kind == "red_five":
        return [pick(rng, RED)] * n
    if kind == "mixed_dots":
        r, k = pick(rng, RED), pick(rng, BLACK)
        table = {6: [k, k, r, r, r, r], 7: [k, k, k, r, r, r, r], 5: [k, k, r, k, k], 3: [k, r, k]}
        return table.get(n, [r if i % 2 else k for i in range(n)])
    a, b = pick(rng, DOT_INKS), pick(rng, DOT_INKS)
    return [a] * n if rng.random() < 0.5 else [a if i % 2 == 0 else b for i in range(n)]


def _dots(img, n, rng, kind):
    W, H = img.size
    pts, r = DOTS[n]
    d = ImageDraw.Draw(img)
    style = int(rng.integers(4))
    for (ux, uy), col in zip(pts, dot_inks(n, rng, kind), strict=True):
        draw_dot(d, W * ux, H * uy, r * W * rng.uniform(0.9, 1.05), col, rng, style)
    return img


def _sticks(img, n, rng, kind):
    W, H = img.size
    d = ImageDraw.Draw(img)
    ink = pick(rng, RED) if kind == "red_five" else pick(rng, GREEN if kind == "beaded" else STICK_INKS)
    accent = pick(rng, RED) if kind == "beaded" else ink
    width = W * rng.uniform(0.05, 0.1)
    beaded = kind == "beaded"
    if n == 8:
        lay = [(x, y, 0.38) for y in (0.27, 0.73) for x in (0.2, 0.4, 0.6, 0.8)]
    else:
        lay = bamboo_layout(n)
    for k, (ux, uy, uh) in enumerate(lay):
        col = accent if k == len(lay) // 2 or (n == 7 and k == 0) else ink
        x0, y0, y1 = W * ux, H * (uy - uh * 0.42), H * (uy + uh * 0.42)  # sticks apart, as printed
        if beaded:
            _beads(d, x0, y0, y1, col, width)
        else:
            draw_stick(d, x0, y0, x0, y1, col, rng, width)
    return img


def _beads(d, x, y0, y1, colour, width):
    """A beaded stick: a column of small discs (set F's dotted bamboo)."""
    n = max(4, int((y1 - y0) / (width * 1.2)))
    r = min(width * 0.55, (y1 - y0) / n / 2 * 0.9)
    for t in np.linspace(0, 1, n):
        cy = y0 + r + (y1 - y0 - 2 * r) * t
        d.ellipse([x - r, cy - r, x + r, cy + r], fill=colour)


def _white_dragon(img, rng, font_path):
    W, H = img.size
    d = ImageDraw.Draw(img)
    col = pick(rng, BLUE + BLACK + DARK_GREEN + TEAL)
    design = int(rng.integers(4))
    mx, my = W * rng.uniform(0.08, 0.2), H * rng.uniform(0.06, 0.16)
    if design == 0:  # a thick dark frame
        d.rectangle([mx, my, W - mx, H - my], outline=col, width=int(W * rng.uniform(0.08, 0.14)))
    elif design == 1:  # a diamond in a thin frame
        d.rectangle([mx, my, W - mx, H - my], outline=col, width=int(W * 0.03))
        cx, cy, rx, ry = W / 2, H / 2, W / 2 - mx * 1.6, H / 2 - my * 1.6
        d.polygon(
            [(cx, cy - ry), (cx + rx, cy), (cx, cy + ry), (cx - rx, cy)], outline=col, width=int(W * 0.04)
        )
    elif design == 2 and font_path is not None:  # a frame with a corner letter
        d.rectangle([mx, my, W - mx, H - my], outline=col, width=int(W * 0.05))
        draw_char(
            img,
            "B",
            (int(W * 0.02), int(H * 0.01), int(W * 0.2), int(H * 0.15)),
            pick(rng, RED),
            rng,
            font_path,
        )
    return img  # design 3: blank


def _flower(img, rng, font_path):
    W, H = img.size
    ch, num = pick(rng, list("春夏秋冬梅蘭竹菊")), str(int(rng.integers(1, 5)))
    col, design = pick(rng, RED + BLUE + GREEN + BLACK), int(rng.integers(3))
    if design == 0:  # a big season / plant character, its number above
        draw_char(img, num, (int(W * 0.35), int(H * 0.04), int(W * 0.65), int(H * 0.22)), col, rng, font_path)
        draw_char(img, ch, (int(W * 0.1), int(H * 0.3), int(W * 0.9), int(H * 0.95)), col, rng, font_path)
        return img
    d = ImageDraw.Draw(img)
    if design == 1:  # a round medallion of petals
        cx, cy, r = W / 2, H * 0.58, W * 0.3
        for k in range(int(rng.integers(5, 9))):
            a = k * 2 * np.pi / 8
            px, py = cx + np.cos(a) * r * 0.6, cy + np.sin(a) * r * 0.6
            d.ellipse(
                [px - r * 0.35, py - r * 0.35, px + r * 0.35, py + r * 0.35], fill=pick(rng, RED + BLUE)
            )
        d.ellipse([cx - r * 0.3, cy - r * 0.3, cx + r * 0.3, cy + r * 0.3], fill=pick(rng, GREEN + BLACK))
    else:  # a figure: head, robe, a fan
        d.ellipse([W * 0.4, H * 0.25, W * 0.6, H * 0.4], fill=pick(rng, BLACK))
        d.polygon(
            [(W * 0.5, H * 0.38), (W * 0.25, H * 0.92), (W * 0.75, H * 0.92)], fill=pick(rng, RED + BLUE)
        )
        d.pieslice([W * 0.55, H * 0.35, W * 0.95, H * 0.7], 200, 340, fill=pick(rng, GREEN))
    draw_char(img, num, (int(W * 0.05), int(H * 0.03), int(W * 0.28), int(H * 0.2)), col, rng, font_path)
    draw_char(img, ch, (int(W * 0.7), int(H * 0.03), int(W * 0.95), int(H * 0.2)), col, rng, font_path)
    return img


def _marker(img, rng, font_path):
    W, H = img.size
    d = ImageDraw.Draw(img)
    col = pick(rng, RED + BLACK + BLUE)
    if rng.random() < 0.6:  # a round / seat marker: 場 or 家 in a ring (never a wind: a wind in a
        # ring taught candidate c1 to read real 南 tiles as X, models/MODEL.md "0.7.0 candidates")
        d.ellipse([W * 0.12, H * 0.2, W * 0.88, H * 0.2 + W * 0.76], outline=col, width=int(W * 0.04))
        draw_char(
            img,
            pick(rng, ["場", "家"]),
            (int(W * 0.3), int(H * 0.3), int(W * 0.7), int(H * 0.68)),
            col,
            rng,
            font_path,
        )
    else:  # the dealer's marker: 起 / 庄 / 親 in a box
        d.rectangle([W * 0.1, H * 0.2, W * 0.9, H * 0.8], outline=col, width=int(W * 0.05))
        draw_char(
            img,
            pick(rng, list(MARKER_TEXT)),
            (int(W * 0.2), int(H * 0.3), int(W * 0.8), int(H * 0.7)),
            col,
            rng,
            font_path,
        )
    return img


def ink_weight(img: Image.Image, rng: np.random.Generator, kind: str | None = None) -> Image.Image:
    """`img` (RGBA face art) with its ink weight changed as `kind` (one of `INK_KINDS`, else drawn):
    `bold` strokes grown, `thin` strokes shrunk (by ~1-2 % of the face width), `worn` ink rubbed off
    in soft patches. Returns a new image. Raises ValueError for an unknown `kind`."""
    kind = kind if kind is not None else INK_KINDS[int(rng.integers(len(INK_KINDS)))]
    a = np.asarray(img.convert("RGBA")).copy()
    alpha = a[:, :, 3]
    w = a.shape[1]
    if kind in ("bold", "thin"):
        k = max(2, round(w * rng.uniform(0.012, 0.025)))
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        if kind == "bold":
            grown = cv2.dilate(alpha, kernel)
            # the colour of the grown rim: the nearest ink (dilate each channel under the ink)
            rgb = a[:, :, :3] * (alpha[:, :, None] > 0)
            a[:, :, :3] = np.where(alpha[:, :, None] > 0, a[:, :, :3], cv2.dilate(rgb, kernel))
            a[:, :, 3] = grown
        else:
            a[:, :, 3] = cv2.erode(alpha, kernel)
    elif kind == "worn":
        h = a.shape[0]
        coarse = rng.uniform(0, 1, (int(rng.integers(4, 9)), int(rng.integers(3, 7)))).astype(np.float32)
        field = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC)
        speck = rng.uniform(0, 1, (h // 4 + 1, w // 4 + 1)).astype(np.float32)
        speck = cv2.resize(speck, (w, h), interpolation=cv2.INTER_NEAREST)[:h, :w]
        keep = np.clip((field - rng.uniform(0.2, 0.45)) * 4, 0.25, 1) * np.where(speck < 0.12, 0.3, 1.0)
        a[:, :, 3] = (alpha * keep).astype(np.uint8)
    else:
        raise ValueError(f"unknown ink kind {kind!r}: one of {', '.join(INK_KINDS)}")
    return Image.fromarray(a)


def red_art(img: Image.Image) -> Image.Image:
    """A riichi 赤五: every ink of the face art (alpha > 0) turned red, its darkness kept."""
    a = np.asarray(img.convert("RGBA")).astype(np.float32)
    dark = 1 - a[:, :, :3].mean(2, keepdims=True) / 255
    red = np.array([200, 30, 40], np.float32)
    face = np.array([245, 242, 230], np.float32)
    ink = np.clip((dark - 0.1) / 0.5, 0, 1)  # the white of the art stays the face
    a[:, :, :3] = face * (1 - ink) + red * ink
    return Image.fromarray(a.astype(np.uint8))
