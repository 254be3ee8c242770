"""Learning a set by appearance: a confirmed tile is a template for the same tile of that set.

Tiles of one physical set are printed identically, so a tile the player confirmed or fixed on an
earlier photo (`vision.refs.Ref`) looks, in the next photo, almost exactly like the same tile
there — whatever the classifier thinks of either. The classifier's own embedding
(`vision.refblend`) shares its errors (a misread 二萬 sits next to 三萬 references); the face
itself does not.

- **Faces, templates, windows** (`vision.refface`): a canvas of the photo around each box, scaled
  by the tile's height, standing and (a box near square) sideways, each also turned 180°.
- **A match** (`match`): normalised cross-correlation of a template with every window of a
  detection's face (every view, shifts of up to `PAD` + `INSET` pixels); per class the best over
  its references (`class_scores`).
- **The references agree with the photo** (`agreement`): over the photo's tiles whose read class
  has references (at least `AGREE_MIN`), the median score of that class. The classifier reads most
  tiles of any set right, so references of the photo's own set match most of its readings
  (`real_sets_dev`, whole sets: 0.85–0.97 on every photo of set A); another set's do not (at most
  0.85, mostly under 0.75). Below `MatchCalibration.agree` a match overrides and flags nothing.
- **The decision** (`decide`, `MatchCalibration`): a detection whose best class scores at least
  `accept` and beats every other class by `margin` takes that class; a detection whose best class
  scores at least `flag_at` and disagrees with the reading it keeps is flagged.

The thresholds were measured with whole sets held out (`datasets.refmatch_eval`, models/MODEL.md
"Learning a set by appearance").
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.refface import FACE, FACE_KEY, INSET, PAD, STEP, centre, cut_faces, grid, templates, windows

if TYPE_CHECKING:
    from vision.reading import Readings
    from vision.refblend import RefSet

FLAT = 4.0
"""A face whose grey levels spread less than this (standard deviation) shows nothing to match:
the veto on the embedding blend leaves it alone."""

AGREE_MIN = 3
"""The references agree with a photo (`agreement`) only over at least this many of its tiles."""


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
        agree: references whose `agreement` with the photo is under this override and flag
            nothing (another set's); -inf: always used.
    """

    accept: float = 0.85
    margin: float = 0.08
    flag_at: float = 0.95
    veto: float = 0.0
    support: float = 0.6
    agree: float = 0.8


def _gemm(rows: np.ndarray, refs: np.ndarray) -> np.ndarray:
    # one float32 GEMM through OpenCV (no BLAS thread pool spinning against onnxruntime's)
    return cv2.gemm(rows, refs, 1.0, None, 0.0, flags=cv2.GEMM_2_T)  # type: ignore[call-overload]


def match(faces: np.ndarray, refs: np.ndarray) -> np.ndarray:
    """Float32 `(K, N)`: the best normalised cross-correlation of each detection's faces
    (`cut_faces`, `(K, V, H', W')`) with each reference template (`(N, D)`, `templates`), over
    every view cut and shift: every `STEP` pixels (`grid`), then every pixel around the face's
    best window; 0 for a face with no view cut."""
    out = np.zeros((len(faces), len(refs)), np.float32)
    if not len(faces) or not len(refs):
        return out
    kv = np.argwhere(~np.isnan(faces[:, :, 0, 0]))  # (M, 2): (box, view) cut
    if not len(kv):
        return out
    views, at = faces[kv[:, 0], kv[:, 1]], grid()
    rows, inverse = windows(views, at)
    coarse = (_gemm(rows, refs) * inverse[:, None]).reshape(len(kv), len(at), -1)
    np.maximum.at(out, kv[:, 0], coarse.max(1))
    top = coarse.max(2)  # (M, P): each window's best reference
    hh, ww = faces.shape[2] - (FACE[0] - 2 * INSET), faces.shape[3] - (FACE[1] - 2 * INSET)
    near_rows, near_inv, owner = [], [], []
    for k in np.unique(kv[:, 0]):
        m = np.flatnonzero(kv[:, 0] == k)
        best = np.unravel_index(int(top[m].argmax()), top[m].shape)
        dy, dx = at[best[1]]
        near = [
            (y, x)
            for y in (dy - 1, dy, dy + 1)
            for x in (dx - 1, dx, dx + 1)
            if 0 <= y <= hh and 0 <= x <= ww and (y, x) != (dy, dx)
        ]
        r, inv = windows(views[m[best[0]]][None], near)
        near_rows.append(r)
        near_inv.append(inv)
        owner.extend([k] * len(near))
    fine = _gemm(np.concatenate(near_rows), refs) * np.concatenate(near_inv)[:, None]
    np.maximum.at(out, np.asarray(owner), fine)
    return out


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


def spread(faces: np.ndarray) -> np.ndarray:
    """Float32 `(K,)`: the standard deviation of the grey levels of each face's centre (the
    template's part of its first view cut, `vision.refface.centre`; 0: none cut)."""
    c = centre(faces).reshape(len(faces), -1)
    return np.nan_to_num(c.std(1), nan=0.0).astype(np.float32)


def agreement(cls: np.ndarray, per_class: np.ndarray, textured: np.ndarray | None = None) -> float:
    """How well the references match the photo's readings `cls` (`(K,)`): the median of
    `per_class[k, cls[k]]` over the boxes (`textured` ones) whose class has references; -inf over
    fewer than `AGREE_MIN` of them.

    >>> s = np.array([[0.9, 0.1], [0.2, 0.95], [0.88, 0.3], [0.5, -np.inf]], np.float32)
    >>> round(agreement(np.array([0, 1, 0, 1]), s), 2)
    0.9
    """
    if not len(cls):
        return -np.inf
    own = per_class[np.arange(len(cls)), np.asarray(cls, np.int64)]
    use = np.isfinite(own) if textured is None else np.isfinite(own) & textured
    return float(np.median(own[use])) if use.sum() >= AGREE_MIN else -np.inf


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
    goes back to `plain` (a face with nothing to match, under `FLAT`, is left to the blend).
    References that do not agree with the photo (`agreement` of `plain`, else of `readings`,
    under `cal.agree`: another set's) override and flag nothing, and every move of the blend on
    a face with something to match goes back to `plain`."""
    if refs.faces is None or refs.face_labels is None or not len(refs.faces) or not len(xyxy):
        return readings, flags
    faces = cut_faces(pixels, xyxy)
    per_class = class_scores(match(faces, refs.faces), refs.face_labels, refs.n_classes)
    textured = spread(faces) >= FLAT  # a face the match can judge
    cal = cal or MatchCalibration()
    d = decide(readings.cls, per_class, cal)
    fixed = readings.cls == keep
    base = plain if plain is not None else readings.cls  # the photo as read without references
    ours = agreement(base[~fixed], per_class[~fixed], textured[~fixed]) >= cal.agree
    changed, flag = d.changed & ~fixed & ours, d.flag & ~fixed & ours
    if plain is not None:  # the embedding blend moved a box the face says it is not: back
        k = np.arange(len(plain))
        face = per_class[k, readings.cls]
        face_says = (per_class[k, plain] + cal.veto >= face) | (face < cal.support) | ~ours
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
    "PAD",
    "STEP",
    "Decision",
    "MatchCalibration",
    "agreement",
    "class_scores",
    "cut_faces",
    "decide",
    "match",
    "match_refs",
    "spread",
    "templates",
    "windows",
]
