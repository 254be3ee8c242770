"""Synthetic photos taken at the table, for the role tests and `datasets.eval_roles`: a whole table
laid out flat and seen through a camera (`table_scene`), the detections a reader would make of it
(`table_detections`), and a table photo made of a real hand photo (`table_photo`).

Pure numpy (and Pillow for `table_photo`); nothing here is used at run time.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

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
    heap: int = 0,
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
    - `heap` (`discard`): that many boxes in a row over discards heaped in the middle, each over
      two of them (twice a discard's width, its height) and 0.6 of its height over the next
      (the localiser's boxes over two or three heaped tiles at once, as on a real photo of
      issue 35).
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
            spin = (
                float(rng.choice([0, 90]))
                if rng.random() < 0.3
                else float(rng.uniform(15, 70) * rng.choice([-1, 1]))
            )
            put(cx, cy, tw * 0.8, th * 0.8, codes[int(rng.integers(len(codes)))], "discard", spin)
    pitch = tw * 1.6 - 0.6 * th * 0.8  # each box 0.6 of its height (the tiles' width) over the next
    hx = (width - (heap - 1) * pitch - tw * 1.6) / 2
    for k in range(heap):
        put(hx + k * pitch + tw * 0.8, height * 0.5, tw * 1.6, th * 0.8, codes[k % 27], "discard")
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
    from vision.detection import BACK, Detection

    return [
        Detection(
            xyxy,
            code,
            0.9,
            face_down=code == BACK,
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
        t = tile.convert("RGBA").rotate(turn, expand=True, resample=Image.Resampling.BICUBIC)
        cx, cy = 2 * w * (0.3 + 0.1 * (k % 5)), 2 * h * (0.25 + 0.15 * (k // 5 % 2))
        frame.paste(t, (int(cx - t.width / 2), int(cy - t.height / 2)), t)
    return np.asarray(frame), (float(ox), float(oy), float(ox + w), float(oy + h))
