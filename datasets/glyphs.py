"""Chinese characters on tile faces: which CJK fonts the renderer draws with, whether a font has a
glyph, one glyph drawn to fill a box, and the engraver's variation of a glyph.
"""

from __future__ import annotations

import functools
import glob

import cv2
import numpy as np
from PIL import Image, ImageDraw

from datasets import render_options, styles
from vision.annotate import FONT_DIR

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
    """The CJK font files the renderer draws with (per `RenderOptions.brush_fonts`): the installed
    `FONT_GLOBS`, else `BUNDLED_FONT`, then the installed `BRUSH_FONT_GLOBS` with `brush_fonts`."""
    return _fonts(render_options.OPTIONS.brush_fonts)


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


def draw_char(img: Image.Image, ch: str, box, colour, rng, font_path: str, stroke=0):
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
    opts = render_options.OPTIONS
    glyph = glyph_variation(layer.crop(bb), rng, opts.glyph_variation, opts.glyph_vshear)
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
    confusion worse (datasets/reports/model-history.md, "What changed from 0.2.0"): the shipped
    classifier trains without it; the shipped localiser's scenes keep it.
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
