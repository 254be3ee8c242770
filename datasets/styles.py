"""Renderer switches of recipe 0.6.0 (`datasets.render_options.RenderOptions`): the sets and tables Jiangxi
players use. Each is drawn only when its switch is on, so older recipes redraw identically.

- `mainland_faces`: 萬 tiles with black numerals over a red 萬, black-ink 中 / 發, and HK faces
  with a corner index (an arabic numeral for suits and flowers, a letter for winds);
- `table_sets`: tile bodies with blue / green / orange / pink / yellow backs and thick bodies,
  as automatic tables use;
- `table_felts`: automatic-table felts (dark green, blue, pink, orange) with a honeycomb or woven
  texture, and wooden rails or racks along an edge of the table.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

TABLE_BACKS = [(40, 90, 190), (30, 140, 80), (235, 130, 40), (230, 120, 160), (235, 200, 50), (60, 160, 200)]
TABLE_FELTS = [(25, 95, 55), (30, 70, 140), (200, 110, 140), (210, 120, 50), (20, 60, 40), (50, 110, 170)]
WOODS = [(150, 95, 55), (120, 70, 40), (185, 135, 85), (90, 55, 35)]
INDEX_COLOURS = [(20, 20, 25), (200, 30, 40), (30, 60, 160), (20, 110, 50)]


@functools.lru_cache(maxsize=256)
def load_font(path: str, size: int, index: int = 0) -> ImageFont.FreeTypeFont:
    """A TrueType/OpenType font at ``size`` px (face ``index`` of a collection, else the first); cached."""
    try:
        return ImageFont.truetype(path, size, index=index)
    except OSError:
        return ImageFont.truetype(path, size)


def black_ink(rng: np.random.Generator, colour: tuple) -> tuple:
    """The colour of a numeral or honour, in black ink 40% of the time."""
    return (20, 20, 25) if rng.random() < 0.4 else colour


def corner_index(img: Image.Image, name: str, rng: np.random.Generator, font_path: str | None) -> Image.Image:
    """An HK-style corner index (30% of faces): `1`..`9` for suits and flowers, E S W N for winds."""
    if font_path is None or rng.random() >= 0.3:
        return img
    if name[0].isdigit():
        text = name[0]
    elif name in "ESWN":
        text = name
    elif name == "flower":
        text = str(int(rng.integers(1, 5)))
    else:
        return img
    w, h = img.size
    size = int(h * rng.uniform(0.12, 0.18))
    d = ImageDraw.Draw(img)
    x = int(w * rng.uniform(0.03, 0.1)) if rng.random() < 0.7 else int(w * rng.uniform(0.75, 0.85))
    y = int(h * rng.uniform(0.02, 0.06))
    col = INDEX_COLOURS[int(rng.integers(len(INDEX_COLOURS)))]
    d.text((x, y), text, fill=(*col, 255), font=load_font(font_path, size))
    return img


def table_style(rng: np.random.Generator, style: dict) -> dict:
    """A tile body of an automatic-table set (half the sets): a coloured back, a thick body."""
    if rng.random() < 0.5:
        col = TABLE_BACKS[int(rng.integers(len(TABLE_BACKS)))]
        style["back"] = tuple(int(np.clip(c + rng.integers(-20, 21), 0, 255)) for c in col)
        style["thick"] = float(rng.uniform(0.25, 0.45))
        style["ivory_part"] = float(rng.uniform(0.35, 0.6))
    return style


def table_felt(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """An automatic table's felt, float32 `(h, w, 3)`: a felt colour with a honeycomb or woven texture."""
    base = np.array(TABLE_FELTS[int(rng.integers(len(TABLE_FELTS)))], np.float32) + rng.normal(0, 10, 3)
    img = np.ones((h, w, 3), np.float32) * base
    step = float(rng.uniform(4, 14)) * max(h, w) / 1024
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if rng.random() < 0.6:  # honeycomb: three plane waves at 60° make a hexagonal lattice
        a = sum(
            np.cos((xx * np.cos(t) + yy * np.sin(t)) * 2 * np.pi / step)
            for t in (0, np.pi / 3, 2 * np.pi / 3)
        )
        tex = np.clip(a / 3, -1, 1)
    else:  # woven
        tex = np.sign(np.sin(xx * 2 * np.pi / step)) * np.sign(np.sin(yy * 2 * np.pi / step)) * 0.5
    img += tex[:, :, None] * rng.uniform(6, 22)
    img += rng.normal(0, 3, (h, w, 1)).astype(np.float32)
    return img


def rail(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """A wooden rail or rack along one edge of the table (in place on float32 `img`)."""
    h, w = img.shape[:2]
    side = int(rng.integers(4))
    depth = int((h if side < 2 else w) * rng.uniform(0.06, 0.2))
    col = np.array(WOODS[int(rng.integers(len(WOODS)))], np.float32)
    length = w if side < 2 else h
    t = np.arange(length, dtype=np.float32)
    grain = np.sin(t[None, :] * rng.uniform(0.02, 0.06) + rng.normal(0, 1, (depth, 1))) * rng.uniform(6, 18)
    band = col[None, None, :] + grain[:, :, None] * np.array([1.0, 0.8, 0.6], np.float32)
    band[: max(1, depth // 12)] *= 1.25  # the lit top edge of the rail
    band[-max(1, depth // 10) :] *= 0.6  # its shadow on the felt
    if side == 0:
        img[:depth] = band[::-1]
    elif side == 1:
        img[h - depth :] = band
    elif side == 2:
        img[:, :depth] = np.transpose(band[::-1], (1, 0, 2))
    else:
        img[:, w - depth :] = np.transpose(band, (1, 0, 2))
    return img


def felt_with_rail(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """`table_felt`, with a rail on 50% of the tables."""
    img = table_felt(rng, h, w)
    if rng.random() < 0.5:
        rail(rng, img)
    return cv2.GaussianBlur(img, (0, 0), 0.6)
