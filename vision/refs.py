"""Reading a set the player has already put right: references, their embeddings, the blend.

A reference is a tile of the table's own set that a player confirmed or fixed on an earlier
photo: `Ref(image, xyxy, tile)` (`jxmj detect --refs REFS.json`, docs/detect-json.md "--refs").
The reader (`vision.reader.TileReader.embed_refs`) cuts each reference box exactly as it cuts a
detection's crop (`vision.boxes.cut_crops`: both views, 0° and 180°, or ±90° for a sideways
box), runs the classifier and keeps the pooled **embedding** of every view (the classifier's
second output `embedding`, `[B, D]`, the input of its final linear layer; models 0.6.3 on),
L2-normalised: a `RefSet`, one row per view, labelled with the reference's class.

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

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.modelfiles import CLASS_CODES
from vision.reading import Readings, combine_views

MAX_REFS = 2000
"""At most this many references per read (`refs_too_many` beyond): bounds the crops embedded."""

MAX_REF_PHOTOS = 100
"""... from at most this many photos (`refs_too_many` beyond): bounds the photos decoded (each
once, ~50-100 ms for 12 MP at the reader's reduced size)."""

MAX_REFS_BYTES = 4 * 2**20
"""REFS.json larger than this is refused (`refs_unreadable`; 2,000 refs need ~0.2 MiB)."""

BOX_SLACK = 1.0
"""A reference box may reach this many pixels past its photo's edge (detections are rounded to
0.1 px); farther is `ref_box_outside`."""

ERROR_CODES = (
    "refs_unreadable",
    "refs_bad_json",
    "refs_bad_tile",
    "refs_too_many",
    "ref_photo_unreadable",
    "ref_box_outside",
    "refs_unsupported",
)
"""`RefsError.code` values (docs/detect-json.md): REFS.json missing, unreadable or too large;
not the `{"refs": [{"image", "xyxy", "tile"}]}` shape; a tile code the classifier does not know;
more than `MAX_REFS` references or `MAX_REF_PHOTOS` photos; a reference photo missing or not an
image; a box outside its photo (or empty); a classifier without the `embedding` output."""


class RefsError(ValueError):
    """References that cannot be used: `str(error)` a sentence, `error.code` one of `ERROR_CODES`."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Ref:
    """One reference tile: `image` the photo's path, `xyxy` `(x0, y0, x1, y1)` float pixels of
    that photo upright (as `Detection.xyxy`), `tile` its true code (`vision.modelfiles.CLASS_CODES`)."""

    image: Path
    xyxy: tuple[float, float, float, float]
    tile: str


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
    """

    embeddings: np.ndarray
    labels: np.ndarray
    n_classes: int
    count: int = 0

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
    return Readings(
        cls=r.cls,
        p=r.p,
        margin=np.minimum(r.margin, plain.margin),
        agree=r.agree & plain.agree & (r.cls == plain.cls),
        logit_margin=np.minimum(r.logit_margin, plain.logit_margin),
        ref_sim=box_similarity(sims, owner, r.cls),
        second=r.second,
    )


def box_similarity(sims: np.ndarray, owner: Sequence[int], cls: np.ndarray) -> np.ndarray:
    """Float32 `(K,)`: per box, the best cosine of any of its views to a reference of its read
    class `cls[k]`; NaN where that class has no reference."""
    out = np.full(len(cls), -np.inf, np.float32)
    for b, k in enumerate(owner):
        out[k] = max(out[k], sims[b, cls[k]])
    return np.where(np.isfinite(out), out, np.nan).astype(np.float32)


def _is_path(text: str) -> bool:  # not a lone surrogate "\\ud800" (a non-UTF-8 byte's "\\udcff" is)
    try:
        os.fsencode(text)
    except UnicodeEncodeError:
        return False
    return True


def parse_refs(data: bytes | str, base: Path, classes: Sequence[str] = CLASS_CODES) -> list[Ref]:
    """The references of a REFS.json document (`{"refs": [{"image", "xyxy", "tile"}]}`).

    Args:
        data: the file's bytes (UTF-8) or text.
        base: the folder relative `image` paths are relative to (REFS.json's).
        classes: the tile codes a reference may carry (the classifier's, `none` aside).

    Raises:
        RefsError: `refs_bad_json`, `refs_bad_tile`, `refs_too_many` (the photos are not opened here).
    """
    try:
        doc = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise RefsError(f"the references are not JSON ({exc})", "refs_bad_json") from None
    items = doc.get("refs") if isinstance(doc, dict) else None
    if not isinstance(items, list):
        raise RefsError('the references must be an object {"refs": [...]}', "refs_bad_json")
    if len(items) > MAX_REFS:
        raise RefsError(f"{len(items)} references: at most {MAX_REFS} are read", "refs_too_many")
    known = [c for c in classes if c != "none"]
    out = []
    for n, item in enumerate(items):
        where = f"reference {n}"
        if not isinstance(item, dict) or not {"image", "xyxy", "tile"} <= item.keys():
            raise RefsError(f'{where} must be an object with "image", "xyxy" and "tile"', "refs_bad_json")
        image, box, tile = item["image"], item["xyxy"], item["tile"]
        if not isinstance(image, str) or not image or "\x00" in image or not _is_path(image):
            raise RefsError(f"{where}: image must be a photo's path", "refs_bad_json")
        ok = isinstance(box, list) and len(box) == 4
        if not ok or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in box):
            raise RefsError(f"{where}: xyxy must be four numbers [x0, y0, x1, y1]", "refs_bad_json")
        if not isinstance(tile, str) or tile not in known:
            raise RefsError(f"{where}: {str(tile)[:20]!r} is not a tile code", "refs_bad_tile")
        path = Path(image).expanduser()
        out.append(Ref(path if path.is_absolute() else base / path, tuple(float(v) for v in box), tile))
    photos = {os.path.normpath(r.image) for r in out}
    if len(photos) > MAX_REF_PHOTOS:
        raise RefsError(f"references from {len(photos)} photos: at most {MAX_REF_PHOTOS}", "refs_too_many")
    return out


