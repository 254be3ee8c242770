"""The colours of tile sets: face inks, ivory bodies, back colours (RGB 0..255), and the two
random picks the renderer makes from them."""

from __future__ import annotations

import numpy as np

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


def pick(rng, seq):
    """One item of ``seq``, drawn with ``rng`` (one integer draw)."""
    return seq[int(rng.integers(len(seq)))]


def jitter(rng, col, amount=18):
    """``col`` with each channel moved by up to ``amount`` either way, clipped to 0..255."""
    return tuple(int(np.clip(c + rng.integers(-amount, amount + 1), 0, 255)) for c in col)
