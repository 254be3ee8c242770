"""The `uncertain` flag that holds on unfamiliar sets ("flag 2", models 0.6.4; `datasets/flag_sets.py`).

A small logistic model over what the reader knows of a box, fitted with whole physical sets
held out (and a red/blue-swapped copy of the validation split standing in for a set unlike any
in training):

- `logit_margin`: `log(p1 / p2)` of the winning view (clipped at `CLIP`);
- `disagree`: the 0° and 180° (or ±90°) views name different classes;
- `proto_sim`: the best cosine of the box's views to the prototype of the class read (per-class
  mean embedding of the validation split's tiles, `models/flag.npz`); a tile far from every
  tile of its class seen before is suspect, whatever the margin;
- `tta_margin`: the smallest logit margin toward the class read over the box's views cut again
  slightly shifted and scaled (`tta_boxes`, `TTA_VIEWS` more views), negative when such a view
  names another class; with the model's `grey`, the box's own views made grey (`grey_views`:
  one that names another class once the colours are gone) count among them. Only for boxes whose
  `logit_margin` is below the model's `tta_band` (the others keep their own margin: the cost is
  bounded to the boxes near the threshold).

A box is uncertain when the model's score is above `threshold`; the hand's fifth copy
(`fifth_copies`) and, read with references, the references' flag (`vision.reading.unlike_refs`)
are added.

Flag 3 (`datasets.flag3_fit`, issue 35 item 5): the same file may name more features
(`FlagModel.features`, the npz key `features`; a file without it: flag 2's `FEATURES`): the box's
own facts, known before the roles (`BOX_FEATURES`, `box_features`): `loc` the localiser's score
(taken as `min(loc, loc_knee)`: only a box the localiser doubts is suspect, the model's knee),
`size_all` / `aspect_all` `|log|` of the box's long side / long:short ratio over the median of the
photo's face-up boxes (a phantom or split box is off the others' size). A file that cannot be read
or names a feature the runtime does not know is a `FlagModelError` (a `ModelError` with a code).

Flag 5 (`datasets.flag5`, issue 35 item 5): agreement clears doubt. The text reader still reads
every box above `threshold` (so every tile reads as before); a box its readers do not decide is
shown flagged only above `show_threshold` (the npz key `show_threshold`; absent: `threshold`) and
where no independent reader confirms the classifier (`vision.text_check`'s weak agreement, the suit
shape's, `vision.shape_check.confirm_suit`). `show_threshold` was chosen with whole sets held out.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from vision.detection import BACK, FLOWER
from vision.modelfiles import ModelError
from vision.reading import HAND_MAX_TILES, SET_COPIES

FLAG_FILE = "flag.npz"
FEATURES = ("logit_margin", "disagree", "proto_sim", "tta_margin")
BOX_FEATURES = ("loc", "size_all", "aspect_all")
"""Flag 3's box features (`box_features`), after `FEATURES` in a model that names them."""
ERROR_CODES = ("flag_model_unreadable", "flag_model_contract")
"""`FlagModelError.code`: the file is there but numpy cannot read it (damaged, truncated, a key
missing); it reads but names a feature the runtime does not know or its weights do not fit."""


class FlagModelError(ModelError):
    """`flag.npz` cannot be used: `code` one of `ERROR_CODES`, `fields` the values named (`path`)."""

    def __init__(self, message: str, code: str, **fields: object) -> None:
        super().__init__(message)
        self.code = code
        self.fields = fields


CLIP = 12.0
"""Logit margins beyond this are all "sure": the logistic model would otherwise be pulled by
the very confident reads."""

TTA_VIEWS = ((0.0, 0.0, 0.9), (0.06, 0.05, 1.08))
"""The extra views of a box: `(dx, dy, scale)`, the shift in units of its width / height, the
scale of its sides about the centre."""


