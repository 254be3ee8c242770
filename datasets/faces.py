"""Chinese-style tile faces drawn from CJK fonts and procedural dots / bamboo (the ``font`` source
of `datasets.tiles`).
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from datasets import render_options, styles, world_styles
from datasets.face_parts import DOTS, bamboo_layout, dot_colours, draw_bird, draw_dot, draw_flower, draw_stick
from datasets.glyphs import available_fonts, draw_char
from datasets.palette import BLACK, BLUE, DARK_GREEN, GREEN, RED, pick
from scoring.tiles import RANK_ZH
from vision.modelfiles import CLASS_CODES

FACE_W, FACE_H = 300, 400

NUMERALS = RANK_ZH  # the ranks printed on the 万 faces


def render_font_face(cls: int, rng: np.random.Generator) -> Image.Image:
    """A Chinese-style face for class ``cls`` on a transparent FACE_W x FACE_H canvas."""
    img = Image.new("RGBA", (FACE_W, FACE_H), (0, 0, 0, 0))
    fonts = available_fonts()
    font_path = pick(rng, list(fonts)) if fonts else None
    name = CLASS_CODES[cls]
    W, H = FACE_W, FACE_H
    share = render_options.OPTIONS.world_styles
    if share > 0 and world_styles.kinds_for(name) and rng.random() < share:
        world = world_styles.world_face(name, rng, font_path)
        if world is not None:
            return world
    if name.endswith("m") and len(name) == 2 and font_path:
        n = int(name[0])
        ch = NUMERALS[n - 1]
        if n == 5 and rng.random() < 0.6:
            ch = "伍"
        num_col = pick(rng, BLACK + BLUE + BLACK + RED[:1])
        if render_options.OPTIONS.mainland_faces:
            num_col = styles.black_ink(rng, num_col)
        wan = "萬" if rng.random() < 0.85 else "万"
        wan_col = pick(rng, RED)
        split = rng.uniform(0.4, 0.5)
        pad = rng.uniform(0.04, 0.12)
        draw_char(
            img,
            ch,
            (int(W * (0.18 + pad)), int(H * 0.04), int(W * (0.82 - pad)), int(H * split)),
            num_col,
            rng,
            font_path,
        )
        draw_char(
            img,
            wan,
            (int(W * 0.1), int(H * (split + 0.03)), int(W * 0.9), int(H * 0.97)),
            wan_col,
            rng,
            font_path,
        )
    elif name.endswith("p") and len(name) == 2:
        n = int(name[0])
        pts, r = DOTS[n]
        cols = dot_colours(n, rng)
        style = int(rng.integers(4))
        d = ImageDraw.Draw(img)
        sx = rng.uniform(0.9, 1.05)
        for (ux, uy), col in zip(pts, cols, strict=True):
            cx = W * (0.5 + (ux - 0.5) * sx)
            cy = H * uy
            draw_dot(
                d, cx, cy, r * W * rng.uniform(0.9, 1.05), col, rng, style if n > 1 else int(rng.integers(4))
            )
    elif name.endswith("s") and len(name) == 2:
        n = int(name[0])
        d = ImageDraw.Draw(img)
        g, r_, b = pick(rng, GREEN), pick(rng, RED), pick(rng, BLUE)
        chain = rng.random() < 0.35
        if rng.random() < 0.35:
            g = pick(rng, DARK_GREEN + BLACK)
        width = W * rng.uniform(0.055, 0.1)
        if n == 1:
            if rng.random() < 0.8:
                draw_bird(img, rng)
            else:
                draw_stick(d, W * 0.5, H * 0.1, W * 0.5, H * 0.9, g, rng, width * 1.6)
        elif n == 8:
            for side in (-1, 1):
                for yy in (0.27, 0.73):
                    xs = 0.5 + side * 0.12
                    draw_stick(
                        d, W * xs, H * (yy - 0.19), W * (xs + side * 0.3), H * (yy + 0.19), g, rng, width
                    )
                    draw_stick(
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
            lay = bamboo_layout(n)
            for k, (ux, uy, uh) in enumerate(lay):
                col = g
                if n in (5, 7, 9) and rng.random() < 0.7:
                    if (n == 5 and k == 2) or (n == 7 and k == 0) or (n == 9 and k in (1, 4, 7)):
                        col = r_
                if n == 9 and rng.random() < 0.3 and k in (0, 3, 6):
                    col = b
                if rng.random() < 0.1:
                    col = b
                draw_stick(d, W * ux, H * (uy - uh / 2), W * ux, H * (uy + uh / 2), col, rng, width, chain)
    elif name in "ESWN" and font_path:
        ch = {"E": "東", "S": "南", "W": "西", "N": "北"}[name]
        if rng.random() < 0.1:
            ch = {"東": "东", "南": "南", "西": "西", "北": "北"}[ch]
        col = pick(rng, BLACK + BLACK + BLUE)
        draw_char(img, ch, (int(W * 0.08), int(H * 0.12), int(W * 0.92), int(H * 0.88)), col, rng, font_path)
    elif name == "C" and font_path:
        col = pick(rng, RED)
        if render_options.OPTIONS.mainland_faces:
            col = styles.black_ink(rng, col)
        draw_char(img, "中", (int(W * 0.1), int(H * 0.08), int(W * 0.9), int(H * 0.92)), col, rng, font_path)
    elif name == "F" and font_path:
        ch = "發" if rng.random() < 0.85 else "发"
        col = pick(rng, GREEN + GREEN + DARK_GREEN + BLACK[:1])
        if render_options.OPTIONS.mainland_faces:
            col = styles.black_ink(rng, col)
        draw_char(img, ch, (int(W * 0.06), int(H * 0.1), int(W * 0.94), int(H * 0.9)), col, rng, font_path)
    elif name == "P":
        d = ImageDraw.Draw(img)
        style = rng.random()
        col = pick(rng, BLUE + BLACK[:1] + GREEN[:1])
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
        draw_flower(img, rng, font_path)
    if render_options.OPTIONS.mainland_faces:
        img = styles.corner_index(img, name, rng, font_path)
    return img
