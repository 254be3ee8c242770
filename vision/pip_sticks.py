"""Count the sticks of a bamboo tile (條), whatever their colour (`vision.pips`): elongated
blobs of one length, and the rows and columns of ink (beaded sticks break into beads; the rows
and columns do not), sticks along columns of sticks that touch end to end
(`vision.pip_columns`); the count the ink masks vote for (a mask where the columns find nothing
does not vote on them: the other counts stand as they were)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.pip_columns import sticks_in_columns
from vision.pip_ink import blobs, face_masks, ink_masks, inner, runs, same_size
from vision.pip_layouts import STICK_LAYOUTS, PipCount, fit_layout, vote

COLUMNS_MIN = 0.5
"""A count along columns of touching sticks (`vision.pip_columns`) votes only this sure: below,
that mask does not vote on columns (the other counts stand as they were)."""


def count_sticks(face_bgr: np.ndarray) -> PipCount | None:
    """The number of sticks on a bamboo tile's face, or None: 一條's bird, or no sticks of one
    length (see the module docstring)."""
    got = _vote_on(ink_masks(face_bgr))
    return got if got is not None else _vote_on(face_masks(face_bgr))


def _vote_on(masks: list[np.ndarray]) -> PipCount | None:
    joined = [cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((4, 1), np.uint8)) for m in masks]
    columns: list[PipCount | None] = [
        c for c in (sticks_in_columns(m) for m in masks) if c is not None and c.conf >= COLUMNS_MIN
    ]
    return vote([_sticks_on(m) for m in joined] + [_sticks_by_rows(m) for m in masks] + columns)


def _sticks_on(mask: np.ndarray) -> PipCount | None:
    sticks = [b for b in blobs(mask) if b.long / b.short >= 2.2]
    if len(sticks) < 2:
        return None
    keep, agree = same_size([b.long for b in sticks], 1.6)
    kept = [sticks[k] for k in keep]
    if len(kept) < 2:
        return None
    others = sum(b.area for b in blobs(mask)) - sum(b.area for b in kept)
    clean = max(0.0, 1.0 - others / max(sum(b.area for b in kept), 1e-6))
    centres = np.array([b.centre for b in kept], np.float64)
    return fit_layout(centres, STICK_LAYOUTS, agree * clean)


def _sticks_by_rows(mask: np.ndarray) -> PipCount | None:
    """Sticks as rows of ink (1–3 bands of the row profile) and, in each, columns (1–4 runs of
    its column profile), fitted to the layouts; the bands' heights and the columns' widths agree."""
    ink = (inner(mask) > 0).astype(np.float32)
    rows = ink.sum(axis=1)
    if rows.max() == 0:
        return None
    bands = runs(rows > 0.2 * rows.max(), int(0.12 * ink.shape[0]))
    if not 1 <= len(bands) <= 3:
        return None
    centres, widths = [], []
    for a, b in bands:
        cols = ink[a:b].sum(axis=0)
        found = runs(cols > 0.25 * cols.max(), 2)
        if not 1 <= len(found) <= 4:
            return None
        centres += [((c0 + c1) / 2, (a + b) / 2) for c0, c1 in found]
        widths += [c1 - c0 for c0, c1 in found]
    if len(centres) < 2:
        return None
    w, h = np.array(widths, float), np.array([b - a for a, b in bands], float)
    agree = max(0.0, 1 - 2 * float(w.std() / w.mean())) * max(0.0, 1 - 2 * float(h.std() / h.mean()))
    return fit_layout(np.array(centres, np.float64), STICK_LAYOUTS, agree)


__all__ = ["count_sticks"]
