"""Learning a set by appearance: a confirmed tile is a template for the same tile of that set.

Tiles of one physical set are printed identically, so a tile the player confirmed or fixed on an
earlier photo (`vision.refs.Ref`) looks, in the next photo, almost exactly like the same tile
there — whatever the classifier thinks of either. The classifier's own embedding
(`vision.refblend`) shares its errors (a misread 二萬 sits next to 三萬 references); the face
itself does not.

- **A face** (`cut_faces`): a box cut from the photo, a sideways box stood upright (turned 90°
  counter-clockwise), resized to `FACE` `(H, W)` grey, in both views (as it is and turned 180°:
  an upside-down tile).
- **A template** (`templates`): the inner part of a reference's upright face (`INSET` pixels off
  every side), zero-mean and unit-norm.
- **A match** (`match`): normalised cross-correlation (`cv2.TM_CCOEFF_NORMED`'s score) of a
  template with every window of a detection's face, both views, shifts of up to `INSET` pixels
  each way; per class the best over its references (`class_scores`).
- **The decision** (`decide`, `MatchCalibration`): a detection whose best class scores at least
  `accept` and beats every other class by `margin` takes that class; a detection whose best class
  scores at least `flag_at` and disagrees with the reading it keeps is flagged. References of
  another set match nothing well (their best scores stay below `accept`): they change nothing.

The thresholds were measured with whole sets held out (`datasets.refmatch_eval`, models/MODEL.md
"Learning a set by appearance").
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from vision.reading import Readings
    from vision.refblend import RefSet

FACE = (32, 24)
"""`(H, W)` of a face: a tile's box resized (a standing tile is ~3:4)."""

INSET = 2
"""A template is the face less this many pixels on every side; matched at every shift of up to
`INSET` pixels each way ((2·INSET + 1)² windows)."""

TRIM = 0.08
"""The share of a box's width and height cut off each side before it is resized."""

FACE_KEY = f"face/{FACE[0]}x{FACE[1]}/inset{INSET}/trim{TRIM}"
"""What a stored template was made with (`app.ui.table.refs` keeps it as the reference's model):
a template of other settings is not compared."""

FLAT = 4.0
"""A face whose grey levels spread less than this (standard deviation) shows nothing to match:
the veto on the embedding blend leaves it alone."""

SIDEWAYS = 1.15
"""A box wider than this times its height lies sideways (`vision.boxes.SIDEWAYS_RATIO`)."""


@dataclass(frozen=True, slots=True)
class MatchCalibration:
    """When a match overrides or flags a reading (module docstring). The defaults: chosen on
    `real_sets_dev` and the val split of `real_photos_rf` by set (`datasets.refmatch_eval`):
    no reading made worse by the set's own references nor by any other set's, no right tile
    flagged.

    Attributes:
        accept: the best class's score (NCC, -1..1) at least this may override.
        margin: ... and at least this above every other class's best score.
        flag_at: a best class at least this sure that disagrees with the kept reading: flagged.
        veto: the embedding blend's move is undone where the old class's face score plus this
            reaches the new class's (`match_refs`' `plain`).
        support: ... or where the new class's face score is under this.
    """

    accept: float = 0.85
    margin: float = 0.08
    flag_at: float = 0.95
    veto: float = 0.0
    support: float = 0.6


