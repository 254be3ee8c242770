"""Box arithmetic of the tile reader, free of any model: letterbox in, YOLOv8 decode + NMS out,
crops for the classifier (supervision's `detection/utils/boxes.py` split).

Every function is pure (numpy / OpenCV in, numpy out); `vision.reader.TileReader` strings
them together around the two ONNX sessions. Shapes follow the field: `xyxy` float `(K, 4)`
as `(x0, y0, x1, y1)` pixels, scores `(K,)`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.modelfiles import ModelError

LETTERBOX_FILL = 114
"""Grey level of the letterbox padding (114/255 once normalised), as in YOLO."""

SIDEWAYS_RATIO = 1.15
"""A box wider than this x its height holds a sideways tile (an upright tile is ~0.75)."""


LIMITS = {
    "conf_threshold": (0.01, 0.99),
    "iou_threshold": (0.1, 0.9),
    "containment_threshold": (0.1, 1.0),
    "max_detections": (1, 10_000),
}
"""The values `decode_localizer` / `nms` (and `vision.ReaderConfig`) take, both ends included.
Outside them a threshold keeps everything or nothing: a `conf` of 0 (or 1e-320) keeps every
box, up to `max_detections`; 1 only scores rounded up to 1; an IoU of 0 drops any box touching
a stronger one, 1 keeps exact duplicates. A containment of 1.0 turns that check off."""


def check_limit(name: str, value: float) -> float:
    """`value` when it lies in `LIMITS[name]` (`max_detections`: a whole number).

    Raises:
        ValueError: outside the range, or not a number (NaN): the message names `name` and the range.

    >>> check_limit("conf_threshold", 0.3)
    0.3
    >>> check_limit("conf_threshold", 0)
    Traceback (most recent call last):
    ValueError: conf_threshold must lie in 0.01..0.99, got 0
    """
    lo, hi = LIMITS[name]
    kinds = int if isinstance(lo, int) else int | float
    if isinstance(value, bool) or not isinstance(value, kinds) or not lo <= value <= hi:
        raise ValueError(f"{name} must lie in {lo:g}..{hi:g}, got {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class Letterbox:
    """How an image was fitted into the localizer input.

    `input = image * ratio + (left, top)`, all in pixels; `ratio` is the same for x and y.
    """

    ratio: float
    left: int
    top: int


def letterbox(pixels: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, Letterbox]:
    """Fit `(h, w, 3)` uint8 RGB into `size = (H, W)`, aspect kept, centred, padded with 114.

    Returns:
        `(blob, lb)`: `blob` float32 `[1, 3, H, W]` RGB in 0..1; `lb` maps image pixels to
        input pixels.
    """
    H, W = size
    h, w = pixels.shape[:2]
    r = min(H / h, W / w)
    nw, nh = max(1, round(w * r)), max(1, round(h * r))
    left, top = round((W - nw) / 2 - 0.1), round((H - nh) / 2 - 0.1)
    if (nw, nh) != (w, h):
        # shrinking uses area averaging (INTER_AREA), as in training; while at least 4x is
        # left, halve first with OpenCV's fast exact 2x2 path (same result within a grey level,
        # half the cost)
        while nw * 4 <= pixels.shape[1] and nh * 4 <= pixels.shape[0]:
            ph, pw = pixels.shape[:2]
            pixels = cv2.resize(pixels, (pw // 2, ph // 2), interpolation=cv2.INTER_AREA)
        interp = cv2.INTER_AREA if nw < pixels.shape[1] else cv2.INTER_LINEAR
        resized = cv2.resize(pixels, (nw, nh), interpolation=interp)
    else:
        resized = pixels
    canvas = np.full((H, W, 3), LETTERBOX_FILL, dtype=np.uint8)
    canvas[top : top + nh, left : left + nw] = resized
    blob = canvas.transpose(2, 0, 1)[None].astype(np.float32)
    blob *= 1.0 / 255.0
    return blob, Letterbox(ratio=r, left=left, top=top)


def decode_localizer(
    output: np.ndarray,
    n_classes: int,
    lb: Letterbox,
    image_wh: tuple[int, int],
    conf_threshold: float,
    iou_threshold: float,
    max_detections: int,
    containment_threshold: float = 1.0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Decode a YOLOv8-layout output and apply NMS.

    Args:
        output: float32 `[1, 4 + nc, N]` (also accepted: `[1, N, 4 + nc]`).
        n_classes: `nc`.
        lb: the letterbox used to make the input.
        image_wh: `(w, h)` of the image the letterbox was made from; boxes are clipped to it.
        containment_threshold: see `vision.reader.ReaderConfig` (1.0: off).

    Returns:
        `(xyxy, scores, class_ids)`: `xyxy` float32 `(K, 4)` in pixels of that image,
        `scores` float32 `(K,)`, `class_ids` int `(K,)`, strongest first.

    Raises:
        ModelError: the output does not have the YOLOv8 layout.
    """
    out = np.asarray(output)
    if out.ndim == 3 and out.shape[0] == 1:
        out = out[0]
    if out.ndim != 2 or 4 + n_classes not in out.shape:
        raise ModelError(f"localizer output has shape {output.shape}, expected [1, {4 + n_classes}, N]")
    if out.shape[0] != 4 + n_classes:
        out = out.T
    cls_scores = out[4 : 4 + n_classes]
    class_ids = np.argmax(cls_scores, axis=0)
    scores = cls_scores[class_ids, np.arange(cls_scores.shape[1])]
    keep = np.flatnonzero(scores >= conf_threshold)
    empty = (np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int64))
    if keep.size == 0:
        return empty
    cx, cy, bw, bh = out[0, keep], out[1, keep], out[2, keep], out[3, keep]
    w, h = image_wh
    inv = 1.0 / lb.ratio
    x0 = np.clip((cx - bw / 2 - lb.left) * inv, 0, w)
    y0 = np.clip((cy - bh / 2 - lb.top) * inv, 0, h)
    x1 = np.clip((cx + bw / 2 - lb.left) * inv, 0, w)
    y1 = np.clip((cy + bh / 2 - lb.top) * inv, 0, h)
    xyxy = np.stack([x0, y0, x1, y1], axis=1).astype(np.float32)
    scores, class_ids = scores[keep].astype(np.float32), class_ids[keep]
    ok = ((xyxy[:, 2] - xyxy[:, 0]) >= 2) & ((xyxy[:, 3] - xyxy[:, 1]) >= 2)
    xyxy, scores, class_ids = xyxy[ok], scores[ok], class_ids[ok]
    if len(scores) == 0:
        return empty
    return nms(xyxy, scores, class_ids, iou_threshold, max_detections, containment_threshold)


