"""A second reader trained apart from colour: the grey reader's doubt flags a tile (issue 35 item 5,
"Your set, read right": a flag that holds on sets it has never seen).

The classifier learned the inks of the sets it was trained on: on a set that paints them otherwise
(a 9條 whose red middle column is blue, a 中 in another red, dots in one ink) it reads a wrong
tile *surely*, and every doubt signal of flag 2-6 stays quiet. The grey reader
(`grey_classifier.onnx` beside the models; the classifier's network fine-tuned on the real crops of
`real_photos_rf`'s train split with every crop seen as its grey — each pixel the mean of its three
channels, `vision.flagging.grey_views` — so no ink's colour can lead it, only the shapes) reads the
same boxes again. Where it disagrees, surely, the tile is in doubt.

The rule (`ReaderConfig.grey_flag_p`; on by default at `GREY_FLAG_P`), on the arranged detections:
a face-up tile of a kind the rule checks (`CHECKED`: dots, bamboo, honours, flowers — 萬 tiles
are the text reader's, `vision.text_check`, and the grey reader's 萬 readings of an unseen set's
black numerals disagree with right readings), that the grey reader names as another tile (not
`none`, not a back) at `grey_flag_p` or more is flagged, the grey reading its runner-up; from
`grey_rename_p` on (`GREY_RENAME_P`) the tile takes the grey reading instead, the colour reading
its runner-up — a tile flagged already too (the flag's other signals say the colour reading is in
doubt; the grey one is sure). A renamed tile is flagged (one reader against the other: the player
sees both) unless the grey reading was the colour reading's own runner-up: then both readers name
it, and agreement clears doubt (as flag 5).

Its second pass (`read_grey` reads every face-up box once, before the roles; each rule has its
`ReaderConfig` switch):

- **agreement clears** (`agrees`, `grey_clear_p`): a tile flagged for the colour reader's doubt
  (flag 2, the face checks) that the grey reader names too from `GREY_CLEAR_P` on is not flagged
  — through `vision.face_checks`' clears, so a fifth copy and a doubled box stay flagged;
- **doubt flags** (`vision.grey_doubt`, `grey_doubt_p`): an unflagged tile of a `CHECKED` kind
  whose reading it gives little (it names another tile; it is sure of nothing; it sees no tile on
  a dot or bamboo face; it gives the colour reading's runner-up as much) is flagged, unless the
  text reader names an honour tile's reading;
- **萬 tiles it doubts are read as text** (`vision.grey_text`, `grey_text_p`): under
  `GREY_TEXT_P`, one text read decides — confirmed, renamed or flagged.

Measured with whole sets held out (`datasets/reports/model-history.md`, "A grey reader" and "The
grey reader, second pass").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from scoring.tiles import tile_of
from vision.boxes import cut_crops
from vision.detection import BACK, FLOWER, Detection
from vision.flagging import grey_views
from vision.modelfiles import (
    CodedModelError,
    ModelContractError,
    ModelError,
    ModelSpec,
    open_model,
    run_classifier,
)
from vision.reading import combine_views

GREY_MODEL_FILE = "grey_classifier.onnx"
"""The grey reader's model, beside the classifier (optional: without it the reader reads as before)."""
GREY_FLAG_P = 0.7
"""The grey reading's probability from which its disagreement flags: of 0.5, 0.6, 0.7, the one
that flags the fewest right tiles on `real_sets_dev` (sets never trained on: 16 of 429 right
tiles through the runtime, 15 without the grey reader) while the stand-ins catch within two tiles of 0.5's
(`datasets/reports/model-history.md`, "A grey reader")."""
GREY_RENAME_P = 0.9
"""The grey reading's probability from which it renames the tile: of 0.8, 0.9, 0.97, the least
that puts no right tile of `real_sets_dev` wrong (0.8: one); with flagged tiles renamed too, the
stand-ins' tiles 0.939 → 0.972 (mono), 0.942 → 0.970 (swap), 0.974 → 0.985 (hue), the val split
unchanged."""
GREY_CLEAR_P = 0.8
"""From this grey probability of the same reading, a tile flagged for the colour reader's doubt is
cleared (`agrees`)."""
GREY_TEXT_P = 0.85
"""Below this grey probability of its reading, an unflagged 萬 tile is read as text
(`vision.grey_text`). Of 0.7, 0.8, 0.85, 0.9: from 0.8 it frames `real_sets_dev`'s unreadable 萬
(labelled `?`); 0.85 one more wrong 萬 of mono and swap than 0.8, for two more right tiles of
`real_sets_dev` (19 of 429 framed, under the issue's 5 %); 0.9 three more right tiles and no more
wrong ones. About one text read in twelve photos (`datasets/reports/model-history.md`, "The grey
reader, third pass")."""
CHECKED = frozenset("pszf")
"""The kinds checked: `p` dots, `s` bamboo, `z` honours, `f` flowers (`suit_of`)."""
ERROR_CODES = ("grey_model_unreadable", "grey_model_contract")


