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
Measured with whole sets held out (`datasets/reports/model-history.md`, "A grey reader").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
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
        if len(xyxy) == 0:
            return [], np.zeros(0, np.float32)
        both = bool(self.spec.meta.get("upside_down", False))
        boxes = np.asarray(xyxy, np.float32) * np.float32(scale)
        batch, _rotated, owner = cut_crops(pixels, boxes, self.spec.input_size, margin, both_ways=both)
        logits, _ = run_classifier(self.spec, grey_views(batch))
        r = combine_views(np.asarray(logits, np.float32), owner, len(xyxy))
        return [self.spec.classes[int(c)] for c in r.cls], np.asarray(r.p, np.float32)


def checked(d: Detection) -> bool:
    """Whether the rule looks at `d`: face up, of a `CHECKED` kind (flagged or not)."""
    return not d.face_down and suit_of(d.tile) in CHECKED


def flag_by_grey(
    dets: Sequence[Detection],
    names: Sequence[str],
    p: np.ndarray,
    min_p: float = GREY_FLAG_P,
    rename_p: float | None = GREY_RENAME_P,
) -> tuple[list[Detection], list[int]]:
    """`(detections, indices changed)`: the rule of the module docstring, given the grey
    readings `names` / `p` of the detections `checked` (in their order); `rename_p` None never
    renames. A tile flagged already is only renamed.

    >>> d = [Detection((0, 0, 6, 8), "6s", 0.9), Detection((9, 0, 15, 8), "3m", 0.9)]
    >>> out, k = flag_by_grey(d, ["9s"], np.array([0.8]))
    >>> k, out[0].tile, out[0].uncertain, out[0].second, out[1].uncertain
    ([0], '6s', True, '9s', False)
    >>> out, _ = flag_by_grey(d, ["9s"], np.array([0.95]))  # sure: renamed, the colour reading second
    >>> out[0].tile, out[0].uncertain, out[0].second
    ('9s', True, '6s')
    >>> out, _ = flag_by_grey([replace(d[0], second="9s")], ["9s"], np.array([0.95]))
    >>> out[0].tile, out[0].uncertain  # the colour's own runner-up: both name it
    ('9s', False)
    >>> out, k = flag_by_grey([replace(d[0], uncertain=True, second="8s")], ["9s"], np.array([0.8]))
    >>> k, out[0].second  # flagged already, not sure enough to rename: as it was
    ([], '8s')
    """
    out, flagged = list(dets), []
    at = [k for k, d in enumerate(dets) if checked(d)]
    for k, name, pk in zip(at, names, p, strict=True):
        d = dets[k]
        if name in (d.tile, "none", BACK) or float(pk) < min_p:
            continue
        sure = rename_p is not None and float(pk) >= rename_p
        if d.uncertain and not sure:
            continue
        if sure:  # both readers name it (the colour's runner-up): agreement, no frame
            out[k] = replace(d, tile=name, uncertain=d.second != name, second=d.tile)
        else:
            out[k] = replace(d, uncertain=True, second=name)
        flagged.append(k)
    return out, flagged


def grey_check(
    grey: GreyReader | None,
    dets: Sequence[Detection],
    source: tuple[np.ndarray, float],
    min_p: float | None,
    margin: float,
    rename_p: float | None = GREY_RENAME_P,
) -> list[Detection]:
    """The detections after the rule (unchanged without a grey reader or with `min_p` None).

    Args:
        source: the pixels the crops are cut from (RGB uint8 `[H, W, 3]`) and their scale to the photo.
        margin: the crop margin (`ReaderConfig.crop_margin`).
        rename_p: from this grey probability on the tile takes the grey reading (None: never).
    """
    if grey is None or min_p is None:
        return list(dets)
    at = [d for d in dets if checked(d)]
    xyxy = np.array([d.xyxy for d in at], np.float32).reshape(-1, 4)
    names, p = grey.read(source[0], source[1], xyxy, margin)
    return flag_by_grey(dets, names, p, min_p, rename_p)[0]


__all__ = [
    "CHECKED",
    "ERROR_CODES",
    "GREY_FLAG_P",
    "GREY_MODEL_FILE",
    "GREY_RENAME_P",
    "GreyModelError",
    "GreyReader",
    "checked",
    "flag_by_grey",
    "grey_check",
    "suit_of",
]
