"""The reader learns a set by appearance, the parts every page shares: a hand read from a photo
of the set (upload or camera; never the bundled sample, which is not this set) makes
references (`of_this_hand`), kept by the page (a table: `app.ui.table.refs`; a phone on the
score page: `app.ui.score.learn`), and later photos are read with them (`reading`,
`services.PHOTO_REFS`).

- **What is learned.** Every tile of the hand that came from a photo box — standing or in a meld,
  face up — with the code the hand holds: the reader's, or the name the player gave a tile he
  renamed (`photo_boxes`). Its crop is cut from the photo as the reader cuts it, and the
  classifier's embedding of each view is kept with the model that made it (`embed`), never the
  photo; an embedding of another model is not used. Its face template (`vision.refmatch`) is kept
  beside it, as a reference of the model `vision.refmatch.FACE_KEY`.
- **Reading with them.** `current` builds the `RefSet` from the store once per change of the
  owner's references (one indexed read per run), cached in the session under the page's key.
- Learning never fails the page: a reference that cannot be made is logged.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from app.ui import drafting, services
from app.ui.hand.session import hip
from ledger import LedgerError
from ledger.store import default_url
from ledger.store import refs as R
from vision.detection import BACK

ss = st.session_state
log = logging.getLogger("jxmj.app")
LEARNED_SOURCES = ("upload", "camera")  # a photo of the player's own set

__all__ = [
    "LEARNED_SOURCES",
    "Taught",
    "capped",
    "current",
    "embed",
    "flat",
    "model_key",
    "of_this_hand",
    "photo_boxes",
    "reader",
    "reading",
    "taught_by_this_hand",
    "tiles",
    "to_refset",
]

Box = tuple[tuple[float, float, float, float], str]


@functools.lru_cache(maxsize=8)
def _file_key(path: str, size: int, mtime_ns: int, version: str) -> str:
    digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]
    return f"{version}/{digest}"[: R.MAX_MODEL]


def model_key(reader) -> str:
    """The classifier's identity, `version/sha256[:16]` of its file: embeddings made by one
    classifier are compared only with embeddings made by the same one."""
    p = Path(reader.classifier.path)
    st_ = p.stat()
    return _file_key(str(p), st_.st_size, st_.st_mtime_ns, reader.classifier.version)


def _box_ids(hand, result) -> list[tuple[int, Box]]:
    """`photo_boxes`, each with its box number."""
    codes: dict[int, set[str]] = {}
    for tile in hand.tiles:
        k = tile.detection
        if isinstance(k, int) and 0 <= k < len(result.detections):
            codes.setdefault(k, set()).add(tile.code)
    out = []
    for k, seen in sorted(codes.items()):
        d = result.detections[k]
        if len(seen) == 1 and not d.face_down and d.tile != BACK:
            x0, y0, x1, y1 = (float(v) for v in d.xyxy)
            out.append((k, ((x0, y0, x1, y1), next(iter(seen)))))
    return out


def photo_boxes(hand, result) -> list[Box]:
    """`(xyxy, code)` of every tile of `hand` (an `EditHand`) that came from a box of `result`
    (a `DetectResult`): once per box, face-down boxes left out (a concealed kong's backs name
    the kong's tile, not what they show), a box the hand gives two codes left out."""
    return [b for _, b in _box_ids(hand, result)]


def embed(reader, data: bytes, boxes: Sequence[Box], size: tuple[int, int] | None = None) -> list[R.TableRef]:
    """The references of `boxes` of the photo `data`: each box cut as the reader cuts it, the
    classifier's embedding of every view, L2-normalised (`vision.refembed.embed_boxes`). Codes
    the classifier does not know (`?`) are left out. `size`: the width and height of the photo
    the boxes were found on, when `data` may be a smaller copy of it (a draft keeps a photo over
    its byte bound re-encoded smaller: `app.drafts.photo`). Raises `ImageError`, `PhotoBusy`."""
    import numpy as np

    from app.photo_gate import photo_slot
    from vision import open_image
    from vision.image import decode_cost
    from vision.refblend import normalise
    from vision.refembed import embed_boxes
    from vision.refmatch import FACE_KEY, cut_faces, templates

    classes = reader.classifier.classes
    boxes = [b for b in boxes if b[1] in classes and b[1] != "none"]
    if not boxes or not reader.embeds:
        return []
    min_side = reader.config.decode_min_side or None
    with photo_slot(None, cost=decode_cost(data, min_side)):
        loaded = open_image(data, min_side=min_side)
        xyxy = np.array([b[0] for b in boxes], np.float32)
        if size is not None and size[0] > 0 and size[1] > 0:  # the boxes' pixels -> this copy's
            xyxy[:, 0::2] *= np.float32(loaded.width / size[0])
            xyxy[:, 1::2] *= np.float32(loaded.height / size[1])
        xyxy[:, 0::2] = np.clip(xyxy[:, 0::2], 0, loaded.width)
        xyxy[:, 1::2] = np.clip(xyxy[:, 1::2], 0, loaded.height)
        emb, owner = embed_boxes(reader, loaded, xyxy * np.float32(loaded.scale))
        faces = templates(cut_faces(loaded.pixels, xyxy * np.float32(loaded.scale))).astype("<f4")
    emb = normalise(np.asarray(emb, np.float32)).astype("<f4")
    model, dim = model_key(reader), int(emb.shape[1])
    rows: dict[int, list] = {}
    for b, k in enumerate(owner):
        rows.setdefault(k, []).append(emb[b])
    out = [R.TableRef(boxes[k][1], model, dim, np.stack(v).tobytes()) for k, v in sorted(rows.items())]
    width = int(faces.shape[1])
    return out + [R.TableRef(boxes[k][1], FACE_KEY, width, faces[k].tobytes()) for k in sorted(rows)]


def tiles(refs: Sequence[R.TableRef]) -> int:
    """How many tiles `refs` are (each an embedding and a face template)."""
    from vision.refmatch import FACE_KEY

    return sum(1 for r in refs if r.model != FACE_KEY)


def to_refset(stored: Sequence[R.TableRef], classes: Sequence[str], faces: Sequence[R.TableRef] = ()):
    """The `vision.refblend.RefSet` of `stored` for a classifier of `classes` (None: nothing usable),
    with the face templates `faces` (`vision.refmatch.FACE_KEY`'s references); a reference of a code
    it does not know, or of another width than the first, is left out."""
    import numpy as np

    from vision.refblend import RefSet, normalise
    from vision.refmatch import FACE, INSET

    width = (FACE[0] - 2 * INSET) * (FACE[1] - 2 * INSET)
    kept = [f for f in faces if f.tile in classes and f.dim == width]
    face_rows = [np.frombuffer(f.views, "<f4").reshape(-1, width)[:1] for f in kept]
    rows, labels, count, dim = [], [], 0, None
    for r in stored:
        dim = r.dim if dim is None else dim
        if r.tile not in classes or r.dim != dim:
            continue
        views = np.frombuffer(r.views, "<f4").reshape(-1, r.dim)
        rows.append(views)
        labels.extend([classes.index(r.tile)] * len(views))
        count += 1
    if not rows:
        return None
    emb = normalise(np.concatenate(rows).astype(np.float32))
    return RefSet(
        emb,
        np.asarray(labels, np.int64),
        len(classes),
        count,
        np.concatenate(face_rows).astype(np.float32) if face_rows else None,
        np.asarray([classes.index(f.tile) for f in kept], np.int64) if face_rows else None,
    )


def reader():
    """The tile reader when it embeds (references need it), else None."""
    got, _why = services._reader()
    return got if got is not None and getattr(got, "embeds", False) else None


def current(cache: str, owner: str, state: Callable[[], object], load: Callable[[str], list[R.TableRef]]):
    """`(RefSet | None, count)`: `owner`'s references for the reader in use (`load(model)`), read
    from the store only when `state()` changed (kept under the session key `cache`). `(None, 0)`
    without a reader that embeds, or on a store error."""
    got = reader()
    if got is None:
        return None, 0
    from vision.refmatch import FACE_KEY

    try:
        model = model_key(got)
        key = (default_url(), owner, model, state())  # every model's state: a face template changes it too
        seen = ss.get(cache)
        if seen is not None and seen[0] == key:
            return seen[1], seen[2]
        stored = load(model)
        refset = to_refset(stored, got.classifier.classes, load(FACE_KEY))
    except (LedgerError, OSError) as e:
        log.warning("references of %s not read: %s", owner, e)
        return None, 0
    ss[cache] = (key, refset, len(stored))
    return refset, len(stored)


@contextlib.contextmanager
def reading(refset: Callable[[], object]) -> Iterator[None]:
    """Inside: photos are read with `refset()` (`services.PHOTO_REFS`), called when a photo is
    read (a run that reads none builds no reader for them)."""
    ss[services.PHOTO_REFS] = refset
    try:
        yield
    finally:
        ss.pop(services.PHOTO_REFS, None)


@dataclass(frozen=True, slots=True)
class Taught:
    """One tile a hand teaches: `refs`, its references (`embed`'s: the classifier's embedding,
    then its face template), and `fixed`: the player renamed it or the reader read it in doubt
    (the tiles the reader most needs; `capped` keeps them first)."""

    code: str
    fixed: bool
    refs: tuple[R.TableRef, ...]


def flat(tiles: Sequence[Taught]) -> list[R.TableRef]:
    """The references of `tiles`, as `embed` gives them: every embedding, then every face template."""
    from vision.refmatch import FACE_KEY

    refs = [r for x in tiles for r in x.refs]
    return [r for r in refs if r.model != FACE_KEY] + [r for r in refs if r.model == FACE_KEY]


def capped(winners: Sequence[Sequence[Taught]], most: int) -> list[R.TableRef]:
    """The references of the tiles of `winners` (one hand's tiles each, the newest last) within
    `most`: every one of them when they fit (`flat`, winner by winner). Else each tile whole (its
    embedding with its face) in this order of help: the fixed (or doubted) ones before the others;
    among those, a first tile of each code before a second of any; within a code the newest
    winner's first — so every winner's fixed tiles are kept, and a code another winner showed
    already gives way to one not yet seen (`MAX_REFS_PER_HAND`: three winners on one discard
    passed it, and the last one's face templates, its fixed tile's among them, were cut off)."""
    every = [(w, i, x) for w, tiles in enumerate(winners) for i, x in enumerate(tiles)]
    if sum(len(x.refs) for _, _, x in every) <= most:
        return [r for tiles in winners for r in flat(tiles)]
    seen: dict[tuple[bool, str], int] = {}
    ranked = []
    for w, i, x in sorted(every, key=lambda e: (not e[2].fixed, -e[0], e[1])):
        nth = seen[(x.fixed, x.code)] = seen.get((x.fixed, x.code), -1) + 1
        ranked.append(((not x.fixed, nth, -w, i), w, i, x))
    kept, room = set(), most
    for _key, w, i, x in sorted(ranked, key=lambda e: e[0]):
        if len(x.refs) <= room:
            kept.add((w, i))
            room -= len(x.refs)
    return [
        r for w, tiles in enumerate(winners) for r in flat([x for i, x in enumerate(tiles) if (w, i) in kept])
    ]


def taught_by_this_hand() -> list[Taught]:
    """The tiles the hand in progress teaches (none unless it was read from a photo of the set
    taken here, and its photo is at hand), each with its references."""
    h = hip()
    photo = h.photo
    if photo is None or h.photo_src not in LEARNED_SOURCES:
        return []
    data = drafting.photo_data()  # in the session, or back from its draft
    if not data:
        return []
    got = reader()
    if got is None:
        return []
    from vision.refmatch import FACE_KEY

    result = photo.result
    boxes = _box_ids(h.hand, result)
    try:
        size = (int(result.width), int(result.height))
        refs = embed(got, bytes(data), [b for _, b in boxes], size)
    except Exception:  # the page goes on all the same; the references are derived
        log.warning("references of the hand not made", exc_info=True)
        return []
    embs = [r for r in refs if r.model != FACE_KEY]
    faces = [r for r in refs if r.model == FACE_KEY]
    known = [(k, b) for k, b in boxes if b[1] in got.classifier.classes and b[1] != "none"]
    if len(embs) != len(faces) or len(embs) != len(known):  # not one of each per box: kept as one
        return [Taught("", False, tuple(refs))] if refs else []
    out = []
    for (k, (_, code)), emb, face in zip(known, embs, faces, strict=True):
        d = result.detections[k]
        out.append(Taught(code, bool(d.uncertain or d.tile != code), (emb, face)))
    return out


def of_this_hand() -> list[R.TableRef]:
    """The references the hand in progress makes (`taught_by_this_hand`), as `embed` gives them."""
    return flat(taught_by_this_hand())
