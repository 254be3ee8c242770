"""`datasets.val_rows`: eval_rows labels from YOLO boxes (a fake export folder; no ../shared needed)."""

from __future__ import annotations

import json

import pytest

from datasets import val_rows


@pytest.fixture
def export(tmp_path):
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    (tmp_path / "classes.txt").write_text("# id name code\n0 bs1 flower\n1 sc1 1m\n2 sc2 2m\n")
    hand = [f"{1 + k % 2} {0.1 + 0.05 * k:.3f} 0.8 0.045 0.08" for k in range(9)] + ["0 0.5 0.2 0.045 0.08"]
    photos = {"table_jpg.rf.1": hand, "few_jpg.rf.2": ["1 0.5 0.5 0.1 0.15", "2 0.62 0.5 0.1 0.15"]}
    for stem, lines in photos.items():
        (tmp_path / "images" / f"{stem}.jpg").write_bytes(b"")
        (tmp_path / "labels" / f"{stem}.txt").write_text("\n".join(lines) + "\n")
    return tmp_path


def test_rows_are_the_labelled_boxes_in_reading_order(export):
    got = val_rows.labels(export, val_frac=1.0)
    assert sorted(got) == ["few_jpg.rf.2.jpg", "table_jpg.rf.1.jpg"]
    table = got["table_jpg.rf.1.jpg"]
    assert table["rows"] == [["X"], ["1m", "2m"] * 4 + ["1m"]]  # the lone flower above, then the row
    assert table["row_bbox"][1] == [0.0775, 0.76, 0.5225, 0.84]


def test_hands_only_keeps_photos_with_a_long_row(export):
    assert list(val_rows.labels(export, val_frac=1.0, hands_only=True)) == ["table_jpg.rf.1.jpg"]


def test_no_photo_is_held_out_at_val_frac_0(export):
    assert val_rows.labels(export, val_frac=0.0) == {}


def test_main_writes_labels_and_links(export, tmp_path, monkeypatch):
    monkeypatch.setattr(val_rows, "SHARED", tmp_path / "shared")
    (tmp_path / "shared" / "data").mkdir(parents=True)
    (tmp_path / "shared" / "data" / "real_photos_rf").symlink_to(export)
    out = tmp_path / "out"
    assert val_rows.main([str(out), "--val-frac", "1", "--hands-only"]) == 0
    names = json.loads((out / "labels.json").read_text())
    assert list(names) == ["table_jpg.rf.1.jpg"]
    assert (out / "images" / "table_jpg.rf.1.jpg").resolve() == export / "images" / "table_jpg.rf.1.jpg"


def test_main_skips_without_the_shared_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(val_rows, "SHARED", tmp_path / "absent")
    assert val_rows.main([str(tmp_path / "out")]) == 0
    assert "skipped" in capsys.readouterr().out and not (tmp_path / "out").exists()
