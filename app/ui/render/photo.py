"""The photo with a box and the current name on every tile (pure: JPEG bytes in, JPEG out).

`tile_boxes` says what each detection looks like now (after the player's corrections);
`draw_boxes` paints them on the preview and crops to the tiles. Labels use vision's
Chinese tile names (`vision.annotate.tile_name_zh`) with its bundled font when the page is
Chinese, the short ASCII codes otherwise.
"""

from __future__ import annotations

import io
import threading
from collections import OrderedDict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from app.ui.render.tiles import short
from app.ui.state import EditHand, EditTile, Selection
from app.ui.state.photo_tiles import SET_ASIDE, left_out, photo_tile

BLUE, GOLD, RED, GREEN, GREY = (28, 126, 214), (232, 163, 23), (224, 49, 49), (18, 150, 93), (120, 120, 120)
GREY_VEIL = (200, 200, 200)
"""The colour laid (at 60 % opacity) over a tile that is not in the hand."""
PREVIEW_SIDE = 1100
"""The photo kept in the session for drawing boxes (`preview`), long side in px."""
FRESH = 8
"""Previews made and not drawn yet whose pixels are kept (`preview` puts them, `draw_boxes` takes
them): the run that read a photo draws its boxes on those pixels, not on its JPEG decoded again."""
_fresh: OrderedDict[int, tuple[bytes, Any]] = OrderedDict()  # id(jpeg) -> (jpeg, its pixels)
_fresh_lock = threading.Lock()


@dataclass(frozen=True, slots=True)
class Box:
    """One box to draw: `xyxy` full-resolution pixels, `text` its label, `color` RGB of its frame.

    `unsure` adds the red dashed frame of a reading to check (inside the frame of `color`
    when that is another mark: a winning or selected tile shows both); `grey` veils a tile that
    is not in the hand."""

    xyxy: tuple[float, float, float, float]
    text: str
    color: tuple[int, int, int]
    thick: bool = False
    unsure: bool = False
    grey: bool = False


def tile_boxes(
    detections: Sequence,
    hand: EditHand,
    selected: Selection | None,
    *,
    chinese: bool,
    stale: bool = False,
    set_aside: Collection[str] = SET_ASIDE,
) -> tuple[Box, ...]:
    """A box per detection, coloured by what the tile is now: blue selected, gold the winning
    tile, green read, each with a red dashed frame when unsure (`EditTile.needs_check`: flagged, or
    read below `SURE_CONF`), red dashed alone when only unsure; greyed when not in the hand
    (`left_out`), or every box when `stale` (the hand was typed over the photo)."""
    now: dict[int, tuple[EditTile, bool, bool]] = {}  # detection -> (tile, selected, winning)
    for i, x in enumerate(hand.concealed):
        if x.detection is not None:
            now[x.detection] = (x, selected == Selection(i), hand.winning_index == i)
    for j, m in enumerate(hand.melds):
        for i, x in enumerate(m.tiles):
            if x.detection is not None:
                now[x.detection] = (x, selected == Selection(i, j), False)
    out = set(left_out(detections, hand, set_aside))
    boxes = []
    for k, det in enumerate(detections):
        tile, sel, win = now.get(k, (photo_tile(det, k), False, False))
        grey = stale or k in out
        low = tile.needs_check and not grey
        color = GREY if grey else BLUE if sel else GOLD if win else RED if low else GREEN
        text = box_label(tile.code, chinese) + ("?" if low and not chinese else "")
        boxes.append(Box(tuple(det.xyxy), text, color, sel, low, grey))
    return tuple(boxes)


def unsure_count(boxes: Sequence[Box]) -> int:
    """The red dashed frames `draw_boxes` draws (the caption counts these, not the reader's flags)."""
    return sum(1 for b in boxes if b.unsure)


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


