"""Tile imagery: faces from several sources, rendered onto tile bodies.

Sources (see models/MODEL.md for licences):
- ``cc0``: FluffyStuff riichi faces (CC0), ``tile_art_cc0/faces_600x800``.
- ``mit``: photos of single real tiles (MIT, training only), ``tile_crops_mit/single_tiles``;
  unlabelled images there are flower tiles.
- ``font``: Chinese-style faces drawn here from CJK fonts and procedural dots / bamboo.

Every tile comes out as an RGBA image of the whole tile (face + visible thickness), upright.
"""

from __future__ import annotations

import functools
import glob
import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw

from datasets import styles
from scoring.tiles import RANK_ZH
from vision.annotate import FONT_DIR
from vision.modelfiles import CLASS_CODES
from vision.modelfiles import CLASSIFIER_CLASSES as VISION_CLASSIFIER_CLASSES

# Classifier class order: vision's one tile vocabulary (docs/ARCHITECTURE.md). The tile classes
# are drawn; `CLASSIFIER_CLASSES` adds `none` (not a tile) for the models from 0.6.0.
CLASSES = list(CLASS_CODES)
CLASSIFIER_CLASSES = list(VISION_CLASSIFIER_CLASSES)
CLS_INDEX = {c: i for i, c in enumerate(CLASSES)}
BACK = CLS_INDEX["back"]
FLOWER = CLS_INDEX["flower"]

SHARED = Path(os.environ.get("JXMJ_SHARED", Path(__file__).resolve().parents[2] / "shared"))
CC0_DIR = SHARED / "data/tile_art_cc0/faces_600x800"
MIT_DIR = SHARED / "data/tile_crops_mit/single_tiles"

FONT_GLOBS = [
    "/usr/share/fonts/truetype/arphic/ukai.ttc",
    "/usr/share/fonts/truetype/arphic/uming.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "/usr/share/fonts/opentype/noto/NotoSerifCJK-Black.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Black.ttc",
]
# brush (楷) and Mincho hands, as printed on many Chinese sets (Debian fonts-lxgw-wenkai,
# fonts-arphic-gkai00mp, fonts-arphic-bkai00mp, fonts-cwtex-kai, fonts-hanazono); with
# ``RenderOptions.brush_fonts``
BRUSH_FONT_GLOBS = [
    "/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Bold.ttf",
    "/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Regular.ttf",
    "/usr/share/fonts/truetype/arphic-gkai00mp/gkai00mp.ttf",
    "/usr/share/fonts/truetype/arphic-bkai00mp/bkai00mp.ttf",
    "/usr/share/fonts/truetype/cwtex/cwkai.ttf",
    "/usr/share/fonts/truetype/hanazono/HanaMinA.ttf",
]

# riichi file names of the CC0 set
_CC0_NAMES = (
    [f"Man{n}" for n in range(1, 10)]
    + [f"Pin{n}" for n in range(1, 10)]
    + [f"Sou{n}" for n in range(1, 10)]
    + ["Ton", "Nan", "Shaa", "Pei", "Chun", "Hatsu", "Haku"]
)
# MIT class order -> ours: 0-8 dots, 9-17 bamboo, 18-26 characters, 27-30 ESWN, 31 中, 32 發, 33 白
_MIT_TO_OURS = [9 + i for i in range(9)] + [18 + i for i in range(9)] + list(range(9)) + list(range(27, 34))

FACE_W, FACE_H = 300, 400

RED = [(200, 30, 40), (170, 20, 30), (215, 50, 60), (150, 30, 50)]
GREEN = [(20, 120, 60), (10, 90, 50), (40, 140, 70), (0, 100, 80)]
BLUE = [(30, 60, 170), (20, 40, 120), (40, 90, 190), (25, 50, 100)]
BLACK = [(20, 20, 25), (40, 35, 35), (10, 10, 40)]
DARK_GREEN = [(15, 45, 30), (20, 60, 35), (10, 35, 25), (25, 30, 28)]  # near-black inks of Taiwanese sets
IVORY = [(245, 242, 230), (250, 250, 248), (238, 236, 222), (246, 240, 215), (235, 238, 240)]
BACK_COLOURS = [
    (30, 110, 60),
    (20, 80, 150),
    (230, 180, 40),
    (230, 120, 30),
    (200, 60, 120),
    (150, 40, 40),
    (60, 150, 160),
    (90, 60, 140),
    (40, 40, 45),
    (245, 245, 240),
]


