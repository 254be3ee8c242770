"""The by-eye audit of the validation split's labels (`datasets/reports/val-label-audit.json`).

`real_photos_rf` is labelled by hand and noisy. Every wrong read of the validation split by the
0.6.0 and 0.6.1 readers was cut out and looked at (datasets/reports/model-history.md "Audited
labels"); each has a verdict: `reader_wrong` (the label is right), `label_wrong` (the tile seen
is `true`: the reader was right) or `unclear` (the glyph cannot be told: left out of every figure).
A box is the index of its line among the non-empty lines of the photo's YOLO label file, as
`datasets.real.load` counts them.

>>> table = {("p", 2): {"verdict": "label_wrong", "true": "7s"}, ("p", 3): {"verdict": "unclear"}}
>>> audited_codes("p", ["1s", "2s", "6s", "F", "E"], table)
['1s', '2s', '7s', None, 'E']
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

AUDIT = Path(__file__).parent / "reports" / "val-label-audit.json"


def verdicts(path: Path = AUDIT) -> dict[tuple[str, int], dict]:
    """`{(photo stem, box): verdict}` of the audit file at `path`; empty when it is not there."""
    if not Path(path).exists():
        return {}
    return {(v["photo"], int(v["box"])): v for v in json.loads(Path(path).read_text())["verdicts"]}


def audited_codes(stem: str, codes: list[str], table: Mapping[tuple[str, int], dict] | None = None) -> list:
    """`codes` (one per label box of photo `stem`) with the audit applied: a `label_wrong` box takes
    its `true` tile, an `unclear` box becomes None (count it nowhere); `table`: `verdicts()`."""
    table = verdicts() if table is None else table
    out: list = []
    for j, code in enumerate(codes):
        v = table.get((stem, j))
        if v is None or v["verdict"] == "reader_wrong":
            out.append(code)
        elif v["verdict"] == "label_wrong":
            out.append(v["true"])
        else:
            out.append(None)
    return out


def audited_records(recs: list[dict], classes: list[str], photo_key: str = "stem") -> list[dict]:
    """`datasets.flag_sets` records (`stem`, `box`, `label`, `label_id`) with the audit applied
    (`apply_audit`), every `label_id` redone as the index of `label` in `classes` (-1: none).

    Raises:
        ValueError: a record has no `box` (records collected before boxes were kept: collect
            them again).
    """
    if any("box" not in r for r in recs):
        raise ValueError("records without a 'box' index cannot be audited: collect them again")
    out = apply_audit(recs, list(verdicts().values()), photo_key)
    return [{**r, "label_id": classes.index(r["label"]) if r["label"] in classes else -1} for r in out]


def apply_audit(recs: list[dict], audit: list[dict], photo_key: str = "photo") -> list[dict]:
    """Records (one per labelled box: `photo_key`, `box`, `label`) with audited labels:
    `label_wrong` verdicts take `true` (a record's other fields, a class index among them, are
    the caller's to redo); `unclear` ones are dropped. `audit`: the file's `"verdicts"` list."""
    by = {(a["photo"], int(a["box"])): a for a in audit}
    out = []
    for r in recs:
        a = by.get((r[photo_key], r["box"]))
        if a is None or a["verdict"] == "reader_wrong":
            out.append(r)
        elif a["verdict"] == "label_wrong":
            out.append({**r, "label": a["true"]})
    return out
