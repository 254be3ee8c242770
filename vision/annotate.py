"""Drawing detections on the photo: a box per tile, its name in Chinese and its code.

Font: the small CJK subset shipped in `vision/fonts/` (Droid Sans Fallback, Apache-2.0),
else a system CJK font, else Pillow's built-in font with ASCII tile codes only.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from scoring.tiles import tile_of
from vision.detection import BACK, FLOWER, Detection, Group, Rejected

FONT_DIR = Path(__file__).with_name("fonts")
FONT_CANDIDATES = (
    FONT_DIR / "TileLabels-DroidSansFallback-subset.ttf",
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),
    Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),
)

_GROUP_COLOURS = {
    "hand": (40, 160, 255),
    "winning_tile": (255, 60, 60),
    "bonus": (0, 200, 0),
    "flowers": (0, 200, 0),
    "pung": (255, 170, 0),
    "kong": (255, 170, 0),
    "concealed_kong": (255, 170, 0),
    "chow": (255, 170, 0),
    "unknown": (200, 200, 200),
}
GREY = (150, 150, 150)
"""Colour of the boxes outside the hand: `off_row` tiles (solid, thin) and rejected boxes (dashed)."""


def tile_name_zh(code: str) -> str:
    """Chinese name of a tile code: `5m` -> `五萬`, `C` -> `中`, `back` -> `背`, `flower` -> `花`."""
    tile = tile_of(code)
    if tile is not None:
        return tile.zh_traditional  # the names of scoring.tiles, as the tiles print them
    return {BACK: "背", FLOWER: "花"}.get(code, code)


@functools.lru_cache(maxsize=8)
def _font(size: int) -> tuple[ImageFont.FreeTypeFont | ImageFont.ImageFont, bool]:
    """`(font, can_draw_cjk)` at `size` px: the CJK font for tile names (no Latin glyphs)."""
    for path in FONT_CANDIDATES:
        if path.is_file():
            try:
                return ImageFont.truetype(str(path), size), True
            except OSError:
                continue
    return _latin_font(size), False


@functools.lru_cache(maxsize=8)
def _latin_font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's built-in scalable font (Latin only) for codes and group kinds."""
    try:
        return ImageFont.load_default(size)
    except (TypeError, OSError):  # Pillow without FreeType
        return ImageFont.load_default()


def _label(draw: ImageDraw.ImageDraw, xy: tuple[float, float], parts, colour) -> None:
    """Draw `[(text, font), ...]` one after another on a black band starting at `xy`."""
    x, y = xy
    boxes = []
    for text, font in parts:
        box = draw.textbbox((x, y), text, font=font)
        boxes.append((x, text, font))
        x = box[2] + 2
    right = x
    top = min(draw.textbbox((bx, y), t, font=f)[1] for bx, t, f in boxes)
    bottom = max(draw.textbbox((bx, y), t, font=f)[3] for bx, t, f in boxes)
    draw.rectangle((xy[0] - 1, top - 1, right, bottom + 1), fill=(0, 0, 0))
    for bx, text, font in boxes:
        draw.text((bx, y), text, fill=colour, font=font)


def annotate(
    pixels: np.ndarray,
    detections: Sequence[Detection],
    groups: Sequence[Group] = (),
    *,
    scale: float = 1.0,
    rejected: Sequence[Rejected] = (),
) -> Image.Image:
    """Draw `detections` (boxes coloured by their group's kind, labels above) on a copy of `pixels`.

    Args:
        pixels: `(h, w, 3)` uint8 RGB.
        detections: boxes in full-resolution pixels; `off_row` ones are drawn grey and thin,
            their role (`discard`, `wall`, `other`) under the box.
        groups: layout groups (indices into `detections`), for colours and kind labels.
        scale: `pixels` size / full size (boxes are multiplied by it).
        rejected: boxes judged not a tile, drawn grey, dashed and thin, without a label.

    Returns:
        A PIL RGB image the size of `pixels`.
    """
    im = Image.fromarray(np.ascontiguousarray(pixels), "RGB")
    draw = ImageDraw.Draw(im)
    kind_of: dict[int, str] = {}
    for g in groups:
        for i in g.tiles:
            kind_of[i] = g.kind_guess
    shorts = [min(d.width, d.height) * scale for d in detections] or [40.0]
    size = max(10, int(np.median(shorts) / 2.3))  # two CJK characters fit over a tile
    font, cjk = _font(size)
    latin = _latin_font(size)
    line = max(2, size // 8)
    thin = max(1, line // 2)
    for r in rejected:
        _dashed_rectangle(draw, tuple(v * scale for v in r.xyxy), GREY, thin, dash=max(4, 2 * line))
    for i, d in enumerate(detections):
        x0, y0, x1, y1 = (v * scale for v in d.xyxy)
        colour = GREY if d.off_row else _GROUP_COLOURS.get(kind_of.get(i, "unknown"), (200, 200, 200))
        draw.rectangle((x0, y0, x1, y1), outline=colour, width=thin if d.off_row else line)
        code = d.tile + ("~" if d.rotated else "")
        if cjk:  # the Chinese name above the box, the code inside it
            _label(draw, (x0, max(0.0, y0 - size * 1.3)), [(tile_name_zh(d.tile), font)], colour)
            _label(draw, (x0 + line + 1, y0 + line + 1), [(code, latin)], colour)
        else:
            _label(draw, (x0, max(0.0, y0 - size * 1.3)), [(code, latin)], colour)
        if d.off_row:  # not the hand: its role under the box
            _label(draw, (x0, y1 + line), [(d.role, latin)], colour)
    for g in groups:
        if not g.tiles:
            continue
        gx0 = min(detections[i].xyxy[0] for i in g.tiles) * scale
        gy1 = max(detections[i].xyxy[3] for i in g.tiles) * scale
        colour = _GROUP_COLOURS.get(g.kind_guess, (200, 200, 200))
        _label(draw, (gx0, gy1 + 2 * line), [(f"{g.kind_guess}?", latin)], colour)
    return im


def _dashed_rectangle(draw: ImageDraw.ImageDraw, box, colour, width: int, dash: int) -> None:
    """A rectangle outline of `dash`-pixel strokes and gaps (Pillow draws no dashed lines)."""
    x0, y0, x1, y1 = box
    sides = ((x0, x1, True, y0), (x0, x1, True, y1), (y0, y1, False, x0), (y0, y1, False, x1))
    for a, b, horizontal, at in sides:
        t = a
        while t < b:
            e = min(t + dash, b)
            draw.line((t, at, e, at) if horizontal else (at, t, at, e), fill=colour, width=width)
            t = e + dash