class GreyModelError(CodedModelError):
    """The grey reader's model cannot be used: `error.code` one of `ERROR_CODES`, `error.fields`
    the values the sentence names (`path`)."""


def suit_of(tile: str) -> str:
    """`m`, `p`, `s` for a suit tile, `z` for an honour, `f` for a flower, `x` for anything else.

    >>> [suit_of(t) for t in ("3m", "9s", "C", "E", "flower", "back")]
    ['m', 's', 'z', 'z', 'f', 'x']
    """
    t = tile_of(tile)
    if t is not None:
        return t.suit
    return "f" if tile == FLOWER else "x"


@dataclass(frozen=True)
class GreyView:
    """The grey reader's word on one box: its reading `name` at probability `p`, and `probs`
    (float `(C,)`) over its `classes`."""

    name: str
    p: float
    probs: np.ndarray = field(repr=False)
    classes: tuple[str, ...] = field(repr=False)

    def p_of(self, tile: str) -> float:
        """The grey probability of `tile` (0 for a code the grey reader does not know).

        >>> GreyView("6s", 0.7, np.array([0.7, 0.2, 0.1]), ("6s", "9s", "none")).p_of("9s")
        0.2
        """
        return float(self.probs[self.classes.index(tile)]) if tile in self.classes else 0.0


class GreyReader:
    """The grey reader: the boxes' crops made grey, read by `grey_classifier.onnx`.

    Raises (constructor):
        GreyModelError: `grey_model_unreadable` (not an ONNX model), `grey_model_contract` (no
            or invalid `jxmj` metadata, not a classifier, or another crop size than `input_size`).
    """

    def __init__(self, path: str | Path, input_size: tuple[int, int], threads: int | None = None) -> None:
        self.path = Path(path)
        try:
            spec = open_model(self.path, "classify", threads)
        except ModelError as exc:
            code = "grey_model_contract" if isinstance(exc, ModelContractError) else "grey_model_unreadable"
            raise GreyModelError(f"grey reader: {exc}", code, path=str(self.path)) from None
        if spec.input_size != tuple(input_size):
            raise GreyModelError(
                f"grey reader {self.path.name}: crops {spec.input_size}, the classifier's are {input_size}",
                "grey_model_contract",
                path=str(self.path),
            )
        self.spec: ModelSpec = spec

    def read(
        self, pixels: np.ndarray, scale: float, xyxy: np.ndarray, margin: float
    ) -> tuple[list[str], np.ndarray]:
        """`(names, p)`: per box its grey reading and that reading's probability (float `(K,)`).

        Args:
            pixels: RGB uint8 `[H, W, 3]`, at `scale` to the photo.
            xyxy: float `(K, 4)` boxes in full-photo pixels.
            margin: the crop margin (`ReaderConfig.crop_margin`).
        """
        views = self.views(pixels, scale, xyxy, margin)
        return [v.name for v in views], np.array([v.p for v in views], np.float32)

    def views(self, pixels: np.ndarray, scale: float, xyxy: np.ndarray, margin: float) -> list[GreyView]:
        """Per box its `GreyView` (arguments as `read`)."""
        if len(xyxy) == 0:
            return []
        both = bool(self.spec.meta.get("upside_down", False))
        boxes = np.asarray(xyxy, np.float32) * np.float32(scale)
        batch, _rotated, owner = cut_crops(pixels, boxes, self.spec.input_size, margin, both_ways=both)
        logits, _ = run_classifier(self.spec, grey_views(batch))
        r = combine_views(np.asarray(logits, np.float32), owner, len(xyxy))
        names, probs = self.spec.classes, np.asarray(r.probs, np.float32)
        pairs = enumerate(zip(r.cls, r.p, strict=True))
        return [GreyView(names[int(c)], float(p), probs[k], tuple(names)) for k, (c, p) in pairs]


