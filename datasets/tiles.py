"""Tile imagery: faces from several sources, rendered onto tile bodies.

Sources (see models/MODEL.md for licences):
- ``cc0``: FluffyStuff riichi faces (CC0), ``tile_art_cc0/faces_600x800``.
- ``mit``: photos of single real tiles (MIT, training only), ``tile_crops_mit/single_tiles``;
  unlabelled images there are flower tiles.
- ``font``: Chinese-style faces drawn from CJK fonts and procedural dots / bamboo (`datasets.faces`).

Every tile comes out as an RGBA image of the whole tile (face + visible thickness), upright.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from datasets import render_options, styles, world_styles
from datasets.faces import render_font_face
from datasets.palette import BACK_COLOURS, IVORY, jitter, pick
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


# riichi file names of the CC0 set
_CC0_NAMES = (
    [f"Man{n}" for n in range(1, 10)]
    + [f"Pin{n}" for n in range(1, 10)]
    + [f"Sou{n}" for n in range(1, 10)]
    + ["Ton", "Nan", "Shaa", "Pei", "Chun", "Hatsu", "Haku"]
)
# MIT class order -> ours: 0-8 dots, 9-17 bamboo, 18-26 characters, 27-30 ESWN, 31 中, 32 發, 33 白
_MIT_TO_OURS = [9 + i for i in range(9)] + [18 + i for i in range(9)] + list(range(9)) + list(range(27, 34))


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
    """The CC0 art of tile class ``cls`` (RGBA), or None for a back / flower or without ../shared."""
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
    """One MIT photo of class ``cls`` (RGB uint8, its own size), drawn from ``paths`` (default: the
    `mit_index` ones); None where there is none."""
    paths = paths if paths is not None else mit_index().get(cls)
    if not paths:
        return None
    return _load_rgb(pick(rng, paths))


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
            art = _world_inks(art, cls, rng, source)
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
    depth = 0.25 if not render_options.OPTIONS.faint_rims or rng.random() < 0.8 else rng.uniform(0.03, 0.15)
    face = face * (1 - depth + depth * np.clip(rim * 1.6, 0, 1))[:, :, None]
    tile[:fh, :, :3] = np.clip(face, 0, 255).astype(np.uint8)
    return tile


def _world_inks(art: Image.Image, cls: int, rng: np.random.Generator, source: str) -> Image.Image:
    """With `RenderOptions.world_styles` a CC0 5m / 5p / 5s drawn as a riichi 赤五 (all red) that
    share of the time; with `RenderOptions.ink_weight` that share of the faces bold, thin or worn.
    Both off: ``art`` itself and nothing drawn from ``rng``."""
    opts = render_options.OPTIONS
    if (
        opts.world_styles > 0
        and source == "cc0"
        and CLASSES[cls][0] == "5"
        and rng.random() < opts.world_styles
    ):
        art = world_styles.red_art(art)
    if opts.ink_weight > 0 and rng.random() < opts.ink_weight:
        art = world_styles.ink_weight(art, rng)
    return art


def random_style(rng: np.random.Generator) -> dict:
    """A set's look for `make_tile`: ``ivory`` and ``back`` RGB, ``thick`` (body height / face height),
    ``ivory_part`` (of the body), ``radius`` (corner, px); table sets with `RenderOptions.table_sets`."""
    style = {
        "ivory": jitter(rng, pick(rng, IVORY), 8),
        "back": jitter(rng, pick(rng, BACK_COLOURS), 20),
        "thick": float(
            rng.choice([0.0, rng.uniform(0.05, 0.2), rng.uniform(0.15, 0.45)], p=[0.25, 0.45, 0.3])
        ),
        "ivory_part": float(rng.uniform(0.2, 0.7)),
        "radius": int(rng.integers(4, 22)),
    }
    if render_options.OPTIONS.table_sets:
        style = styles.table_style(rng, style)
    return style
