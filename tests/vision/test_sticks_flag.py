"""A sure stick count that disagrees flags a 6條/9條 (`vision.sticks_flag`, on by default)."""

from __future__ import annotations

import numpy as np

from tests.vision.pip_faces import touching_stick_face
from vision.detection import Detection
from vision.face_checks import check_faces
from vision.reader_config import ReaderConfig
from vision.sticks_flag import COUNTED, STICKS_FLAG_CONF, flag_by_sticks


def _photo(*faces: np.ndarray) -> tuple[np.ndarray, list[tuple[float, float, float, float]]]:
    """An RGB photo with the BGR faces side by side on a dark table, and their boxes."""
    h = max(f.shape[0] for f in faces)
    photo = np.full((h + 20, sum(f.shape[1] + 10 for f in faces) + 10, 3), 40, np.uint8)
    boxes, x = [], 10
    for f in faces:
        photo[10 : 10 + f.shape[0], x : x + f.shape[1]] = f[:, :, ::-1]
        boxes.append((float(x), 10.0, float(x + f.shape[1]), float(10 + f.shape[0])))
        x += f.shape[1] + 10
    return photo, boxes


def _det(box, tile, uncertain=False):
    return Detection(xyxy=box, tile=tile, conf=0.9, uncertain=uncertain)


def test_a_nine_read_six_is_flagged_with_nine_its_runner_up():
    photo, boxes = _photo(
        touching_stick_face(9, "green", 60, 12.0), touching_stick_face(6, "blue", 60, -12.0)
    )
    dets = [_det(boxes[0], "6s"), _det(boxes[1], "6s")]
    out, flagged = flag_by_sticks(dets, photo, 1.0)
    assert flagged == [0]
    assert (out[0].tile, out[0].uncertain, out[0].second) == ("6s", True, "9s")
    assert out[1] == dets[1]  # read right: left as it was


def test_only_unflagged_sixes_are_counted():
    photo, boxes = _photo(
        touching_stick_face(9, "red", 60),
        touching_stick_face(9, "black", 60),
        touching_stick_face(6, "green", 60),
    )
    dets = [_det(boxes[0], "8s"), _det(boxes[1], "6s", uncertain=True), _det(boxes[2], "9s")]
    assert flag_by_sticks(dets, photo, 1.0) == (dets, [])
    assert COUNTED == {"6s"}  # a 9 read as 6 is the misread seen; a 9s read is not counted


def test_a_six_read_nine_is_flagged_when_nines_are_counted(monkeypatch):
    photo, boxes = _photo(touching_stick_face(6, "green", 60))
    monkeypatch.setattr("vision.sticks_flag.COUNTED", frozenset({"6s", "9s"}))
    out, flagged = flag_by_sticks([_det(boxes[0], "9s")], photo, 1.0)
    assert (flagged, out[0].uncertain, out[0].second) == ([0], True, "6s")


def test_the_switch_is_on_by_default_and_flag_5_does_not_clear_it():
    photo, boxes = _photo(touching_stick_face(9, "green", 60, 12.0))
    dets = [_det(boxes[0], "6s")]
    probs, classes = [None], ["6s", "9s"]
    assert ReaderConfig().sticks_flag_conf == STICKS_FLAG_CONF == 0.1
    off, _ = check_faces(dets, probs, classes, (photo, 1.0), None, ReaderConfig(sticks_flag_conf=None))
    assert off == dets
    on, clear = check_faces(dets, probs, classes, (photo, 1.0), None, ReaderConfig())
    assert (on[0].uncertain, on[0].second, clear) == (True, "9s", [False])
