"""Face crops of suit tiles for measuring the pip counter (`vision.pips`) on real photos.

Each photo is read by the tile reader (without the pip check); each detection matched to a label
keeps its truth, the classifier's reading (`cls`, `second`, `uncertain`, `conf`) and its face as
the runtime cuts it (`vision.text_check.face_crop` from the reader's crop source). Two sources:

- `real_sets_dev` (`labels.json`, rows): detections put in the labelled rows and aligned with
  them (`datasets.text_records`), `set` the physical set;
- `real_photos_rf`: the validation part (seed 1, 0.2, by source photo), boxes matched at IoU >= 0.5
  (`datasets.eval_refs.matches`), `set` the grouping of `datasets/reports/refs-0.6.3.json`.

Only tiles whose truth or reading is a dot or bamboo tile are kept. Evaluation only.

    python -m datasets.pips_records sets ../shared/data/real_sets_dev OUT.pkl
    python -m datasets.pips_records rf ../shared/data/real_photos_rf OUT.pkl
"""

from __future__ import annotations

import argparse
import json
import pickle
from pathlib import Path

import numpy as np

from datasets.text_records import align, rows_of
from vision import ReaderConfig, get_reader
from vision.image import open_image
from vision.text_check import face_crop

GROUPING = Path(__file__).parent / "reports" / "refs-0.6.3.json"


def _suit(code: str | None) -> bool:
    return bool(code) and len(code) == 2 and code[1] in "ps"  # type: ignore[index]


def _reader():
    reader = get_reader(config=ReaderConfig(pips_min_conf=None))
    seen: dict = {}
    read = reader._read

    def capture(loaded, xyxy, scores, class_ids, timing, **kw):
        seen["source"] = kw.get("source")
        return read(loaded, xyxy, scores, class_ids, timing, **kw)

    reader._read = capture
    return reader, seen


def _record(det, truth: str, photo: str, set_name: str, source) -> dict | None:
    code = "X" if det.tile == "flower" else det.tile
    if not (_suit(truth) or _suit(code) or _suit(det.second)) or det.face_down:
        return None
    face = face_crop(source[0], source[1], det)
    return {
        "photo": photo,
        "set": set_name,
        "truth": truth,
        "cls": code,
        "second": det.second,
        "conf": det.conf,
        "uncertain": det.uncertain,
        "face": face,
    }


def sets_records(root: Path) -> list[dict]:
    labels = json.loads((root / "labels.json").read_text(encoding="utf-8"))
    reader, seen = _reader()
    out = []
    for name, lab in sorted(labels.items()):
        loaded = open_image(root / "images" / name, min_side=reader.config.decode_min_side or None)
        res = reader.detect(loaded)
        dets = res.detections
        for r, idx in enumerate(rows_of(dets, lab["row_bbox"], loaded.width, loaded.height)):
            want = lab["rows"][r]
            got = ["X" if dets[k].tile == "flower" else dets[k].tile for k in idx]
            for i, j in align(got, want):
                rec = _record(dets[idx[i]], want[j], name, lab.get("set", name), seen["source"])
                if rec:
                    out.append(rec)
        print(name, len(out), flush=True)
    return out


def rf_records(root: Path) -> list[dict]:
    from datasets.eval_refs import matches
    from datasets.real import class_map, load, photos, split_by_source

    grouping = json.loads(GROUPING.read_text())["grouping"]
    cmap, stems = class_map(root), photos(root)
    split = split_by_source(stems, 1, 0.2)
    reader, seen = _reader()
    out = []
    for stem in (s for s in stems if split[s] == "val"):
        _img, gt, codes = load(root, stem, cmap)
        loaded = open_image(root / "images" / f"{stem}.jpg", min_side=reader.config.decode_min_side or None)
        dets = reader.detect(loaded).detections
        for i, j in matches(dets, gt):
            rec = _record(dets[i], codes[j], stem, grouping.get(stem, stem), seen["source"])
            if rec:
                out.append(rec)
        print(stem[:30], len(out), flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=("sets", "rf"))
    ap.add_argument("root", type=Path)
    ap.add_argument("out", type=Path)
    a = ap.parse_args()
    recs = sets_records(a.root) if a.kind == "sets" else rf_records(a.root)
    a.out.write_bytes(pickle.dumps(recs))
    n = sum(_suit(r["truth"]) for r in recs)
    print(f"{len(recs)} records, {n} with a suit truth", np.mean([r["cls"] == r["truth"] for r in recs]))


if __name__ == "__main__":
    main()
