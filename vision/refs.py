"""The references of a set the player has already put right: what one is, and REFS.json.

A reference is a tile of the table's own set that a player confirmed or fixed on an earlier
photo: `Ref(image, xyxy, tile)` (`jxmj detect --refs REFS.json`, docs/detect-json.md "--refs").
`load_refs` / `parse_refs` read and check REFS.json (`{"refs": [{"image", "xyxy", "tile"}]}`);
`check_box` checks a box against its decoded photo. How the reader embeds them and blends them
into a reading: `vision.refblend` (`RefSet`, `RefCalibration`, `read_with_refs`).

Every error is a `RefsError` with a code of `ERROR_CODES`; a message names a reference by its
place in the list counting from 1 (`position`), as hands and melds are counted.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vision.modelfiles import CLASS_CODES

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
    """References that cannot be used: `str(error)` a sentence, `error.code` one of `ERROR_CODES`.

    `error.case` says which of the code's problems it is (``"twice"``, ``"xyxy"``, ... or None),
    and `error.fields` the values the sentence names (``ref``: the reference counting
    from 1, ``key``, ``tile``, ``count``, ``limit``, ``photo``, ``box``, ``width``, ``height``,
    ``model``), so that a translated sentence can say the same (`app.detect_errors`).
    """

    def __init__(self, message: str, code: str, case: str | None = None, **fields: object) -> None:
        super().__init__(message)
        self.code = code
        self.case = case
        self.fields = fields


@dataclass(frozen=True, slots=True)
class Ref:
    """One reference tile: `image` the photo's path, `xyxy` `(x0, y0, x1, y1)` float pixels of
    that photo upright (as `Detection.xyxy`), `tile` its true code (`vision.modelfiles.CLASS_CODES`)."""

    image: Path
    xyxy: tuple[float, float, float, float]
    tile: str


def position(index: int) -> str:
    """How the reference at list `index` (0-based) reads in a message: counted from 1, as hands
    and melds are.

    >>> position(0)
    'reference 1'
    """
    return f"reference {index + 1}"


def _is_path(text: str) -> bool:  # not a lone surrogate "\\ud800" (a non-UTF-8 byte's "\\udcff" is)
    try:
        os.fsencode(text)
    except UnicodeEncodeError:
        return False
    return True


class _Object(dict):
    """A JSON object as decoded; `twice`: the first key it gives more than once (None: none)."""

    twice: str | None = None


def _decode(data: bytes | str) -> tuple[Any, list[str]]:
    """The JSON value of `data` and every key some object of it gives twice (the last value is
    kept; `parse_refs` refuses them, naming where)."""
    twice: list[str] = []

    def hook(pairs: list[tuple[str, Any]]) -> _Object:
        out = _Object()
        for key, value in pairs:
            if key in out and out.twice is None:
                out.twice = key
                twice.append(key)
            out[key] = value
        return out

    return json.loads(data, object_pairs_hook=hook), twice


def _key(key: str) -> str:
    """A key (or tile) as JSON spells it, cut to 40 characters; escaped only where it is not text
    (a lone surrogate)."""
    key = key if len(key) <= 40 else key[:40] + "…"
    text = json.dumps(key, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(key)
    return text


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def parse_refs(data: bytes | str, base: Path, classes: Sequence[str] = CLASS_CODES) -> list[Ref]:
    """The references of a REFS.json document (`{"refs": [{"image", "xyxy", "tile"}]}`).

    Args:
        data: the file's bytes (UTF-8) or text.
        base: the folder relative `image` paths are relative to (REFS.json's).
        classes: the tile codes a reference may carry (the classifier's, `none` aside).

    Raises:
        RefsError: `refs_bad_json` (also a key given twice in one object, and a number too large
            for a float: `1e400`), `refs_bad_tile`, `refs_too_many` (the photos are not opened
            here). A message names a reference by its `position`, counting from 1.
    """
    try:
        doc, twice = _decode(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise RefsError(f"the references are not JSON ({exc})", "refs_bad_json", "not_json") from None
    if isinstance(doc, _Object) and doc.twice is not None:
        key = _key(doc.twice)
        raise RefsError(
            f"the references give the key {key} twice: give it once", "refs_bad_json", "twice", key=key
        )
    items = doc.get("refs") if isinstance(doc, dict) else None
    if not isinstance(items, list):
        raise RefsError('the references must be an object {"refs": [...]}', "refs_bad_json", "shape")
    if len(items) > MAX_REFS:
        n = len(items)
        raise RefsError(
            f"{n} references: at most {MAX_REFS} are read", "refs_too_many", "refs", count=n, limit=MAX_REFS
        )
    known = [c for c in classes if c != "none"]
    out = []
    for n, item in enumerate(items):
        where, ref = position(n), n + 1
        if isinstance(item, _Object) and item.twice is not None:
            key = _key(item.twice)
            why = f"{where} gives the key {key} twice: give it once"
            raise RefsError(why, "refs_bad_json", "ref_twice", ref=ref, key=key)
        if not isinstance(item, dict) or not {"image", "xyxy", "tile"} <= item.keys():
            why = f'{where} must be an object with "image", "xyxy" and "tile"'
            raise RefsError(why, "refs_bad_json", "entry", ref=ref)
        image, box, tile = item["image"], item["xyxy"], item["tile"]
        if not isinstance(image, str) or not image or "\x00" in image or not _is_path(image):
            raise RefsError(f"{where}: image must be a photo's path", "refs_bad_json", "image", ref=ref)
        if not (isinstance(box, list) and len(box) == 4 and all(_number(v) for v in box)):
            why = f"{where}: xyxy must be four numbers [x0, y0, x1, y1]"
            raise RefsError(why, "refs_bad_json", "xyxy", ref=ref)
        if not isinstance(tile, str):
            why = f'{where}: tile must be a tile code, a string such as "6m"'
            raise RefsError(why, "refs_bad_tile", "not_text", ref=ref)
        if tile not in known:
            code = _key(tile[:20])
            raise RefsError(
                f"{where}: {code} is not a tile code", "refs_bad_tile", "unknown", ref=ref, tile=code
            )
        path = Path(image).expanduser()
        x0, y0, x1, y1 = (float(v) for v in box)
        out.append(Ref(path if path.is_absolute() else base / path, (x0, y0, x1, y1), tile))
    if twice:  # an object given a key twice somewhere else (an ignored field's value)
        key = _key(twice[0])
        raise RefsError(
            f"the references give the key {key} twice in one object", "refs_bad_json", "twice", key=key
        )
    photos = {os.path.normpath(r.image) for r in out}
    if len(photos) > MAX_REF_PHOTOS:
        n = len(photos)
        why = f"references from {n} photos: at most {MAX_REF_PHOTOS}"
        raise RefsError(why, "refs_too_many", "photos", count=n, limit=MAX_REF_PHOTOS)
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
        why = f"cannot read the references {p}: {exc.strerror or exc}"
        raise RefsError(why, "refs_unreadable", "unreadable") from None
    if len(data) > MAX_REFS_BYTES:
        limit = MAX_REFS_BYTES // 2**20
        raise RefsError(
            f"the references {p} are larger than {limit} MiB", "refs_unreadable", "too_large", limit=limit
        )
    return parse_refs(data, p.absolute().parent, classes)  # a linked REFS.json: its own folder


def check_box(ref: Ref, index: int, width: int, height: int) -> None:
    """Raises `RefsError` (`ref_box_outside`, naming the reference by its `position`: `index` is
    0-based) unless `ref.xyxy` is a non-empty box inside a `width` x `height` photo (within
    `BOX_SLACK`)."""
    x0, y0, x1, y1 = ref.xyxy
    inside = -BOX_SLACK <= x0 < x1 <= width + BOX_SLACK and -BOX_SLACK <= y0 < y1 <= height + BOX_SLACK
    if not (inside and x1 - x0 >= 1 and y1 - y0 >= 1):
        box = list(ref.xyxy)
        raise RefsError(
            f"{position(index)}: the box {box} is not inside {ref.image.name} ({width}x{height})",
            "ref_box_outside",
            ref=index + 1,
            box=box,
            photo=ref.image.name,
            width=width,
            height=height,
        )


__all__ = [
    "ERROR_CODES",
    "MAX_REFS",
    "MAX_REF_PHOTOS",
    "Ref",
    "RefsError",
    "check_box",
    "load_refs",
    "parse_refs",
    "position",
]
