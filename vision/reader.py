"""The tile reader: photo -> localizer -> NMS -> crops -> classifier -> named tiles.

Two ONNX models (docs/ARCHITECTURE.md):

1. `localizer.onnx` sees the whole photo letterboxed to its `input_size` (shrunk with area
   averaging, as in training; bilinear shrinking measurably cost tile accuracy) and answers
   in the YOLOv8 layout `[1, 4 + nc, N]` (`cx, cy, w, h` in input pixels, then per-class scores in
   0..1; classes `tile`, `back`). Boxes above `conf_threshold` go through class-agnostic NMS
   (`cv2.dnn.NMSBoxes`).
2. `classifier.onnx` names each box, cut from the photo at (up to) full resolution and resized
   to its `input_size`, all in one batch; a sideways box (width > 1.15 x height) is classified
   turned both ways (90° and -90°), the likelier wins.
   A box the localizer calls `back` is a face-down tile unless the classifier says `flower`.

Speed: a JPEG is decoded at the reduced DCT scale its header allows (long side >=
`ReaderConfig.decode_min_side`), and once more, at the coarsest scale that has them, where the
crops or the second localizer pass's region need more pixels (`vision.scale`).

`TileReader`: one onnxruntime session per model, made once; `detect` keeps no state between calls:
one reader serves many threads (`get_reader()` caches one per models directory).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from vision.arrange import arrange, refine_region
from vision.boxes import decode_localizer, halves, letterbox, nms
from vision.detection import BACK, Detection, DetectResult, Rejected
from vision.doubled import join_doubled
from vision.face_checks import check_faces
from vision.face_polarity import dark_photo, light_photo
from vision.flag_geometry import flag_doubled
from vision.flagging import load_flag_model, still_shown
from vision.gaps import append_views, fill_gaps
from vision.grey_look import grey_look, grey_look_both
from vision.grey_pass import grey_check
from vision.grey_reader import GREY_MODEL_FILE, GreyReader, read_grey
from vision.image import ImageError, LoadedImage, open_image
from vision.markers import red_markers, red_shares
from vision.modelfiles import (
    CLASSIFIER_FILE,
    LOCALIZER_FILE,
    NONE_CLASS,
    ModelError,
    ModelSpec,
    models_dir,
    open_model,
)
from vision.modelfiles import run as run_model
from vision.named import name_boxes
from vision.reader_config import ReaderConfig
from vision.reading import Readings
from vision.refblend import RefSet
from vision.refembed import gather_views
from vision.refmatch import match_refs
from vision.refs import Ref, RefsError
from vision.room import check_room
from vision.row_ends import fill_ends, split_weak, weak_floor
from vision.row_pitch import trim_overlaps
from vision.scale import current_reduction, finer_input, reduction_for, strip_input
from vision.splits import merge_splits
from vision.standing import stand_loose
from vision.text_reader import TEXT_MODEL_FILE, TextReader
from vision.turned import read_upright
from vision.views import Classifier
from vision.walls import rack_gaps
from vision.wide_boxes import closer, split_wide


class TileReader:
    """Finds and names every tile in a photo, with the ONNX models of one directory.

    One per process (see `get_reader`); `detect` is safe to call from several threads.

    Raises (constructor):
        ModelError: a model file is missing or does not follow the contract.
    """

    def __init__(self, directory: str | Path | None = None, config: ReaderConfig | None = None) -> None:
        self.directory = Path(directory) if directory is not None else models_dir()
        self.config: ReaderConfig = config or ReaderConfig()
        threads = self.config.threads
        self.localizer: ModelSpec = open_model(self.directory / LOCALIZER_FILE, "localize", threads)
        spec = open_model(self.directory / CLASSIFIER_FILE, "classify", threads)
        self.classifier = Classifier(spec, self.config, load_flag_model(self.directory))
        """The classifier model with its crops, views, readings and flag 2 (`vision.views`)."""
        self._back_class = self.localizer.classes.index(BACK) if BACK in self.localizer.classes else -1
        text_path = self.directory / TEXT_MODEL_FILE
        self.text: TextReader | None = TextReader(text_path, threads) if text_path.is_file() else None
        """The text reader (`vision.text_reader`, `text_rec.onnx` beside the models): None reads
        without it; a damaged file is a `TextModelError` (a `ModelError`)."""
        grey_path, size = self.directory / GREY_MODEL_FILE, self.classifier.input_size
        self.grey = GreyReader(grey_path, size, threads) if grey_path.is_file() else None
        """The grey reader (`vision.grey_reader`): None without its file; a damaged one: `GreyModelError`."""

    def read(self, source: bytes | str | Path, refs: RefSet | None = None) -> DetectResult:
        """Decode an image file (bytes or path) and `detect` on it (with `refs`, if given).

        Raises:
            ImageError: the image is unusable (see `vision.image.open_image`).
        """
        loaded = open_image(source, min_side=self.config.decode_min_side or None)
        return self.detect(loaded, refs)

    @property
    def embeds(self) -> bool:
        """The classifier has the `embedding` output: it can read with references."""
        return self.classifier.embedding_name is not None

    def embed_refs(self, refs: Sequence[Ref]) -> RefSet:
        """Embed reference tiles as this reader cuts and classifies crops (`vision.refembed`).

        Raises:
            RefsError: `refs_unsupported`, `ref_photo_unreadable`, `ref_box_outside`, `refs_bad_tile`.
        """
        from vision.refembed import embed_refs

        return embed_refs(self, refs)

    def detect(self, image: np.ndarray | LoadedImage, refs: RefSet | None = None) -> DetectResult:
        """Find and name the tiles in an upright image.

        Args:
            image: `(h, w, 3)` uint8 RGB at full resolution, or a `LoadedImage` (which may
                be decoded at reduced size; boxes are still reported in full-size pixels).
            refs: references of the table's set (`embed_refs`): the readings are blended with
                them and a tile unlike every reference of its class is uncertain (`vision.refblend`).
                None or an empty set reads exactly as without.

        Returns:
            A `DetectResult`: detections in reading order (rows top to bottom, left to right,
            then the `off_row` ones), the layout groups, the `rejected` boxes and `timing_ms`
            (`decode`, `detect`, `classify`).

        Raises:
            ImageError: `image` is not an `(h, w, 3)` uint8 array; `too_small`: it has no room
                for a readable tile (`vision.room`).
            ModelError: a model's output does not follow the contract.
        """
        loaded = image if isinstance(image, LoadedImage) else LoadedImage.from_array(image)
        return read_upright(lambda up: self._detect(up, refs, self.config.dark_faces), loaded)

    def _detect(self, loaded: LoadedImage, refs: RefSet | None, polarity: bool) -> DetectResult:
        """`detect`; `polarity`: a photo of dark faces is read inverted (`vision.face_polarity`)."""
        check_room(loaded.width, loaded.height, self.classifier.input_size)
        timing = {"decode": loaded.decode_ms, "detect": 0.0, "classify": 0.0}
        result = DetectResult(width=loaded.width, height=loaded.height, timing_ms=timing)

        t0 = time.perf_counter()
        pix = loaded.pixels
        weak: list[np.ndarray] = []  # the localiser's boxes under the score cut (`vision.row_ends`)
        xyxy, scores, class_ids = self._first_pass(pix, weak)
        if polarity and dark_photo(pix, xyxy, class_ids != self._back_class):  # a black set: inverted
            timing["detect"] = (time.perf_counter() - t0) * 1000.0  # the first pass, then all again
            result = self._detect(light_photo(self.classifier, loaded, xyxy, timing), refs, polarity=False)
            result.timing_ms["detect"] += timing["detect"]
            return result
        region = refine_region(xyxy, pix.shape[:2], self.localizer.input_size, self.config)
        finer = None  # the photo decoded again at a finer scale, when the boxes need it
        if region is not None:
            boxes, again, finer = self._second_pass(loaded, region, xyxy, timing, weak)
            xyxy, scores, class_ids = nms(
                np.concatenate([xyxy, boxes]),
                np.concatenate([scores, again[1]]),
                np.concatenate([class_ids, again[2]]),
                self.config.iou_threshold,
                self.config.max_detections,
                self.config.containment_threshold,
            )
        xyxy = trim_overlaps(xyxy) if self.config.trim_rows else xyxy  # boxes wider than the row's pitch
        timing["detect"] = (time.perf_counter() - t0) * 1000.0
        if len(xyxy) == 0:
            return result

        t1, clf = time.perf_counter(), self.classifier
        refs = refs if refs is not None and len(refs.labels) else None
        if refs is not None and not self.embeds:
            model = clf.path.name
            raise RefsError(
                f"the classifier {model} has no embedding output", "refs_unsupported", model=model
            )
        # without references, `_read` is called as before them (datasets.flag_cv wraps it)
        more: dict[str, Any] = {"refs": refs, "trace": {}} if refs is not None else {}
        more["weak"] = np.concatenate(weak) if weak else None
        if finer is not None and not clf.fits_crops(loaded, finer, xyxy):
            finer = None  # too coarse for the crops: dropped before their own decode (two held at most)
        fine = (finer.pixels, finer.scale) if finer is not None else None
        source = more["source"] = fine or clf.crop_source(loaded, xyxy, timing)  # crops and TTA views
        del finer, fine
        xyxy, scores, class_ids, readings = self._read(loaded, xyxy, scores, class_ids, timing, **more)
        classes, back = clf.classes, class_ids == self._back_class
        none = classes.index(NONE_CLASS) if NONE_CLASS in classes else -1
        flags, shown = clf.flag_boxes(loaded, xyxy, scores, readings, back, timing, source, refs)
        was = (flags, readings.cls)  # flag 5's `shown` follows the grey look and the references
        if refs is None:
            readings, flags = grey_look(clf, loaded, xyxy, readings, flags, timing, source, self.config)
        else:  # the classes without references, grey look included: refmatch's veto goes back to them
            look = (loaded, xyxy, readings, more["trace"]["plain"], flags, timing, source, self.config)
            readings, flags, plain = grey_look_both(clf, *look)
        conf, shown = scores * readings.p, still_shown(shown, *was, flags, readings.cls)
        if refs is not None:  # the set learned by appearance: a sure match overrides (vision.refmatch)
            was = (flags, readings.cls)
            readings, flags = match_refs(loaded.pixels, xyxy, readings, flags, refs, keep=none, plain=plain)
            shown = still_shown(shown, *was, flags, readings.cls)
        n = name_boxes(xyxy, loaded.scale, class_ids, conf, readings, flags, shown, classes, self._back_class)
        result.rejected += n.rejected
        cfg = self.config  # the grey reader's views: agreement clears, disagreement and doubt flag
        seen = read_grey(self.grey if cfg.grey_flag_p is not None else None, n.dets, source, cfg.crop_margin)
        dets, clear = check_faces(n.dets, n.probs, clf.classes, source, self.text, cfg, n.show, seen)
        gaps = rack_gaps(dets)  # a lone back among standing faces: the rack between two groups
        result.rejected += [Rejected(d.xyxy, d.conf) for d, gap in zip(dets, gaps, strict=True) if gap]
        dets = [d for d, gap in zip(dets, gaps, strict=True) if not gap]
        margins = [m for m, gap in zip(n.margins, gaps, strict=True) if not gap]
        clear = [c for c, gap in zip(clear, gaps, strict=True) if not gap]
        fifth, size = (margins if clf.flag_model is not None else None), (loaded.width, loaded.height)
        boxes = np.array([d.xyxy for d in dets], np.float64).reshape(-1, 4) * loaded.scale
        red = red_markers(red_shares(loaded.pixels, boxes))  # a red disc read as a tile: `other`
        result.detections, result.groups = arrange(dets, size, fifth, red, result.rejected, clear)  # and dice
        if self.config.flag_geometry:  # flag 6: two boxes in one slot, a box no tile's width
            result.detections = flag_doubled(result.detections)
        result.detections = grey_check(seen, result.detections, source, cfg, self.text)
        timing["classify"] = (time.perf_counter() - t1) * 1000.0
        return result

    def _first_pass(self, pix: np.ndarray, weak: list | None = None) -> tuple[np.ndarray, ...]:
        """The localizer on the whole image; when it finds fewer boxes than a hand holds, again
        at a finer input (`vision.scale.finer_input`, graphs of free height and width only): its
        boxes, less the halves of a first-pass box (`vision.boxes.halves`), and the first pass's
        through NMS. `weak`: gets the boxes under the score cut (`_localize`)."""
        found = self._localize(pix, weak=weak)
        free = self.localizer.meta.get("refine_input_size")
        size = finer_input(pix.shape[:2], len(found[0]), self.localizer.input_size) if free else None
        if size is None:
            return found
        more, cfg = self._localize(pix, size, weak), self.config
        whole = ~halves(more[0], found[0])
        xyxy, scores, ids = (np.concatenate([a, b[whole]]) for a, b in zip(found, more, strict=True))
        return nms(xyxy, scores, ids, cfg.iou_threshold, cfg.max_detections, cfg.containment_threshold)

    def _second_pass(
        self, loaded: LoadedImage, region: tuple, xyxy: np.ndarray, timing: dict, weak: list | None = None
    ) -> tuple[np.ndarray, tuple, LoadedImage | None]:
        """The localizer again on `region` (pixels of `loaded`): `(boxes in pixels of loaded,
        (xyxy, scores, class_ids) as found, the finer decode or None)`. The photo is decoded
        again only when the region has fewer pixels than the pass's input (long sides), at the
        scale that gives it them and the crops of `xyxy` theirs (`vision.scale`)."""
        finer, current, clf = None, current_reduction(loaded.scale), self.classifier
        if current > 1 and loaded.source is not None:
            side = max(region[2] - region[0], region[3] - region[1]) / loaded.scale
            r = min(reduction_for(side, max(self._refine_size), current), clf.crop_reduction(loaded, xyxy))
            finer = clf.decode_at(loaded, r, timing) if r < current else None
        fine, k = (finer.pixels, finer.scale / loaded.scale) if finer is not None else (loaded.pixels, 1.0)
        x0, y0 = int(region[0] * k), int(region[1] * k)
        x1, y1 = int(np.ceil(region[2] * k)), int(np.ceil(region[3] * k))
        offset = np.array([x0, y0, x0, y0], np.float32)
        more = self._localize(fine[y0:y1, x0:x1], self._refine_size, weak, lambda b: (b + offset) / k)
        return (more[0] + offset) / np.float32(k), more, finer

    @property
    def _refine_size(self) -> tuple[int, int]:
        """`(H, W)` of the localizer input for the second pass (see `ReaderConfig.refine_margin`)."""
        h, w = self.localizer.meta.get("refine_input_size") or self.localizer.input_size
        return int(h), int(w)

    def _localize(
        self, pix: np.ndarray, size: tuple[int, int] | None = None, weak: list | None = None, to=None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Localizer boxes `(xyxy, scores, class_ids)` in pixels of `pix`, after NMS, with the
        image letterboxed into `size` (default: the localizer's `input_size`, and for a photo
        that is a strip, a tight crop of one row, an input of its own shape where the graph
        allows it: `vision.scale.strip_input`). `weak`: gets the boxes under the score cut, mapped by
        `to` (`vision.row_ends.split_weak`)."""
        if size is None:
            size = self.localizer.input_size
            if self.localizer.meta.get("refine_input_size"):  # a graph of free height and width
                size = strip_input(size, pix.shape[:2])
        blob, lb = letterbox(pix, size)
        raw = run_model(self.localizer, blob)
        cfg, wh = self.config, (pix.shape[1], pix.shape[0])
        low, args = weak_floor(cfg, weak), (cfg.iou_threshold, cfg.max_detections, cfg.containment_threshold)
        found = decode_localizer(raw, len(self.localizer.classes), lb, wh, low, *args)
        return split_weak(found, cfg, weak, to)

    def _read(
        self,
        loaded: LoadedImage,
        xyxy: np.ndarray,
        scores: np.ndarray,
        class_ids: np.ndarray,
        timing: dict[str, float],
        refs: RefSet | None = None,
        source: tuple[np.ndarray, float] | None = None,
        trace: dict[str, Any] | None = None,
        weak: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, Readings]:
        """Classify the boxes; split ones put together, wide ones cut, gaps read (`vision.splits`,
        `wide_boxes`, `gaps`: the model's own call, not the references'); with `refs`, read them
        again with those: `(xyxy, scores, class_ids)` and readings (views classified once)."""
        clf = self.classifier
        source = source or clf.crop_source(loaded, xyxy, timing)
        views: dict[str, tuple[np.ndarray, np.ndarray | None, list[int]]] = {}

        def plain(boxes: np.ndarray, key: str) -> Readings:
            embed = refs is not None or clf.flag_model is not None
            got = clf.views(loaded, boxes, timing, source, embed=embed)
            views[key] = append_views(views.get(key), got)  # gap boxes follow the unions
            return clf.readings(*got, len(boxes), None)

        readings = plain(xyxy, "boxes")
        origin = np.arange(len(xyxy))
        if self.config.merge_splits:
            m = merge_splits(
                xyxy,
                scores,
                class_ids,
                readings,
                lambda boxes: plain(boxes, "unions"),
                clf.calibration(None),
                clf.classes,
            )
            xyxy, scores, class_ids, readings = m.xyxy, m.scores, m.class_ids, m.readings
            origin = m.origin if m.origin is not None else origin
        cfg = self.config
        if cfg.split_wide:  # a box around several tiles, looked at closer (`vision.wide_boxes`)
            look = closer(lambda px: self._localize(px, self._refine_size), source, loaded.scale)
            w = split_wide(xyxy, scores, class_ids, readings, look, lambda b: plain(b, "unions"), clf.classes)
            xyxy, scores, class_ids, readings, origin = w.boxes(origin, views)
        if cfg.join_doubled:  # one tile boxed twice, read alike (`vision.doubled`)
            d = join_doubled(xyxy, scores, class_ids, readings, clf.classes, self._back_class)
            xyxy, scores, class_ids, readings = d.xyxy, d.scores, d.class_ids, d.readings
            origin = origin[d.keep]
        for fill in [f for f, on in ((fill_gaps, cfg.fill_gaps), (fill_ends, cfg.row_ends)) if on]:
            # a tile missed between two neighbours of a row (`vision.gaps`), past its ends (`row_ends`)
            n_unions = max(views["unions"][2], default=-1) + 1 if "unions" in views else 0
            found = (xyxy, scores, class_ids, readings)
            at = (source[0], source[1] / loaded.scale)
            g = fill(*found, lambda b: plain(b, "unions"), clf.classes, at, cfg.conf_threshold, weak=weak)
            xyxy, scores, class_ids, readings = g.xyxy, g.scores, g.class_ids, g.readings
            origin = np.concatenate([origin, -(n_unions + g.kept + 1)])
        if cfg.stand_loose:  # a standing tile boxed loose, read turned (`vision.standing`)
            n_unions = max(views["unions"][2], default=-1) + 1 if "unions" in views else 0
            read_cut = lambda b: plain(b, "unions")  # noqa: E731
            st = stand_loose(xyxy, scores, class_ids, readings, read_cut, clf.classes, self._back_class)
            xyxy, readings, origin = st.xyxy, st.readings, origin.copy()
            origin[st.at] = -(n_unions + st.kept + 1)
        if refs is not None:
            if trace is not None:  # the readings without references (vision.refmatch: the veto)
                trace["plain"] = readings
            readings = clf.readings(*gather_views(views, origin), len(origin), refs)
        return xyxy, scores, class_ids, readings


