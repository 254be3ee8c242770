"""Tiny stand-in ONNX models and synthetic scenes, for tests and the benchmark's smoke run.

The stand-ins honour the I/O contract of docs/ARCHITECTURE.md (names, layouts, `jxmj`
metadata) but are a few kilobytes of arithmetic, not trained networks:

- the **localizer** knows a fixed list of candidate boxes (given when it is built); a box
  scores high only where the photo is bright inside it (mean grey > 0.55), so a dark photo
  yields nothing. Each box is also answered a second time, shifted a little and weaker,
  for NMS to remove.
- the **classifier** reads the mean red level of a crop's central half: class `c` of `C` is the crop whose red
  is `c / (C - 1)` (see `tile_colour`), green and blue at 255. Built with `embedding=True` it also
  answers `embedding` `[B, 3]`: the central half's mean RGB minus 0.5 (so green and blue, which the
  logits ignore, make a tile of one set look unlike the same class of another: `vision.refs`).

Synthetic photos taken at the table (roles): `vision.testing_table`.

Needs the `onnx` package (a dev dependency); nothing here is used at run time.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from vision.detection import BACK
from vision.modelfiles import CLASS_CODES, CLASSIFIER_FILE, LOCALIZER_FILE

BACKGROUND = (30, 90, 40)
"""RGB of the table in synthetic scenes (dark: the stand-in localizer sees nothing there)."""


def tile_colour(code: str, classes: Sequence[str] = CLASS_CODES) -> tuple[int, int, int]:
    """RGB that the stand-in classifier reads as `code`."""
    c = list(classes).index(code)
    return round(c * 255 / (len(classes) - 1)), 255, 255


def letterbox_geometry(width: int, height: int, size: int) -> tuple[float, int, int]:
    """`(ratio, left, top)` of the YOLO letterbox of a `width` x `height` image into `size`^2."""
    r = min(size / height, size / width)
    nw, nh = round(width * r), round(height * r)
    return r, round((size - nw) / 2 - 0.1), round((size - nh) / 2 - 0.1)


def paint_scene(
    width: int,
    height: int,
    tiles: Sequence[tuple[Sequence[float], str]],
    classes: Sequence[str] = CLASS_CODES,
) -> np.ndarray:
    """A `(height, width, 3)` uint8 RGB picture: each `(xyxy, code)` a rectangle in its colour."""
    img = np.empty((height, width, 3), np.uint8)
    img[:] = BACKGROUND
    for (x0, y0, x1, y1), code in tiles:
        img[round(y0) : round(y1), round(x0) : round(x1)] = tile_colour(code, classes)
    return img


def _save(model, path: Path, meta: dict) -> Path:
    import onnx

    entry = model.metadata_props.add()
    entry.key, entry.value = "jxmj", json.dumps(meta)
    onnx.checker.check_model(model)
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))
    return path


def build_localizer(
    path: Path,
    boxes_xyxy: Sequence[Sequence[float]],
    *,
    image_size: tuple[int, int],
    backs: Sequence[bool] | None = None,
    size: int = 128,
    score: float = 0.9,
    meta_override: dict | None = None,
    scores: Sequence[float] | None = None,
) -> Path:
    """Write a stand-in `localizer.onnx` that finds `boxes_xyxy` (pixels of an image of
    `image_size = (width, height)`) wherever they are bright, each at `score` (or its `scores`).

    Output `output0`: float32 `[1, 6, 2K]` (YOLOv8 layout, classes `tile`, `back`).
    """
    from onnx import TensorProto, helper, numpy_helper

    width, height = image_size
    r, left, top = letterbox_geometry(width, height, size)
    n = len(boxes_xyxy)
    backs = list(backs) if backs is not None else [False] * n
    masks = np.zeros((size * size, max(n, 1)), np.float32)
    cxcywh = np.zeros((4, 2 * max(n, 1)), np.float32)
    cls = np.zeros((2, 2 * max(n, 1)), np.float32)
    for k, (x0, y0, x1, y1) in enumerate(boxes_xyxy):
        ix0, iy0, ix1, iy1 = x0 * r + left, y0 * r + top, x1 * r + left, y1 * r + top
        m = np.zeros((size, size), np.float32)
        m[int(np.ceil(iy0)) : int(np.floor(iy1)), int(np.ceil(ix0)) : int(np.floor(ix1))] = 1
        if m.sum() == 0:
            m[int(iy0) : int(iy0) + 1, int(ix0) : int(ix0) + 1] = 1
        masks[:, k] = (m / m.sum()).reshape(-1)
        cx, cy, bw, bh = (ix0 + ix1) / 2, (iy0 + iy1) / 2, ix1 - ix0, iy1 - iy0
        cxcywh[:, k] = (cx, cy, bw, bh)
        cxcywh[:, n + k] = (cx + 0.08 * bw, cy, bw, bh)  # a weaker near-duplicate for NMS
        c = 1 if backs[k] else 0
        cls[c, k] = score if scores is None else scores[k]
        cls[c, n + k] = cls[c, k] * 0.6
    if n == 0:
        cls[:] = 0
    # duplicates gate on the same mask as their original
    gate_index = np.concatenate([np.arange(max(n, 1)), np.arange(max(n, 1))]).astype(np.int64)
    nodes = [
        helper.make_node("ReduceMean", ["images"], ["grey"], axes=[1], keepdims=0),
        helper.make_node("Reshape", ["grey", "flat_shape"], ["flat"]),
        helper.make_node("MatMul", ["flat", "masks"], ["means"]),
        helper.make_node("Sub", ["means", "thresh"], ["centred"]),
        helper.make_node("Mul", ["centred", "gain"], ["logit"]),
        helper.make_node("Sigmoid", ["logit"], ["gate1"]),
        helper.make_node("Gather", ["gate1", "gate_index"], ["gate"], axis=1),
        helper.make_node("Mul", ["cls", "gate"], ["scores"]),
        helper.make_node("Concat", ["boxes", "scores"], ["out2d"], axis=0),
        helper.make_node("Unsqueeze", ["out2d", "zero"], ["output0"]),
    ]
    inits = [
        numpy_helper.from_array(np.array([1, size * size], np.int64), "flat_shape"),
        numpy_helper.from_array(masks, "masks"),
        numpy_helper.from_array(np.array(0.55, np.float32), "thresh"),
        numpy_helper.from_array(np.array(40.0, np.float32), "gain"),
        numpy_helper.from_array(gate_index, "gate_index"),
        numpy_helper.from_array(cls, "cls"),
        numpy_helper.from_array(cxcywh, "boxes"),
        numpy_helper.from_array(np.array([0], np.int64), "zero"),
    ]
    graph = helper.make_graph(
        nodes,
        "jxmj_test_localizer",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, size, size])],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT, [1, 6, 2 * max(n, 1)])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=9)
    meta = {"task": "localize", "input_size": [size, size], "classes": ["tile", "back"], "version": "test"}
    meta.update(meta_override or {})
    return _save(model, Path(path), meta)


def build_classifier(
    path: Path,
    *,
    size: tuple[int, int] = (48, 32),
    classes: Sequence[str] = CLASS_CODES,
    meta_override: dict | None = None,
    embedding: bool = False,
    gain: float = 20.0,
) -> Path:
    """Write a stand-in `classifier.onnx` (input `crops` `[B, 3, H, W]`, output `logits` `[B, C]`:
    `-gain x (35 x red - c)^2` for class `c`; with `embedding`, a second output `embedding` `[B, 3]`)."""
    from onnx import TensorProto, helper, numpy_helper

    h, w = size
    c = len(classes)
    nodes = [
        helper.make_node("Slice", ["crops", "starts", "ends", "axes"], ["centre"]),
        helper.make_node("ReduceMean", ["centre"], ["mean"], axes=[2, 3], keepdims=0),
        helper.make_node("Gather", ["mean", "red"], ["r"], axis=1),
        helper.make_node("Mul", ["r", "span"], ["x"]),
        helper.make_node("Sub", ["x", "centres"], ["d"]),
        helper.make_node("Mul", ["d", "d"], ["d2"]),
        helper.make_node("Mul", ["d2", "neg_gain"], ["logits"]),
    ]
    outputs = [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["B", c])]
    if embedding:
        nodes.append(helper.make_node("Sub", ["mean", "half"], ["embedding"]))
        outputs.append(helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["B", 3]))
    inits = [
        numpy_helper.from_array(np.array([h // 4, w // 4], np.int64), "starts"),
        numpy_helper.from_array(np.array([h - h // 4, w - w // 4], np.int64), "ends"),
        numpy_helper.from_array(np.array([2, 3], np.int64), "axes"),
        numpy_helper.from_array(np.array([0], np.int64), "red"),
        numpy_helper.from_array(np.array(c - 1, np.float32), "span"),
        numpy_helper.from_array(np.arange(c, dtype=np.float32)[None, :], "centres"),
        numpy_helper.from_array(np.array(-gain, np.float32), "neg_gain"),
    ]
    if embedding:
        inits.append(numpy_helper.from_array(np.array(0.5, np.float32), "half"))
    graph = helper.make_graph(
        nodes,
        "jxmj_test_classifier",
        [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["B", 3, h, w])],
        outputs,
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=9)
    meta = {"task": "classify", "input_size": [h, w], "classes": list(classes), "version": "test"}
    meta.update(meta_override or {})
    return _save(model, Path(path), meta)


def build_models(
    directory: Path,
    tiles: Sequence[tuple[Sequence[float], str]],
    image_size: tuple[int, int],
    *,
    localizer_size: int = 128,
    classifier_size: tuple[int, int] = (48, 32),
) -> Path:
    """Write both stand-in models into `directory` for a scene of `tiles` (`(xyxy, code)`)."""
    directory = Path(directory)
    build_localizer(
        directory / LOCALIZER_FILE,
        [xyxy for xyxy, _ in tiles],
        image_size=image_size,
        backs=[code == BACK for _, code in tiles],
        size=localizer_size,
    )
    build_classifier(directory / CLASSIFIER_FILE, size=classifier_size)
    return directory


def hand_scene(width: int = 1600, height: int = 1200) -> list[tuple[tuple[float, float, float, float], str]]:
    """A winning hand laid out on a table, as `(xyxy, code)` in pixels of a `width` x `height` photo.

    Top row: a claimed pung of 7p (middle tile sideways), a concealed kong (back, 9s, 9s,
    back) and two 發 set aside. Bottom row: seven standing tiles `123m678s2p` and the
    winning tile `2p` set apart at the right.
    """
    tw, th = width * 0.045, width * 0.06  # tile width/height in pixels
    gap_small, gap_big = tw * 0.05, tw * 1.0
    out: list[tuple[tuple[float, float, float, float], str]] = []
    # top row: melds and bonus tiles
    x, y = width * 0.08, height * 0.25
    for code, sideways in (("7p", False), ("7p", True), ("7p", False)):
        if sideways:
            out.append(((x, y + th - tw, x + th, y + th), code))
            x += th + gap_small
        else:
            out.append(((x, y, x + tw, y + th), code))
            x += tw + gap_small
    x += gap_big
    for code in ("back", "9s", "9s", "back"):
        out.append(((x, y, x + tw, y + th), code))
        x += tw + gap_small
    x += gap_big
    for code in ("F", "F"):
        out.append(((x, y, x + tw, y + th), code))
        x += tw + gap_small
    # bottom row: the standing hand, then the winning tile set apart
    x, y = width * 0.08, height * 0.6
    for code in ("1m", "2m", "3m", "6s", "7s", "8s", "2p"):
        out.append(((x, y, x + tw, y + th), code))
        x += tw + gap_small
    x += gap_big
    out.append(((x, y, x + tw, y + th), "2p"))
    return out