@lru_cache(maxsize=16)
def draw_boxes(
    preview_jpeg: bytes,
    scale: float,
    boxes: tuple[Box, ...],
    font_path: str | None,
    cut: tuple[int, int, int] = (0, 0, 0),
) -> bytes:
    """The preview with `boxes` (scaled by `scale` = preview px per full px), cropped to the tiles;
    `cut`: a preview already cut to them (`Photo.cut`: its top-left in the whole preview and the
    whole one's long side, which sizes the frames; nothing left to crop).

    Greyed tiles first (veiled, thin frame), then the hand's; an unsure tile's red dashed frame
    lies inside its winning / selected frame, so both marks show. Kept for the last 16 photos and
    frames asked (every rerun draws the photo: a tap elsewhere on the page draws it no more; bytes
    hash once, the boxes are frozen)."""
    from PIL import Image, ImageDraw

    im = _pixels(preview_jpeg)
    px, py, side = cut
    width = max(2, round((side or max(im.size)) / 400))
    at = [
        [x0 * scale - px, y0 * scale - py, x1 * scale - px, y1 * scale - py]
        for x0, y0, x1, y1 in (b.xyxy for b in boxes)
    ]
    region = tile_region(im.size, at)
    ox, oy = region[:2] if region is not None else (0, 0)
    ox, oy = ox + px, oy + py
    if region is not None:  # cropped first: the same pixels, less to veil, draw and encode
        im = im.crop(region)

    def frame(box: Box) -> tuple[float, float, float, float]:
        x0, y0, x1, y1 = (v * scale for v in box.xyxy)
        return x0 - ox, y0 - oy, x1 - ox, y1 - oy

    if any(box.grey for box in boxes):
        veil = Image.new("RGBA", im.size, (0, 0, 0, 0))
        dv = ImageDraw.Draw(veil)
        for box in boxes:
            if box.grey:
                dv.rectangle(frame(box), fill=(*GREY_VEIL, 150))
        im = Image.alpha_composite(im.convert("RGBA"), veil).convert("RGB")
    d = ImageDraw.Draw(im)
    for box in sorted(boxes, key=lambda b: not b.grey):
        x0, y0, x1, y1 = frame(box)
        w = max(1, width // 2) if box.grey else width * (2 if box.thick else 1)
        if box.unsure and box.color == RED:
            dashed_rectangle(d, (x0, y0, x1, y1), RED, width)
        else:
            d.rectangle((x0, y0, x1, y1), outline=box.color, width=w)
            if box.unsure:  # inside the other mark, a little bolder than a frame: both read at a glance
                inset = w + 1
                dashed_rectangle(d, (x0 + inset, y0 + inset, x1 - inset, y1 - inset), RED, width + 1)
        fs = max(12, round((x1 - x0) * (0.4 if font_path else 0.42)))
        left, top, right, bottom = _text_box(font_path, fs, box.text)  # d.textbbox at (0, 0)
        tb = (x0 + left, y0 + top, x0 + right, y0 + bottom)
        font = _font(font_path, fs)
        d.rectangle((x0, y0 - (tb[3] - tb[1]) - 4, x0 + (tb[2] - tb[0]) + 6, y0), fill=box.color)
        d.text((x0 + 3, y0 - (tb[3] - tb[1]) - 4 - (tb[1] - y0)), box.text, fill="white", font=font)
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=85, subsampling=0)  # full colour resolution: thin red dashes stay red
    return buf.getvalue()


def preview(
    image, width: int = 0, boxes: Sequence[Sequence[float]] = ()
) -> tuple[bytes, float, tuple[int, int, int]]:
    """The photo as a JPEG no longer than `PREVIEW_SIDE` on its long side (each side >= 1 px), cut
    to the part that holds `boxes` (the read's boxes in the pixels of a photo `width` px wide: the
    region `draw_boxes` shows, `tile_region`), its scale (preview px per px of
    that photo) and the cut (`Photo.cut`: its top-left in the whole preview's px, the whole one's
    long side). Only the tiles' part is resized, encoded, kept in the session and decoded again to
    draw the boxes (issue 37: a third of the bench's 12 MP photo)."""
    from PIL import Image

    im = Image.fromarray(image)
    shrink = min(1.0, PREVIEW_SIDE / max(im.size))
    size = (max(1, round(im.width * shrink)), max(1, round(im.height * shrink)))
    scale = shrink * im.width / (width or im.width)
    region = tile_region(size, [[v * scale for v in b] for b in boxes])
    x0, y0, x1, y1 = region if region is not None else (0, 0, *size)
    if shrink < 1.0:  # resized and cut in one step: only the region's pixels
        src = (x0 / shrink, y0 / shrink, min(im.width, x1 / shrink), min(im.height, y1 / shrink))
        im = im.resize((max(1, x1 - x0), max(1, y1 - y0)), Image.Resampling.BILINEAR, box=src)
    elif region is not None:
        im = im.crop(region)
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=85)
    jpeg = buf.getvalue()
    with _fresh_lock:
        _fresh[id(jpeg)] = (jpeg, im)  # held: no other object takes its id meanwhile
        while len(_fresh) > FRESH:
            _fresh.popitem(last=False)
    return jpeg, scale, (x0, y0, max(size))


