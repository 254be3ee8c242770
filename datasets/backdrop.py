"""What a synthetic photo holds besides the tiles: the table under them (felt, wood grain, cloth,
paper, mats), objects on it (chips, cards, fingers), and what light and the camera do to it all
(uneven light, glare, colour cast, blur, noise, JPEG). Images are float or uint8 RGB, 0..255.
"""

from __future__ import annotations

import cv2
import numpy as np

from datasets import render_options, styles


def background(rng: np.random.Generator, h: int, w: int, felt_rgb=None) -> np.ndarray:
    """A table surface, float32 ``(h, w, 3)`` 0..255: a felt of ``felt_rgb`` if given, else one of
    seven random kinds (or an automatic-table felt with a rail, per `RenderOptions.table_felts`)."""
    if render_options.OPTIONS.table_felts and felt_rgb is None and rng.random() < 0.4:
        return np.clip(styles.felt_with_rail(rng, h, w), 0, 255)
    kind = rng.integers(7) if felt_rgb is None else 0
    base = rng.integers(0, 256, 3).astype(np.float32) if felt_rgb is None else np.array(felt_rgb, np.float32)
    if rng.random() < 0.4 and felt_rgb is None:  # typical tables: greens, blues, whites, wood, dark
        base = np.array(
            [
                [40, 110, 60],
                [30, 70, 130],
                [225, 225, 220],
                [150, 100, 60],
                [40, 40, 45],
                [90, 190, 170],
                [200, 200, 205],
            ][int(rng.integers(7))],
            np.float32,
        ) + rng.normal(0, 12, 3)
    img = np.ones((h, w, 3), np.float32) * base
    if kind == 0:  # felt / noise
        n = rng.normal(0, rng.uniform(3, 15), (h // 4 + 1, w // 4 + 1, 1)).astype(np.float32)
        img += cv2.resize(n, (w, h))[:, :, None]
    elif kind == 1:  # wood grain
        y = np.arange(h, dtype=np.float32)[:, None]
        x = np.arange(w, dtype=np.float32)[None, :]
        f = rng.uniform(0.02, 0.08)
        grain = np.sin(y * f + 3 * np.sin(x * 0.004 + rng.uniform(0, 6)) + rng.normal(0, 0.3)) * rng.uniform(
            8, 25
        )
        img += grain[:, :, None] * np.array([1.0, 0.8, 0.6], np.float32)
        if rng.random() < 0.5:
            img = np.ascontiguousarray(np.transpose(img, (1, 0, 2)))
            img = cv2.resize(img, (w, h))
    elif kind == 2:  # cloth grid / check
        step = int(rng.integers(6, 60))
        yy, xx = np.mgrid[0:h, 0:w]
        pat = (((yy // step) + (xx // step)) % 2).astype(np.float32)
        img += (pat[:, :, None] - 0.5) * rng.uniform(5, 40) * rng.uniform(0.5, 1.0, 3)
    elif kind == 3:  # gradient
        g = np.linspace(rng.uniform(0.7, 1.0), rng.uniform(1.0, 1.3), w, dtype=np.float32)[None, :, None]
        img *= g
    elif kind == 4:  # speckled mat
        n = rng.normal(0, rng.uniform(10, 30), (h, w, 1)).astype(np.float32)
        img += cv2.GaussianBlur(n, (0, 0), 1.2)[:, :, None]
    elif kind == 5:  # paper with fibres / scratches
        for _ in range(int(rng.integers(5, 40))):
            p1 = (int(rng.integers(w)), int(rng.integers(h)))
            p2 = (p1[0] + int(rng.integers(-200, 200)), p1[1] + int(rng.integers(-200, 200)))
            col = tuple(float(c) for c in base + rng.normal(0, 25, 3))
            cv2.line(img, p1, p2, col, int(rng.integers(1, 3)))
    else:  # large blobs (other objects, mats)
        for _ in range(int(rng.integers(1, 5))):
            col = tuple(float(c) for c in rng.integers(0, 256, 3))
            pts = rng.integers(0, max(h, w), (int(rng.integers(3, 7)), 2)).astype(np.int32)
            cv2.fillPoly(img, [pts], col)
        img = cv2.GaussianBlur(img, (0, 0), 2)
    return np.clip(img, 0, 255)


def distractors(rng, bg, tw):
    """Draw a Poisson(1) number of chips, cards and fingers onto ``bg``, in place (``tw``: tile width, px)."""
    h, w = bg.shape[:2]
    for _ in range(int(rng.poisson(1.0))):
        kind = rng.integers(3)
        col = tuple(float(c) for c in rng.integers(0, 256, 3))
        cx, cy = int(rng.integers(w)), int(rng.integers(h))
        if kind == 0:  # chip
            r = int(tw * rng.uniform(0.3, 0.8))
            cv2.circle(bg, (cx, cy), r, col, -1)
            cv2.circle(bg, (cx, cy), max(1, r // 2), (240, 240, 240), max(1, r // 8))
        elif kind == 1:  # card
            rect = ((cx, cy), (tw * rng.uniform(1.5, 3), tw * rng.uniform(2, 4)), float(rng.uniform(0, 180)))
            pts = cv2.boxPoints(rect).astype(np.int32)
            cv2.fillPoly(bg, [pts], (235, 235, 235) if rng.random() < 0.6 else col)
        else:  # finger
            skin = (float(rng.uniform(170, 240)), float(rng.uniform(120, 190)), float(rng.uniform(90, 160)))
            ang = rng.uniform(0, 2 * np.pi)
            L = tw * rng.uniform(2, 5)
            p2 = (int(cx + np.cos(ang) * L), int(cy + np.sin(ang) * L))
            cv2.line(bg, (cx, cy), p2, skin, int(tw * rng.uniform(0.5, 0.9)))


def photometric(rng, img, tw):
    """``img`` as a phone would take it: light, glare, colour cast, blur, noise, JPEG; uint8 RGB."""
    h, w = img.shape[:2]
    # uneven light
    if rng.random() < 0.7:
        gx = np.linspace(-1, 1, w, dtype=np.float32)[None, :]
        gy = np.linspace(-1, 1, h, dtype=np.float32)[:, None]
        a, b = rng.normal(0, 0.15, 2)
        img = img * (1 + a * gx + b * gy)[:, :, None]
    # glare
    if rng.random() < 0.3:
        g = np.zeros((h, w), np.float32)
        cv2.ellipse(
            g,
            (int(rng.integers(w)), int(rng.integers(h))),
            (int(rng.uniform(0.05, 0.3) * w), int(rng.uniform(0.02, 0.15) * h)),
            float(rng.uniform(0, 180)),
            0,
            360,
            1.0,
            -1,
        )
        g = cv2.GaussianBlur(g, (0, 0), rng.uniform(5, 40))
        img = img + g[:, :, None] * rng.uniform(40, 120)
    # colour cast / white balance / exposure
    img = img * rng.uniform(0.85, 1.15, 3)[None, None, :] * rng.uniform(0.7, 1.2)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        k = rng.uniform(0.3, 1.2) * max(1.0, tw / 60)
        img = cv2.GaussianBlur(img, (0, 0), k)
    if rng.random() < 0.15:  # motion blur
        L = int(rng.integers(3, 9))
        kern = np.zeros((L, L), np.float32)
        kern[L // 2, :] = 1 / L
        M = cv2.getRotationMatrix2D((L / 2 - 0.5, L / 2 - 0.5), float(rng.uniform(0, 180)), 1)
        kern = cv2.warpAffine(kern, M, (L, L))
        kern /= max(kern.sum(), 1e-6)
        img = cv2.filter2D(img, -1, kern)
    if rng.random() < 0.5:
        n = rng.normal(0, rng.uniform(2, 8), img.shape)
        img = np.clip(img + n, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        q = int(rng.integers(35, 95))
        _ok, buf = cv2.imencode(".jpg", img[:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, q])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)[:, :, ::-1]
    return np.ascontiguousarray(img)