@dataclass(frozen=True)
class FlagModel:
    """`prototypes` float32 (C, D), L2-normalised (zero rows: a class without one),
    `weights` float64 (1 + len(features),) bias first, `threshold`, `tta_band`, `grey` (the
    grey views join the TTA views; a file without the key: False), `features` (`FEATURES`, then
    any of `BOX_FEATURES`: flag 3), `loc_knee` (the `loc` feature is `min(loc, loc_knee)`: a box
    surer than the knee is no surer for the flag; a file without the key: 1.0, none)."""

    prototypes: np.ndarray
    weights: np.ndarray
    threshold: float
    tta_band: float
    grey: bool = False
    features: tuple[str, ...] = FEATURES
    loc_knee: float = 1.0
    show_threshold: float | None = None

    @property
    def show(self) -> float:
        """The score above which a box the readers leave in doubt is shown flagged (flag 5)."""
        return self.threshold if self.show_threshold is None else max(self.threshold, self.show_threshold)

    def score(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(x, np.float64) @ self.weights[1:] + self.weights[0]

    def flags(self, x: np.ndarray) -> np.ndarray:
        return self.score(x) > self.threshold

    def matrix(self, base: np.ndarray, box: dict[str, np.ndarray] | None = None) -> np.ndarray:
        """`(K, len(features))`: `base` (`feature_matrix`) then the model's box features (`box`,
        `box_features`; a missing one counts as 0: nothing unusual).

        >>> names = (*FEATURES, "loc", "size_all")
        >>> fm = FlagModel(np.zeros((1, 1)), np.zeros(6), 0.0, 4.0, False, names, 0.6)
        >>> fm.matrix(np.ones((2, 4)), {"loc": np.array([0.5, 0.9])}).tolist()
        [[1.0, 1.0, 1.0, 1.0, 0.5, 0.0], [1.0, 1.0, 1.0, 1.0, 0.6, 0.0]]
        """
        extra = [n for n in self.features if n not in FEATURES]
        if not extra:
            return base
        k = len(base)
        cols = [np.asarray((box or {}).get(n, np.zeros(k)), np.float64).reshape(k) for n in extra]
        cols = [np.minimum(c, self.loc_knee) if n == "loc" else c for n, c in zip(extra, cols, strict=True)]
        return np.concatenate([base, np.stack(cols, 1)], 1)

    def save(self, path: Path) -> None:
        extra: dict[str, Any] = {} if self.show_threshold is None else {"show_threshold": self.show_threshold}
        np.savez_compressed(
            path,
            **extra,
            prototypes=self.prototypes.astype(np.float16),
            weights=self.weights,
            threshold=np.float64(self.threshold),
            tta_band=np.float64(self.tta_band),
            grey=np.bool_(self.grey),
            features=np.array(self.features),
            loc_knee=np.float64(self.loc_knee),
        )


def load_flag_model(directory: Path) -> FlagModel | None:
    """The flag model of a models directory (`FLAG_FILE`), None where it has none.

    Raises:
        FlagModelError: the file is damaged (`flag_model_unreadable`) or names features the
            runtime does not know, or weights that do not fit them (`flag_model_contract`).
    """
    path = Path(directory) / FLAG_FILE
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as z:
            fm = FlagModel(
                z["prototypes"].astype(np.float32),
                z["weights"].astype(np.float64).reshape(-1),
                float(z["threshold"]),
                float(z["tta_band"]),
                bool(z["grey"]) if "grey" in z.files else False,
                tuple(str(n) for n in z["features"]) if "features" in z.files else FEATURES,
                float(z["loc_knee"]) if "loc_knee" in z.files else 1.0,
                float(z["show_threshold"]) if "show_threshold" in z.files else None,
            )
    except Exception as e:  # a damaged zip, a truncated array, a key missing: one coded error
        raise FlagModelError(
            f"{path}: unreadable flag model ({e})", "flag_model_unreadable", path=str(path)
        ) from e
    known = fm.features[: len(FEATURES)] == FEATURES and set(fm.features[len(FEATURES) :]) <= set(
        BOX_FEATURES
    )
    if not known or len(fm.weights) != 1 + len(fm.features) or fm.prototypes.ndim != 2:
        raise FlagModelError(
            f"{path}: features {fm.features} / {len(fm.weights)} weights",
            "flag_model_contract",
            path=str(path),
        )
    return fm


def box_features(xyxy: np.ndarray, loc: np.ndarray, face_down: np.ndarray) -> dict[str, np.ndarray]:
    """Flag 3's box features (`BOX_FEATURES`) of boxes `xyxy (K, 4)` with localiser scores `loc`;
    sizes against the median of the face-up boxes (`face_down` False; all of them where none is).

    >>> b = np.array([[0, 0, 10, 20], [20, 0, 30, 20], [40, 0, 50, 10]], np.float32)
    >>> f = box_features(b, np.array([0.9, 0.8, 0.4]), np.zeros(3, bool))
    >>> f["size_all"].round(2).tolist(), f["aspect_all"].round(2).tolist()
    ([0.0, 0.0, 0.69], [0.0, 0.0, 0.69])
    """
    b = np.asarray(xyxy, np.float64).reshape(-1, 4)
    w, h = b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]
    long, short = np.maximum(w, h), np.maximum(np.minimum(w, h), 1e-3)
    up = ~np.asarray(face_down, bool) if (~np.asarray(face_down, bool)).any() else np.ones(len(b), bool)

    def rel(v: np.ndarray) -> np.ndarray:
        med = float(np.median(v[up])) if len(v) else 1.0
        return np.abs(np.log(np.maximum(v, 1e-3) / max(med, 1e-3)))

    return {"loc": np.asarray(loc, np.float64), "size_all": rel(long), "aspect_all": rel(long / short)}