def load_refs(path: str | Path, classes: Sequence[str] = CLASS_CODES) -> list[Ref]:
    """`parse_refs` of the file at `path` (relative images: relative to its folder).

    Raises:
        RefsError: `refs_unreadable` (missing, a folder, unreadable, over `MAX_REFS_BYTES`) or
            `parse_refs`'s.
    """
    p = Path(path)
    try:
        with open(p, "rb") as fh:
            data = fh.read(MAX_REFS_BYTES + 1)
    except OSError as exc:
        raise RefsError(f"cannot read the references {p}: {exc.strerror or exc}", "refs_unreadable") from None
    if len(data) > MAX_REFS_BYTES:
        raise RefsError(
            f"the references {p} are larger than {MAX_REFS_BYTES // 2**20} MiB", "refs_unreadable"
        )
    return parse_refs(data, p.absolute().parent, classes)  # a linked REFS.json: its own folder


def check_box(ref: Ref, index: int, width: int, height: int) -> None:
    """Raises `RefsError` (`ref_box_outside`) unless `ref.xyxy` is a non-empty box inside a
    `width` x `height` photo (within `BOX_SLACK`)."""
    x0, y0, x1, y1 = ref.xyxy
    inside = -BOX_SLACK <= x0 < x1 <= width + BOX_SLACK and -BOX_SLACK <= y0 < y1 <= height + BOX_SLACK
    if not (inside and x1 - x0 >= 1 and y1 - y0 >= 1):
        raise RefsError(
            f"reference {index}: the box {list(ref.xyxy)} is not inside {ref.image.name} ({width}x{height})",
            "ref_box_outside",
        )


__all__ = [
    "ERROR_CODES",
    "MAX_REFS",
    "MAX_REF_PHOTOS",
    "Ref",
    "RefCalibration",
    "RefSet",
    "RefsError",
    "blend",
    "box_similarity",
    "check_box",
    "load_refs",
    "normalise",
    "parse_refs",
    "read_with_refs",
]
