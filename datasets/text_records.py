"""Records for measuring the text reader (`vision.text_reader`) on labelled row photos.

Each photo is read by the tile reader; its detections are put in the labelled rows as
`../shared/tools/eval_rows.py` does and aligned with the label (edit distance with a backtrace,
as `flag_eval.py`); every aligned tile gets its truth, the classifier's reading and the text
reader's probabilities per view, turn and code. Evaluation only: nothing here is trained.

    python -m datasets.text_records LABELS.json IMAGES_DIR OUT.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from vision import ReaderConfig, get_reader
from vision.image import load_image
from vision.text_reader import TEXT_CODES, VIEWS, TextReader
from vision.text_views import face_views


def rows_of(dets: list, boxes: list, w: int, h: int) -> list[list[int]]:
    """Detection indices per labelled row, left to right (eval_rows.py's rule)."""
    rows: list[list[tuple[float, int]]] = [[] for _ in boxes]
    for k, d in enumerate(dets):
        x0, y0, x1, y1 = d.xyxy
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        best = None
        for i, (bx0, by0, bx1, by1) in enumerate(boxes):
            bh = (by1 - by0) * h
            inside_x = bx0 * w - 0.02 * w <= cx <= bx1 * w + 0.02 * w
            if inside_x and by0 * h - 0.5 * bh <= cy <= by1 * h + 0.5 * bh:
                dist = abs(cy - (by0 + by1) / 2 * h)
                if best is None or dist < best[1]:
                    best = (i, dist)
        if best:
            rows[best[0]].append((cx, k))
    return [[k for _, k in sorted(r)] for r in rows]


def align(got: list[str], want: list[str]) -> list[tuple[int, int]]:
    """`(i, j)` pairs of got[i] aligned with want[j] (equal or substituted)."""
    n, m = len(got), len(want)
    dist = [[i + j if i * j == 0 else 0 for j in range(m + 1)] for i in range(n + 1)]
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            sub = dist[i - 1][j - 1] + (got[i - 1] != want[j - 1])
            dist[i][j] = min(dist[i - 1][j] + 1, dist[i][j - 1] + 1, sub)
    pairs, i, j = [], n, m
    while i and j:
        if dist[i][j] == dist[i - 1][j - 1] + (got[i - 1] != want[j - 1]):
            pairs.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif dist[i][j] == dist[i - 1][j] + 1:
            i -= 1
        else:
            j -= 1
    return pairs[::-1]


def face_crop(rgb: np.ndarray, xyxy: tuple, rotated: bool) -> np.ndarray:
    """The box cut from the full photo, BGR, turned upright when sideways (90° one way; the
    text reader's 180° turn covers the other)."""
    x0, y0, x1, y1 = (round(v) for v in xyxy)
    crop = rgb[max(y0, 0) : y1, max(x0, 0) : x1, ::-1]
    return np.ascontiguousarray(np.rot90(crop) if rotated else crop)


def view_scores(text: TextReader, faces: list[np.ndarray]) -> np.ndarray:
    """`(N, 2 turns, len(VIEWS), len(TEXT_CODES))` probabilities."""
    batch = []
    for f in faces:
        for k in (0, 2):
            batch += face_views(np.ascontiguousarray(np.rot90(f, k))).values()
    out = np.zeros((len(faces), 2, len(VIEWS), len(TEXT_CODES)), np.float32)
    for s in range(0, len(batch), 64):
        lp = text.log_probs(batch[s : s + 64])
        for b in range(len(lp)):
            n, rest = divmod(s + b, 2 * len(VIEWS))
            t, v = divmod(rest, len(VIEWS))
            out[n, t, v] = text._view_scores(lp[b], VIEWS[v])
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("labels")
    ap.add_argument("images")
    ap.add_argument("out")
    a = ap.parse_args()
    labels = json.loads(Path(a.labels).read_text(encoding="utf-8"))
    reader, text = get_reader(config=ReaderConfig(text_min_score=None)), TextReader()  # the plain reading
    records = []
    for name, lab in sorted(labels.items()):
        path = Path(a.images) / name
        res = reader.read(path)
        rgb = load_image(path)
        h, w = rgb.shape[:2]
        dets = res.detections
        for r, idx in enumerate(rows_of(dets, lab["row_bbox"], w, h)):
            want = lab["rows"][r]
            got = ["X" if dets[k].tile == "flower" else dets[k].tile for k in idx]
            pairs = align(got, want)
            faces = [face_crop(rgb, dets[idx[i]].xyxy, dets[idx[i]].rotated) for i, _ in pairs]
            t0 = time.perf_counter()
            scores = view_scores(text, faces) if faces else []
            ms = (time.perf_counter() - t0) * 1000 / max(len(faces), 1)
            for (i, j), sc in zip(pairs, scores, strict=True):
                d = dets[idx[i]]
                records.append(
                    {
                        "photo": name,
                        "set": lab.get("set", name),
                        "row": r,
                        "truth": want[j],
                        "cls": got[i],
                        "second": d.second,
                        "conf": d.conf,
                        "uncertain": d.uncertain,
                        "rotated": d.rotated,
                        "scores": np.round(sc, 4).tolist(),
                        "ms_per_face": ms,
                    }
                )
        print(name, len(records), flush=True)
    Path(a.out).write_text(json.dumps({"views": VIEWS, "codes": TEXT_CODES, "records": records}))


if __name__ == "__main__":
    main()
