"""Learning a set by appearance (`vision.refmatch`), measured with whole sets held out.

    python -m datasets.refmatch_eval --json datasets/reports/refmatch-0.7.json

Two sources of photos grouped by physical set, each read once without references:

- `../shared/data/real_sets_dev` (evaluation and calibration only: 35 photos of 15 sets never
  trained on; rows labelled left to right). A detection's true tile is its row label where the
  row's reading aligns with it (`../shared/tools/flag_eval.py`'s `rows_of` / `align`, as
  `refs_eval.py` makes the player's fixes);
- the val split of `real_photos_rf`, grouped by set as `datasets.eval_refs` groups it (IoU ≥ 0.5
  matches with the labelled boxes).

For each photo, the references are the other photos' labelled detections of its set (what the
player confirmed or fixed); the photo's detections are matched against them and, where the
references agree with the photo (`vision.refmatch.agreement`), `decide` runs, with the thresholds
fitted on the **other** sets (leave-one-set-out over `GRID`). Reported per
source and group (Chinese/HK, riichi): tile accuracy plain → with the set's references;
"fixed once, right next time" (each tile class misread in photo k, read in photo k+1 of its set
with the references of photos ≤ k); and another set's references (each photo read with every
other set's, one at a time): readings made worse, which must be 0.
"""

from __future__ import annotations

import argparse
import itertools
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from datasets.tiles import SHARED
from vision.refmatch import (
    FLAT,
    MatchCalibration,
    agreement,
    class_scores,
    cut_faces,
    decide,
    match,
    spread,
    templates,
)

GRID = [
    MatchCalibration(a, m, a, agree=g)
    for a, m, g in itertools.product(
        (0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9), (0.0, 0.02, 0.05, 0.1, 0.15), (0.75, 0.8, 0.85)
    )
]


@dataclass
class Photo:
    """One photo's labelled detections: `faces` (K, 2, H, W), `truth` (K,) class indices,
    `read` (K,) the plain reading's."""

    name: str
    set: str
    group: str
    faces: np.ndarray
    truth: np.ndarray
    read: np.ndarray


def sets_dev(reader, root: Path) -> list[Photo]:
    """The photos of `real_sets_dev` (module docstring)."""
    from PIL import Image, ImageOps

    from datasets.text_records import align, rows_of
    from vision.image import open_image

    labels = json.loads((root / "labels.json").read_text())
    classes = list(reader.classifier.classes)
    out = []
    for name, lab in sorted(labels.items()):
        path = root / "images" / name
        if not path.exists():
            continue
        w, h = ImageOps.exif_transpose(Image.open(path)).size
        loaded = open_image(path, min_side=reader.config.decode_min_side or None)
        result = reader.detect(loaded)
        dets = result.detections
        boxes, truth, read = [], [], []
        for row, want in zip(rows_of(dets, lab["row_bbox"], w, h), lab["rows"], strict=False):
            tiles = ["X" if dets[k].tile == "flower" else dets[k].tile for k in row]
            for i, j in align(tiles, want):
                code, d = ("flower" if want[j] == "X" else want[j]), dets[row[i]]
                if code not in classes or code == "back" or d.tile == "back":
                    continue
                boxes.append(d.xyxy)
                truth.append(classes.index(code))
                read.append(classes.index(d.tile))
        xyxy = np.asarray(boxes, np.float32).reshape(-1, 4) * np.float32(loaded.scale)
        group = "riichi" if lab["set"].startswith("R") else "chinese"
        out.append(
            Photo(name, lab["set"], group, cut_faces(loaded.pixels, xyxy), np.array(truth), np.array(read))
        )
    return out


