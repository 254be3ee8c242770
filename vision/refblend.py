"""Reading with references: their embeddings, the similarity to them, the blend (the references
themselves and REFS.json: `vision.refs`).

A reference (`vision.refs.Ref`: a tile of the table's own set that a player confirmed or fixed on
an earlier photo) is embedded by the reader (`vision.reader.TileReader.embed_refs`,
`vision.refembed`): each box is cut exactly as a detection's crop (`vision.boxes.cut_crops`: both
views, 0° and 180°, or ±90° for a sideways box), the classifier runs and the pooled **embedding**
of every view is kept (the classifier's second output `embedding`, `[B, D]`, the input of its
final linear layer; models 0.6.3 on), L2-normalised: a `RefSet`, one row per view, labelled with
the reference's class.

At read time every view of a detection is compared with the references by **cosine
similarity**; per class the similarity is that of its nearest reference view (`RefSet.similar`,
1-nearest-neighbour per class). Over the classes that have references, `softmax(sim / tau)` is a
second class distribution `q`; the model's calibrated probabilities `p` are blended with it
log-linearly, `p'(c) ∝ p(c) q(c)^alpha`, **only over the classes with references**, and `p'` keeps
the model's total mass over them, so a class without references keeps the model's probability
(`blend`). A view whose nearest reference is farther than `gate` (cosine below it: a tile unlike
every reference, e.g. references of another set) is not blended at all. The flag: a reading whose
class has references but whose views are all less similar than `flag_similarity` to every one of
them is `uncertain` (`vision.reading.uncertain`, `Readings.ref_sim`).

`alpha`, `tau`, `gate`, `flag_similarity` (`RefCalibration`) were fitted on the validation split
of `real_photos_rf`, photos grouped by physical set (models/MODEL.md "0.6.3"); a classifier's
metadata may carry its own under `"refs"`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from vision.reading import Readings, combine_views


@dataclass(frozen=True, slots=True)
class RefCalibration:
    """How references change a reading (module docstring). The defaults: fitted for the 0.6.1
    classifier graph on the val split grouped by set (`datasets.eval_refs --fit`, models/MODEL.md
    "0.6.3"): the grid's best same-set accuracy that leaves another set's as good as without;
    `flag_similarity` below every same-set right tile but 0.5 % (cosine 0.85) and about 1 % of
    another set's right tiles.

    Attributes:
        alpha: weight of the similarity distribution in the log-linear blend (0: off).
        tau: temperature of `softmax(cosine / tau)` over the classes with references.
        gate: a view is blended only when its nearest reference's cosine is at least this.
        flag_similarity: a reading is uncertain when its class has references and no view of it
            reaches this cosine to one of them (-1: never).
    """

    alpha: float = 1.0
    tau: float = 0.1
    gate: float = 0.7
    flag_similarity: float = 0.7

    @classmethod
    def from_meta(cls, meta: Mapping) -> RefCalibration:
        """The classifier metadata's `"refs"` object over the defaults."""
        given = meta.get("refs") or {}
        return cls(**{k: float(given[k]) for k in ("alpha", "tau", "gate", "flag_similarity") if k in given})


@dataclass(frozen=True, slots=True)
class RefSet:
    """Embedded references (N views).

    Attributes:
        embeddings: float32 `(N, D)`, each row L2-normalised.
        labels: int `(N,)` class index (into the classifier's classes) of each row.
        n_classes: C, the classifier's number of classes.
        count: how many references (a reference has one or two views).
        faces: float32 `(M, D)` the references' face templates (`vision.refmatch.templates`),
            matched by appearance after the blend (`vision.refmatch.match_refs`); None: none.
        face_labels: int `(M,)` class index of each template.
    """

    embeddings: np.ndarray
    labels: np.ndarray
    n_classes: int
    count: int = 0
    faces: np.ndarray | None = None
    face_labels: np.ndarray | None = None

    @property
    def has(self) -> np.ndarray:
        """Bool `(C,)`: the classes with at least one reference."""
        out = np.zeros(self.n_classes, bool)
        out[np.unique(self.labels)] = True
        return out

    def similar(self, embedding: np.ndarray) -> np.ndarray:
        """Float32 `(B, C)`: per view (rows of `embedding`, `(B, D)`, any norm) and class, the
        cosine similarity of the nearest reference view of that class; -inf for a class
        without references."""
        e = normalise(np.asarray(embedding, np.float32))
        # einsum, not `@`: a product this small through OpenBLAS wakes its threads, which then
        # spin against onnxruntime's (measured: +30 ms CPU per 12 MP photo with 200 references;
        # einsum: +0-4 ms, ~30 ms at the 2,000-reference cap)
        cos = np.einsum("bd,nd->bn", e, self.embeddings)  # (B, N)
        out = np.full((len(e), self.n_classes), -np.inf, np.float32)
        for c in np.unique(self.labels):
            out[:, c] = cos[:, self.labels == c].max(1)
        return out


