"""The hand at the table, measured as a player meets it: taps per photo, tile accuracy and the flag,
each without and with the table's references, in one pass over the validation split.

    python -m datasets.eval_hand --json datasets/reports/hand-0.6.4.json
    python -m datasets.eval_hand --held-out RECS.pkl   # the flag of each set fitted without it
    python -m datasets.eval_hand --root HUE_COPY       # a stand-in copy (datasets.stand_ins)
    python -m datasets.eval_hand --root BOLD --one-set # a long evening: every photo one set

The photos are the validation part of `real_photos_rf` (`datasets.real.split_by_source`, seed 1,
0.2), grouped by physical set as `datasets.eval_refs` grouped them (`datasets/reports/refs-0.6.3.json`
"grouping"). Each photo is read without references, then with the references of the other photos
of its set, read without references and put right as a player would (`datasets.eval_refs.collect`);
a photo alone in its set is read without references both times.

- **Taps** (`taps`): as `../shared/tools/taps_eval.py` counts them on the rows of
  `datasets.val_rows`: the edits inside the labelled rows over the tiles in the layout `groups`,
  plus every grouped tile outside the labelled rows (a discard, a wall tile, a phantom: a deletion).
  Reported on the table photos (`val_rows --hands-only`) and on every photo.
- **Tile accuracy and the flag**: the detections matched to a label (IoU >= 0.5,
  `datasets.eval_refs.score`): the share read right, of wrong ones `uncertain`, of right ones.
- `--held-out RECS.pkl` (the records `python -m datasets.flag_sets --cache RECS.pkl` writes): each
  photo is read with the flag model of its set held out (`datasets.flag_sets.held_out_model`), so
  the flag figures are those of sets never fitted on; the readings themselves do not change.

Labels: as audited by eye (`datasets.audit`; `--no-audit`: the raw labels). `--one-set`: every
photo is taken as one set, read with the confirmed tiles of all the others (about 1,000
references: a table that has played many hands with one set).

Evaluation only; nothing here is fitted. Needs `../shared` (`JXMJ_SHARED`); without it, says so
and exits 0.
"""

from __future__ import annotations

import argparse
import json
import pickle
import statistics
from collections import Counter
from pathlib import Path

from datasets.eval_refs import collect, score, summary
from datasets.eval_runtime import _eval_rows_module
from datasets.tiles import SHARED
from datasets.val_rows import labels as row_labels

GROUPING = Path(__file__).parent / "reports" / "refs-0.6.3.json"
TARGET = 0.025
"""The shipped flag's target share of right tiles (`datasets.flag_sets --target-right`)."""


def place(xyxy, boxes, w: int, h: int) -> int | None:
    """The labelled row (`boxes`, fractions of the image) a detection's centre falls in: within 2 %
    of the width beside it and half a row's height above or below, the nearest by height; None:
    outside every row (as `taps_eval.py` places it)."""
    x0, y0, x1, y1 = xyxy
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    best = None
    for i, (bx0, by0, bx1, by1) in enumerate(boxes):
        bh = (by1 - by0) * h
        if bx0 * w - 0.02 * w <= cx <= bx1 * w + 0.02 * w and by0 * h - 0.5 * bh <= cy <= by1 * h + 0.5 * bh:
            dist = abs(cy - (by0 + by1) / 2 * h)
            if best is None or dist < best[1]:
                best = (i, dist)
    return None if best is None else best[0]


def taps(result, lab: dict, edit_distance) -> tuple[int, int]:
    """`(edits inside the labelled rows, grouped tiles outside them)` of one `DetectResult` against
    its row labels (`{"rows", "row_bbox"}`, `datasets.val_rows`)."""
    grouped = {i for g in result.groups for i in g.tiles}
    rows: list[list] = [[] for _ in lab["row_bbox"]]
    outside = 0
    for k, d in enumerate(result.detections):
        i = place(d.xyxy, lab["row_bbox"], result.width, result.height)
        if i is None:
            outside += k in grouped
        elif k in grouped:
            rows[i].append(((d.xyxy[0] + d.xyxy[2]) / 2, "X" if d.tile == "flower" else d.tile))
    edits = sum(
        edit_distance([t for _, t in sorted(r)], want)
        for r, want in zip(rows, lab["rows"], strict=True)
        if not all(t == "X" for t in want)
    )
    return edits, outside


def tap_summary(counts: list[int]) -> dict:
    """Mean, median, photos needing 0 and at most 1 tap."""
    return {
        "photos": len(counts),
        "mean": round(statistics.mean(counts), 3) if counts else None,
        "median": statistics.median(counts) if counts else None,
        "zero": sum(t == 0 for t in counts),
        "at_most_one": sum(t <= 1 for t in counts),
    }


