"""The app's calls into `scoring` and `vision`, typed in and out; failures come back as values.

- `score(HandInput) -> ScoreResult | Refusal` — cached per input (the engine is pure).
- `suggest(hand, conditions) -> list[Suggestion]` — single-tile fixes, unsure tiles first.
- `read_photo(bytes, refs=None) -> Photo` — decode + detect + layout, with the table's
  references when given (`vision.refblend.RefSet`, `app.ui.table.refs`); raises `PhotoError(key, detail)`.
- `reader_status() -> str | None` — None when photos can be read (else: manual mode).

A `Refusal` carries the engine's `HandError.code`, so the page translates by code
(`app/ui/messages.py`), never by matching the English sentence.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import streamlit as st

from app.photo_gate import PhotoBusy, photo_slot
from app.photo_hand import UNKNOWN
from app.ui.render.photo import PREVIEW_SIDE
from app.ui.render.photo import preview as _preview
from app.ui.state import ME, Conditions, EditHand, Selection, hand_input, keys
from app.ui.state.photo import Photo
from app.ui.tile_room import tile_room
from scoring import HandError, HandInput, ScoreResult, suggest_fixes
from scoring import score as engine_score
from scoring.errors import DEALER_NOT_PAYING, PAYER_SETS_IMPOSSIBLE
from scoring.tiles import format_tiles, parse_tiles

log = logging.getLogger("jxmj.app")
ASSETS = Path(__file__).resolve().parent.parent / "assets"
SAMPLE_PHOTO = ASSETS / "sample_hand.jpg"


# ---------------------------------------------------------------- scoring


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a hand was not scored. `code`: the engine's `HandError.code`, or one of the app's
    own (`empty`, `no_winning_tile`, `unknown_tiles`, `payer_tiles`, `engine_failed`,
    `dealer_not_chosen`);
    `message`: the engine's English sentence (shown beside the translation on the en page)."""

    code: str
    message: str = ""
    provisional: ScoreResult | None = None
    """`dealer_not_chosen`: the hand scored as if the winner dealt — its items and own value
    hold whoever deals, its payments do not and are not shown."""


_SCORED: OrderedDict[tuple[HandInput, type], ScoreResult | Refusal] = OrderedDict()
_SCORED_LOCK = threading.Lock()
SCORE_CACHE = 4096
"""Results kept, process-wide (the engine is pure; a what-if table asks for four at once)."""


def score(hand: HandInput) -> ScoreResult | Refusal:
    """The engine's result for `hand`, or the `Refusal` that names why not. Never raises.

    Cached by the input itself (a `HandInput` is hashable) and the point value's type (an int
    and a float that are equal give results of their own types); the results are shared, so
    callers must not change them."""
    key = (hand, type(hand.point_value))
    with _SCORED_LOCK:
        if key in _SCORED:
            _SCORED.move_to_end(key)
            return _SCORED[key]
    try:
        out: ScoreResult | Refusal = engine_score(hand)
    except HandError as exc:
        out = Refusal(exc.code, str(exc))
    except Exception:  # a bug in the engine: say so, keep the app alive, log the details
        log.exception("scoring failed on %s", hand)
        out = Refusal("engine_failed")
    with _SCORED_LOCK:
        _SCORED[key] = out
        while len(_SCORED) > SCORE_CACHE:
            _SCORED.popitem(last=False)
    return out