def val_split(reader) -> list[Photo]:
    """The val photos of `real_photos_rf`, grouped by set (`datasets.eval_refs`)."""
    from datasets.eval_refs import collect, group_sets
    from vision.image import open_image

    items = collect(reader, SHARED / "data" / "real_photos_rf")
    sets = group_sets(items)
    classes = list(reader.classifier.classes)
    out = []
    for p in items:
        pairs = [(i, j) for i, j in (p.pairs or []) if p.codes[j] in classes]
        if not pairs:
            continue
        loaded = open_image(p.path, min_side=reader.config.decode_min_side or None)
        dets = p.result.detections
        xyxy = np.array([dets[i].xyxy for i, _ in pairs], np.float32).reshape(-1, 4) * np.float32(
            loaded.scale
        )
        truth = np.array([classes.index(p.codes[j]) for _, j in pairs])
        read = np.array([classes.index(dets[i].tile) for i, _ in pairs])
        out.append(Photo(p.stem, sets[p.stem], "val", cut_faces(loaded.pixels, xyxy), truth, read))
    return out


_SCORES: dict[tuple, np.ndarray] = {}


def scores_of(p: Photo, refs: list[Photo], n_cls: int) -> np.ndarray:
    """`class_scores` of `p`'s faces against the references of `refs` (kept: the grid reuses them)."""
    key = (id(p), tuple(id(q) for q in refs))
    if key not in _SCORES:
        t = templates(np.concatenate([q.faces for q in refs]))
        lab = np.concatenate([q.truth for q in refs])
        _SCORES[key] = class_scores(match(p.faces, t), lab, n_cls)
    return _SCORES[key]


def read_with(p: Photo, refs: list[Photo], n_cls: int, cal: MatchCalibration) -> np.ndarray:
    """`p`'s classes read with the references of `refs`."""
    refs = [q for q in refs if len(q.truth)]
    if not refs or not len(p.truth):
        return p.read
    scores = scores_of(p, refs, n_cls)
    if agreement(p.read, scores, spread(p.faces) >= FLAT) < cal.agree:
        return p.read
    return decide(p.read, scores, cal).cls


def tally(photos: list[Photo], n_cls: int, cal_of) -> dict:
    """Plain vs with the set's references (`cal_of(set)`: its held-out thresholds), per group."""
    by_set: dict[str, list[Photo]] = {}
    for p in photos:
        by_set.setdefault(p.set, []).append(p)
    c: Counter = Counter()
    for p in photos:
        others = [q for q in by_set[p.set] if q is not p]
        if not others:
            continue
        got = read_with(p, others, n_cls, cal_of(p.set))
        for key in (p.group, "all"):
            c[key, "tiles"] += len(p.truth)
            c[key, "plain"] += int((p.read == p.truth).sum())
            c[key, "refs"] += int((got == p.truth).sum())
            c[key, "worse"] += int(((p.read == p.truth) & (got != p.truth)).sum())
    return {
        g: {
            "tiles": c[g, "tiles"],
            "plain": round(c[g, "plain"] / max(1, c[g, "tiles"]), 4),
            "with_set_refs": round(c[g, "refs"] / max(1, c[g, "tiles"]), 4),
            "made_worse": c[g, "worse"],
        }
        for g in sorted({k[0] for k in c})
    }


def next_photo(photos: list[Photo], n_cls: int, cal_of) -> dict:
    """Each class misread in photo k: its tiles in photo k+1, read with photos ≤ k's references."""
    by_set: dict[str, list[Photo]] = {}
    for p in photos:
        by_set.setdefault(p.set, []).append(p)
    c: Counter = Counter()
    for s, ps in by_set.items():
        for k in range(len(ps) - 1):
            fixed = {int(t) for q in ps[: k + 1] for t, r in zip(q.truth, q.read, strict=True) if t != r}
            nxt = ps[k + 1]
            got = read_with(nxt, ps[: k + 1], n_cls, cal_of(s))
            for t, r, g in zip(nxt.truth, nxt.read, got, strict=True):
                if int(t) in fixed:
                    c["tiles"] += 1
                    c["right_plain"] += int(r == t)
                    c["right_with_refs"] += int(g == t)
    return dict(c)


