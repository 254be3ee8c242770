"""The faces `vision.refmatch` compares: a tile's face cut from its photo, a reference's template,
and every window of a detection's face a template is matched at.

- **A face** (`cut_faces`): a canvas of the photo around a box, scaled so that the box's height
  along the tile (less `TRIM` each end) is `FACE[0]` pixels, `FACE` `(H, W)` plus `PAD` `(py, px)`
  pixels each side, grey. The canvas is cut from the photo, not from the box, so a box the
  localiser shifted, or stretched over a neighbour, still holds the whole face somewhere inside.
  A standing box is cut standing, a sideways box (wider than `SIDEWAYS` times its height) turned
  90° counter-clockwise; a box near square (between `SQUARE` and `SIDEWAYS`: a standing tile seen
  from above shows its top too) is cut both ways. Each way in two views: as it is and turned 180°
  (an upside-down tile).
- **A template** (`templates`): the centre of a reference's first view less `INSET` each side,
  `(H - 2·INSET) × (W - 2·INSET)`, zero-mean and unit-norm.
- **The windows** (`windows`, `grid`): template-sized windows of every view of a detection's
  face, shifts of up to `py + INSET` pixels down and up, `px + INSET` across, every `STEP` pixels.
"""

from __future__ import annotations

import cv2
import numpy as np

FACE = (32, 24)
"""`(H, W)` of a face: a standing tile is ~3:4."""

INSET = 2
"""A template is the face less this many pixels on every side."""

PAD = (4, 6)
"""`(py, px)`: a face's canvas reaches this far past `FACE` each side (the shifts searched)."""

TRIM = 0.08
"""The share of a box's height cut off each end before it is scaled (its edges change with the
angle; the face does not)."""

SIDEWAYS = 1.4
"""A box wider than this times its height lies sideways; ..."""

SQUARE = 0.9
"""... one between this and `SIDEWAYS` is cut both ways (standing and sideways)."""

FACE_KEY = f"face2/{FACE[0]}x{FACE[1]}/inset{INSET}/pad{PAD[0]}x{PAD[1]}/trim{TRIM}"
"""What a stored template was made with (`app.ui.table.refs` keeps it as the reference's model):
a template of other settings (the first `face/...`: cut from the box alone) is not compared."""

STEP = 2
"""Shifts are searched every `STEP` pixels, then every pixel around each face's best
(`vision.refmatch.match`)."""

VIEWS = 4
"""Views of a face: standing, standing turned 180°, sideways, sideways turned 180° (a view a box
is not cut in is NaN)."""


def _unit(rows: np.ndarray) -> np.ndarray:
    """Rows `(..., D)` zero-mean and unit-norm (a flat or NaN row is zero)."""
    rows = np.nan_to_num(rows - rows.mean(-1, keepdims=True), nan=0.0)
    n = np.linalg.norm(rows, axis=-1, keepdims=True)
    return (rows / np.maximum(n, 1e-6)).astype(np.float32)