def score_hand(hand: EditHand, cond: Conditions) -> ScoreResult | Refusal:
    """Score what is on the page: the app's own refusals first (nothing to score yet)."""
    if hand.is_empty:
        return Refusal("empty")
    if hand.winning_tile is None:
        return Refusal("no_winning_tile")
    if any(t.code == UNKNOWN for t in hand.tiles):
        return Refusal("unknown_tiles")
    try:
        data = hand_input(hand, cond)
    except HandError as exc:
        return Refusal(exc.code, str(exc))
    out = score(data)
    if isinstance(out, Refusal) and out.code == PAYER_SETS_IMPOSSIBLE:  # the seats' counts, entered here
        return Refusal("payer_tiles", out.message)
    if isinstance(out, Refusal) and out.code == DEALER_NOT_PAYING and cond.dealer is None:
        mine = score_hand(hand, cond.copy(dealer=ME))
        return Refusal("dealer_not_chosen", out.message, mine if isinstance(mine, ScoreResult) else None)
    return out


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One single-tile change: `remove` (at `where`) and/or `add`; `result` of the changed hand."""

    hand: EditHand
    remove: str | None
    add: str | None
    where: Selection | None
    result: ScoreResult | Refusal


def suggest(
    hand: EditHand, cond: Conditions, limit: int = 3, seconds: Mapping[int, str | None] | None = None
) -> list[Suggestion]:
    """The smallest single-tile changes that make the hand complete, unsure tiles first.

    `scoring.suggest_fixes` orders changes by how alike the tiles look; a change of a tile
    the detector was unsure of is put ahead of one it read with confidence, and a change of a
    photo's tile to its runner-up reading (`seconds`: `Detection.second` by detection index,
    `app.photo_check`) ahead of both.
    """
    codes = [t.code for t in hand.concealed]
    if not codes or UNKNOWN in codes:
        return []
    melds = [{"kind": m.kind, "tiles": format_tiles(parse_tiles(m.codes))} for m in hand.melds]
    try:
        fixes = suggest_fixes(
            format_tiles(parse_tiles(codes)), melds, cond.variant, winning_tile=hand.winning_tile, limit=30
        )
    except HandError:
        return []
    ranked = []
    for order, fix in enumerate(fixes):
        remove = fix.remove.code if fix.remove is not None else None
        add = fix.add.code if fix.add is not None else None
        where = None
        if remove is not None:
            spots = [
                ((_tier(t, add, seconds), _conf(t.code, t.conf)), i)
                for i, t in enumerate(hand.concealed)
                if t.code == remove and i != hand.winning_index
            ]
            if not spots:
                continue
            rank, i = min(spots)
            where = Selection(i)
        else:
            rank = (2, 0.0)
        ranked.append(((rank[0], rank[1] if rank[0] < 2 else 0, order), remove, add, where))
    ranked.sort(key=lambda r: r[0])
    out = []
    for _rank, remove, add, where in ranked[:limit]:
        if where is not None and add is not None:
            trial = hand.with_tile(where, add)
        elif add is not None:
            trial = hand.plus(add).with_winning(hand.winning_index or 0)
        else:
            assert where is not None  # a tile to take out
            trial = hand.without(where)
        out.append(Suggestion(trial, remove, add, where, score_hand(trial, cond)))
    return out


def _tier(tile, add: str | None, seconds: Mapping[int, str | None] | None) -> int:
    """0: `add` is the tile's runner-up reading on the photo; 1: an unsure tile; 2: the rest."""
    if seconds and tile.detection is not None and add is not None and seconds.get(tile.detection) == add:
        return 0
    return 1 if tile.needs_check else 2


def _conf(code: str, conf: float | None) -> float:
    return -1.0 if code == UNKNOWN else 1.0 if conf is None else conf


# ---------------------------------------------------------------- vision


class PhotoError(Exception):
    """A photo could not be used; `key` names the catalog message (`image.<code>` for an
    `ImageError`, whose `fields` fill it), `detail` the cause for the log — never shown."""

    def __init__(self, key: str, detail: str = "", **fields: object):
        super().__init__(detail or key)
        self.key = key
        self.detail = detail
        self.fields = fields


IMAGE_FIELDS = {
    "width": "?", "height": "?", "limit": "?", "need": "?", "format": "?", "scans": "?", "segments": "?",
}  # fmt: skip
"""Every field an `image.<code>` message may name, for an `ImageError` that lacks some."""


@st.cache_resource(show_spinner=False)
def _reader_cached():
    """The tile reader, created once per server process (its ONNX sessions with it).

    A failure is not cached (Streamlit caches only return values), so models installed while
    the app runs are picked up by the next rerun.
    """
    from app.photo_gate import ort_threads
    from vision import get_reader

    threads = ort_threads()  # $JXMJ_ORT_THREADS: a parlour's process, its share of the cores
    if threads is None:
        return get_reader()
    from vision.reader import ReaderConfig

    return get_reader(config=ReaderConfig(threads=threads))


_READER_BUILT = False  # `_reader_cached` returned once in this process


def _reader():
    """(reader, None), or (None, why) when there is no vision stack or no models: manual mode."""
    global _READER_BUILT
    try:
        reader = _reader_cached()
    except Exception as exc:
        return None, f"{type(exc).__name__}: {exc}"
    _READER_BUILT = True
    return reader, None


def _installed(name: str) -> bool:
    """Whether module `name` can be imported, without importing it; one being imported by another
    session's thread is (`find_spec` raised "cv2.__spec__ is None" there: a page failed, issue 37)."""
    import importlib.util

    try:
        return name in sys.modules or importlib.util.find_spec(name) is not None
    except ValueError:  # put in `sys.modules` meanwhile, its `__spec__` not set yet
        return True


def _vision_missing() -> str | None:
    """Why no reader could be built, read off the installation alone (no import, no model load:
    the vision stack costs a page that shows no photo ~0.5-1 s): a package of the vision stack
    not installed, a model file not there. A file that is there but broken is found by the
    first read (`read_photo`: ``err.vision_missing``)."""
    import importlib.util
    import os

    for name in ("numpy", "cv2", "onnxruntime", "PIL"):
        if not _installed(name):
            return f"ModuleNotFoundError: No module named {name!r}"
    env = os.environ.get("JXMJ_MODELS_DIR")  # vision.modelfiles.models_dir, without its imports
    spec = None if env else importlib.util.find_spec("models")
    origin = spec.origin if spec is not None else None
    if not env and not origin:
        return "ModelError: no models directory"
    folder = Path(env).expanduser() if env else Path(str(origin)).parent
    for name in ("localizer.onnx", "classifier.onnx"):
        if not (folder / name).is_file():
            return f"ModelError: {folder / name} not found"
    return None