def checked(d: Detection) -> bool:
    """Whether the rule looks at `d`: face up, of a `CHECKED` kind (flagged or not)."""
    return not d.face_down and suit_of(d.tile) in CHECKED


def flag_by_grey(
    dets: Sequence[Detection],
    views: Sequence[GreyView | None],
    min_p: float = GREY_FLAG_P,
    rename_p: float | None = GREY_RENAME_P,
) -> tuple[list[Detection], list[int]]:
    """`(detections, indices changed)`: the rule of the module docstring, given the grey views of
    `dets` (in their order; None: not read; only the `checked` tiles are looked at); `rename_p`
    None never renames. A tile flagged already is only renamed.

    >>> v = lambda name, p: GreyView(name, p, np.array([p]), (name,))
    >>> d = [Detection((0, 0, 6, 8), "6s", 0.9), Detection((9, 0, 15, 8), "3m", 0.9)]
    >>> out, k = flag_by_grey(d, [v("9s", 0.8), v("9m", 0.99)])  # 萬: the text reader's
    >>> k, out[0].tile, out[0].uncertain, out[0].second, out[1].uncertain
    ([0], '6s', True, '9s', False)
    >>> out, _ = flag_by_grey(d, [v("9s", 0.95), None])  # sure: renamed, the colour reading second
    >>> out[0].tile, out[0].uncertain, out[0].second
    ('9s', True, '6s')
    >>> out, _ = flag_by_grey([replace(d[0], second="9s")], [v("9s", 0.95)])
    >>> out[0].tile, out[0].uncertain  # the colour's own runner-up: both name it
    ('9s', False)
    >>> out, k = flag_by_grey([replace(d[0], uncertain=True, second="8s")], [v("9s", 0.8)])
    >>> k, out[0].second  # flagged already, not sure enough to rename: as it was
    ([], '8s')
    """
    out, flagged = list(dets), []
    for k, (d, v) in enumerate(zip(dets, views, strict=True)):
        if v is None or not checked(d) or v.name in (d.tile, "none", BACK) or v.p < min_p:
            continue
        sure = rename_p is not None and v.p >= rename_p
        if d.uncertain and not sure:
            continue
        if sure:  # both readers name it (the colour's runner-up): agreement, no frame
            out[k] = replace(d, tile=v.name, uncertain=d.second != v.name, second=d.tile)
        else:
            out[k] = replace(d, uncertain=True, second=v.name)
        flagged.append(k)
    return out, flagged


def read_grey(
    grey: GreyReader | None, dets: Sequence[Detection], source: tuple[np.ndarray, float], margin: float
) -> dict[tuple[float, ...], GreyView]:
    """The grey reader's `GreyView` of every face-up detection, by its `xyxy` (empty without a
    reader). `source`: the pixels the crops are cut from (RGB uint8 `[H, W, 3]`) and their scale to
    the photo; `margin`: the crop margin (`ReaderConfig.crop_margin`)."""
    at = [d for d in dets if not d.face_down]
    if grey is None or not at:
        return {}
    xyxy = np.array([d.xyxy for d in at], np.float32).reshape(-1, 4)
    return {tuple(d.xyxy): v for d, v in zip(at, grey.views(source[0], source[1], xyxy, margin), strict=True)}


def agrees(d: Detection, view: GreyView | None, clear_p: float | None) -> bool:
    """Whether the grey reader names `d`'s reading too, from `clear_p` on: a flagged tile's doubt
    is then cleared (`vision.face_checks`: agreement clears doubt, as flag 5 and the text reader).

    >>> v = GreyView("6s", 0.95, np.array([0.95, 0.05]), ("6s", "9s"))
    >>> d = Detection((0, 0, 6, 8), "6s", 0.5, uncertain=True)
    >>> agrees(d, v, GREY_CLEAR_P), agrees(d, v, None), agrees(replace(d, tile="9s"), v, GREY_CLEAR_P)
    (True, False, False)
    """
    return clear_p is not None and view is not None and view.name == d.tile and view.p >= clear_p


__all__ = [
    "CHECKED",
    "ERROR_CODES",
    "GREY_CLEAR_P",
    "GREY_FLAG_P",
    "GREY_MODEL_FILE",
    "GREY_RENAME_P",
    "GREY_TEXT_P",
    "GreyModelError",
    "GreyReader",
    "GreyView",
    "agrees",
    "checked",
    "flag_by_grey",
    "read_grey",
    "suit_of",
]