def nms(
    xyxy: np.ndarray,
    scores: np.ndarray,
    class_ids: np.ndarray,
    iou_threshold: float,
    max_detections: int,
    containment_threshold: float = 1.0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Class-agnostic NMS (`cv2.dnn.NMSBoxes`), then `suppress_contained`; strongest first.

    Args:
        xyxy: float32 `(K, 4)`; scores float32 `(K,)`; class_ids int `(K,)` (kept along).

    Returns:
        The kept `(xyxy, scores, class_ids)`, at most `max_detections`.
    """
    if len(scores) == 0:
        return xyxy, scores, class_ids
    xywh = np.concatenate([xyxy[:, :2], xyxy[:, 2:] - xyxy[:, :2]], axis=1)
    kept = cv2.dnn.NMSBoxes(xywh.tolist(), scores.tolist(), 0.0, float(iou_threshold))
    idx = np.asarray(kept, dtype=np.int64).reshape(-1)
    idx = idx[np.argsort(-scores[idx], kind="stable")]
    if containment_threshold < 1.0:
        idx = idx[suppress_contained(xyxy[idx], containment_threshold)]
    idx = idx[:max_detections]
    return xyxy[idx], scores[idx], class_ids[idx]


def halves(xyxy: np.ndarray, others: np.ndarray, inside: float = 0.5, smaller: float = 0.6) -> np.ndarray:
    """Boolean mask of the boxes of `xyxy` that are part of a box of `others`: more than `inside`
    of the box lies in it and its area is under `smaller` x that box's (a later pass's split
    half of a tile an earlier pass boxed whole). A later box as large as an earlier one is not a
    half: NMS chooses between them."""
    if len(xyxy) == 0 or len(others) == 0:
        return np.zeros(len(xyxy), bool)
    a, b = xyxy[:, None, :], others[None, :, :]
    iw = np.clip(np.minimum(a[..., 2], b[..., 2]) - np.maximum(a[..., 0], b[..., 0]), 0, None)
    ih = np.clip(np.minimum(a[..., 3], b[..., 3]) - np.maximum(a[..., 1], b[..., 1]), 0, None)
    area_a = (a[..., 2] - a[..., 0]) * (a[..., 3] - a[..., 1])
    area_b = (b[..., 2] - b[..., 0]) * (b[..., 3] - b[..., 1])
    return np.any((iw * ih > inside * area_a) & (area_a < smaller * area_b), axis=1)


def suppress_contained(xyxy: np.ndarray, threshold: float) -> np.ndarray:
    """Indices (into `xyxy`, strongest first) of boxes kept when a box is dropped whose
    intersection with a stronger kept box exceeds `threshold` x the smaller of the two areas."""
    area = (xyxy[:, 2] - xyxy[:, 0]) * (xyxy[:, 3] - xyxy[:, 1])
    keep: list[int] = []
    for i in range(len(xyxy)):
        if keep:
            k = np.asarray(keep)
            iw = np.minimum(xyxy[k, 2], xyxy[i, 2]) - np.maximum(xyxy[k, 0], xyxy[i, 0])
            ih = np.minimum(xyxy[k, 3], xyxy[i, 3]) - np.maximum(xyxy[k, 1], xyxy[i, 1])
            inter = np.clip(iw, 0, None) * np.clip(ih, 0, None)
            if np.any(inter > threshold * np.minimum(area[k], area[i])):
                continue
        keep.append(i)
    return np.asarray(keep, dtype=np.int64)


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax of `(B, C)` logits."""
    z = logits - logits.max(axis=1, keepdims=True)
    np.exp(z, out=z)
    z /= z.sum(axis=1, keepdims=True)
    return z


