"""The photo with a box and the current name on every tile (pure: JPEG bytes in, JPEG out).

`tile_boxes` says what each detection looks like now (after the player's corrections);
`draw_boxes` paints them on the preview and crops to the tiles. Labels use vision's
Chinese tile names (`vision.annotate.tile_name_zh`) with its bundled font when the page is
Chinese, the short ASCII codes otherwise.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from app.ui.render.tiles import short
from app.ui.state import EditHand, EditTile, Selection

BLUE, GOLD, RED, GREEN, GREY = (28, 126, 214), (232, 163, 23), (224, 49, 49), (18, 150, 93), (120, 120, 120)


@dataclass(frozen=True, slots=True)
class Box:
    """One box to draw: `xyxy` full-resolution pixels, `text` its label, `color` RGB."""

    xyxy: tuple[float, float, float, float]
    text: str
    color: tuple[int, int, int]
    thick: bool = False


def tile_boxes(
    detections: Sequence,
    hand: EditHand,
    selected: Selection | None,
    *,
    chinese: bool,
    stale: bool = False,
) -> tuple[Box, ...]:
    """A box per detection, coloured by what the tile is now: blue selected, gold the winning
    tile, red unsure, green read, grey not in the hand (or every box, when `stale`: the hand
    was typed over the photo)."""
    now: dict[int, tuple[EditTile, bool, bool]] = {}  # detection -> (tile, selected, winning)
    for i, x in enumerate(hand.concealed):
        if x.detection is not None:
            now[x.detection] = (x, selected == Selection(i), hand.winning_index == i)
    for j, m in enumerate(hand.melds):
        for i, x in enumerate(m.tiles):
            if x.detection is not None:
                now[x.detection] = (x, selected == Selection(i, j), False)
    boxes = []
    for k, det in enumerate(detections):
        tile, sel, win = now.get(k, (EditTile(det.tile, det.conf, k, det.uncertain), False, False))
        code, low = tile.code, tile.needs_check
        color = BLUE if sel else GOLD if win else RED if low else GREEN
        if stale or (k not in now and det.tile not in ("F", "flower")):
            color = GREY
        text = box_label(code, chinese) + ("?" if low and not chinese else "")
        boxes.append(Box(tuple(det.xyxy), text, color, sel))
    return tuple(boxes)


def box_label(code: str, chinese: bool) -> str:
    """五筒 (Chinese, with a font that can write it) or 5p."""
    if chinese and label_font():
        from vision.annotate import tile_name_zh

        return tile_name_zh(code)
    return short(code)


@lru_cache(maxsize=1)
def label_font() -> str | None:
    """The bundled font that writes Chinese tile names (vision ships a small one)."""
    try:
        from vision.annotate import FONT_CANDIDATES
    except ImportError:
        return None
    return next((str(p) for p in FONT_CANDIDATES if p.is_file()), None)


@lru_cache(maxsize=64)
def draw_boxes(preview_jpeg: bytes, scale: float, boxes: tuple[Box, ...], font_path: str | None) -> bytes:
    """The preview with `boxes` (scaled by `scale` = preview px per full px), cropped to the tiles."""
    from PIL import Image, ImageDraw

    im = Image.open(io.BytesIO(preview_jpeg)).convert("RGB")
    d = ImageDraw.Draw(im)
    width = max(2, round(max(im.size) / 400))
    for box in boxes:
        x0, y0, x1, y1 = (v * scale for v in box.xyxy)
        d.rectangle((x0, y0, x1, y1), outline=box.color, width=width * (2 if box.thick else 1))
        fs = max(12, round((x1 - x0) * (0.4 if font_path else 0.42)))
        font = _font(font_path, fs)
        tb = d.textbbox((x0, y0), box.text, font=font)
        d.rectangle((x0, y0 - (tb[3] - tb[1]) - 4, x0 + (tb[2] - tb[0]) + 6, y0), fill=box.color)
        d.text((x0 + 3, y0 - (tb[3] - tb[1]) - 4 - (tb[1] - y0)), box.text, fill="white", font=font)
    im = crop_to_tiles(im, [[v * scale for v in b.xyxy] for b in boxes])
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=85)
    return buf.getvalue()


@lru_cache(maxsize=32)
def _font(font_path: str | None, size: int):
    """The label font at `size` px, loaded once (a photo's boxes share a handful of sizes)."""
    from PIL import ImageFont

    return ImageFont.truetype(font_path, size) if font_path else ImageFont.load_default(size)


def crop_to_tiles(im, boxes: list[list[float]]):
    """The part of the image that holds the boxes (plus a margin), so the tiles are big enough
    to check; the whole image when that is most of it anyway."""
    if not boxes:
        return im
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    tile_h = sorted(b[3] - b[1] for b in boxes)[len(boxes) // 2]
    m = 0.9 * tile_h
    box = (max(0, x0 - m), max(0, y0 - 1.6 * m), min(im.width, x1 + m), min(im.height, y1 + m))
    if (box[2] - box[0]) * (box[3] - box[1]) > 0.8 * im.width * im.height:
        return im
    return im.crop(tuple(round(v) for v in box))


__all__ = ["Box", "box_label", "crop_to_tiles", "draw_boxes", "label_font", "tile_boxes"]