_READERS: dict[tuple, TileReader] = {}
_READERS_LOCK = threading.Lock()


def get_reader(directory: str | Path | None = None, config: ReaderConfig | None = None) -> TileReader:
    """The process-wide `TileReader` for a models directory (default: `models_dir()`).

    Created on first use (loading the models takes a moment), then shared; thread-safe.
    When the model files change on disk (new mtime or size), the next call loads them anew.

    Raises:
        ModelError: the models are missing or invalid.
    """
    path = Path(directory).resolve() if directory is not None else models_dir()
    stamps: list[tuple[int, int] | None] = []
    for name in (LOCALIZER_FILE, CLASSIFIER_FILE):
        try:
            st = (path / name).stat()
            stamps.append((st.st_mtime_ns, st.st_size))
        except OSError:
            stamps.append(None)
    key = (str(path), config or ReaderConfig(), tuple(stamps))
    with _READERS_LOCK:
        reader = _READERS.get(key)
        if reader is None:
            reader = TileReader(path, key[1])
            for old in [k for k in _READERS if k[:2] == key[:2]]:
                del _READERS[old]  # the model files were replaced: drop the stale reader
            _READERS[key] = reader
        return reader


__all__ = [
    "DetectResult",
    "Detection",
    "ImageError",
    "ModelError",
    "ReaderConfig",
    "TileReader",
    "get_reader",
]