def cut_crops(
    pixels: np.ndarray,
    xyxy: np.ndarray,
    size: tuple[int, int],
    margin: float = 0.0,
    both_ways: bool = False,
) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Cut boxes out of `pixels`, stand sideways ones upright, resize to `size = (H, W)`.

    A sideways box (width > `SIDEWAYS_RATIO` x height) yields two crops: turned 90° counter-clockwise and
    90° clockwise. With `both_ways`, an upright box yields two as well: as it is and turned 180°
    (an upside-down tile), so every box has two views, each the other turned 180°.

    Args:
        pixels: `(h, w, 3)` uint8 RGB.
        xyxy: float `(K, 4)` boxes in pixels of `pixels`.

    Returns:
        `(batch, rotated, owner)`: `batch` float32 `[B, 3, H, W]` in 0..1, `rotated` bool
        `(K,)`, `owner[b]` = index of the box that crop `b` comes from.
    """
    H, W = size
    h, w = pixels.shape[:2]
    crops: list[np.ndarray] = []
    owner: list[int] = []
    rotated = np.zeros(len(xyxy), dtype=bool)
    for k, (x0, y0, x1, y1) in enumerate(xyxy):
        mx, my = (x1 - x0) * margin, (y1 - y0) * margin
        ix0, iy0 = max(0, math.floor(x0 - mx)), max(0, math.floor(y0 - my))
        ix1, iy1 = min(w, math.ceil(x1 + mx)), min(h, math.ceil(y1 + my))
        if ix1 - ix0 < 1 or iy1 - iy0 < 1:
            ix0, iy0, ix1, iy1 = 0, 0, 1, 1
        crop = pixels[iy0:iy1, ix0:ix1]
        sideways = (x1 - x0) > SIDEWAYS_RATIO * (y1 - y0)
        rotated[k] = sideways
        if sideways:
            views = [np.rot90(crop, 1), np.rot90(crop, -1)]
        else:
            views = [crop, crop[::-1, ::-1]] if both_ways else [crop]
        for v in views:
            interp = cv2.INTER_AREA if v.shape[0] > H else cv2.INTER_LINEAR
            crops.append(cv2.resize(np.ascontiguousarray(v), (W, H), interpolation=interp))
            owner.append(k)
    if not crops:
        return np.zeros((0, 3, H, W), np.float32), rotated, owner
    batch = np.stack(crops).transpose(0, 3, 1, 2).astype(np.float32)
    batch *= 1.0 / 255.0
    return batch, rotated, owner


def box_pixels(pixels: np.ndarray, scale: float, xyxy: tuple[float, float, float, float]) -> np.ndarray:
    """The pixels of a box (`xyxy`, pixels of the full photo) cut from `pixels`, the photo at
    `scale` (a view, not a copy; clipped to the picture; the box's far edges rounded out).

    >>> box_pixels(np.zeros((10, 20, 3), np.uint8), 0.5, (4.0, 2.0, 9.0, 30.0)).shape
    (9, 3, 3)
    """
    h, w = pixels.shape[:2]
    x0, y0, x1, y1 = (v * scale for v in xyxy)
    return pixels[max(int(y0), 0) : min(int(np.ceil(y1)), h), max(int(x0), 0) : min(int(np.ceil(x1)), w)]


__all__ = [
    "LETTERBOX_FILL",
    "SIDEWAYS_RATIO",
    "Letterbox",
    "box_pixels",
    "cut_crops",
    "decode_localizer",
    "letterbox",
    "nms",
    "softmax",
    "suppress_contained",
]
