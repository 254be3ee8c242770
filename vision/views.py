"""How the reader classifies boxes: the crop source, every view of a box through the classifier,
the readings that combine them (with a table's references), and flag 2's second look.

`Classifier` is the object a `vision.reader.TileReader` owns as its `classifier`: the classifier
model (`spec`, a `vision.modelfiles.ModelSpec`, whose `classes`, `input_size`, `meta`, `path`,
`version` and `embedding_name` it answers as its own), the crop knobs of the reader's `config`
(`ReaderConfig`), flag 2's `flag_model` and the references' `ref_calibration`. Boxes are `xyxy`
float32 `(N, 4)` in pixels of `loaded.pixels`; `timing` gains the milliseconds of any second
decode under `decode` (at the scale the boxes need: `vision.scale`).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from vision.boxes import cut_crops
from vision.flagging import (
    FEATURES,
    FlagModel,
    box_features,
    feature_matrix,
    grey_views,
    margin_toward,
    proto_sim,
    tta_boxes,
)
from vision.image import LoadedImage, open_image
from vision.modelfiles import ModelError, ModelSpec, run_classifier
from vision.reading import Readings, combine_views, uncertain, unlike_refs
from vision.refblend import RefCalibration, RefSet, read_with_refs
from vision.scale import current_reduction, min_side_for, reduction_for


class CropKnobs(Protocol):
    """The `ReaderConfig` fields the views read."""

    @property
    def min_crop_px(self) -> float: ...
    @property
    def crop_margin(self) -> float: ...


class Classifier:
    """The classifier side of the tile reader (see the module docstring)."""

    def __init__(
        self,
        spec: ModelSpec,
        config: CropKnobs,
        flag_model: FlagModel | None = None,
        ref_calibration: RefCalibration | None = None,
    ) -> None:
        self.spec = spec
        self.config = config
        self.flag_model = flag_model
        """Flag 2 (`vision.flagging`, `flag.npz` beside the models): None flags as the
        classifier's calibration says (`vision.reading.uncertain`); an evaluation may set another."""
        self.ref_calibration = (
            ref_calibration if ref_calibration is not None else RefCalibration.from_meta(spec.meta)
        )
        """How references change a reading (`vision.refblend`): the classifier metadata's `refs`
        over the defaults; an evaluation may set another."""

    # -- the model's own facts (`ModelSpec`) ----------------------------------------------------

    @property
    def classes(self) -> tuple[str, ...]:
        return self.spec.classes

    @property
    def input_size(self) -> tuple[int, int]:
        return self.spec.input_size

    @property
    def meta(self) -> dict[str, Any]:
        return self.spec.meta

    @property
    def path(self) -> Path:
        return self.spec.path

    @property
    def version(self) -> str:
        return self.spec.version

    @property
    def embedding_name(self) -> str | None:
        return self.spec.embedding_name

    @property
    def temperature(self) -> float:
        """The calibration's softmax temperature (1 without one)."""
        return float((self.meta.get("calibration") or {}).get("temperature", 1.0))

    # -- crops, views and readings ----------------------------------------------------------------

    def calibration(self, refs: RefSet | None) -> dict[str, Any]:
        """The flag's calibration (classifier metadata), with the references' flag threshold
        (`RefCalibration.flag_similarity`) when reading with `refs`."""
        cal = dict(self.meta.get("calibration") or {})
        if refs is not None:
            cal["ref_flag_similarity"] = self.ref_calibration.flag_similarity
        return cal

    def crop_source(
        self, loaded: LoadedImage, xyxy: np.ndarray, timing: dict[str, float]
    ) -> tuple[np.ndarray, float]:
        """The pixels to cut crops from and their scale: `loaded`'s, or the photo decoded again
        at the coarsest scale where the boxes are big enough (`crop_reduction`)."""
        r = self.crop_reduction(loaded, xyxy)
        if r < current_reduction(loaded.scale):
            finer = self.decode_at(loaded, r, timing)
            return finer.pixels, finer.scale
        return loaded.pixels, loaded.scale

    def fits_crops(self, loaded: LoadedImage, finer: LoadedImage, xyxy: np.ndarray) -> bool:
        """Whether the boxes `xyxy` (pixels of `loaded`) are big enough for the crops in `finer`,
        the same photo decoded again at a finer scale (`crop_reduction`)."""
        boxes = xyxy * np.float32(finer.scale / loaded.scale)
        return self.crop_reduction(finer, boxes) >= current_reduction(finer.scale)

    def crop_reduction(self, loaded: LoadedImage, xyxy: np.ndarray) -> int:
        """The reduction (`vision.scale`) at which the median short side of the boxes (pixels of
        `loaded.pixels`) keeps >= `ReaderConfig.min_crop_px` x the classifier's input width; no
        coarser than `loaded`'s, and `loaded`'s when it cannot be decoded again."""
        current = current_reduction(loaded.scale)
        if current == 1 or loaded.source is None or len(xyxy) == 0:
            return current
        short = float(np.median(np.minimum(xyxy[:, 2] - xyxy[:, 0], xyxy[:, 3] - xyxy[:, 1])))
        need = self.config.min_crop_px * self.input_size[1]
        return reduction_for(short / loaded.scale, need, current)

    @staticmethod
    def decode_at(loaded: LoadedImage, reduction: int, timing: dict[str, float]) -> LoadedImage:
        """`loaded`'s photo decoded again at 1/`reduction` (`vision.scale.min_side_for`); its
        milliseconds are added to `timing["decode"]`."""
        side = min_side_for(loaded.width, loaded.height, reduction) if reduction > 1 else None
        assert loaded.source is not None  # crop_reduction decodes again only a photo with its source
        finer = open_image(loaded.source, min_side=side)
        timing["decode"] += finer.decode_ms
        return finer

    def classify(
        self,
        loaded: LoadedImage,
        xyxy: np.ndarray,
        timing: dict[str, float],
        source: tuple[np.ndarray, float] | None = None,
        refs: RefSet | None = None,
    ) -> Readings:
        """Cut the boxes (pixels of `loaded.pixels`) from `source` (default `crop_source`),
        classify every view (blended with `refs`, `vision.refblend.read_with_refs`), combine them."""
        views = self.views(loaded, xyxy, timing, source, embed=refs is not None)
        return self.readings(*views, len(xyxy), refs)

    def views(
        self,
        loaded: LoadedImage,
        xyxy: np.ndarray,
        timing: dict[str, float],
        source: tuple[np.ndarray, float] | None = None,
        embed: bool = False,
        grey: bool = False,
    ) -> tuple[np.ndarray, np.ndarray | None, list[int]]:
        """`(logits (B, C), embedding (B, D) or None, owner)` of every view of the boxes (with
        `grey`, of the views made grey: `vision.flagging.grey_views`)."""
        crop_src, crop_scale = source or self.crop_source(loaded, xyxy, timing)
        boxes_src = xyxy * np.float32(crop_scale / loaded.scale)
        both = bool(self.meta.get("upside_down", False))
        batch, _rotated, owner = cut_crops(
            crop_src, boxes_src, self.input_size, self.config.crop_margin, both_ways=both
        )
        if grey:
            batch = grey_views(batch)
        logits, emb = run_classifier(self.spec, batch, embed=embed)
        logits = np.asarray(logits, dtype=np.float32)
        if logits.shape != (len(batch), len(self.classes)):
            raise ModelError(
                f"classifier output has shape {logits.shape}, expected [{len(batch)}, {len(self.classes)}]"
            )
        return logits, emb, owner

    def readings(
        self, logits: np.ndarray, emb: np.ndarray | None, owner: list[int], n: int, refs: RefSet | None
    ) -> Readings:
        """The readings of `n` boxes from their views (with `refs` when given and embedded)."""
        temperature = self.temperature
        if refs is None or emb is None:
            r = combine_views(logits, owner, n, temperature)
        else:
            r = read_with_refs(logits, emb, owner, n, temperature, refs, self.ref_calibration)
        if self.flag_model is not None and emb is not None:
            r = replace(r, proto_sim=proto_sim(emb, owner, r.cls, self.flag_model.prototypes))
        return r

    def flag_boxes(
        self,
        loaded: LoadedImage,
        xyxy: np.ndarray,
        scores: np.ndarray,
        readings: Readings,
        backs: np.ndarray,
        timing: dict[str, float],
        source: tuple[np.ndarray, float] | None,
        refs: RefSet | None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """`(flags, shown)` of the boxes. With a flag model: flag 2's flags (`flag_scores`, its box
        features from the localiser `scores` and the `backs`, above `threshold`) and those shown
        (above the model's `show` threshold, flag 5; a reader's agreement clears more later,
        `vision.face_checks`); without, the calibration's rule (`vision.reading.uncertain`), every
        flag shown. A box unlike the references is flagged and shown."""
        fm = self.flag_model
        if fm is not None and readings.proto_sim is not None:
            facts = box_features(xyxy, scores, backs)  # flag 3 reads them
            unlike = unlike_refs(readings, self.calibration(refs))
            s = self.flag_scores(loaded, xyxy, readings, timing, source, facts)
            return (s > fm.threshold) | unlike, (s > fm.show) | unlike
        flags = uncertain(readings, scores * readings.p, self.calibration(refs))
        return flags, flags

    def flag_scores(
        self,
        loaded: LoadedImage,
        xyxy: np.ndarray,
        readings: Readings,
        timing: dict[str, float],
        source: tuple[np.ndarray, float] | None = None,
        box: dict[str, np.ndarray] | None = None,
    ) -> np.ndarray:
        """Flag 2's scores (`vision.flagging`): the boxes below the model's `tta_band` and not
        above its `show` threshold already cut again shifted and scaled (`tta_boxes`; with the
        model's `grey`, also as they are, made grey), then the logistic score (the TTA margin
        enters as `min(tta, logit margin)` with a weight <= 0: it only raises it); flag 3 (a model
        naming `BOX_FEATURES`) adds the boxes' own facts `box` (`box_features`)."""
        fm = self.flag_model
        assert fm is not None and readings.logit_margin is not None and readings.proto_sim is not None
        tta = np.full(len(xyxy), np.nan, np.float32)
        x = fm.matrix(feature_matrix(readings.logit_margin, readings.agree, readings.proto_sim, tta), box)
        tta_w = fm.weights[1 + FEATURES.index("tta_margin")]
        flagged = (fm.score(x) > fm.show) & (tta_w <= 0)  # TTA can only raise the score: these stay
        near = np.flatnonzero((readings.logit_margin < fm.tta_band) & ~flagged)
        if len(near):
            logits, _emb, owner = self.views(loaded, tta_boxes(xyxy[near]), timing, source)
            t = self.temperature
            tta[near] = margin_toward(logits, [o % len(near) for o in owner], readings.cls[near], t)
            if fm.grey:  # the boxes' own views made grey join the TTA views
                gl, _e, gowner = self.views(loaded, xyxy[near], timing, source, grey=True)
                tta[near] = np.minimum(tta[near], margin_toward(gl, gowner, readings.cls[near], t))
        x = fm.matrix(feature_matrix(readings.logit_margin, readings.agree, readings.proto_sim, tta), box)
        return fm.score(x)


__all__ = ["Classifier", "CropKnobs"]
