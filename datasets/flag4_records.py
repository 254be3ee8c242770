"""Flag 4's records, cached: every tile the reader shows on the labelled photos, its signals
(`datasets.flag4_signals`) and whether it is right (`datasets.flag3_records`: rows aligned with the
label on `real_sets_dev` / `real_rows_public`, boxes matched at IoU 0.5 on the validation split and
on its stand-ins, `datasets.stand_ins`).

The cache (`CACHE`, `--cache`): one JSON per part (`PARTS`), `{"fingerprint", "records",
"misses"}`. A part is read again only when its file is missing, `--fresh` is given, or its
fingerprint differs: the fingerprint hashes what the records depend on — the models' ONNX files,
the flag file's prototypes (the `proto_sim` signal), and the source of `vision/` and of the signal
modules (a new reader's signal changes them). So after merging a reader that adds a signal, the
refit reads every photo again by itself.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "datasets" / "out" / "flag4"
PARTS = ("sets_dev", "val", "public", "swap", "hue", "bold", "mono")
"""`sets_dev` (groups `cn`, `riichi`), `val` (the validation split of `real_photos_rf`, by set),
`public` (`real_rows_public`: reported only), then the stand-ins (reported only)."""


def fingerprint(models: Path) -> str:
    """What the records of `models` depend on (module docstring), as a short hex digest."""
    h = hashlib.sha256()
    for name in ("localizer.onnx", "classifier.onnx", "text_rec.onnx"):
        p = Path(models) / name
        h.update(name.encode() + (p.read_bytes() if p.exists() else b"-"))
    flag = Path(models) / "flag.npz"
    if flag.exists():
        with np.load(flag, allow_pickle=False) as z:
            h.update(np.ascontiguousarray(z["prototypes"]).tobytes())
    srcs = sorted((ROOT / "vision").glob("*.py")) + [
        ROOT / "datasets" / n
        for n in ("flag3_signals.py", "flag3_hand.py", "flag4_signals.py", "flag3_records.py")
    ]
    for p in srcs:
        h.update(p.name.encode() + p.read_bytes())
    return h.hexdigest()[:16]


def _group_of(part: str):
    if part == "sets_dev":
        return lambda lab: "riichi" if lab["set"].startswith("R") else "cn"
    return lambda lab: "public"


def read_part(reader, part: str, shared: Path, stand_ins: Path) -> dict:
    """`{"records", "misses"}` of one part, every photo read now."""
    from datasets.flag3_records import row_records, val_records
    from datasets.flag4_signals import photo_signals
    from datasets.stand_ins import KINDS, stand_in_copy

    data = shared / "data"
    if part == "val":
        from datasets.flag_sets import GROUPING

        grouping = json.loads(GROUPING.read_text())["grouping"]
        return {
            "records": val_records(reader, data / "real_photos_rf", grouping, photo_signals),
            "misses": [],
        }
    if part in KINDS:
        copy = stand_ins / part
        if not (copy / "images").is_dir():
            stand_in_copy(data / "real_photos_rf", copy, part)
        rs = val_records(reader, copy, {}, photo_signals)
        return {"records": [{**r, "set": part, "group": part} for r in rs], "misses": []}
    folder = data / ("real_sets_dev" if part == "sets_dev" else "real_rows_public")
    labels = json.loads((folder / "labels.json").read_text())
    recs, misses = row_records(reader, labels, folder / "images", _group_of(part), photo_signals)
    return {"records": recs, "misses": misses}


def records(
    models: Path,
    parts=PARTS,
    cache: Path = CACHE,
    fresh: bool = False,
    shared: Path | None = None,
    log=print,
    fingerprint_of=None,
    read=None,
) -> tuple[list[dict], list[dict]]:
    """`(records, misses)` of `parts`, from the cache where it is current (module docstring);
    `fingerprint_of` and `read` default to this module's `fingerprint` and `read_part` (flag 5
    passes its own: `datasets.flag5_records`)."""
    fingerprint_of, read = fingerprint_of or fingerprint, read or read_part
    from datasets.tiles import SHARED

    shared = Path(shared or SHARED)
    cache = Path(cache)
    cache.mkdir(parents=True, exist_ok=True)
    fp, reader = fingerprint_of(models), None
    recs: list[dict] = []
    misses: list[dict] = []
    for part in parts:
        path = cache / f"{part}.json"
        data = json.loads(path.read_text()) if path.exists() and not fresh else None
        if data is None or data.get("fingerprint") != fp:
            if reader is None:
                from vision.reader import TileReader

                reader = TileReader(models)
            data = {"fingerprint": fp, **read(reader, part, shared, cache / "stand-ins")}
            path.write_text(json.dumps(data))
            log(f"{part}: {len(data['records'])} records read ({path})")
        else:
            log(f"{part}: {len(data['records'])} records from the cache ({path})")
        recs += data["records"]
        misses += data["misses"]
    return recs, misses
