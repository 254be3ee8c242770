"""Where the edits on photos labelled by rows come from (issue 35 item 1): every edit the
`jxmj detect` JSON needs in a labelled row, classified by cause.

    python -m datasets.box_errors ../shared/data/real_sets_dev [--json OUT.json] [--cache DIR]

Each labelled row is read as `../shared/tools/eval_rows.py` reads it (every detection whose centre
lies in the loosened row box, left to right) and aligned with its label by edit distance; each
edit is then one of

- `wrong_name`: a box on the tile, named wrong (a face read `back` counts here too);
- `missed_*`: a labelled tile with no box in its place: `missed_rejected` (a box the classifier
  called `none`), `missed_low_conf` (the localiser saw it, below `conf_threshold`: found again by
  a pass at 0.05), `missed_no_box` (nothing even then);
- `extra_*`: a box with no labelled tile: `extra_back` (a face-down tile: the wall behind a rack),
  `extra_split` (it overlaps a neighbour by more than a third of its width: a split or duplicate
  box), `extra_off_row` (a tile the layout put in no hand row: a discard or a neighbouring row
  inside the loosened box), `extra_other` (the rest: a logo, a tile of the row counted twice).

Per photo the taps (`../shared/tools/taps_eval.py`'s count) are given too. Reads `../shared`
(evaluation only); nothing that runs imports this module.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

from datasets.eval_hand import place


def align(want: list[str], got: list[str]) -> list[tuple[str, int | None, int | None]]:
    """Edit-distance alignment: `(op, i_want, j_got)` with op `ok`, `sub`, `miss`, `extra`."""
    n, m = len(want), len(got)
    d = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        d[i][0] = i
    for j in range(m + 1):
        d[0][j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (want[i - 1] != got[j - 1]))
    ops, i, j = [], n, m
    while i or j:
        if i and j and d[i][j] == d[i - 1][j - 1] + (want[i - 1] != got[j - 1]):
            ops.append(("ok" if want[i - 1] == got[j - 1] else "sub", i - 1, j - 1))
            i, j = i - 1, j - 1
        elif j and d[i][j] == d[i][j - 1] + 1:
            ops.append(("extra", None, j - 1))
            j -= 1
        else:
            ops.append(("miss", i - 1, None))
            i -= 1
    return ops[::-1]


def _in_gap(boxes, lo, hi, row, w, h):
    """Any box whose centre lies between x `lo` and `hi` and in the labelled row's band."""
    by0, by1 = row[1] * h, row[3] * h
    band = 0.5 * (by1 - by0)
    return any(lo <= (b[0] + b[2]) / 2 <= hi and by0 - band <= (b[1] + b[3]) / 2 <= by1 + band for b in boxes)


