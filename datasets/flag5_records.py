"""Flag 5's records, cached: every tile the reader shows on `real_sets_dev`, the validation split and
`real_rows_public`, whether it is right (`datasets.flag3_records`) and every signal
(`datasets.flag5_signals`: flag 4's, the text reader's, the pip counter's and the suit shape's).

The cache (`CACHE`): one JSON per part, read again when the fingerprint of the models, `vision/` and
the signal modules differs (`datasets.flag4_records.fingerprint`, flag 5's signals added).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from datasets.flag4_records import ROOT, _group_of
from datasets.flag4_records import fingerprint as flag4_fingerprint

CACHE = ROOT / "datasets" / "out" / "flag5"
PARTS = ("sets_dev", "val", "public")


def fingerprint(models: Path) -> str:
    h = hashlib.sha256(flag4_fingerprint(models).encode())
    for n in ("flag5_signals.py", "flag4_signals.py"):
        h.update((ROOT / "datasets" / n).read_bytes())
    return h.hexdigest()[:16]


def read_part(reader, part: str, shared: Path) -> dict:
    from datasets.flag3_records import row_records, val_records
    from datasets.flag5_signals import photo_signals

    data = shared / "data"
    if part == "val":
        from datasets.flag_sets import GROUPING

        grouping = json.loads(GROUPING.read_text())["grouping"]
        recs = val_records(reader, data / "real_photos_rf", grouping, photo_signals)
        return {"records": recs, "misses": []}
    folder = data / ("real_sets_dev" if part == "sets_dev" else "real_rows_public")
    labels = json.loads((folder / "labels.json").read_text())
    recs, misses = row_records(reader, labels, folder / "images", _group_of(part), photo_signals)
    return {"records": recs, "misses": misses}


def records(models: Path, parts=PARTS, cache: Path = CACHE, fresh: bool = False, log=print):
    """`(records, misses)` of `parts`, from the cache where it is current."""
    from datasets.flag4_records import records as cached

    def read(reader, part, shared, _stand_ins):
        return read_part(reader, part, shared)

    return cached(models, parts, cache, fresh, None, log, fingerprint, read)


if __name__ == "__main__":
    import sys

    rs, ms = records(Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "models"))
    print(len(rs), "records,", len(ms), "misses")
