"""Render ``app/assets/sample_hand.jpg``: a winning hand photographed on felt (CC0 FluffyStuff faces).

python -m datasets.sample_hand [--out app/assets]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from datasets.scenes import make_scene
from datasets.tiles import CLS_INDEX, random_style

HAND = ["2m", "3m", "4m", "5p", "6p", "7p", "6s", "7s", "8s", "7p", "7p", "7p", "9s", "9s"]
WINNING = "9s"


def render(seed: int = 7):
    rng = np.random.default_rng(seed)
    ids = [CLS_INDEX[t] for t in HAND]
    sets = [ids[0:3], ids[3:6], ids[6:9], ids[9:12], ids[12:13], ids[13:14]]
    style = random_style(rng)
    style.update(
        {"ivory": (246, 243, 232), "back": (30, 110, 60), "thick": 0.22, "ivory_part": 0.45, "radius": 14}
    )
    img, boxes = make_scene(
        rng,
        1600,
        1200,
        sets=sets,
        style=style,
        source="cc0",
        opts={
            "portrait": False,
            "two_rows": False,
            "row_frac": 0.86,
            "angle": -2.0,
            "tilt": 0.25,
            "persp": 0.06,
            "last_apart": True,
            "felt_rgb": (32, 104, 62),
            "clean": True,
            "center": True,
        },
    )
    # gentle light fall-off and a little sensor noise, then JPEG
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    vign = 1.0 - 0.18 * (((xx - w / 2) / w) ** 2 + ((yy - h / 2) / h) ** 2) * 2
    img = np.clip(img * vign[:, :, None] + np.random.default_rng(seed).normal(0, 2.0, img.shape), 0, 255)
    return img.astype(np.uint8), boxes


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default="app/assets")
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args(argv)
    img, boxes = render(a.seed)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out / "sample_hand.jpg"), img[:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, 88])
    meta = {
        "tiles": "234m567p678s777p99s",
        "tiles_left_to_right": HAND,
        "winning_tile": WINNING,
        "layout": "one row on green felt: 234m 567p 678s 777p 9s, then the winning 9s set slightly apart",
        "boxes": [
            {"tile": t, "xyxy": [round(v, 1) for v in b.xyxy]} for t, b in zip(HAND, boxes, strict=True)
        ],
        "source": "datasets/sample_hand.py, CC0 FluffyStuff tile faces (riichi-mahjong-tiles)",
        "licence": "CC0 art; the rendering is ours (MIT)",
    }
    (out / "sample_hand.json").write_text(
        json.dumps(meta, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    print(out / "sample_hand.jpg", img.shape, len(boxes), "boxes")


if __name__ == "__main__":
    main()
