"""The tile reader: photo -> localizer -> NMS -> crops -> classifier -> named tiles.

Two ONNX models (docs/ARCHITECTURE.md):

1. `localizer.onnx` sees the whole photo letterboxed to its `input_size` (shrunk with area
   averaging, as in training; bilinear shrinking measurably cost tile accuracy) and answers
   in the YOLOv8 layout `[1, 4 + nc, N]` (`cx, cy, w, h` in input pixels, then per-class scores in
   0..1; classes `tile`, `back`). Boxes above `conf_threshold` go through class-agnostic NMS
   (`cv2.dnn.NMSBoxes`).
2. `classifier.onnx` names each box: the box is cut from the photo at (up to) full
   resolution, a sideways box (width > 1.15 x height) is turned upright, resized to the
   classifier's `input_size` and all boxes go through the classifier in one batch.
   A sideways tile is classified turned both ways (90° and -90°); the likelier wins.
   A box the localizer calls `back` is a face-down tile unless the classifier says `flower`.

Speed: a JPEG is decoded once, at a reduced DCT scale whose long side stays >= 2000 px
(`ReaderConfig.decode_min_side`) — half the work of a full decode for a 12-megapixel photo.
The localizer input is made from it, and so are the crops, unless the tiles found are so
small there that a crop would have fewer pixels than the classifier's input
(`ReaderConfig.min_crop_px`); then the photo is decoded again at full resolution and the
crops come from that.

`TileReader` holds one onnxruntime session per model, created once; `detect` keeps no state
between calls, so one reader can serve many threads (`get_reader()` caches one per models
directory).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.boxes import cut_crops, decode_localizer, letterbox, softmax
from vision.detection import Detection, DetectResult
from vision.image import ImageError, LoadedImage, open_image
from vision.layout import group_tiles
from vision.modelfiles import CLASSIFIER_FILE, LOCALIZER_FILE, ModelError, ModelSpec, models_dir, open_model
from vision.modelfiles import run as run_model


@dataclass(frozen=True, slots=True)
class ReaderConfig:
    """Run-time knobs of the tile reader (all generic; none is tuned to a photo).

    Attributes:
        conf_threshold: minimum localizer score (0..1) for a box to be kept.
        iou_threshold: NMS overlap (intersection over union) above which the weaker box goes.
        containment_threshold: after NMS, a box goes too when more than this fraction of it
            (or of the stronger box) is covered by a stronger box: a duplicate that is shifted
            or a different size can have a low IoU. Loose boxes of neighbouring tiles seen at
            a slant overlap by up to ~70%, hence 0.8. 1.0 turns it off.
        max_detections: at most this many boxes per photo (the strongest).
        decode_min_side: a JPEG may be decoded at 1/2, 1/4 or 1/8 scale while its long side
            stays >= this many pixels (0: always full resolution).
        min_crop_px: when the median short side of the boxes, in pixels of the decoded
            image, is below `min_crop_px` x the classifier's input width, the photo is
            decoded again at full resolution for the crops.
        crop_margin: each crop is widened by this fraction of the box size on every side.
        threads: onnxruntime intra-op threads (None: one per core).
    """

    conf_threshold: float = 0.3
    iou_threshold: float = 0.45
    containment_threshold: float = 0.8
    max_detections: int = 300
    decode_min_side: int = 2000
    min_crop_px: float = 1.0
    crop_margin: float = 0.0
    threads: int | None = None


class TileReader:
    """Finds and names every tile in a photo, with the ONNX models of one directory.

    One per process (see `get_reader`); `detect` is safe to call from several threads.

    Raises (constructor):
        ModelError: a model file is missing or does not follow the contract.
    """

    def __init__(self, directory: str | Path | None = None, config: ReaderConfig | None = None) -> None:
        self.directory = Path(directory) if directory is not None else models_dir()
        self.config = config or ReaderConfig()
        threads = self.config.threads
        self.localizer: ModelSpec = open_model(self.directory / LOCALIZER_FILE, "localize", threads)
        self.classifier: ModelSpec = open_model(
            self.directory / CLASSIFIER_FILE, "classify", self.config.threads
        )
        self._back_class = self.localizer.classes.index("back") if "back" in self.localizer.classes else -1

    # -- public API -------------------------------------------------------------------------

    def read(self, source: bytes | str | Path) -> DetectResult:
        """Decode an image file (bytes or path) and `detect` on it.

        Raises:
            ImageError: the image is unusable (see `vision.image.open_image`).
        """
        loaded = open_image(source, min_side=self.config.decode_min_side or None)
        return self.detect(loaded)

    def detect(self, image: np.ndarray | LoadedImage) -> DetectResult:
        """Find and name the tiles in an upright image.

        Args:
            image: `(h, w, 3)` uint8 RGB at full resolution, or a `LoadedImage` (which may
                be decoded at reduced size; boxes are still reported in full-size pixels).

        Returns:
            A `DetectResult`: detections in reading order (rows top to bottom, left to right),
            the layout groups, and `timing_ms` (`decode`, `detect`, `classify`).

        Raises:
            ImageError: `image` is not an `(h, w, 3)` uint8 array.
            ModelError: a model's output does not follow the contract.
        """
        loaded = image if isinstance(image, LoadedImage) else LoadedImage.from_array(image)
        timing = {"decode": loaded.decode_ms, "detect": 0.0, "classify": 0.0}
        result = DetectResult(width=loaded.width, height=loaded.height, timing_ms=timing)

        t0 = time.perf_counter()
        pix = loaded.pixels
        blob, lb = letterbox(pix, self.localizer.input_size)
        raw = run_model(self.localizer, blob)
        cfg = self.config
        xyxy, scores, class_ids = decode_localizer(
            raw,
            len(self.localizer.classes),
            lb,
            (pix.shape[1], pix.shape[0]),
            cfg.conf_threshold,
            cfg.iou_threshold,
            cfg.max_detections,
            cfg.containment_threshold,
        )
        timing["detect"] = (time.perf_counter() - t0) * 1000.0
        if len(xyxy) == 0:
            return result

        t1 = time.perf_counter()
        crop_src, crop_scale = pix, loaded.scale
        if loaded.scale < 1.0 and loaded.source is not None:
            short = np.median(np.minimum(xyxy[:, 2] - xyxy[:, 0], xyxy[:, 3] - xyxy[:, 1]))
            if short < cfg.min_crop_px * self.classifier.input_size[1]:
                full = open_image(loaded.source)
                timing["decode"] += full.decode_ms
                crop_src, crop_scale = full.pixels, full.scale
        boxes_src = xyxy * np.float32(crop_scale / loaded.scale)
        batch, rotated, owner = cut_crops(crop_src, boxes_src, self.classifier.input_size, cfg.crop_margin)
        logits = np.asarray(run_model(self.classifier, batch), dtype=np.float32)
        if logits.shape != (len(batch), len(self.classifier.classes)):
            raise ModelError(
                f"classifier output has shape {logits.shape}, expected "
                f"[{len(batch)}, {len(self.classifier.classes)}]"
            )
        probs = softmax(logits.copy())
        best_p = np.zeros(len(xyxy), np.float32)
        best_c = np.zeros(len(xyxy), np.int64)
        for b, k in enumerate(owner):
            c = int(np.argmax(probs[b]))
            if probs[b, c] > best_p[k]:
                best_p[k], best_c[k] = probs[b, c], c
        classes = self.classifier.classes
        full_xyxy = xyxy / np.float32(loaded.scale)
        dets: list[Detection] = []
        for k in range(len(xyxy)):
            tile = classes[best_c[k]]
            p = float(best_p[k])
            if int(class_ids[k]) == self._back_class and tile != "flower":
                tile = "back"  # the localizer saw a back: face down, unless the classifier says flower
            x0, y0, x1, y1 = (float(v) for v in full_xyxy[k])
            dets.append(
                Detection(
                    xyxy=(x0, y0, x1, y1),
                    tile=tile,
                    conf=float(scores[k]) * p,
                    face_down=tile == "back",
                    rotated=bool(rotated[k]),
                )
            )
        timing["classify"] = (time.perf_counter() - t1) * 1000.0

        groups = group_tiles(dets)
        order = [i for g in groups for i in g.tiles]
        remap = {old: new for new, old in enumerate(order)}
        result.detections = [dets[i] for i in order]
        result.groups = [g.reindexed(remap) for g in groups]
        return result


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
    stamps = []
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
