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

Needs the `onnx` package (a dev dependency); nothing here is used at run time.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

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
) -> Path:
    """Write a stand-in `localizer.onnx` that finds `boxes_xyxy` (pixels of an image of
    `image_size = (width, height)`) wherever they are bright.

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
        cls[c, k] = score
        cls[c, n + k] = score * 0.6
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
        backs=[code == "back" for _, code in tiles],
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


TableTile = tuple[tuple[float, float, float, float], str, str]
"""`(xyxy, code, role)` of one tile of `table_scene`: pixels, tile code, true `Detection.role`."""


def _homography(src: Sequence[Sequence[float]], dst: Sequence[Sequence[float]]) -> np.ndarray:
    """The 3x3 projective map taking the 4 points `src` to `dst`."""
    a, b = [], []
    for (x, y), (u, v) in zip(src, dst, strict=True):
        a += [[x, y, 1, 0, 0, 0, -u * x, -u * y], [0, 0, 0, x, y, 1, -v * x, -v * y]]
        b += [u, v]
    return np.append(np.linalg.solve(np.array(a, float), np.array(b, float)), 1.0).reshape(3, 3)


def _project(hom: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """`(n, 2)` points through the homography `hom`."""
    p = np.c_[pts, np.ones(len(pts))] @ hom.T
    return p[:, :2] / p[:, 2:]


def table_scene(
    seed: int = 0,
    *,
    width: int = 1600,
    height: int = 1200,
    tilt: float = 0.0,
    angle: float = 0.0,
    scale: float = 1.0,
    melds: int = 2,
    discards: int = 14,
    rows: int = 1,
    walls: bool = True,
    hand: Sequence[str] | None = None,
) -> list[TableTile]:
    """A photo taken at the table, as `(xyxy, code, role)` boxes (pixels of `width` x `height`).

    Laid out flat, then seen through a camera: `tilt` (0..0.4) shrinks the far (top) side of
    the table by that fraction on each side and pushes it down by 0.3 x `tilt` of the height
    (perspective: far tiles smaller); then the photo turns by `angle` degrees and scales by
    `scale` about its centre. Each tile's box is the box around its four projected corners;
    a standing tile (hand, meld) faces the camera, so it keeps its shape at the scale of the
    table where it stands.

    - `hand`: 14 - 3 x `melds` standing tiles side by side along the bottom edge (codes
      `hand`, else random), the last one (the winning tile) set apart by one tile width.
    - with `rows` > 1: `rows - 1` more rows of 17 tiles lying flat on the table above it, 1.6
      tiles apart (a sheet of rows: `hand` too); then every row lies flat (projected as lying).
    - `meld`: `melds` (0..2) sets beside the hand row: a pung with its middle tile sideways,
      then a concealed kong (back, face, face, back).
    - `discard`: `discards` tiles 0.8x the size, scattered over the middle, most turned
      15-70 degrees, some upright or sideways.
    - `wall` (when `walls`): a two-layer wall of 12 face-down stacks across the top (0.7x, lying, the upper
      layer a third of a tile higher) with one face-up tile lying on it, and a column of
      10 backs lying sideways down the left side.
    - `other`: a printed logo 5 tiles wide in the top-right corner (read as 白) and a small
      watermark box at the bottom right.
    """
    rng = np.random.default_rng(seed)
    tw, th = width * 0.04, width * 0.04 * 4 / 3
    out: list[tuple[np.ndarray, str, str]] = []

    def put(cx: float, cy: float, w: float, h: float, code: str, role: str, turn: float = 0.0) -> None:
        c, s = np.cos(np.radians(turn)), np.sin(np.radians(turn))
        pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        out.append((pts @ np.array([[c, s], [-s, c]]) + (cx, cy), code, role))

    codes = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + list("ESWNCP")
    hand = list(hand) if hand is not None else [codes[k] for k in rng.choice(len(codes), 14 - 3 * melds)]
    x, y = (width - (len(hand) + 1.5 + 4.6 * melds) * tw) / 2, height * 0.9
    for k, code in enumerate(hand):
        x += tw if k == len(hand) - 1 else 0.0  # the winning tile set apart
        put(x + tw / 2, y, tw, th, code, "hand")
        x += tw * 1.03
    for r in range(1, rows):
        x0 = (width - 17 * tw * 1.03) / 2
        for k in range(17):
            put(x0 + (k + 0.5) * tw * 1.03, y - r * 1.6 * th, tw, th, codes[int(rng.integers(27))], "row")
    sets = [[("7p", 0), ("7p", 90), ("7p", 0)], [("back", 0), ("9s", 0), ("9s", 0), ("back", 0)]]
    for tiles in sets[:melds]:
        x += tw * 0.8
        for code, turn in tiles:
            w = th if turn else tw
            put(x + w / 2, y + (th - tw) / 2 * bool(turn), tw, th, code, "meld", turn)
            x += w * 1.03
    placed: list[tuple[float, float]] = []
    while len(placed) < discards:
        cx, cy = rng.uniform(0.27, 0.73) * width, rng.uniform(0.4, 0.66) * height
        if all(abs(cx - px) > 1.1 * tw or abs(cy - py) > 1.1 * th for px, py in placed):
            placed.append((cx, cy))
            turn = (
                float(rng.choice([0, 90]))
                if rng.random() < 0.3
                else float(rng.uniform(15, 70) * rng.choice([-1, 1]))
            )
            put(cx, cy, tw * 0.8, th * 0.8, codes[int(rng.integers(len(codes)))], "discard", turn)
    wx = width * 0.22
    for k in range(12 * walls):
        for layer in (0, 1):
            put(
                wx + (k + 0.5) * tw * 0.72,
                height * 0.24 - layer * th * 0.23,
                tw * 0.7,
                th * 0.5,
                "back",
                "wall",
            )
    if walls:
        put(
            wx + 5.5 * tw * 0.72,
            height * 0.24 - th * 0.46,
            tw * 0.7,
            th * 0.5,
            codes[int(rng.integers(27))],
            "wall",
        )
    for k in range(10 * walls):
        for layer in (0, 1):
            put(
                width * 0.08 + layer * th * 0.2,
                height * 0.3 + k * tw * 0.72,
                tw * 0.7,
                th * 0.5,
                "back",
                "wall",
                90,
            )
    put(width * 0.84, height * 0.16, tw * 5, tw * 5, "P", "other")
    put(width * 0.95, height * 0.97, tw * 0.3, tw * 0.2, "C", "other")

    hom = _homography(
        [(0, 0), (width, 0), (width, height), (0, height)],
        [
            (tilt * width, 0.3 * tilt * height),
            ((1 - tilt) * width, 0.3 * tilt * height),
            (width, height),
            (0, height),
        ],
    )
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    centre = np.array([width / 2, height / 2])
    scene: list[TableTile] = []
    for pts, code, role in out:
        if (
            role in ("hand", "meld") and rows == 1
        ):  # standing (or set upright) facing the camera: an upright box
            mid, half = pts.mean(0), (pts.max(0) - pts.min(0)) / 2
            step = np.array([half[0], 0.0])
            ends = _project(hom, np.array([mid - step, mid + step]))
            local = np.linalg.norm(ends[1] - ends[0]) / (2 * half[0])
            centre_px = _project(hom, mid[None])[0]
            pts = centre_px + (pts - mid) * local
        else:
            pts = _project(hom, pts)
        p = (pts - centre) @ np.array([[c, s], [-s, c]]) * scale + centre
        x0, y0 = np.clip(p.min(0), 0, (width, height))
        x1, y1 = np.clip(p.max(0), 0, (width, height))
        if x1 - x0 > 2 and y1 - y0 > 2:
            scene.append(
                ((float(x0), float(y0), float(x1), float(y1)), code, "hand" if role == "row" else role)
            )
    return scene


def table_detections(scene: Sequence[TableTile]) -> list:
    """`vision.detection.Detection`s of a `table_scene` (role left at its default), as a reader
    would make them: `face_down` for backs, `rotated` for boxes over 1.15x as wide as tall."""
    from vision.boxes import SIDEWAYS_RATIO
    from vision.detection import Detection

    return [
        Detection(
            xyxy,
            code,
            0.9,
            face_down=code == "back",
            rotated=xyxy[2] - xyxy[0] > SIDEWAYS_RATIO * (xyxy[3] - xyxy[1]),
        )
        for xyxy, code, _role in scene
    ]


def table_photo(
    pixels: np.ndarray, boxes: Sequence[Sequence[float]], seed: int = 0, discards: int = 10
) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A table photo made of a real hand photo: `pixels` (`(h, w, 3)` uint8) at the bottom
    centre of a frame twice its size filled with its border colour, and `discards` of its
    tiles (`boxes`, xyxy pixels of `pixels`, reused in turn) cut out, shrunk to 0.75x, turned
    25-65 degrees either way and scattered in two loose rows over the middle.

    Returns:
        The frame `(2h, 2w, 3)` uint8 and where the hand photo lies in it (xyxy pixels).
    """
    from PIL import Image

    h, w = pixels.shape[:2]
    border = np.concatenate([pixels[:20].reshape(-1, 3), pixels[-20:].reshape(-1, 3)])
    frame = Image.new("RGB", (2 * w, 2 * h), tuple(int(v) for v in np.median(border, 0)))
    ox, oy = w // 2, h
    frame.paste(Image.fromarray(pixels), (ox, oy))
    rng = np.random.default_rng(seed)
    for k in range(discards):
        x0, y0, x1, y1 = (int(v) for v in boxes[k % len(boxes)])
        tile = Image.fromarray(pixels[y0:y1, x0:x1]).resize((int((x1 - x0) * 0.75), int((y1 - y0) * 0.75)))
        turn = float(rng.uniform(25, 65) * rng.choice([-1, 1]))
        t = tile.convert("RGBA").rotate(turn, expand=True, resample=Image.BICUBIC)
        cx, cy = 2 * w * (0.3 + 0.1 * (k % 5)), 2 * h * (0.25 + 0.15 * (k // 5 % 2))
        frame.paste(t, (int(cx - t.width / 2), int(cy - t.height / 2)), t)
    return np.asarray(frame), (float(ox), float(oy), float(ox + w), float(oy + h))
