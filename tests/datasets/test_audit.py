"""`datasets.audit`: the by-eye verdicts on the validation labels, applied wherever they are counted
(records of `datasets.flag_sets`, `datasets.eval_refs` photos, `datasets.val_rows` rows)."""

from __future__ import annotations

import json
from collections import Counter
from types import SimpleNamespace

import numpy as np
import pytest

from datasets import audit, val_rows
from datasets.eval_refs import Photo, score

VERDICTS = [
    {"photo": "p", "box": 1, "label": "6s", "read": "7s", "verdict": "label_wrong", "true": "7s"},
    {"photo": "p", "box": 2, "label": "F", "read": "E", "verdict": "unclear"},
    {"photo": "p", "box": 3, "label": "2m", "read": "3m", "verdict": "reader_wrong"},
]


@pytest.fixture
def table(tmp_path, monkeypatch):
    path = tmp_path / "audit.json"
    path.write_text(json.dumps({"verdicts": VERDICTS}))
    monkeypatch.setattr(audit, "AUDIT", path)
    monkeypatch.setattr(audit.verdicts, "__defaults__", (path,))
    return audit.verdicts(path)


def test_the_shipped_audit_holds_three_wrong_labels_and_one_unclear():
    kinds = Counter(v["verdict"] for v in audit.verdicts().values())
    assert kinds["label_wrong"] == 3 and kinds["unclear"] == 1
    assert all(v["true"] for v in audit.verdicts().values() if v["verdict"] == "label_wrong")


def test_a_missing_audit_file_changes_nothing(tmp_path):
    assert audit.verdicts(tmp_path / "absent.json") == {}
    assert audit.audited_codes("p", ["6s"], {}) == ["6s"]


def test_codes_take_the_tile_seen_and_unclear_boxes_drop_out(table):
    assert audit.audited_codes("p", ["1s", "6s", "F", "2m"], table) == ["1s", "7s", None, "2m"]
    assert audit.audited_codes("q", ["1s", "6s"], table) == ["1s", "6s"]  # another photo


def test_records_keyed_by_stem_get_their_label_and_class_index_redone(table):
    recs = [
        {"stem": "p", "box": b, "label": lab, "label_id": 0} for b, lab in enumerate(["1s", "6s", "F", "2m"])
    ]
    out = audit.audited_records(recs, ["1s", "2m", "6s", "7s"])
    assert [(r["box"], r["label"], r["label_id"]) for r in out] == [(0, "1s", 0), (1, "7s", 3), (3, "2m", 1)]


def test_an_unclear_label_counts_neither_right_nor_wrong():
    gt = np.array([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10]], np.float32)
    photo = Photo("p", None, gt, ["1s", None, "7s"])
    dets = [
        SimpleNamespace(xyxy=tuple(b), tile=t, conf=0.9, uncertain=False)
        for b, t in zip(gt, ["1s", "E", "6s"], strict=True)
    ]
    c = score(photo, SimpleNamespace(detections=dets))
    assert (c["right"], c["wrong"]) == (1, 1)


def test_rows_read_the_audited_tile(tmp_path, table):
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    (tmp_path / "classes.txt").write_text("0 a 6s\n1 b 1s\n2 c F\n")
    lines = [f"{c} {0.1 + 0.05 * k:.3f} 0.8 0.045 0.08" for k, c in enumerate([1, 0, 2, 1, 1, 1, 1, 1, 1])]
    (tmp_path / "images" / "p.jpg").write_bytes(b"")
    (tmp_path / "labels" / "p.txt").write_text("\n" + "\n".join(lines) + "\n")  # a blank line first
    raw = val_rows.labels(tmp_path, val_frac=1.0)["p.jpg"]["rows"]
    got = val_rows.labels(tmp_path, val_frac=1.0, audit=True)["p.jpg"]["rows"]
    assert raw == [["1s", "6s", "F"] + ["1s"] * 6]
    assert got == [["1s", "7s", "F"] + ["1s"] * 6]  # box 1 put right; the unclear box 2 as labelled


def test_records_without_box_indices_are_refused_not_left_unaudited():
    with pytest.raises(ValueError, match="box"):
        audit.audited_records([{"stem": "p", "label": "6s"}], ["6s"])
