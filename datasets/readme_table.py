"""Render `docs/img/table-roles.jpg`, the README's table photo with the reader's roles drawn.

`python -m datasets.readme_table`: the bundled sample (`app/assets/sample_hand.jpg`, CC0 faces) laid at
the bottom of a table with ten of its own tiles cut out, turned and scattered as discards
(`vision.testing_table.table_photo`), read by the shipped models and drawn by `vision.annotate`: the hand's
sets in colour, the discards grey and thin with their role under the box. The crop keeps the discards
and the hand row.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from vision.annotate import annotate
from vision.reader import get_reader
from vision.testing_table import table_photo

REPO = Path(__file__).resolve().parents[1]
CROP = (400, 200, 1240, 1020)
"""x0, y0, x1, y1 of the annotated 1600 x 1200 photo kept for the README."""


def main() -> None:
    meta = json.loads((REPO / "app/assets/sample_hand.json").read_text("utf-8"))
    pixels = cv2.imread(str(REPO / "app/assets/sample_hand.jpg"))[:, :, ::-1]
    frame, _ = table_photo(np.ascontiguousarray(pixels), [b["xyxy"] for b in meta["boxes"]], seed=3)
    photo = np.ascontiguousarray(
        cv2.resize(frame, (frame.shape[1] // 2, frame.shape[0] // 2), interpolation=cv2.INTER_AREA)
    )
    result = get_reader().detect(photo)
    drawn = np.asarray(annotate(photo, result.detections, result.groups, rejected=result.rejected))
    x0, y0, x1, y1 = CROP
    out = REPO / "docs/img/table-roles.jpg"
    out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out), np.ascontiguousarray(drawn[y0:y1, x0:x1, ::-1]), [cv2.IMWRITE_JPEG_QUALITY, 82])
    roles = [d.role for d in result.detections]
    print(out, {r: roles.count(r) for r in sorted(set(roles))})


if __name__ == "__main__":
    main()