def normalise(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, np.float32)
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-9)


def prototypes(emb: np.ndarray, labels: np.ndarray, n_cls: int) -> np.ndarray:
    """Per class the normalised mean of the normalised embeddings `(N, D)` labelled `labels`."""
    e = normalise(emb)
    out = np.zeros((n_cls, e.shape[1]), np.float32)
    for c in np.unique(labels):
        out[int(c)] = e[labels == c].mean(0)
    return normalise(out) * (np.linalg.norm(out, axis=1, keepdims=True) > 0)


def proto_sim(emb: np.ndarray, owner, cls: np.ndarray, protos: np.ndarray) -> np.ndarray:
    """Float32 (K,): per box the best cosine of its views `emb (B, D)` to the prototype of `cls`
    (1.0 where the class has no prototype: nothing to compare with).

    >>> p = np.eye(2, dtype=np.float32)
    >>> sims = proto_sim(np.array([[1.0, 0.0], [0.6, 0.8]]), [0, 0], np.array([1]), p)
    >>> sims.astype(float).round(2).tolist()
    [0.8]
    """
    e = normalise(emb)
    out = np.full(len(cls), -np.inf, np.float32)
    for b, k in enumerate(owner):
        out[k] = max(out[k], float(e[b] @ protos[cls[k]]))
    has = np.linalg.norm(protos[cls], axis=1) > 0 if len(cls) else np.zeros(0, bool)
    return np.where(has & np.isfinite(out), out, 1.0).astype(np.float32)


def grey_views(batch: np.ndarray) -> np.ndarray:
    """The crops `[B, 3, H, W]` (0..1) made grey: each pixel's mean of the three channels in all
    three (the same for any order of the channels).

    >>> g = grey_views(np.array([[[[0.9]], [[0.3]], [[0.0]]]], np.float32))
    >>> g.ravel().astype(float).round(2).tolist()
    [0.4, 0.4, 0.4]
    """
    b = np.asarray(batch, np.float32)
    return np.ascontiguousarray(np.repeat(b.mean(1, keepdims=True), 3, 1))