def cut_faces(
    pixels: np.ndarray, xyxy: np.ndarray, size: tuple[int, int] = FACE, trim: float | None = None
) -> np.ndarray:
    """Both views of every box's face, grey.

    Args:
        pixels: `(h, w, 3)` uint8 RGB.
        xyxy: float `(K, 4)` boxes in pixels of `pixels`.
        size: `(H, W)` of a face.
        trim: the share of the box's width and height cut off each side first (its edges and
            sides change with the angle; the face does not); default `TRIM`.

    Returns:
        float32 `(K, 2, H, W)`: view 0 upright (a sideways box turned 90° counter-clockwise),
        view 1 that turned 180°.
    """
    H, W = size
    h, w = pixels.shape[:2]
    out = np.zeros((len(xyxy), 2, H, W), np.float32)
    trim = TRIM if trim is None else trim
    for k, (x0, y0, x1, y1) in enumerate(np.asarray(xyxy, np.float64)):
        dx, dy = (x1 - x0) * trim, (y1 - y0) * trim
        x0, y0, x1, y1 = x0 + dx, y0 + dy, x1 - dx, y1 - dy
        ix0, iy0 = max(0, int(np.floor(x0))), max(0, int(np.floor(y0)))
        ix1, iy1 = min(w, int(np.ceil(x1))), min(h, int(np.ceil(y1)))
        if ix1 - ix0 < 2 or iy1 - iy0 < 2:
            continue
        crop = cv2.cvtColor(np.ascontiguousarray(pixels[iy0:iy1, ix0:ix1]), cv2.COLOR_RGB2GRAY)
        if (x1 - x0) > SIDEWAYS * (y1 - y0):
            crop = np.rot90(crop, 1)
        interp = cv2.INTER_AREA if crop.shape[0] > H else cv2.INTER_LINEAR
        face = cv2.resize(np.ascontiguousarray(crop), (W, H), interpolation=interp).astype(np.float32)
        out[k, 0] = face
        out[k, 1] = face[::-1, ::-1]
    return out


def _unit(rows: np.ndarray) -> np.ndarray:
    """Rows `(..., D)` zero-mean and unit-norm (a flat row stays zero)."""
    rows = rows - rows.mean(-1, keepdims=True)
    n = np.linalg.norm(rows, axis=-1, keepdims=True)
    return (rows / np.maximum(n, 1e-6)).astype(np.float32)


def templates(faces: np.ndarray, inset: int = INSET) -> np.ndarray:
    """Float32 `(N, D)`: the templates of references' faces (`cut_faces`, `(N, 2, H, W)`; view 0),
    `D = (H - 2·inset)·(W - 2·inset)`, zero-mean unit-norm rows."""
    n, _v, h, w = faces.shape
    inner = faces[:, 0, inset : h - inset, inset : w - inset]
    return _unit(inner.reshape(n, -1))


def windows(faces: np.ndarray, inset: int = INSET) -> np.ndarray:
    """Float32 `(K, S, D)`: every window of template size of every view of `faces`
    (`(K, V, H, W)`), `S = V·(2·inset + 1)²`, zero-mean unit-norm rows."""
    k, v, h, w = faces.shape
    th, tw = h - 2 * inset, w - 2 * inset
    parts = [
        faces[:, :, dy : dy + th, dx : dx + tw].reshape(k, v, -1)
        for dy in range(2 * inset + 1)
        for dx in range(2 * inset + 1)
    ]
    return _unit(np.concatenate(parts, axis=1))


def match(faces: np.ndarray, refs: np.ndarray, inset: int = INSET) -> np.ndarray:
    """Float32 `(K, N)`: the best normalised cross-correlation of each detection's faces
    (`(K, V, H, W)`, `cut_faces`) with each reference template (`(N, D)`, `templates`), over
    both views and every shift."""
    if not len(faces) or not len(refs):
        return np.zeros((len(faces), len(refs)), np.float32)
    win = windows(faces, inset)  # (K, S, D)
    k, s, d = win.shape
    # one float32 GEMM through OpenCV (no BLAS thread pool spinning against onnxruntime's)
    scores = cv2.gemm(win.reshape(k * s, d), refs, 1.0, None, 0.0, flags=cv2.GEMM_2_T)  # type: ignore[call-overload]
    return scores.reshape(k, s, len(refs)).max(1)


def class_scores(scores: np.ndarray, labels: np.ndarray, n_classes: int) -> np.ndarray:
    """Float32 `(K, C)`: per detection and class, the best score of a reference of that class
    (`scores` `(K, N)` from `match`, `labels` `(N,)` class indices); -inf for a class without one."""
    out = np.full((len(scores), n_classes), -np.inf, np.float32)
    for c in np.unique(labels):
        out[:, c] = scores[:, labels == c].max(1)
    return out


@dataclass(frozen=True, slots=True)
class Decision:
    """Per detection (K): `cls` int (K,) the class after the match, `changed` bool (K,) the match
    overrode the reading, `flag` bool (K,) a sure match disagrees with the kept reading,
    `best` float32 (K,) the best class's score (-inf: no references), `runner` float32 (K,) the
    best score of any other class."""

    cls: np.ndarray
    changed: np.ndarray
    flag: np.ndarray
    best: np.ndarray
    runner: np.ndarray