def classify_photo(lab: dict, out: dict, low: list, w: int, h: int) -> tuple[list[dict], int]:
    """The edits of one photo, each `{row, op, cause, want, got}`, and its taps."""
    dets = out["detections"]
    grouped = {i for g in out.get("groups") or [] for i in g["tiles"]}
    rejected = [r["xyxy"] for r in out.get("rejected", [])]
    rows = [[] for _ in lab["row_bbox"]]
    outside = 0
    for k, d in enumerate(dets):
        i = place(d["xyxy"], lab["row_bbox"], w, h)
        if i is not None:
            rows[i].append(k)
        elif k in grouped:
            outside += 1
    edits, taps = [], outside
    for r, (want, ks, row) in enumerate(zip(lab["rows"], rows, lab["row_bbox"], strict=True)):
        if all(t == "X" for t in want):
            continue
        ks.sort(key=lambda k: dets[k]["xyxy"][0] + dets[k]["xyxy"][2])
        got = ["X" if dets[k]["tile"] == "flower" else dets[k]["tile"] for k in ks]
        hand = [k for k in ks if k in grouped]
        hand_got = ["X" if dets[k]["tile"] == "flower" else dets[k]["tile"] for k in hand]
        taps += sum(op != "ok" for op, _, _ in align(want, hand_got))
        ops = align(want, got)
        for n, (op, i, j) in enumerate(ops):
            if op == "ok":
                continue
            e = {"row": r, "op": op, "want": want[i] if i is not None else None}
            if j is not None:
                d = dets[ks[j]]
                e["got"], e["role"] = d["tile"], d.get("role")
            if op == "sub":
                e["cause"] = "wrong_name"
            elif op == "extra":
                d = dets[ks[j]]
                x0, _, x1, _ = d["xyxy"]
                wd = x1 - x0
                others = [dets[o]["xyxy"] for o in ks if o != ks[j]]
                over = max((max(0.0, min(x1, b[2]) - max(x0, b[0])) for b in others), default=0.0)
                if d["tile"] == "back":
                    e["cause"] = "extra_back"
                elif over > wd / 3:
                    e["cause"] = "extra_split"
                elif ks[j] not in grouped:
                    e["cause"] = "extra_off_row"
                else:
                    e["cause"] = "extra_other"
            else:  # a missed tile: what lies in its place
                prev = [jj for _, ii, jj in ops[:n] if jj is not None]
                nxt = [jj for _, ii, jj in ops[n + 1 :] if jj is not None]
                lo = dets[ks[prev[-1]]]["xyxy"][2] if prev else row[0] * w - 0.02 * w
                hi = dets[ks[nxt[0]]]["xyxy"][0] if nxt else row[2] * w + 0.02 * w
                if _in_gap(rejected, lo, hi, row, w, h):
                    e["cause"] = "missed_rejected"
                elif _in_gap(low, lo, hi, row, w, h):
                    e["cause"] = "missed_low_conf"
                else:
                    e["cause"] = "missed_no_box"
            edits.append(e)
    return edits, taps


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folder", help="a folder with labels.json and images/")
    ap.add_argument("--models", default=None)
    ap.add_argument("--json", help="write the breakdown here")
    ap.add_argument("--cache", help="keep each photo's detect JSON here (read again when present)")
    a = ap.parse_args(argv)
    from PIL import Image, ImageOps

    from vision import ReaderConfig, TileReader, open_image

    folder = Path(a.folder)
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    reader = TileReader(a.models)
    low_reader = TileReader(a.models, ReaderConfig(conf_threshold=0.05, merge_splits=False))
    cache = Path(a.cache) if a.cache else None
    by_set: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    photos, total = {}, collections.Counter()
    n_tiles = 0
    for name, lab in sorted(labels.items()):
        path = folder / "images" / name
        w, h = ImageOps.exif_transpose(Image.open(path)).size
        hit = cache / (name + ".json") if cache else None
        if hit is not None and hit.is_file():
            out, low = json.loads(hit.read_text())
        else:
            loaded = open_image(path, min_side=reader.config.decode_min_side)
            out = reader.detect(loaded).to_json()
            low = [d["xyxy"] for d in low_reader.detect(loaded).to_json()["detections"]]
            if hit is not None:
                hit.parent.mkdir(parents=True, exist_ok=True)
                hit.write_text(json.dumps([out, low]))
        edits, taps = classify_photo(lab, out, low, w, h)
        n_tiles += sum(len(r) for r in lab["rows"] if not all(t == "X" for t in r))
        group = "riichi" if lab["set"].startswith("R") else "chinese"
        for e in edits:
            by_set[lab["set"]][e["cause"]] += 1
            total[e["cause"]] += 1
            total[group + ":" + e["cause"]] += 1
        photos[name] = {"set": lab["set"], "taps": taps, "edits": edits}
        print(f"{name[:60]:60s} taps {taps:2d}  " + " ".join(e["cause"] for e in edits), file=sys.stderr)
    n_edits = sum(len(p["edits"]) for p in photos.values())
    report = {
        "tiles": n_tiles,
        "edits": n_edits,
        "tile_accuracy": round(1 - n_edits / n_tiles, 4),
        "taps_mean": round(sum(p["taps"] for p in photos.values()) / len(photos), 3),
        "by_cause": dict(sorted(total.items())),
        "by_set": {s: dict(sorted(c.items())) for s, c in sorted(by_set.items())},
        "photos": photos,
    }
    print(json.dumps({k: v for k, v in report.items() if k != "photos"}, indent=1))
    if a.json:
        Path(a.json).write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