def tta_boxes(xyxy: np.ndarray) -> np.ndarray:
    """`(len(TTA_VIEWS) * K, 4)`: every box once per view, view-major.

    >>> tta_boxes(np.array([[0.0, 0.0, 10.0, 20.0]])).astype(float).round(2).tolist()
    [[0.5, 1.0, 9.5, 19.0], [0.2, 0.2, 11.0, 21.8]]
    """
    b = np.asarray(xyxy, np.float32).reshape(-1, 4)
    w, h = b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]
    cx, cy = (b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2
    out = []
    for dx, dy, s in TTA_VIEWS:
        x, y = cx + dx * w, cy + dy * h
        out.append(np.stack([x - s * w / 2, y - s * h / 2, x + s * w / 2, y + s * h / 2], 1))
    return np.concatenate(out).astype(np.float32)


def margin_toward(logits: np.ndarray, owner, cls: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    """Float32 (K,): per box the smallest `z[cls] - max(other z)` over its views (negative: a
    view names another class).

    >>> z = np.array([[2.0, 0.0], [0.0, 1.0], [3.0, 0.0]])
    >>> margin_toward(z, [0, 0, 1], np.array([0, 0])).tolist()
    [-1.0, 3.0]
    """
    z = np.asarray(logits, np.float32) / np.float32(temperature)
    out = np.full(len(cls), np.inf, np.float32)
    for b, k in enumerate(owner):
        other = np.delete(z[b], cls[k])
        out[k] = min(out[k], float(z[b, cls[k]] - other.max()) if len(other) else np.inf)
    return out


def feature_matrix(
    logit_margin: np.ndarray, agree: np.ndarray, sim: np.ndarray, tta: np.ndarray
) -> np.ndarray:
    """`(K, len(FEATURES))` float64; `tta` NaN where no extra view was cut (its own margin then)."""
    lm = np.minimum(np.asarray(logit_margin, np.float64), CLIP)
    t = np.where(np.isnan(tta), lm, np.minimum(np.asarray(tta, np.float64), lm))
    return np.stack([lm, 1.0 - np.asarray(agree, np.float64), np.asarray(sim, np.float64), t], 1)


def still_shown(shown, before, cls_before, after, cls_after) -> np.ndarray:
    """Flag 5's `shown` after a stage that may flag, clear or rename boxes (the grey look, the
    references): a flag it adds or a box it renames is shown, one it clears is not.

    >>> still_shown(np.array([False, False, True]), np.array([True, True, False]), np.array([1, 2, 3]),
    ...             np.array([True, True, True]), np.array([1, 5, 3])).tolist()
    [False, True, True]
    """
    renamed = np.asarray(cls_before) != np.asarray(cls_after)
    return np.asarray(after, bool) & (np.asarray(shown, bool) | ~np.asarray(before, bool) | renamed)


def fifth_copies(tiles, scores, copies: int = SET_COPIES) -> list[bool]:
    """Per tile: one hand cannot hold more than `copies` of a tile; of `n > copies` readings
    of one tile, the `n - copies` with the lowest `scores` (margins) are uncertain. Like
    `vision.reading.beyond_the_set`, nothing where the tiles are more than one hand holds
    (`HAND_MAX_TILES`, flowers aside: several hands, a whole table, where five can be right).

    >>> fifth_copies(["2p"] * 5 + ["1m"], [5, 1, 9, 8, 7, 0])
    [False, True, False, False, False, False]
    >>> any(fifth_copies(["2p"] * 5 + ["1m"] * 14, [0] * 19))  # 19 tiles: more than one hand
    False
    """
    out = [False] * len(tiles)
    if sum(t != FLOWER for t in tiles) > HAND_MAX_TILES:
        return out
    by: dict[str, list[int]] = {}
    for i, t in enumerate(tiles):
        if t not in (FLOWER, BACK):
            by.setdefault(t, []).append(i)
    for idx in by.values():
        if len(idx) > copies:
            for i in sorted(idx, key=lambda i: scores[i])[: len(idx) - copies]:
                out[i] = True
    return out
