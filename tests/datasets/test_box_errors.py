"""`datasets.box_errors`: each edit of a labelled row named by its cause (issue 35 item 1)."""

from __future__ import annotations

from datasets.box_errors import align, classify_photo


def _det(x: float, tile: str, role: str = "hand") -> dict:
    return {"xyxy": [x, 100, x + 50, 170], "tile": tile, "role": role}


def test_align_names_each_edit():
    assert [op for op, _, _ in align("1m 2m 3m".split(), "1m 3m".split())] == ["ok", "miss", "ok"]
    assert [op for op, _, _ in align("1m 3m".split(), "1m 2m 3m".split())] == ["ok", "extra", "ok"]
    assert align("1m 3m".split(), "1m 4m".split()) == [("ok", 0, 0), ("sub", 1, 1)]


LAB = {"rows": [["1m", "2m", "3m", "4m"]], "row_bbox": [[0.0, 0.25, 1.0, 0.45]]}


def _photo(*dets: dict, grouped: int | None = None, rejected: list | None = None) -> dict:
    n = len(dets) if grouped is None else grouped
    return {"detections": list(dets), "groups": [{"tiles": list(range(n))}], "rejected": rejected or []}


def _causes(out: dict, low: list) -> list[str]:
    return [e["cause"] for e in classify_photo(LAB, out, low, 1000, 400)[0]]


def test_each_edit_by_cause():
    row = [_det(100, "1m"), _det(160, "2m"), _det(220, "3m"), _det(280, "4m")]
    assert _causes(_photo(*row), []) == []
    assert _causes(_photo(row[0], _det(160, "9m"), *row[2:]), []) == ["wrong_name"]
    assert _causes(_photo(*row, _det(340, "back")), []) == ["extra_back"]
    assert _causes(_photo(*row, _det(300, "4m")), []) == ["extra_split"]  # over the 4m
    assert _causes(_photo(*row, _det(400, "5m"), grouped=4), []) == ["extra_off_row"]
    three = _photo(row[0], row[1], row[3])
    assert _causes(three, [[220, 100, 270, 170]]) == ["missed_low_conf"]
    assert _causes(three, []) == ["missed_no_box"]
    three["rejected"] = [{"xyxy": [220, 100, 270, 170]}]
    assert _causes(three, []) == ["missed_rejected"]


def test_taps_count_the_hand_guess_and_tiles_from_outside():
    row = [_det(100, "1m"), _det(160, "2m"), _det(220, "3m"), _det(280, "4m")]
    far = {"xyxy": [100, 380, 150, 399], "tile": "5p", "role": "hand"}  # below the row, grouped
    assert classify_photo(LAB, _photo(*row, far), [], 1000, 400)[1] == 1
    assert classify_photo(LAB, _photo(*row, grouped=3), [], 1000, 400)[1] == 1  # the 4m left out