def decide(cls: np.ndarray, per_class: np.ndarray, cal: MatchCalibration) -> Decision:
    """The classes after matching (module docstring).

    Args:
        cls: int `(K,)` the reader's classes.
        per_class: float32 `(K, C)` from `class_scores`.
        cal: the thresholds.

    >>> s = np.array([[0.95, 0.6, -np.inf], [0.5, 0.55, -np.inf]], np.float32)
    >>> d = decide(np.array([1, 2]), s, MatchCalibration(0.8, 0.05, 0.8))
    >>> d.cls.tolist(), d.changed.tolist(), d.flag.tolist()
    ([0, 2], [True, False], [False, False])
    """
    cls = np.asarray(cls, np.int64)
    if per_class.shape[1] == 0 or not len(cls):
        z, none = np.zeros(len(cls), bool), np.full(len(cls), -np.inf, np.float32)
        return Decision(cls.copy(), z, z.copy(), none, none.copy())
    win = per_class.argmax(1)
    best = per_class[np.arange(len(cls)), win]
    rest = per_class.copy()
    rest[np.arange(len(cls)), win] = -np.inf
    runner = rest.max(1)
    with np.errstate(invalid="ignore"):  # -inf - -inf: a box with no references (never sure)
        sure = (best >= cal.accept) & (best - runner >= cal.margin)
    changed = sure & (win != cls)
    out = np.where(changed, win, cls)
    flag = (best >= cal.flag_at) & (win != out)
    return Decision(out, changed, flag, best.astype(np.float32), runner.astype(np.float32))


def match_refs(
    pixels: np.ndarray,
    xyxy: np.ndarray,
    readings: Readings,
    flags: np.ndarray,
    refs: RefSet,
    cal: MatchCalibration | None = None,
    keep: int = -1,
    plain: np.ndarray | None = None,
) -> tuple[Readings, np.ndarray]:
    """The readings and flags of the boxes `xyxy` (`(K, 4)`, pixels of `pixels`) after matching
    their faces with `refs.faces` (`decide`): an overridden box takes the match's class (its
    `second` the reader's, `agree` false) and is not flagged for its old reading; a sure match
    that disagrees with the kept reading flags it. A box read as class `keep` (the classifier's
    `none`: not a tile) is left as it is. `refs` without faces: unchanged.

    `plain` (the classes read without references, `(K,)`): where the embedding blend
    (`vision.refblend`) moved a box, the move stands only if the face supports it — its new
    class's score at least `cal.support` and above the old class's less `cal.veto`; else the box
    goes back to `plain` (a face with nothing to match, under `FLAT`, is left to the blend)."""
    if refs.faces is None or refs.face_labels is None or not len(refs.faces) or not len(xyxy):
        return readings, flags
    faces = cut_faces(pixels, xyxy)
    per_class = class_scores(match(faces, refs.faces), refs.face_labels, refs.n_classes)
    textured = faces[:, 0].reshape(len(faces), -1).std(1) >= FLAT  # a face the match can judge
    cal = cal or MatchCalibration()
    d = decide(readings.cls, per_class, cal)
    fixed = readings.cls == keep
    changed, flag = d.changed & ~fixed, d.flag & ~fixed
    if plain is not None:  # the embedding blend moved a box the face says it is not: back
        k = np.arange(len(plain))
        face = per_class[k, readings.cls]
        face_says = (per_class[k, plain] + cal.veto >= face) | (face < cal.support)
        veto = ~changed & ~fixed & textured & (plain != readings.cls) & face_says
        d = replace(d, cls=np.where(veto, plain, d.cls))
    else:
        veto = np.zeros(len(changed), bool)
    moved = changed | veto
    if not moved.any():
        return readings, np.asarray(flags, bool) | flag
    second = readings.second if readings.second is not None else readings.cls
    out = replace(
        readings,
        cls=np.where(moved, d.cls, readings.cls),
        agree=readings.agree & ~moved,
        second=np.where(moved, readings.cls, second),
    )
    return out, (np.asarray(flags, bool) & ~changed) | flag


__all__ = [
    "FACE",
    "FACE_KEY",
    "INSET",
    "Decision",
    "MatchCalibration",
    "class_scores",
    "cut_faces",
    "decide",
    "match",
    "match_refs",
    "templates",
    "windows",
]
