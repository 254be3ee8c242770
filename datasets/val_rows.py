"""Row labels for the validation split of `real_photos_rf`, in the format of `shared/tools/eval_rows.py`.

`python -m datasets.val_rows OUT` writes `OUT/labels.json` (`{"NAME.jpg": {"rows": [[code, ...], ...],
"row_bbox": [[x0, y0, x1, y1], ...]}}`, boxes as fractions of the image) and `OUT/images/` (links to the
photos), so the shared measuring tools run on the split we tune on:

    python ../shared/tools/taps_eval.py OUT/labels.json OUT/images --cmd "jxmj detect"
    python ../shared/tools/flag_eval.py OUT/labels.json OUT/images --cmd "jxmj detect"

The rows are the labelled boxes grouped by `vision.layout.rows_of` (top to bottom, left to right). On the
table photos of this set only the player's hand is labelled (discards, walls and other players' tiles are
not), so a tile the hand guess takes from outside the labelled rows is one the player must delete; on
photos of grids or loose sets every tile is labelled and each row counts. `--hands-only` keeps the photos
with a labelled row of at least `HAND_MIN` tiles (the table photos). Needs `../shared`
(`JXMJ_SHARED`); without it, says so and exits 0. Never commit `OUT`: the photos are CC BY 4.0 training
material (credit in the README).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from datasets.real import class_map, photos, split_by_source
from datasets.tiles import SHARED
from vision.detection import Detection
from vision.layout import rows_of

HAND_MIN = 8
"""A labelled row of this many tiles makes a photo a table photo (`--hands-only`)."""


def labels(
    root: Path, seed: int = 1, val_frac: float = 0.2, hands_only: bool = False, audit: bool = False
) -> dict[str, dict]:
    """`{"STEM.jpg": {"rows": [[code, ...]], "row_bbox": [[x0, y0, x1, y1]]}}` for the validation photos.

    `seed` and `val_frac` are the recipes' `[real]` values (0.6.x: 1 and 0.2), so the photos are the
    ones every model since 0.6.0 held out. Flower tiles are `X`, as eval_rows reads them. `audit`:
    a label judged wrong by `datasets.audit` takes the tile seen (an unclear one stays as labelled).
    """
    from datasets.audit import verdicts

    table = verdicts() if audit else {}
    cmap = class_map(root)
    stems = photos(root)
    split = split_by_source(stems, seed, val_frac)
    out: dict[str, dict] = {}
    for stem in sorted(s for s in stems if split[s] == "val"):
        w = h = 640  # the export stretched every photo to 640 x 640
        dets = []
        lines = [ln for ln in (root / "labels" / f"{stem}.txt").read_text().splitlines() if ln.strip()]
        for j, line in enumerate(lines):
            c, cx, cy, bw, bh = line.split()[:5]
            cx, cy, bw, bh = (float(v) for v in (cx, cy, bw, bh))
            xyxy = ((cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h)
            v = table.get((stem, j))
            tile = v["true"] if v is not None and v["verdict"] == "label_wrong" else cmap[int(c)]
            dets.append(Detection(xyxy, tile, 1.0))
        rows = rows_of(dets)
        if not rows or (hands_only and max(len(r) for r in rows) < HAND_MIN):
            continue
        out[f"{stem}.jpg"] = {
            "rows": [["X" if dets[i].tile == "flower" else dets[i].tile for i in r] for r in rows],
            "row_bbox": [
                [
                    round(min(dets[i].xyxy[0] for i in r) / w, 4),
                    round(min(dets[i].xyxy[1] for i in r) / h, 4),
                    round(max(dets[i].xyxy[2] for i in r) / w, 4),
                    round(max(dets[i].xyxy[3] for i in r) / h, 4),
                ]
                for r in rows
            ],
        }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--hands-only", action="store_true", help=f"only photos with a row of {HAND_MIN}+ tiles")
    ap.add_argument("--val-frac", type=float, default=0.2, help="the recipes' [real] val_frac (0.6.x: 0.2)")
    a = ap.parse_args(argv)
    root = SHARED / "data" / "real_photos_rf"
    if not (root / "classes.txt").exists():
        print(f"skipped: {root} is not here (set JXMJ_SHARED)")
        return 0
    got = labels(root, val_frac=a.val_frac, hands_only=a.hands_only)
    (a.out / "images").mkdir(parents=True, exist_ok=True)
    for name in got:
        link = a.out / "images" / name
        if not link.exists():
            link.symlink_to((root / "images" / name).resolve())
    (a.out / "labels.json").write_text(json.dumps(got, indent=1, ensure_ascii=False), "utf-8")
    print(
        f"{len(got)} photos, {sum(len(r) for v in got.values() for r in v['rows'])} labelled tiles -> {a.out}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