def _canvas(grey: np.ndarray, blurred: dict, box: np.ndarray, sideways: bool) -> np.ndarray:
    """The face canvas of one box, one way (module docstring), standing upright."""
    (x0, y0, x1, y1), (H, W), (py, px) = box, FACE, PAD
    along = (x1 - x0) if sideways else (y1 - y0)
    s = H / max(along * (1 - 2 * TRIM), 1e-6)
    ch, cw = H + 2 * py, W + 2 * px
    if sideways:
        ch, cw = cw, ch
    k = max(1, round(1 / s))  # shrinking: average first (as INTER_AREA would)
    if k not in blurred:
        blurred[k] = cv2.blur(grey, (k, k)) if k > 1 else grey
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    m = np.array([[s, 0, cw / 2 - s * cx], [0, s, ch / 2 - s * cy]], np.float64)
    out = cv2.warpAffine(blurred[k], m, (cw, ch), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.rot90(out, 1) if sideways else out


def cut_faces(pixels: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
    """Float32 `(K, VIEWS, H + 2·py, W + 2·px)`: the faces of the boxes `xyxy` (`(K, 4)` pixels of
    `pixels`, `(h, w, 3)` uint8 RGB), grey (module docstring); a view not cut, or an empty box: NaN."""
    (H, W), (py, px) = FACE, PAD
    out = np.full((len(xyxy), VIEWS, H + 2 * py, W + 2 * px), np.nan, np.float32)
    if not len(xyxy):
        return out
    grey = cv2.cvtColor(np.ascontiguousarray(pixels), cv2.COLOR_RGB2GRAY).astype(np.float32)
    blurred: dict[int, np.ndarray] = {}
    for k, box in enumerate(np.asarray(xyxy, np.float64)):
        w, h = box[2] - box[0], box[3] - box[1]
        if w < 2 or h < 2:
            continue
        for v, sideways in ((0, False), (2, True)):
            if (w <= SIDEWAYS * h) if not sideways else (w >= SQUARE * h):
                face = _canvas(grey, blurred, box, sideways)
                out[k, v], out[k, v + 1] = face, face[::-1, ::-1]
    return out


def centre(faces: np.ndarray) -> np.ndarray:
    """Float32 `(N, H - 2·INSET, W - 2·INSET)`: the centre of each face's first view cut (the
    box itself, less `TRIM` and `INSET`); NaN where no view was cut."""
    (H, W), (py, px) = FACE, PAD
    first = np.where(np.isnan(faces[:, 0, :1, :1]).reshape(-1, 1, 1), faces[:, 2], faces[:, 0])
    return first[:, py + INSET : py + H - INSET, px + INSET : px + W - INSET]


def templates(faces: np.ndarray) -> np.ndarray:
    """Float32 `(N, D)`: the templates of references' faces (`cut_faces`; their `centre`),
    `D = (H - 2·INSET)·(W - 2·INSET)`, zero-mean unit-norm rows."""
    return _unit(centre(faces).reshape(len(faces), -1))


def windows(faces: np.ndarray, at: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """The template-sized windows of `faces` (`(M, H', W')`, single views cut) whose top-left
    corners are `at` (`(dy, dx)`): float32 `(M·len(at), D)` as cut, and `(M·len(at),)` the
    inverse of each window's norm once zero-mean (0 for a flat window). A template is zero-mean,
    so a window's normalised cross-correlation with it is `(window · template) · inverse`."""
    th, tw = FACE[0] - 2 * INSET, FACE[1] - 2 * INSET
    view = np.lib.stride_tricks.sliding_window_view(faces, (th, tw), axis=(1, 2))
    ys, xs = np.array(at).T
    rows = np.ascontiguousarray(view[:, ys, xs].reshape(-1, th * tw), dtype=np.float32)
    total = rows.sum(1, dtype=np.float64)
    energy = np.einsum("ij,ij->i", rows, rows, dtype=np.float64) - total * total / (th * tw)
    inverse = np.where(energy > 1e-6, 1.0 / np.sqrt(np.maximum(energy, 1e-12)), 0.0)
    return rows, inverse.astype(np.float32)


def grid(step: int = STEP) -> list[tuple[int, int]]:
    """The window corners `(dy, dx)` of a face's canvas, every `step` pixels (centre included)."""
    py, px = PAD
    span_y, span_x = 2 * py + 2 * INSET, 2 * px + 2 * INSET
    ys = sorted({*range(span_y % step // 2, span_y + 1, step), span_y // 2})
    xs = sorted({*range(span_x % step // 2, span_x + 1, step), span_x // 2})
    return [(dy, dx) for dy in ys for dx in xs]


__all__ = ["FACE", "FACE_KEY", "INSET", "PAD", "STEP", "centre", "cut_faces", "grid", "templates", "windows"]
