"""Flag 3's records: every detection the reader shows, its signals (`datasets.flag3_signals`) and
whether it is right, on two kinds of labelled photos.

- Row-labelled photos (`../shared/data/real_sets_dev`, `real_rows_public`): the detections are put
  in the labelled rows as `../shared/tools/flag_eval.py` does (`datasets.text_records.rows_of`) and
  aligned with the label (edit distance, its backtrace: `ops`); each aligned detection is `ok` or
  `sub` (a wrong name), each detection left over `extra` (a phantom or a split box: a box error);
  a labelled tile no detection stands for is a `miss` (a box error the flag can never show),
  counted per photo. Detections outside every labelled row are left out (the flag is measured on
  the rows, as flag_eval does).
- The validation split of `real_photos_rf` (boxes labelled): detections matched to labels at
  IoU >= 0.5 (`datasets.eval_refs.matches`): `ok` / `sub`; the others are not counted.

Each record: `set`, `photo`, `op`, `label`, `group` (`cn` / `riichi` for real_sets_dev, `val`,
`public`, or the stand-in's kind: `datasets.stand_ins`, its validation photos) and the signals.

    JXMJ_SHARED=/work/shared python -m datasets.flag3_records --out /tmp/flag3-records.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from datasets.flag3_signals import photo_signals
from datasets.text_records import rows_of


def ops(got: list[str], want: list[str]) -> list[tuple[str, int | None, int | None]]:
    """`(op, i, j)`: got[i] is want[j] (`ok`) or another tile (`sub`), got[i] stands for no
    label (`extra`), want[j] has no detection (`miss`); flag_eval.py's backtrace.

    >>> ops(["1m", "2m", "9p"], ["1m", "2m"])
    [('ok', 0, 0), ('ok', 1, 1), ('extra', 2, None)]
    >>> ops(["1m", "5m"], ["1m", "3m", "4m"])
    [('ok', 0, 0), ('miss', None, 1), ('sub', 1, 2)]
    """
    n, m = len(got), len(want)
    d = [[i + j if i * j == 0 else 0 for j in range(m + 1)] for i in range(n + 1)]
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (got[i - 1] != want[j - 1]))
    out, i, j = [], n, m
    while i or j:
        if i and j and d[i][j] == d[i - 1][j - 1] + (got[i - 1] != want[j - 1]):
            out.append(("ok" if got[i - 1] == want[j - 1] else "sub", i - 1, j - 1))
            i, j = i - 1, j - 1
        elif i and d[i][j] == d[i - 1][j] + 1:
            out.append(("extra", i - 1, None))
            i -= 1
        else:
            out.append(("miss", None, j - 1))
            j -= 1
    return out[::-1]


def _code(tile: str) -> str:
    return "X" if tile == "flower" else tile


def row_records(
    reader, labels: dict, images: Path, group_of, signals=photo_signals
) -> tuple[list[dict], list[dict]]:
    """`(records, misses)` of row-labelled photos (module docstring); `signals(reader, loaded)`:
    `(detections, signals per detection)` (flag 4 adds its own, `datasets.flag4_signals`)."""
    from vision.image import open_image

    recs, misses = [], []
    for name, lab in sorted(labels.items()):
        path = images / name
        if not path.exists():
            continue
        loaded = open_image(path, min_side=reader.config.decode_min_side or None)
        dets, sig = signals(reader, loaded)
        for row, want in zip(
            rows_of(dets, lab["row_bbox"], loaded.width, loaded.height), lab["rows"], strict=False
        ):
            if all(t == "X" for t in want):
                continue
            for op, i, j in ops([_code(dets[k].tile) for k in row], want):
                base = {"set": lab.get("set", name), "photo": name, "group": group_of(lab), "op": op}
                if op == "miss":
                    misses.append({**base, "label": want[j]})
                else:
                    recs.append({**base, "label": want[j] if j is not None else None, **sig[row[i]]})
    return recs, misses


def val_records(reader, root: Path, grouping: dict, signals=photo_signals) -> list[dict]:
    """Records of the validation split of `real_photos_rf` (module docstring)."""
    from datasets.eval_refs import matches
    from datasets.real import class_map, load, photos, split_by_source
    from vision.image import open_image

    cmap = class_map(root)
    stems = photos(root)
    split = split_by_source(stems, 1, 0.2)
    recs = []
    for stem in (s for s in stems if split[s] == "val"):
        _img, gt, codes = load(root, stem, cmap)
        loaded = open_image(root / "images" / f"{stem}.jpg", min_side=reader.config.decode_min_side or None)
        dets, sig = signals(reader, loaded)
        for i, j in matches(dets, gt):
            op = "ok" if dets[i].tile == codes[j] else "sub"
            s = grouping.get(stem, f"alone_{stem}")
            recs.append({"set": s, "photo": stem, "group": "val", "op": op, "label": codes[j], **sig[i]})
    return recs


def main(argv=None) -> int:
    from datasets.flag_sets import GROUPING
    from datasets.stand_ins import KINDS, stand_in_copy
    from datasets.tiles import SHARED
    from vision.reader import TileReader

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="models")
    ap.add_argument("--out", required=True)
    ap.add_argument("--parts", nargs="+", default=["sets_dev", "public", "val"], help="and any of KINDS")
    ap.add_argument("--stand-ins", default="/tmp/flag3-stand-ins", help="where the stand-in copies lie")
    a = ap.parse_args(argv)
    reader = TileReader(a.models)
    out: dict = {"records": [], "misses": []}
    data = SHARED / "data"
    for part in a.parts:
        if part == "val":
            grouping = json.loads(GROUPING.read_text())["grouping"]
            out["records"] += val_records(reader, data / "real_photos_rf", grouping)
        elif part in KINDS:  # a stand-in (datasets.stand_ins), made under --stand-ins when missing
            copy = Path(a.stand_ins) / part
            if not (copy / "images").is_dir():
                stand_in_copy(data / "real_photos_rf", copy, part)
            rs = val_records(reader, copy, {})
            out["records"] += [{**r, "set": part, "group": part} for r in rs]
        else:
            folder = data / ("real_sets_dev" if part == "sets_dev" else "real_rows_public")
            labels = json.loads((folder / "labels.json").read_text())
            if part == "sets_dev":
                group_of = lambda lab: "riichi" if lab["set"].startswith("R") else "cn"  # noqa: E731
            else:
                group_of = lambda lab: "public"  # noqa: E731
            recs, misses = row_records(reader, labels, folder / "images", group_of)
            out["records"] += recs
            out["misses"] += misses
        print(part, len(out["records"]), flush=True)
        Path(a.out).write_text(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