def normalise(x: np.ndarray) -> np.ndarray:
    """Rows of `(B, D)` scaled to unit length (a zero row stays zero)."""
    n = np.linalg.norm(x, axis=1, keepdims=True)
    return x / np.maximum(n, 1e-12)


def blend(scaled: np.ndarray, sims: np.ndarray, cal: RefCalibration) -> np.ndarray:
    """Log-probabilities `(B, C)` of the blended reading of each view (module docstring).

    Args:
        scaled: float32 `(B, C)` calibrated logits (logits / temperature).
        sims: float32 `(B, C)` from `RefSet.similar` (-inf: no reference of that class).
        cal: the blend's constants.

    >>> z = np.log(np.array([[0.5, 0.3, 0.2]], np.float32))  # the model: class 0
    >>> s = np.array([[0.2, 0.95, -np.inf]], np.float32)     # refs of 0 and 1; the view is a 1
    >>> p = np.exp(blend(z, s, RefCalibration(alpha=1.0, tau=0.1, gate=0.5)))
    >>> [round(float(v), 3) for v in p[0]]  # class 2 (no refs) keeps 0.2; 0 + 1 keep 0.8
    [0.001, 0.799, 0.2]
    """
    z = scaled - scaled.max(1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(1, keepdims=True))
    has = np.isfinite(sims[0]) if len(sims) else np.zeros(scaled.shape[1], bool)
    if cal.alpha <= 0 or has.sum() < 2:
        return logp
    best = np.where(np.isfinite(sims), sims, -1.0).max(1)
    use = best >= cal.gate
    if not use.any():
        return logp
    s = np.where(has, sims, -np.inf) / np.float32(cal.tau)
    s = s - s.max(1, keepdims=True)
    logq = s - np.log(np.exp(s).sum(1, keepdims=True))
    mixed = logp + cal.alpha * np.where(has, logq, 0.0)
    # keep the model's mass over the classes with references: renormalise within them. A mass of
    # exactly 0 is legitimate: a sure model (the stand-ins' steep logits) puts float32-underflowing
    # probability on every one of them; they keep it, log 0 = -inf, without a divide-by-zero warning
    total = np.exp(logp[:, has]).sum(1, keepdims=True)
    mass = np.log(total, out=np.full_like(total, -np.inf), where=total > 0)
    inner = mixed[:, has]
    inner = inner - inner.max(1, keepdims=True)
    inner = inner - np.log(np.exp(inner).sum(1, keepdims=True)) + mass
    out = logp.copy()
    rows = np.flatnonzero(use)
    out[np.ix_(rows, np.flatnonzero(has))] = inner[rows]
    return out.astype(np.float32)


def read_with_refs(
    logits: np.ndarray,
    embedding: np.ndarray,
    owner: Sequence[int],
    n_boxes: int,
    temperature: float,
    refs: RefSet,
    cal: RefCalibration,
) -> Readings:
    """The readings of `n_boxes` boxes from their views' `logits` `(B, C)` and `embedding`
    `(B, D)` (`owner[b]`: the box of view `b`), blended with `refs` (`blend`).

    References never make a reading look surer than the model alone says: its `logit_margin`
    is the smaller of the blended and the model's own, `agree` is false where either reading's
    views disagree **or the references changed the class** (so the flag, `vision.reading.uncertain`,
    holds every tile it flagged without references), and `ref_sim` is filled (`box_similarity`).
    """
    plain = combine_views(logits, owner, n_boxes, temperature)
    sims = refs.similar(embedding)
    mixed = blend(np.asarray(logits, np.float32) / np.float32(temperature), sims, cal)
    r = combine_views(mixed, owner, n_boxes, 1.0)
    assert r.logit_margin is not None and plain.logit_margin is not None  # combine_views fills it
    return Readings(
        cls=r.cls,
        p=r.p,
        margin=np.minimum(r.margin, plain.margin),
        agree=r.agree & plain.agree & (r.cls == plain.cls),
        logit_margin=np.minimum(r.logit_margin, plain.logit_margin),
        ref_sim=box_similarity(sims, owner, r.cls),
        second=r.second,
        probs=r.probs,
    )


def box_similarity(sims: np.ndarray, owner: Sequence[int], cls: np.ndarray) -> np.ndarray:
    """Float32 `(K,)`: per box, the best cosine of any of its views to a reference of its read
    class `cls[k]`; NaN where that class has no reference."""
    out = np.full(len(cls), -np.inf, np.float32)
    for b, k in enumerate(owner):
        out[k] = max(out[k], sims[b, cls[k]])
    return np.where(np.isfinite(out), out, np.nan).astype(np.float32)


__all__ = ["RefCalibration", "RefSet", "blend", "box_similarity", "normalise", "read_with_refs"]
