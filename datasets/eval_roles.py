"""Roles measured (`vision.roles`, issue 21 "Roles, not just rows"). Evaluation only; nothing is fitted.

    python -m datasets.eval_roles              # synthetic table scenes (boxes only, no model)
    python -m datasets.eval_roles --rf-val     # also real_photos_rf validation photos, through the models

- Synthetic: `vision.testing_table.table_scene` at 2 tilts x 4 turns x 2 scales x 0-2 melds x 8 or 20
  discards (96 scenes, seeds 1001-1096: not those the constants were chosen on, turns of +-12
  degrees beyond the +-8 chosen on). Per scene: tiles wrongly taken into the hand (in `groups`
  but truly a discard, wall or other) and hand tiles wrongly left out; the roles' confusion.
- The same 96 scenes with a heap of 6 boxes over heaped discards in the middle and a hand row of 5
  tiles found (`synthetic_heaped`, issue 35: a heap must not be taken for the hand row).
- `--rf-val`: our validation split of `real_photos_rf` (seed 1, 0.2 by source photo, as
  `datasets.real`): detections in `groups` vs not, and of the boxes matching a label (IoU >= 0.5;
  the labels are partial and hold some discards) how many are in `groups`.
"""

from __future__ import annotations

import argparse
import itertools
import json
from collections import Counter

import numpy as np

from vision import testing_table
from vision.arrange import arrange

SIZE = (1600, 1200)


def synthetic(heap: int = 0, hand: int | None = None) -> dict:
    """Taken / left out per scene and the confusion `{"true->given": n}` over the 96 scenes; with
    `heap`, each holds a heap of that many boxes over heaped discards (`table_scene`) and a hand
    row of `hand` tiles found (None: the scene's own)."""
    taken = left_out = perfect = 0
    confusion: Counter = Counter()
    grid = list(itertools.product((0.05, 0.25), (-12.0, -4.0, 4.0, 12.0), (0.7, 0.95), (0, 1, 2), (8, 20)))
    for k, (tilt, angle, scale, melds, discards) in enumerate(grid, 1001):
        codes = (
            None if hand is None else ["1m", "2m", "3m", "5p", "5p", "7s", "8s", "9s", "E", "E", "C"][:hand]
        )
        scene = testing_table.table_scene(
            k, tilt=tilt, angle=angle, scale=scale, melds=melds, discards=discards, hand=codes, heap=heap
        )
        truth = {xyxy: role for xyxy, _code, role in scene}
        out, groups = arrange(testing_table.table_detections(scene), SIZE)
        grouped = {i for g in groups for i in g.tiles}
        mine = [truth[d.xyxy] in ("hand", "meld") for d in out]
        t = sum(1 for i, m in enumerate(mine) if i in grouped and not m)
        lo = sum(1 for i, m in enumerate(mine) if i not in grouped and m)
        taken, left_out, perfect = taken + t, left_out + lo, perfect + (t == lo == 0)
        confusion.update(f"{truth[d.xyxy]}->{d.role}" for d in out)
    n = len(grid)
    return {
        "scenes": n,
        "taken_per_scene": round(taken / n, 3),
        "left_out_per_scene": round(left_out / n, 3),
        "scenes_perfect": perfect,
        "confusion": dict(sorted(confusion.items())),
    }


def rf_val(reader) -> dict:
    """Detections in groups vs not on the `real_photos_rf` validation photos."""
    from datasets.real import class_map, iou_matrix, load, photos, split_by_source
    from datasets.tiles import SHARED

    root = SHARED / "data" / "real_photos_rf"
    stems = photos(root)
    split = split_by_source(stems, 1, 0.2)
    cmap = class_map(root)
    c: Counter = Counter()
    for stem in (s for s in stems if split[s] == "val"):
        img, gt, _codes = load(root, stem, cmap)
        res = reader.detect(img)
        grouped = {i for g in res.groups for i in g.tiles}
        iou = iou_matrix(np.array([d.xyxy for d in res.detections], np.float32).reshape(-1, 4), gt)
        matched = {i for i in range(len(res.detections)) if len(gt) and iou[i].max() >= 0.5}
        c["photos"] += 1
        c["detections"] += len(res.detections)
        c["in_groups"] += len(grouped)
        c["labelled"] += len(matched)
        c["labelled_in_groups"] += len(matched & grouped)
        c["unlabelled_in_groups"] += len(grouped - matched)
        c["photos_over_18_in_groups"] += len(grouped) > 18
        c.update(f"role_{d.role}" for d in res.detections)
    return dict(c)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rf-val", action="store_true", help="also the real_photos_rf validation photos")
    ap.add_argument("--models", default=None, help="models directory (default: the shipped models)")
    a = ap.parse_args(argv)
    report = {"synthetic": synthetic(), "synthetic_heaped": synthetic(heap=6, hand=5)}
    if a.rf_val:
        from vision import get_reader

        report["real_photos_rf_val"] = rf_val(get_reader(a.models))
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