def reader_status() -> str | None:
    """None when photos can be read, else the reason they cannot. Before the first photo of the
    process the reader is not built for this answer (`_vision_missing`); after it, its own."""
    if not _READER_BUILT:
        why = _vision_missing()
        if why is not None:
            return why
        if "vision.reader" not in sys.modules:
            return None
    return _reader()[1]


PHOTO_REFS = keys.PHOTO_REFS
"""Session key: while a page takes photos, a callable giving the `RefSet` they are read with (the
table's set, or on 计分 the phone's: `app.ui.refsets`; called only when a photo is read, so a page
without one builds no reader)."""


def photo_refs() -> dict[str, Any]:
    """``{"refs": RefSet}`` for :func:`read_photo` while a table's or the phone's references apply,
    else ``{}``."""
    lazy = st.session_state.get(PHOTO_REFS)
    refs = lazy() if callable(lazy) else lazy
    return {"refs": refs} if refs is not None else {}


def reader_built() -> bool:
    """The tile reader was built in this process (a photo was read): asking it costs nothing now."""
    return _READER_BUILT


def read_photo(
    data: bytes, waiting: Callable[[], AbstractContextManager[object]] | None = None, refs: object = None
) -> Photo:
    """Decode, detect and group (with `refs`, a `vision.refblend.RefSet` of the table's set, when
    given). Raises `PhotoError` with a catalog key on any failure.

    The server reads a few photos at once, within `app.photo_gate.MEMORY` (each costed from
    its header by `vision.image.read_cost`); `waiting()` (a spinner) is shown while this
    one waits for its turn.
    """
    if not data:
        raise PhotoError("err.photo_empty")
    try:
        from vision import ImageError, open_image
        from vision.image import read_cost
    except Exception as exc:
        raise PhotoError("err.vision_missing", str(exc)) from exc
    reader, why = _reader()
    if reader is None:
        raise PhotoError("err.vision_missing", why or "")
    min_side = reader.config.decode_min_side or None  # decoded no larger than the reader needs
    try:  # the decode and the reading, the memory-hungry part, as one admitted read
        with photo_slot(waiting, cost=read_cost(data, min_side)):
            t0 = time.perf_counter()
            loaded = open_image(data, min_side=min_side)
            t1 = time.perf_counter()
            need = tile_room(loaded.width, loaded.height, reader.classifier.input_size)
            if need:  # no reading at all beats the junk tiles a reader finds in a few dozen pixels
                fields = {**IMAGE_FIELDS, "width": loaded.width, "height": loaded.height, "limit": need}
                raise PhotoError("image.too_small", f"{loaded.width}x{loaded.height} < {need} px", **fields)
            result = reader.detect(loaded, refs)
            t2 = time.perf_counter()
            image = loaded.pixels
            preview, scale, cut = _preview(image, result.width, [d.xyxy for d in result.detections])
    except PhotoError:
        raise  # too small for a tile (`app.ui.tile_room`)
    except PhotoBusy as exc:
        raise PhotoError("err.photo_busy", str(exc)) from exc
    except ImageError as exc:
        raise PhotoError(f"image.{exc.code}", str(exc), **{**IMAGE_FIELDS, **exc.fields}) from exc
    except Exception as exc:  # the cause goes to the log only: no internal names on the page
        log.exception("reading a photo failed")
        raise PhotoError("err.detect_failed", f"{type(exc).__name__}: {exc}") from exc
    used = int(getattr(refs, "count", 0) or 0) if refs is not None else 0
    digest = hashlib.sha256(data).hexdigest()
    seconds = {"decode": t1 - t0, "detect": t2 - t1}
    return Photo(preview, scale, result, seconds, used, digest, cut)


def sample_photo() -> bytes | None:
    return SAMPLE_PHOTO.read_bytes() if SAMPLE_PHOTO.exists() else None


def sample_truth() -> EditHand:
    """The sample photo's true hand (`sample_hand.json`: `tiles`, `winning_tile`), winning tile last."""
    truth = json.loads((ASSETS / "sample_hand.json").read_text(encoding="utf-8"))
    codes = [t.code for t in parse_tiles(truth["tiles"])]
    codes.remove(truth["winning_tile"])
    return EditHand.typed([*codes, truth["winning_tile"]])


__all__ = [
    "PHOTO_REFS",
    "PREVIEW_SIDE",
    "Photo",
    "PhotoError",
    "Refusal",
    "Suggestion",
    "photo_refs",
    "read_photo",
    "reader_built",
    "reader_status",
    "sample_photo",
    "sample_truth",
    "score",
    "score_hand",
    "suggest",
]