def other_sets(photos: list[Photo], n_cls: int, cal_of) -> dict:
    """Each photo read with each other set's references: tiles made worse / better."""
    by_set: dict[str, list[Photo]] = {}
    for p in photos:
        by_set.setdefault(p.set, []).append(p)
    c: Counter = Counter()
    for p in photos:
        for s, refs in by_set.items():
            if s == p.set:
                continue
            got = read_with(p, refs, n_cls, cal_of(p.set))
            c["readings"] += len(p.truth)
            c["worse"] += int(((p.read == p.truth) & (got != p.truth)).sum())
            c["better"] += int(((p.read != p.truth) & (got == p.truth)).sum())
    return dict(c)


def per_set(photos: list[Photo], n_cls: int, cal: MatchCalibration) -> dict[str, int]:
    """Per set: tiles gained with its own references less twice the tiles lost with them or
    with any other set's (the grid's objective, summed over the sets a fit may see)."""
    by_set: dict[str, list[Photo]] = {}
    for p in photos:
        by_set.setdefault(p.set, []).append(p)
    out: Counter = Counter()
    for p in photos:
        others = [q for q in by_set[p.set] if q is not p]
        if others:
            got = read_with(p, others, n_cls, cal)
            ok, was = got == p.truth, p.read == p.truth
            out[p.set] += int((ok & ~was).sum()) - 2 * int((was & ~ok).sum())
        for s, refs in by_set.items():
            if s != p.set:
                got = read_with(p, refs, n_cls, cal)
                out[p.set] -= 2 * int(((p.read == p.truth) & (got != p.truth)).sum())
    return dict(out)


def fits(photos: list[Photo], n_cls: int) -> tuple[dict[str, MatchCalibration], MatchCalibration]:
    """The grid's best on every set but one, for each set (leave-one-set-out), and on all."""
    rows = [(cal, per_set(photos, n_cls, cal)) for cal in GRID]
    sets = sorted({p.set for p in photos})

    def best(hold: str | None) -> MatchCalibration:
        # ties: the strictest (a higher accept, then margin) — the surest not to hurt
        return max(
            rows,
            key=lambda r: (
                sum(v for s, v in r[1].items() if s != hold),
                r[0].agree,
                r[0].accept,
                r[0].margin,
            ),
        )[0]

    return {s: best(s) for s in sets}, best(None)


def report(photos: list[Photo], n_cls: int) -> dict:
    sets = sorted({p.set for p in photos})
    held, whole = fits(photos, n_cls)
    cal_of = held.__getitem__
    chosen = MatchCalibration()
    return {
        "photos": len(photos),
        "sets": len(sets),
        "leave_one_set_out": tally(photos, n_cls, cal_of),
        "shipped_thresholds": {
            "accept": chosen.accept,
            "margin": chosen.margin,
            "agree": chosen.agree,
            "with_set_refs": tally(photos, n_cls, lambda _s: chosen),
            "other_sets_refs": other_sets(photos, n_cls, lambda _s: chosen),
        },
        "fixed_once_next_photo": next_photo(photos, n_cls, cal_of),
        "other_sets_refs": other_sets(photos, n_cls, cal_of),
        "fitted_on_all": {"accept": whole.accept, "margin": whole.margin, "agree": whole.agree},
        "held_out_fits": {s: [c.accept, c.margin, c.agree] for s, c in held.items()},
    }


def main(argv: list[str] | None = None) -> int:
    from vision.reader import TileReader

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="models")
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument("--skip-val", action="store_true", help="real_sets_dev only")
    a = ap.parse_args(argv)
    reader = TileReader(a.models)
    n_cls = len(reader.classifier.classes)
    out = {"real_sets_dev": report(sets_dev(reader, SHARED / "data" / "real_sets_dev"), n_cls)}
    print(json.dumps(out, indent=1), flush=True)
    if not a.skip_val:
        out["val_by_set"] = report(val_split(reader), n_cls)
        print(json.dumps(out["val_by_set"], indent=1), flush=True)
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