def _pixels(jpeg: bytes):
    """The preview `jpeg` as an RGB picture to draw on: the pixels `preview` made it from when they
    were not drawn yet (the photo's own run: no decode, issue 37), else `jpeg` decoded."""
    from PIL import Image

    with _fresh_lock:
        got = _fresh.pop(id(jpeg), None)
    if got is not None and got[0] is jpeg:
        return got[1]
    return Image.open(io.BytesIO(jpeg)).convert("RGB")


def dashed_rectangle(d, xyxy: tuple[float, float, float, float], color, width: int) -> None:
    """A dashed frame (dashes and gaps of 3 x `width`) drawn with `d` (a `PIL.ImageDraw`)."""
    x0, y0, x1, y1 = xyxy
    dash = 3 * width
    for a, b, horizontal, at in (
        (x0, x1, True, y0),
        (x0, x1, True, y1),
        (y0, y1, False, x0),
        (y0, y1, False, x1),
    ):
        p = a
        while p < b:
            q = min(b, p + dash)
            line = (p, at, q, at) if horizontal else (at, p, at, q)
            d.line(line, fill=color, width=width)
            p += 2 * dash


@lru_cache(maxsize=512)
def _text_box(font_path: str | None, size: int, text: str) -> tuple[float, float, float, float]:
    """A label's box drawn at (0, 0) (what `ImageDraw.textbbox` gives, shifted to where it is
    drawn), measured once: a photo's labels are a few names at a few sizes, measured again on every
    draw before (~0.8 ms of a 4 ms draw)."""
    left, top, right, bottom = _font(font_path, size).getbbox(text)
    return left, top, right, bottom


@lru_cache(maxsize=32)
def _font(font_path: str | None, size: int):
    """The label font at `size` px, loaded once (a photo's boxes share a handful of sizes)."""
    from PIL import ImageFont

    return ImageFont.truetype(font_path, size) if font_path else ImageFont.load_default(size)


def crop_to_tiles(im, boxes: list[list[float]]):
    """The part of the image that holds the boxes (plus a margin), so the tiles are big enough
    to check; the whole image when that is most of it anyway."""
    region = tile_region(im.size, boxes)
    return im if region is None else im.crop(region)


def tile_region(size: tuple[int, int], boxes: list[list[float]]) -> tuple[int, int, int, int] | None:
    """`crop_to_tiles`'s region of an image of `size` (whole pixels), None for the whole image."""
    if not boxes:
        return None
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    tile_h = sorted(b[3] - b[1] for b in boxes)[len(boxes) // 2]
    m = 0.9 * tile_h
    box = (max(0, x0 - m), max(0, y0 - 1.6 * m), min(size[0], x1 + m), min(size[1], y1 + m))
    if (box[2] - box[0]) * (box[3] - box[1]) > 0.8 * size[0] * size[1]:
        return None
    x0r, y0r, x1r, y1r = (round(v) for v in box)
    return x0r, y0r, x1r, y1r


__all__ = [
    "Box",
    "box_label",
    "crop_to_tiles",
    "dashed_rectangle",
    "draw_boxes",
    "label_font",
    "preview",
    "tile_boxes",
    "tile_region",
    "unsure_count",
]
