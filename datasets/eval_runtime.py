"""Real rows read by the run-time reader (`vision.TileReader`), in process, with its options.

    python -m datasets.eval_runtime --models models [-v] [--json OUT.json]
    python -m datasets.eval_runtime --models models --synthetic 150 --crop-margin 0 0.03 0.06 0.1

Needs `../shared` (or `$JXMJ_SHARED`): it reads `data/real_rows_public` and scores rows exactly as
`tools/eval_rows.py` does (its `read_rows` and `edit_distance` are imported from there), but
without starting a process per photo, so a models directory is judged in seconds. Evaluation
only: nothing here is fitted to the photos. Exits 0 with a message when the shared data is absent.

`--synthetic N` instead reads the first N synthetic validation scenes (re-rendered at full size
from their seeds, `gen.py`'s validation stream) through the same reader, once per
`--crop-margin`: the place to choose the reader's knobs without looking at the judge.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

from datasets.tiles import SHARED


def _eval_rows_module():
    spec = importlib.util.spec_from_file_location("eval_rows", SHARED / "tools" / "eval_rows.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def align(want: list[str], got: list[str]) -> list[tuple[str | None, str | None]]:
    """Edit-distance alignment; returns list of (want_or_None, got_or_None)."""
    n, m = len(want), len(got)
    d = np.zeros((n + 1, m + 1), np.int64)
    d[:, 0] = np.arange(n + 1)
    d[0, :] = np.arange(m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d[i, j] = min(d[i - 1, j] + 1, d[i, j - 1] + 1, d[i - 1, j - 1] + (want[i - 1] != got[j - 1]))
    i, j, out = n, m, []
    while i > 0 or j > 0:
        if i > 0 and j > 0 and d[i, j] == d[i - 1, j - 1] + (want[i - 1] != got[j - 1]):
            out.append((want[i - 1], got[j - 1]))
            i, j = i - 1, j - 1
        elif i > 0 and d[i, j] == d[i - 1, j] + 1:
            out.append((want[i - 1], None))
            i -= 1
        else:
            out.append((None, got[j - 1]))
            j -= 1
    return out[::-1]


def evaluate(models: str | Path, decode_min_side: int = 2000) -> dict:
    """Rows exact and tile accuracy on `real_rows_public` through `TileReader.detect`.

    Returns:
        `{"rows", "rows_exact", "tiles", "tile_accuracy", "errors_by_true_class", "substitutions",
        "missed", "extra", "per_image"}`.
    """
    from vision.image import open_image
    from vision.reader import ReaderConfig, TileReader

    er = _eval_rows_module()
    d = SHARED / "data" / "real_rows_public"
    labels = json.loads((d / "labels.json").read_text(encoding="utf-8"))
    reader = TileReader(models, ReaderConfig(decode_min_side=decode_min_side))
    n_rows = exact = n_tiles = edits = 0
    errors: Counter[str] = Counter()
    subs: Counter[str] = Counter()
    missed: Counter[str] = Counter()
    extra: Counter[str] = Counter()
    per_image: dict[str, list] = {}
    for name, lab in sorted(labels.items()):
        loaded = open_image(d / "images" / name, min_side=decode_min_side or None)
        res = reader.detect(loaded)
        dets = [{"xyxy": list(t.xyxy), "tile": t.tile} for t in res.detections]
        got = er.read_rows(dets, lab["row_bbox"], res.width, res.height)
        for want, seen in zip(lab["rows"], got, strict=False):
            if all(t == "X" for t in want):
                continue
            e = er.edit_distance(want, seen)
            n_rows += 1
            exact += e == 0
            n_tiles += len(want)
            edits += min(e, len(want))
            for w, g in align(want, seen) if e else ():
                if w is None:
                    extra[g] += 1
                elif g is None:
                    missed[w] += 1
                elif w != g:
                    subs[f"{w}->{g}"] += 1
                errors.update([w] if w is not None and w != g else [])
            per_image.setdefault(name, []).append({"want": " ".join(want), "got": " ".join(seen), "edits": e})
    return {
        "rows": n_rows,
        "rows_exact": exact,
        "tiles": n_tiles,
        "tile_accuracy": round(1 - edits / max(n_tiles, 1), 4),
        "errors_by_true_class": dict(errors.most_common()),
        "substitutions": dict(subs.most_common()),
        "missed": dict(missed.most_common()),
        "extra": dict(extra.most_common()),
        "per_image": per_image,
    }


def synthetic(models: str | Path, n: int, seed: int = 1, crop_margins=(0.0,)) -> dict[float, dict]:
    """End-to-end reading of synthetic validation scenes through `TileReader.detect`.

    Scene `i` is `make_scene(default_rng([seed, 1, i]))`, the validation stream of `gen.py`. A
    labelled tile counts as read when a detection overlaps it at IoU >= 0.5 and names it.

    Returns:
        `{crop_margin: {"tiles", "localized_boxes", "box_recall", "name_accuracy_of_matched",
        "end_to_end_recall", "extra_boxes", "rejected_boxes", ...}}`. `localized_boxes` counts the
        localiser's boxes (kept + rejected): the crop margin cannot change it, while a box the
        classifier calls `none` at one margin and not at another moves between the two lists.
    """
    from datasets.scenes import make_scene
    from datasets.tiles import CLASSES
    from vision.reader import ReaderConfig, TileReader

    scenes = [make_scene(np.random.default_rng([seed, 1, i])) for i in range(n)]
    out = {}
    for margin in crop_margins:
        reader = TileReader(models, ReaderConfig(crop_margin=margin))
        n_gt = n_match = n_right = n_det = n_rej = off_true = off_extra = 0
        for img, boxes in scenes:
            res = reader.detect(np.ascontiguousarray(img))
            dets = res.detections
            n_det += len(dets)
            n_rej += len(res.rejected)
            used: set[int] = set()
            for b in boxes:
                n_gt += 1
                best, bi = 0.5, None
                for i, d in enumerate(dets):
                    v = iou(b.xyxy, d.xyxy)
                    if i not in used and v >= best:
                        best, bi = v, i
                if bi is not None:
                    used.add(bi)
                    n_match += 1
                    n_right += dets[bi].tile == CLASSES[b.cls]
                    off_true += dets[bi].off_row
            off_extra += sum(d.off_row for i, d in enumerate(dets) if i not in used)
        out[margin] = {
            "tiles": n_gt,
            "localized_boxes": n_det + n_rej,
            "box_recall": round(n_match / max(n_gt, 1), 4),
            "name_accuracy_of_matched": round(n_right / max(n_match, 1), 4),
            "end_to_end_recall": round(n_right / max(n_gt, 1), 4),
            "extra_boxes": n_det - n_match,
            "rejected_boxes": n_rej,
            "off_row_of_matched": off_true,
            "off_row_of_extra": off_extra,
        }
    return out


def iou(a, b) -> float:
    x0, y0, x1, y1 = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    inter = max(0.0, x1 - x0) * max(0.0, y1 - y0)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="models")
    ap.add_argument("--json", help="write the full result here")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every row that is not exact")
    ap.add_argument("--synthetic", type=int, metavar="N", help="read N synthetic validation scenes instead")
    ap.add_argument("--crop-margin", type=float, nargs="+", default=[0.0], help="with --synthetic")
    ap.add_argument(
        "--off-row",
        type=float,
        nargs=3,
        metavar=("LO", "HI", "DIST"),
        help="with --synthetic: try these vision.roles OFF_ROW_SIZE and ISOLATED",
    )
    a = ap.parse_args(argv)
    if a.off_row:
        import vision.roles

        vision.roles.OFF_ROW_SIZE = (a.off_row[0], a.off_row[1])
        vision.roles.ISOLATED = a.off_row[2]
    if a.synthetic:
        for margin, r in synthetic(a.models, a.synthetic, crop_margins=a.crop_margin).items():
            print(f"crop_margin {margin}: {r}", flush=True)
        return 0
    if not (SHARED / "data" / "real_rows_public" / "labels.json").exists():
        print(f"skipped: {SHARED}/data/real_rows_public is not here (set JXMJ_SHARED)")
        return 0
    r = evaluate(a.models)
    if a.verbose:
        for name, rows in r["per_image"].items():
            for row in rows:
                if row["edits"]:
                    print(f"{name}: edits={row['edits']}\n  want {row['want']}\n  got  {row['got']}")
    print(
        f"rows exact {r['rows_exact']}/{r['rows']}; tile accuracy {r['tile_accuracy']:.3f} "
        f"({r['tiles']} tiles); {a.models}"
    )
    if a.json:
        Path(a.json).write_text(json.dumps(r, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