def _pick(rng, seq):
    return seq[int(rng.integers(len(seq)))]


def _jitter(rng, col, amount=18):
    return tuple(int(np.clip(c + rng.integers(-amount, amount + 1), 0, 255)) for c in col)


@dataclass
class RenderOptions:
    """Switches for renderer changes made after recipe 0.2.0 (the defaults draw exactly as 0.2.0).

    A recipe sets them in its ``[data.render]`` table (``gen.py --render KEY=VALUE``), so each
    recipe version keeps drawing the same scenes from the same seeds.
    """

    brush_fonts: bool = False  # 0.3.0: add BRUSH_FONT_GLOBS to the fonts
    glyph_variation: float = 0.0  # 0.3.0: 0.7, the probability of `glyph_variation` per glyph
    glyph_vshear: bool = False  # 0.4.0: `glyph_variation` also raises horizontal strokes
    faint_rims: bool = False  # 0.3.0: 20% of faces with almost no darker rim
    sheet_edges: bool = False  # 0.3.0: sheets under 35% of hands, a side may run up to the row
    mainland_faces: bool = False  # 0.6.0: black 萬 numerals, black-ink honours, HK corner indices
    table_sets: bool = False  # 0.6.0: automatic-table sets: coloured backs, thick bodies
    table_felts: bool = False  # 0.6.0: automatic-table felts (honeycomb / woven), wooden rails


OPTIONS = RenderOptions()


def set_render_options(**kw) -> RenderOptions:
    """Set the module's `OPTIONS` (before generation workers fork). Raises TypeError on an unknown key."""
    global OPTIONS
    OPTIONS = RenderOptions(**kw)
    return OPTIONS


BUNDLED_FONT = str(FONT_DIR / "TileLabels-DroidSansFallback-subset.ttf")
"""The annotation font shipped in `vision/fonts/` (Apache-2.0): it has every glyph a tile face needs
(一..九 萬 万 東 南 西 北 中 發), so a machine with none of `FONT_GLOBS` still draws Chinese faces."""


@functools.cache
def _fonts(brush: bool) -> tuple[str, ...]:
    out = [p for pattern in FONT_GLOBS for p in sorted(glob.glob(pattern))] or [BUNDLED_FONT]
    for pattern in BRUSH_FONT_GLOBS if brush else []:
        out.extend(sorted(glob.glob(pattern)))
    return tuple(out)


def available_fonts() -> tuple[str, ...]:
    """The CJK font files the renderer draws with (per `OPTIONS.brush_fonts`): the installed
    `FONT_GLOBS`, else `BUNDLED_FONT`, then the installed `BRUSH_FONT_GLOBS` with `brush_fonts`."""
    return _fonts(OPTIONS.brush_fonts)


_font = styles.load_font


@functools.cache
def has_glyph(font_path: str, ch: str) -> bool:
    """Whether the font draws ``ch`` (a GB-only Kai has no 萬, a Big5-only one no 发)."""
    font = _font(font_path, 48)

    def bitmap(c):
        im = Image.new("L", (64, 64), 0)
        ImageDraw.Draw(im).text((4, 4), c, font=font, fill=255)
        return im.tobytes()

    b = bitmap(ch)
    return any(b) and b != bitmap("\uffff")