def held_out_models(path: Path, classes: list[str], target: float = TARGET, audit: bool = True) -> dict:
    """Per set of the records at `path` its held-out flag model (the shipped band, grey and
    `target`; `audit`: fitted on the audited labels, `datasets.audit`)."""
    from datasets.audit import audited_records
    from datasets.flag_sets import held_out_model

    recs = [r for r in pickle.loads(Path(path).read_bytes()) if r["tag"] != "report"]
    if audit:
        recs = audited_records(recs, classes)
    units = sorted({r["set"] for r in recs})
    return {u: held_out_model(recs, u, len(classes), 4.0, target, True) for u in units}


def evaluate(
    reader,
    root: Path,
    grouping: dict | None,
    held: dict | None = None,
    unit: str | None = None,
    audit: bool = False,
) -> dict:
    """The figures of the module docstring, and per photo its taps (`"photos"`). `grouping`: photo
    stem -> set name, a stem not in it alone; None: every photo of one set (`--one-set`). `held`:
    set name -> flag model; `unit`: every photo takes `held[unit]` (a stand-in copy held out as one
    set). `audit`: the labels as `datasets.audit` judged them."""
    from vision.image import open_image

    edit_distance = _eval_rows_module().edit_distance
    table, every = row_labels(root, hands_only=True, audit=audit), row_labels(root, audit=audit)
    items = collect(reader, root, audit)
    sets = {p.stem: "one" if grouping is None else grouping.get(p.stem, f"alone_{p.stem}") for p in items}
    by_set: dict[str, list] = {}
    for p in items:
        by_set.setdefault(sets[p.stem], []).append(p)
    shipped = reader.classifier.flag_model
    tiles = {k: Counter() for k in ("plain", "refs", "plain_with_set", "refs_with_set")}
    per_photo = {}
    try:
        for p in items:
            same = [r for q in by_set[sets[p.stem]] if q is not p for r in q.refs]
            if held is not None:
                reader.classifier.flag_model = held.get(unit or sets[p.stem], shipped)
            loaded = open_image(p.path, min_side=reader.config.decode_min_side or None)
            plain = reader.detect(loaded)
            with_refs = reader.detect(loaded, reader.embed_refs(same)) if same else plain
            a, b = score(p, plain), score(p, with_refs)
            tiles["plain"] += a
            tiles["refs"] += b
            if same:
                tiles["plain_with_set"] += a
                tiles["refs_with_set"] += b
            name = f"{p.stem}.jpg"
            if name in every:
                per_photo[name] = {
                    "set": sets[p.stem],
                    "refs": len(same),
                    "table": name in table,
                    "plain": taps(plain, every[name], edit_distance),
                    "with_refs": taps(with_refs, every[name], edit_distance),
                }
    finally:
        reader.classifier.flag_model = shipped

    def tap_figures(keep) -> dict:
        chosen = [v for v in per_photo.values() if keep(v)]
        return {k: tap_summary([sum(v[k]) for v in chosen]) for k in ("plain", "with_refs")}

    return {
        "flag": "held out per set" if held is not None else "shipped",
        "taps_table": tap_figures(lambda v: v["table"]),
        "taps_table_with_set": tap_figures(lambda v: v["table"] and v["refs"]),
        "taps_all": tap_figures(lambda v: True),
        "tiles": {k: summary(v) for k, v in tiles.items()},
        "photos": per_photo,
    }


def main(argv=None) -> int:
    from vision.reader import TileReader

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="models")
    ap.add_argument("--held-out", help="flag_sets records (pickle): read with each set's held-out flag model")
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument("--root", help="photos + labels laid out as real_photos_rf (a stand-in copy)")
    ap.add_argument(
        "--audit",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="labels as datasets/reports/val-label-audit.json judged them (datasets.audit)",
    )
    ap.add_argument("--target-right", type=float, default=TARGET, help="with --held-out: the flag's target")
    ap.add_argument("--held-out-set", help="with --held-out: every photo takes this set's model (swapped)")
    ap.add_argument(
        "--one-set",
        action="store_true",
        help="every photo of one set: each read with the confirmed tiles of all the others (a long evening)",
    )
    a = ap.parse_args(argv)
    root = Path(a.root) if a.root else SHARED / "data" / "real_photos_rf"
    if not (root / "classes.txt").exists():
        print(f"skipped: {root} is not here (set JXMJ_SHARED)")
        return 0
    reader = TileReader(a.models)
    classes = list(reader.classifier.classes)
    held = held_out_models(Path(a.held_out), classes, a.target_right, a.audit) if a.held_out else None
    grouping = None if a.one_set else json.loads(GROUPING.read_text())["grouping"]
    report = evaluate(reader, root, grouping, held, a.held_out_set, a.audit)
    report["labels"] = "audited" if a.audit else "raw"
    print(json.dumps({k: v for k, v in report.items() if k != "photos"}, indent=1))
    for name, v in sorted(report["photos"].items()):
        if v["table"] and max(sum(v["plain"]), sum(v["with_refs"])) > 1:
            print(f"{name[:60]}: {v['set'][:20]}, {v['refs']} refs: {v['plain']} -> {v['with_refs']}")
    if a.json:
        Path(a.json).write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
