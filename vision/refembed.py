"""Embedding reference tiles with a `TileReader`'s classifier (`vision.refblend`; `TileReader.embed_refs`).

Each reference photo is decoded once, as the reader decodes a photo it reads (at the reduced size
of `ReaderConfig.decode_min_side`, and again at the scale its tiles need only when they are too
small there: `Classifier.crop_source`, `vision.scale`); each box is cut as a detection's crop is
(`cut_crops`, both views when the classifier reads both), classified in batches of at most
`EMBED_BATCH` views, and the `embedding` output of every view kept, L2-normalised.
Each reference's face is also cut from the decoded photo and kept as a template
(`vision.refmatch`: the set learned by appearance).
`gather_views`: the views of the boxes left after the split stage, to read them with references
without classifying them again.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from vision.boxes import cut_crops
from vision.face_polarity import dark_photo, light_photo
from vision.image import ImageError, LoadedImage, open_image
from vision.modelfiles import NONE_CLASS, run_classifier
from vision.refblend import RefSet, normalise
from vision.refmatch import cut_faces, templates
from vision.refs import Ref, RefsError, check_box, position

EMBED_BATCH = 512
"""Reference crops go through the classifier in batches of at most this many views."""


def embed_refs(reader, refs: Sequence[Ref]) -> RefSet:
    """The `RefSet` of `refs` for `reader` (a `vision.TileReader`): one row per view.

    Photos are grouped by their resolved path, so `a.jpg` and `./a.jpg` are decoded once.

    Raises:
        RefsError: `refs_unsupported` (the classifier has no embedding output and `refs` is not
            empty), `refs_bad_tile` (a code the classifier does not know), `ref_photo_unreadable`,
            `ref_box_outside`.
    """
    classes = reader.classifier.classes
    if refs and not reader.embeds:
        model = reader.classifier.path.name
        raise RefsError(
            f"the classifier {model} (version {reader.classifier.version}) has no "
            "embedding output, so it cannot read with references (models/MODEL.md 0.6.3 adds it)",
            "refs_unsupported",
            model=model,
        )
    by_photo: dict[Path, list[int]] = {}
    for n, ref in enumerate(refs):
        if ref.tile not in classes or ref.tile == NONE_CLASS:
            why = f"{position(n)}: {ref.tile!r} is not a tile code"
            raise RefsError(why, "refs_bad_tile", "unknown", ref=n + 1, tile=repr(ref.tile))
        by_photo.setdefault(ref.image.resolve(), []).append(n)
    rows: list[np.ndarray] = []
    labels: list[int] = []
    faces: list[np.ndarray] = []  # vision.refmatch: each reference's face template
    face_labels: list[int] = []
    for path, idx in by_photo.items():
        try:
            loaded = open_image(path, min_side=reader.config.decode_min_side or None)
        except ImageError as exc:
            photo = refs[idx[0]].image
            why = f"{position(idx[0])}: the photo {photo} cannot be read: {exc}"
            fields: dict[str, Any] = {**exc.fields, "ref": idx[0] + 1, "photo": str(photo), "cause": exc.code}
            raise RefsError(why, "ref_photo_unreadable", **fields) from None
        for n in idx:
            check_box(refs[n], n, loaded.width, loaded.height)
        xyxy = np.array([refs[n].xyxy for n in idx], np.float32)
        xyxy[:, 0::2] = np.clip(xyxy[:, 0::2], 0, loaded.width)
        xyxy[:, 1::2] = np.clip(xyxy[:, 1::2], 0, loaded.height)
        boxes = xyxy * np.float32(loaded.scale)
        if reader.config.dark_faces and dark_photo(loaded.pixels, boxes, np.ones(len(boxes), bool)):
            loaded = light_photo(reader.classifier, loaded, boxes, {"decode": 0.0})  # as `detect` reads it
        emb, owner = embed_boxes(reader, loaded, xyxy * np.float32(loaded.scale))
        rows.append(emb)
        labels.extend(classes.index(refs[idx[k]].tile) for k in owner)
        faces.append(templates(cut_faces(loaded.pixels, xyxy * np.float32(loaded.scale))))
        face_labels.extend(classes.index(refs[n].tile) for n in idx)
    emb = np.concatenate(rows) if rows else np.zeros((0, 0), np.float32)
    return RefSet(
        normalise(emb),
        np.asarray(labels, np.int64),
        len(classes),
        len(refs),
        np.concatenate(faces) if faces else None,
        np.asarray(face_labels, np.int64) if faces else None,
    )


def embed_boxes(reader, loaded: LoadedImage, xyxy: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """Embeddings float32 `(B, D)` of every view of the boxes `xyxy` (`(K, 4)`, pixels of
    `loaded.pixels`), cut as the reader cuts them, and `owner[b]`: the box of view `b`."""
    crop_src, crop_scale = reader.classifier.crop_source(loaded, xyxy, {"decode": 0.0})
    boxes = xyxy * np.float32(crop_scale / loaded.scale)
    both = bool(reader.classifier.meta.get("upside_down", False))
    size, margin = reader.classifier.input_size, reader.config.crop_margin
    out: list[np.ndarray] = []
    owner: list[int] = []
    step = max(1, EMBED_BATCH // 2)
    for k0 in range(0, len(boxes), step):
        batch, _rotated, own = cut_crops(crop_src, boxes[k0 : k0 + step], size, margin, both_ways=both)
        _logits, emb = run_classifier(reader.classifier.spec, batch, embed=True)
        out.append(np.asarray(emb, np.float32))
        owner.extend(k0 + o for o in own)
    return np.concatenate(out), owner


def gather_views(views: dict[str, tuple], origin: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """The views `(logits, embedding, owner)` of the boxes `origin` names (`vision.splits.Merged.origin`:
    `k >= 0` box `k` of `views["boxes"]`, `-(n + 1)` union `n` of `views["unions"]`), in that order."""
    rows: dict[str, list[list[int]]] = {}
    for key, (_z, _e, owner) in views.items():
        rows[key] = [[] for _ in range(max(owner, default=-1) + 1)]
        for b, k in enumerate(owner):
            rows[key][k].append(b)
    logits, emb, out_owner = [], [], []
    for f, o in enumerate(origin):
        key, k = ("boxes", int(o)) if o >= 0 else ("unions", -int(o) - 1)
        z, e, _owner = views[key]
        for b in rows[key][k]:
            logits.append(z[b])
            emb.append(e[b])
            out_owner.append(f)
    d = views["boxes"][1].shape[1]
    return (
        np.asarray(logits, np.float32).reshape(-1, views["boxes"][0].shape[1]),
        np.asarray(emb, np.float32).reshape(-1, d),
        out_owner,
    )


__all__ = ["EMBED_BATCH", "embed_boxes", "embed_refs", "gather_views"]