def _draw_char(img: Image.Image, ch: str, box, colour, rng, font_path: str, stroke=0):
    """Draw one glyph scaled to fill ``box`` (x0, y0, x1, y1); a font without it falls back to one with it."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    size = 200
    if not has_glyph(font_path, ch):
        font_path = next((f for f in available_fonts() if has_glyph(f, ch)), font_path)
    font = _font(font_path, size)
    layer = Image.new("L", (size * 2, size * 2), 0)
    d = ImageDraw.Draw(layer)
    d.text((size // 2, size // 2), ch, font=font, fill=255, stroke_width=stroke, stroke_fill=255)
    bb = layer.getbbox()
    if bb is None:
        return
    glyph = glyph_variation(layer.crop(bb), rng, OPTIONS.glyph_variation, OPTIONS.glyph_vshear)
    gw, gh = glyph.size
    # stretch a little to fill the box like tile calligraphy does
    sx, sy = w / gw, h / gh
    s = min(sx, sy)
    sx = min(sx, s * rng.uniform(1.0, 1.25))
    sy = min(sy, s * rng.uniform(1.0, 1.25))
    glyph = glyph.resize((max(1, int(gw * sx)), max(1, int(gh * sy))), Image.BILINEAR)
    gx = x0 + (w - glyph.size[0]) // 2
    gy = y0 + (h - glyph.size[1]) // 2
    solid = Image.new("RGBA", glyph.size, (*colour, 255))
    img.paste(solid, (gx, gy), glyph)


def glyph_variation(
    glyph: Image.Image, rng: np.random.Generator, p: float = 0.7, vshear: bool = True
) -> Image.Image:
    """Vary a rendered glyph (8-bit mask) the way hand-cut tile engravings vary from a font.

    With probability ``p``: a smooth random warp (strokes bend, hooks move), a stroke-weight change
    (thicker or thinner by a few pixels at the 200-px render size), a small horizontal shear and a
    vertical shear that raises horizontal strokes to the right (up to ~17°, with ``vshear``).
    A font gives one form of each character; tile makers carve their own. ``p = 0`` draws nothing
    from ``rng`` (recipe 0.2.0 redraws its scenes exactly). Measured: it made the real 七萬 → 九萬
    confusion worse (models/MODEL.md, "What changed from 0.2.0"): the shipped classifier trains without
    it; the shipped localiser's scenes keep it.
    """
    if p <= 0 or rng.random() >= p:
        return glyph
    a = np.asarray(glyph, np.uint8)
    pad = 12 + (int(0.2 * max(a.shape)) if vshear else 0)  # room for the shears
    a = cv2.copyMakeBorder(a, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    h, w = a.shape
    if rng.random() < 0.7:
        # smooth displacement field: coarse noise upsampled, amplitude up to ~6% of the glyph size
        amp = rng.uniform(0.02, 0.06) * max(h, w)
        grid = int(rng.integers(3, 6))
        coarse = rng.uniform(-1, 1, (2, grid, grid)).astype(np.float32)
        dx, dy = (cv2.resize(c, (w, h), interpolation=cv2.INTER_CUBIC) for c in coarse)
        xx, yy = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
        a = cv2.remap(a, xx + dx * amp, yy + dy * amp, cv2.INTER_LINEAR, borderValue=0)
    if rng.random() < 0.5:
        k = int(rng.integers(1, 4)) * 2 + 1
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        a = cv2.dilate(a, kernel) if rng.random() < 0.6 else cv2.erode(a, kernel)
    if rng.random() < 0.5:
        sh = rng.uniform(-0.18, 0.18)
        M = np.float32([[1, sh, -sh * h / 2], [0, 1, 0]])
        a = cv2.warpAffine(a, M, (w, h), flags=cv2.INTER_LINEAR, borderValue=0)
    if vshear and rng.random() < 0.5:
        # brush hands raise horizontal strokes to the right, tile calligraphy steeply so (see the
        # real single-tile crops we train on): a vertical shear, mostly right-side-up
        sv = rng.uniform(-0.3, 0.08)
        M = np.float32([[1, 0, 0], [sv, 1, -sv * w / 2]])
        a = cv2.warpAffine(a, M, (w, h), flags=cv2.INTER_LINEAR, borderValue=0)
    out = Image.fromarray(a)
    bb = out.getbbox()
    return out.crop(bb) if bb is not None else glyph


_NUMERALS = RANK_ZH  # the ranks printed on the 万 faces

# dot layouts in a unit face (cx, cy), radius
_DOTS = {
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


def _dot_colours(n, rng):
    g, r, b = _pick(rng, GREEN), _pick(rng, RED), _pick(rng, BLUE)
    if rng.random() < 0.35:  # dark inks
        g, b = _pick(rng, DARK_GREEN), _pick(rng, DARK_GREEN + BLACK)
    scheme = rng.random()
    if scheme < 0.25:  # single colour set
        c = _pick(rng, [g, r, b])
        return [c] * n
    if n == 1:
        return [_pick(rng, [g, r, b])]
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


def _draw_dot(d: ImageDraw.ImageDraw, cx, cy, r, colour, rng, style):
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
        d.ellipse([cx - rr, cy - rr, cx + rr, cy + rr], fill=_pick(rng, RED))
    else:  # simple filled disc with white ring
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=colour)
        r2 = r * 0.6
        d.ellipse([cx - r2, cy - r2, cx + r2, cy + r2], outline=(250, 250, 245), width=max(2, int(r * 0.15)))


def _draw_stick(d: ImageDraw.ImageDraw, x0, y0, x1, y1, colour, rng, width, chain=False):
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


def _bamboo_layout(n):
    """Return list of (cx, cy, h) for sticks in unit coordinates, or 'eight'."""
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


def _draw_bird(img: Image.Image, rng):
    d = ImageDraw.Draw(img)
    g, r = _pick(rng, GREEN), _pick(rng, RED)
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
            fill=_pick(rng, [g, r, _pick(rng, BLUE)]),
            width=12,
        )
    d.line([cx - w * 0.05, cy + h * 0.2, cx - w * 0.1, cy + h * 0.35], fill=r, width=8)
    d.line([cx + w * 0.05, cy + h * 0.2, cx + w * 0.08, cy + h * 0.35], fill=r, width=8)


def _draw_flower(img: Image.Image, rng, font_path):
    d = ImageDraw.Draw(img)
    w, h = img.size
    g = _pick(rng, GREEN)
    for _ in range(int(rng.integers(3, 7))):
        x0 = w * rng.uniform(0.3, 0.7)
        d.line(
            [x0, h * 0.92, w * rng.uniform(0.15, 0.85), h * rng.uniform(0.3, 0.6)],
            fill=g,
            width=int(rng.integers(5, 12)),
        )
    for _ in range(int(rng.integers(1, 4))):
        cx, cy, r = w * rng.uniform(0.3, 0.7), h * rng.uniform(0.35, 0.6), w * rng.uniform(0.08, 0.15)
        col = _pick(rng, RED + BLUE)
        for k in range(5):
            a = k * 2 * np.pi / 5
            px, py = cx + np.cos(a) * r * 0.7, cy + np.sin(a) * r * 0.7
            d.ellipse([px - r * 0.55, py - r * 0.55, px + r * 0.55, py + r * 0.55], fill=col)
    num = str(int(rng.integers(1, 5)))
    ch = _pick(rng, list("梅蘭竹菊春夏秋冬"))
    corner = rng.random() < 0.5
    col = _pick(rng, RED + BLUE)
    if corner:
        _draw_char(img, num, (int(w * 0.05), int(h * 0.03), int(w * 0.3), int(h * 0.25)), col, rng, font_path)
        _draw_char(img, ch, (int(w * 0.65), int(h * 0.03), int(w * 0.95), int(h * 0.25)), col, rng, font_path)
    else:
        _draw_char(img, ch, (int(w * 0.05), int(h * 0.03), int(w * 0.3), int(h * 0.25)), col, rng, font_path)
        _draw_char(img, num, (int(w * 0.7), int(h * 0.03), int(w * 0.95), int(h * 0.25)), col, rng, font_path)


def render_font_face(cls: int, rng: np.random.Generator) -> Image.Image:
    """A Chinese-style face for class ``cls`` on a transparent FACE_W x FACE_H canvas."""
    img = Image.new("RGBA", (FACE_W, FACE_H), (0, 0, 0, 0))
    fonts = available_fonts()
    font_path = _pick(rng, list(fonts)) if fonts else None
    name = CLASSES[cls]
    W, H = FACE_W, FACE_H
    if name.endswith("m") and len(name) == 2 and font_path:
        n = int(name[0])
        ch = _NUMERALS[n - 1]
        if n == 5 and rng.random() < 0.6:
            ch = "伍"
        num_col = _pick(rng, BLACK + BLUE + BLACK + RED[:1])
        if OPTIONS.mainland_faces:
            num_col = styles.black_ink(rng, num_col)
        wan = "萬" if rng.random() < 0.85 else "万"
        wan_col = _pick(rng, RED)
        split = rng.uniform(0.4, 0.5)
        pad = rng.uniform(0.04, 0.12)
        _draw_char(
            img,
            ch,
            (int(W * (0.18 + pad)), int(H * 0.04), int(W * (0.82 - pad)), int(H * split)),
            num_col,
            rng,
            font_path,
        )
        _draw_char(
            img,
            wan,
            (int(W * 0.1), int(H * (split + 0.03)), int(W * 0.9), int(H * 0.97)),
            wan_col,
            rng,
            font_path,
        )
    elif name.endswith("p") and len(name) == 2:
        n = int(name[0])
        pts, r = _DOTS[n]
        cols = _dot_colours(n, rng)
        style = int(rng.integers(4))
        d = ImageDraw.Draw(img)
        sx = rng.uniform(0.9, 1.05)
        for (ux, uy), col in zip(pts, cols, strict=True):
            cx = W * (0.5 + (ux - 0.5) * sx)
            cy = H * uy
            _draw_dot(
                d, cx, cy, r * W * rng.uniform(0.9, 1.05), col, rng, style if n > 1 else int(rng.integers(4))
            )
    elif name.endswith("s") and len(name) == 2:
        n = int(name[0])
        d = ImageDraw.Draw(img)
        g, r_, b = _pick(rng, GREEN), _pick(rng, RED), _pick(rng, BLUE)
        chain = rng.random() < 0.35
        if rng.random() < 0.35:
            g = _pick(rng, DARK_GREEN + BLACK)
        width = W * rng.uniform(0.055, 0.1)
        if n == 1:
            if rng.random() < 0.8:
                _draw_bird(img, rng)
            else:
                _draw_stick(d, W * 0.5, H * 0.1, W * 0.5, H * 0.9, g, rng, width * 1.6)
        elif n == 8:
            for side in (-1, 1):
                for yy in (0.27, 0.73):
                    xs = 0.5 + side * 0.12
                    _draw_stick(
                        d, W * xs, H * (yy - 0.19), W * (xs + side * 0.3), H * (yy + 0.19), g, rng, width
                    )
                    _draw_stick(
                        d,
                        W * (0.5 + side * 0.05),
                        H * (yy - 0.19),
                        W * (0.5 + side * 0.05),
                        H * (yy + 0.19),
                        g,
                        rng,
                        width,
                    )
        else:
            lay = _bamboo_layout(n)
            for k, (ux, uy, uh) in enumerate(lay):
                col = g
                if n in (5, 7, 9) and rng.random() < 0.7:
                    if (n == 5 and k == 2) or (n == 7 and k == 0) or (n == 9 and k in (1, 4, 7)):
                        col = r_
                if n == 9 and rng.random() < 0.3 and k in (0, 3, 6):
                    col = b
                if rng.random() < 0.1:
                    col = b
                _draw_stick(d, W * ux, H * (uy - uh / 2), W * ux, H * (uy + uh / 2), col, rng, width, chain)
    elif name in "ESWN" and font_path:
        ch = {"E": "東", "S": "南", "W": "西", "N": "北"}[name]
        if rng.random() < 0.1:
            ch = {"東": "东", "南": "南", "西": "西", "北": "北"}[ch]
        col = _pick(rng, BLACK + BLACK + BLUE)
        _draw_char(img, ch, (int(W * 0.08), int(H * 0.12), int(W * 0.92), int(H * 0.88)), col, rng, font_path)
    elif name == "C" and font_path:
        col = _pick(rng, RED)
        if OPTIONS.mainland_faces:
            col = styles.black_ink(rng, col)
        _draw_char(img, "中", (int(W * 0.1), int(H * 0.08), int(W * 0.9), int(H * 0.92)), col, rng, font_path)
    elif name == "F" and font_path:
        ch = "發" if rng.random() < 0.85 else "发"
        col = _pick(rng, GREEN + GREEN + DARK_GREEN + BLACK[:1])
        if OPTIONS.mainland_faces:
            col = styles.black_ink(rng, col)
        _draw_char(img, ch, (int(W * 0.06), int(H * 0.1), int(W * 0.94), int(H * 0.9)), col, rng, font_path)
    elif name == "P":
        d = ImageDraw.Draw(img)
        style = rng.random()
        col = _pick(rng, BLUE + BLACK[:1] + GREEN[:1])
        mx, my = W * rng.uniform(0.1, 0.22), H * rng.uniform(0.08, 0.18)
        if style < 0.8:
            lw = int(W * rng.uniform(0.03, 0.07))
            d.rectangle([mx, my, W - mx, H - my], outline=col, width=lw)
            if rng.random() < 0.6:
                m2 = lw * 2.2
                d.rectangle([mx + m2, my + m2, W - mx - m2, H - my - m2], outline=col, width=max(2, lw // 2))
            if rng.random() < 0.4:  # chain pattern
                for t in np.linspace(0, 1, 9):
                    for x, y in (
                        (mx + (W - 2 * mx) * t, my),
                        (mx + (W - 2 * mx) * t, H - my),
                        (mx, my + (H - 2 * my) * t),
                        (W - mx, my + (H - 2 * my) * t),
                    ):
                        d.ellipse([x - lw, y - lw, x + lw, y + lw], outline=col, width=2)
        # else: blank white dragon
    elif name == "flower" and font_path:
        _draw_flower(img, rng, font_path)
    if OPTIONS.mainland_faces:
        img = styles.corner_index(img, name, rng, font_path)
    return img


@functools.cache
def _cc0_face(cls: int) -> Image.Image | None:
    if cls >= 34:
        p = CC0_DIR / "Back.png"
    else:
        p = CC0_DIR / f"{_CC0_NAMES[cls]}.png"
    if not p.exists():
        return None
    im = Image.open(p).convert("RGBA")
    return im


def cc0_face(cls: int) -> Image.Image | None:
    if cls >= 34:
        return None
    return _cc0_face(cls)


@functools.cache
def mit_index() -> dict[int, list[str]]:
    """Class -> list of MIT single tile photo paths (unlabelled images are flowers)."""
    out: dict[int, list[str]] = {}
    img_dir, lab_dir = MIT_DIR / "images", MIT_DIR / "labels"
    if not img_dir.exists():
        return out
    for p in sorted(img_dir.glob("*.jpg")):
        lab = lab_dir / (p.stem + ".txt")
        if lab.exists():
            txt = lab.read_text().split()
            if not txt:
                continue
            cls = _MIT_TO_OURS[int(txt[0])]
        else:
            cls = FLOWER
        out.setdefault(cls, []).append(str(p))
    return out


@functools.lru_cache(maxsize=1024)
def _load_rgb(path: str) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB"))


def mit_tile(cls: int, rng: np.random.Generator, paths: list[str] | None = None) -> np.ndarray | None:
    paths = paths if paths is not None else mit_index().get(cls)
    if not paths:
        return None
    return _load_rgb(_pick(rng, paths))


def _rounded_mask(w, h, r):
    m = np.zeros((h, w), np.uint8)
    r = int(max(1, min(r, w // 2 - 1, h // 2 - 1)))
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1)
    return m


def make_tile(cls: int, rng: np.random.Generator, source: str, style: dict) -> np.ndarray:
    """Whole tile as RGBA uint8 (face W=150, face H=200, plus thickness strip at the bottom).

    ``style``: dict with ivory, back colour, thickness fraction, corner radius (shared by a scene's set).
    """
    fw, fh = 150, 200
    thick = int(fh * style["thick"])
    h = fh + thick
    tile = np.zeros((h, fw, 4), np.uint8)
    ivory = np.array(style["ivory"], np.float32)
    back_col = np.array(style["back"], np.float32)
    # thickness: ivory layer then back colour layer
    if thick > 0:
        split = int(thick * style["ivory_part"])
        tile[fh - 10 : fh + split, :, :3] = (ivory * 0.8).astype(np.uint8)
        tile[fh + split :, :, :3] = (back_col * 0.85).astype(np.uint8)
    tile[:, :, 3] = _rounded_mask(fw, h, style["radius"])
    if cls == BACK:
        face = np.ones((fh, fw, 3), np.float32) * back_col
    else:
        face = np.ones((fh, fw, 3), np.float32) * ivory
    # slight gradient on the face
    gy = np.linspace(1.02, 0.94, fh, dtype=np.float32)[:, None, None]
    face = face * gy
    art = None
    if cls != BACK:
        if source == "mit" and mit_index():
            photo = mit_tile(cls, rng)
            if photo is not None:
                face = cv2.resize(photo, (fw, fh), interpolation=cv2.INTER_AREA).astype(np.float32)
        elif source == "cc0" and cc0_face(cls) is not None:
            art = cc0_face(cls)
        else:  # font faces; also where the photos or the art are absent (../shared), never blank faces
            art = render_font_face(cls, rng)
        if art is not None:
            m = rng.uniform(0.06, 0.14)
            aw, ah = int(fw * (1 - 2 * m)), int(fh * (1 - 2 * m * rng.uniform(0.7, 1.1)))
            a = np.asarray(art.resize((aw, ah), Image.BILINEAR), np.float32)
            ox = (fw - aw) // 2 + int(rng.integers(-3, 4))
            oy = (fh - ah) // 2 + int(rng.integers(-3, 4))
            ox, oy = max(0, ox), max(0, oy)
            a = a[: fh - oy, : fw - ox]
            alpha = a[:, :, 3:4] / 255.0
            region = face[oy : oy + a.shape[0], ox : ox + a.shape[1]]
            face[oy : oy + a.shape[0], ox : ox + a.shape[1]] = region * (1 - alpha) + a[:, :, :3] * alpha
    # darker rim around the face
    rim = _rounded_mask(fw, fh, style["radius"]).astype(np.float32) / 255.0
    rim = cv2.GaussianBlur(rim, (0, 0), 3)
    # (printed and flat-faced tiles have almost no rim: their edge on white paper is faint)
    depth = 0.25 if not OPTIONS.faint_rims or rng.random() < 0.8 else rng.uniform(0.03, 0.15)
    face = face * (1 - depth + depth * np.clip(rim * 1.6, 0, 1))[:, :, None]
    tile[:fh, :, :3] = np.clip(face, 0, 255).astype(np.uint8)
    return tile


def random_style(rng: np.random.Generator) -> dict:
    style = {
        "ivory": _jitter(rng, _pick(rng, IVORY), 8),
        "back": _jitter(rng, _pick(rng, BACK_COLOURS), 20),
        "thick": float(
            rng.choice([0.0, rng.uniform(0.05, 0.2), rng.uniform(0.15, 0.45)], p=[0.25, 0.45, 0.3])
        ),
        "ivory_part": float(rng.uniform(0.2, 0.7)),
        "radius": int(rng.integers(4, 22)),
    }
    if OPTIONS.table_sets:
        style = styles.table_style(rng, style)
    return style
