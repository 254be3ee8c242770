"""Reading with the table's references, measured as a player meets it (`vision.refs`).

    python -m datasets.eval_refs --models models --json datasets/reports/refs-0.6.3.json
    python -m datasets.eval_refs --fit      # also the grid that chose `vision.refblend.RefCalibration`

The validation part of our `real_photos_rf` split (`datasets.real.split_by_source`, seed 1, 0.2:
the photos the models never trained on) is grouped by **physical set** (`group_sets`): the named
series by name (`IMG_*`: one ivory set on one grey table over five days, whose tiles of a class
are >= 0.99 alike across the days; `*_family_*`, `one_bamboo_flowers_*`: one set photographed
suit by suit), every other photo by its look: complete-linkage clusters over the photos' tile
similarity (`set_similarity`: the mean, over the classes both photos show, of the cosine between
their class-mean embeddings; >= `CLUSTER_COS`, at least `MIN_SHARED` classes shared). A photo
alone in its cluster has no references. The clustered sets are reported apart from the named
ones: a look-alike cluster may favour references.

For each photo the references are the other photos of its set, read without references and put
right as a player would: every detection matched to a labelled tile (IoU >= 0.5) carries the true
tile. The photo is then read with them (`TileReader.detect(refs=)`).

Reported, without and with references: tile accuracy of the matched detections and the flag
(share of wrong tiles `uncertain`, share of right tiles `uncertain`), over the photos that have
references; and **another set's references** (each photo read with the references of every
photo of the largest other set), which must not make the reading worse.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from datasets.real import class_map, iou_matrix, load, photos, split_by_source
from datasets.tiles import SHARED

CLUSTER_COS = 0.975
"""Two clusters of unnamed photos merge when every pair of their photos has `set_similarity` at
least this (complete linkage). Named sets: IMG_* photos of different days 0.99-0.997; the
nearest other photo to them 0.96 or less."""

MIN_SHARED = 3
"""... and shows at least this many classes in common (else the pair is not comparable)."""

NAMED = (re.compile(r"^(IMG)_\d{8}_"), re.compile(r"^(one_bamboo_flowers|[a-z]+_family)_\d+"))


@dataclass
class Photo:
    """One validation photo: `path`, `codes` (labels), `gt` (K, 4), the plain reading, the
    `(detection, label)` matches, the references it gives (`vision.refs.Ref`)."""

    stem: str
    path: Path
    gt: np.ndarray
    codes: list[str]
    result: object = None
    pairs: list = None
    refs: list = None
    class_means: dict | None = None


def matches(dets, gt: np.ndarray) -> list[tuple[int, int]]:
    """Greedy IoU >= 0.5 matching, best pairs first: `(detection index, label index)`."""
    if not dets or not len(gt):
        return []
    iou = iou_matrix(np.array([d.xyxy for d in dets], np.float32), gt)
    out, used_d, used_g = [], set(), set()
    for flat in np.argsort(-iou, axis=None):
        i, j = np.unravel_index(flat, iou.shape)
        if iou[i, j] < 0.5:
            break
        if i not in used_d and j not in used_g:
            used_d.add(i)
            used_g.add(j)
            out.append((int(i), int(j)))
    return out


def named_set(stem: str) -> str | None:
    for rx in NAMED:
        m = rx.match(stem)
        if m:
            return m.group(1)
    return None


def set_similarity(a: Photo, b: Photo) -> float:
    """Mean cosine of the class-mean embeddings of the classes both show (-1: < `MIN_SHARED`)."""
    shared = set(a.class_means or {}) & set(b.class_means or {})
    if len(shared) < MIN_SHARED:
        return -1.0
    return float(np.mean([a.class_means[c] @ b.class_means[c] for c in shared]))


def group_sets(items: list[Photo]) -> dict[str, str]:
    """stem -> set name (module docstring)."""
    out = {p.stem: named_set(p.stem) for p in items}
    rest = [p for p in items if out[p.stem] is None and p.class_means]
    clusters = [[p] for p in rest]
    sim = {(x.stem, y.stem): set_similarity(x, y) for x in rest for y in rest}
    while True:
        best, pair = CLUSTER_COS, None
        for a, b in itertools.combinations(range(len(clusters)), 2):
            cos = min(sim[x.stem, y.stem] for x in clusters[a] for y in clusters[b])
            if cos >= best:
                best, pair = cos, (a, b)
        if pair is None:
            break
        a, b = pair
        clusters[a] += clusters.pop(b)
    for n, c in enumerate(clusters):
        for p in c:
            out[p.stem] = f"look_{n:02d}" if len(c) > 1 else f"alone_{p.stem}"
    return {k: v or f"alone_{k}" for k, v in out.items()}


def collect(reader, root: Path, audit: bool = False) -> list[Photo]:
    """Read every validation photo without references; its references and mean embedding.
    `audit`: the labels as `datasets.audit` judged them (an unclear box's code None: counted
    nowhere, no reference)."""
    from datasets.audit import audited_codes, verdicts
    from vision.refblend import normalise
    from vision.refs import Ref

    cmap = class_map(root)
    stems = photos(root)
    split = split_by_source(stems, 1, 0.2)
    table = verdicts() if audit else {}
    out = []
    for stem in (s for s in stems if split[s] == "val"):
        _img, gt, codes = load(root, stem, cmap)
        codes = audited_codes(stem, codes, table)
        p = Photo(stem, root / "images" / f"{stem}.jpg", gt, codes)
        p.result = reader.read(p.path)
        p.pairs = matches(p.result.detections, gt)
        p.refs = [Ref(p.path, p.result.detections[i].xyxy, codes[j]) for i, j in p.pairs if codes[j]]
        if p.refs:
            rs = reader.embed_refs(p.refs)
            p.class_means = {
                int(c): normalise(rs.embeddings[rs.labels == c].mean(0, keepdims=True))[0]
                for c in np.unique(rs.labels)
            }
        out.append(p)
    return out


def score(photo: Photo, result) -> Counter:
    """right / wrong matched tiles and how many of each are `uncertain`."""
    c = Counter()
    for i, j in matches(result.detections, photo.gt):
        if photo.codes[j] is None:  # an unclear label (datasets.audit)
            continue
        d = result.detections[i]
        ok = d.tile == photo.codes[j]
        c["right" if ok else "wrong"] += 1
        c[("right" if ok else "wrong") + "_flagged"] += d.uncertain
    return c


def summary(c: Counter) -> dict:
    n = c["right"] + c["wrong"]
    return {
        "tiles": n,
        "wrong": c["wrong"],
        "tile_accuracy": round(c["right"] / max(1, n), 4),
        "wrong_flagged": round(c["wrong_flagged"] / max(1, c["wrong"]), 3),
        "right_flagged": round(c["right_flagged"] / max(1, c["right"]), 4),
    }


def evaluate(reader, items: list[Photo], sets: dict[str, str]) -> dict:
    """Without / with the set's references / with another set's (module docstring)."""
    from vision.image import open_image

    by_set: dict[str, list[Photo]] = {}
    for p in items:
        by_set.setdefault(sets[p.stem], []).append(p)
    largest = sorted(by_set, key=lambda s: -len(by_set[s]))
    tot = {k: Counter() for k in ("plain", "refs", "plain_all", "other_plain", "other_refs")}
    cache: dict[str, object] = {}
    for p in items:
        plain = score(p, p.result)
        tot["plain_all"] += plain
        same = [r for q in by_set[sets[p.stem]] if q is not p for r in q.refs]
        loaded = open_image(p.path, min_side=reader.config.decode_min_side or None)
        if same:
            tot["plain"] += plain
            tot["refs"] += score(p, reader.detect(loaded, reader.embed_refs(same)))
        other = next(s for s in largest if s != sets[p.stem])
        if other not in cache:
            cache[other] = reader.embed_refs([r for q in by_set[other] for r in q.refs])
        tot["other_plain"] += plain
        tot["other_refs"] += score(p, reader.detect(loaded, cache[other]))
    with_refs = [p for p in items if len(by_set[sets[p.stem]]) > 1]
    return {
        "photos": len(items),
        "photos_with_refs": len(with_refs),
        "sets": {s: len(v) for s, v in sorted(by_set.items()) if len(v) > 1},
        "refs_per_photo_mean": round(
            float(np.mean([sum(len(q.refs) for q in by_set[sets[p.stem]] if q is not p) for p in with_refs]))
            if with_refs
            else 0.0,
            1,
        ),
        **{k: summary(v) for k, v in tot.items()},
    }


def views(reader, p: Photo) -> tuple[np.ndarray, np.ndarray, list[int], np.ndarray]:
    """The matched detections of `p` cut and classified as the reader does: `(logits (B, C),
    embedding (B, D), owner, labels (K,))`."""
    from vision.boxes import cut_crops
    from vision.image import open_image
    from vision.modelfiles import run_classifier

    loaded = open_image(p.path)
    xyxy = np.array([p.result.detections[i].xyxy for i, _ in p.pairs], np.float32).reshape(-1, 4)
    both = bool(reader.classifier.meta.get("upside_down", False))
    batch, _rot, owner = cut_crops(loaded.pixels, xyxy, reader.classifier.input_size, both_ways=both)
    logits, emb = run_classifier(reader.classifier.spec, batch, embed=True)
    labels = np.array([reader.classifier.classes.index(p.codes[j]) for _, j in p.pairs], np.int64)
    return logits, emb, owner, labels


def fit(reader, items: list[Photo], sets: dict[str, str]) -> list[dict]:
    """The grid over `RefCalibration` (alpha, tau, gate, flag_similarity) on the matched
    detections' views (the classifier stage alone: no second localizer pass, split merge or set
    rule): per row the accuracy and flag with the same set's references and another set's."""
    from vision.reading import combine_views, uncertain
    from vision.refblend import RefCalibration, RefSet, read_with_refs

    n_cls = len(reader.classifier.classes)
    calib = dict(reader.classifier.meta.get("calibration") or {})
    t = float(calib.get("temperature", 1.0))
    data = {p.stem: views(reader, p) for p in items if p.pairs}
    rows_of = {p.stem: reader.embed_refs(p.refs) for p in items if p.refs}
    by_set: dict[str, list[str]] = {}
    for stem in data:
        by_set.setdefault(sets[stem], []).append(stem)
    largest = sorted(by_set, key=lambda s: -len(by_set[s]))

    def refset(stems):
        parts = [rows_of[s] for s in stems]
        return RefSet(
            np.concatenate([r.embeddings for r in parts]), np.concatenate([r.labels for r in parts]), n_cls
        )

    cases = []  # (stem, refset of the same set, refset of another set)
    for stem in data:
        same = [s for s in by_set[sets[stem]] if s != stem]
        other = next(s for s in largest if s != sets[stem])
        cases.append((stem, refset(same) if same else None, refset(by_set[other])))
    out = []
    for alpha, tau, gate, flag in itertools.product(
        (0.0, 0.25, 0.5, 1.0, 2.0), (0.02, 0.05, 0.1), (0.5, 0.6, 0.7, 0.8), (0.0, 0.5, 0.6, 0.7, 0.8)
    ):
        cal = RefCalibration(alpha, tau, gate, flag)
        tot = {k: Counter() for k in ("plain", "refs", "other")}
        for stem, same, other in cases:
            logits, emb, owner, labels = data[stem]
            for key, rs in (("plain", None), ("refs", same), ("other", other)):
                if rs is None and key != "plain":
                    continue
                if key == "plain" and same is None:
                    continue
                if rs is None:
                    r = combine_views(logits, owner, len(labels), t)
                    flags = uncertain(r, r.p, calib)
                else:
                    r = read_with_refs(logits, emb, owner, len(labels), t, rs, cal)
                    flags = uncertain(r, r.p, {**calib, "ref_flag_similarity": flag})
                ok = r.cls == labels
                c = tot[key]
                c["right"] += int(ok.sum())
                c["wrong"] += int((~ok).sum())
                c["right_flagged"] += int((ok & flags).sum())
                c["wrong_flagged"] += int((~ok & flags).sum())
        out.append(
            {"alpha": alpha, "tau": tau, "gate": gate, "flag_similarity": flag}
            | {k: summary(v) for k, v in tot.items()}
        )
    return out


def main(argv=None) -> int:
    from vision.reader import TileReader

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="models")
    ap.add_argument("--fit", action="store_true", help="also run the calibration grid")
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument(
        "--root",
        help="photos + YOLO labels laid out as real_photos_rf (default: it); only its val photos are read",
    )
    a = ap.parse_args(argv)
    reader = TileReader(a.models)
    items = collect(reader, Path(a.root) if a.root else SHARED / "data" / "real_photos_rf")
    sets = group_sets(items)
    report = {"grouping": {p.stem: sets[p.stem] for p in items}, "result": evaluate(reader, items, sets)}
    print(json.dumps(report["result"], indent=1))
    if a.fit:
        report["grid"] = fit(reader, items, sets)
        print(f"{len(report['grid'])} grid rows in --json", flush=True)
    if a.json:
        Path(a.json).write_text(dump(report))
    return 0


def dump(report: dict) -> str:
    """The report as JSON, one grid row per line (the grid has hundreds)."""
    grid = report.pop("grid", None)
    text = json.dumps(report, indent=1)
    if grid is not None:
        rows = ",\n".join("  " + json.dumps(r) for r in grid)
        text = text[: text.rindex("}")].rstrip() + ',\n "grid": [\n' + rows + "\n ]\n}"
        report["grid"] = grid
    return text + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
