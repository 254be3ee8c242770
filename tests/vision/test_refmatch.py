"""Learning a set by appearance (`vision.refmatch`): a confirmed tile is a template.

Synthetic faces drawn here in several *styles* (a style: its ink, stroke, font and layout, as a
physical set prints every tile of a kind identically): the same set's references put a misread
right, another style's change nothing, a tile turned 180° is matched, and `decide`'s rule.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from tests.vision.util import coded_tile
from vision import TileReader, testing
from vision.modelfiles import CLASS_CODES
from vision.reading import Readings
from vision.refblend import RefSet
from vision.refmatch import (
    MatchCalibration,
    class_scores,
    cut_faces,
    decide,
    match,
    match_refs,
    templates,
)
from vision.refs import Ref

IDX = {c: CLASS_CODES.index(c) for c in CLASS_CODES}
STYLES = {
    # ink (RGB), thickness, font, the numeral on top (True) or at the bottom
    "ivory": ((20, 20, 20), 3, cv2.FONT_HERSHEY_SIMPLEX, True),
    "hk": ((10, 90, 30), 2, cv2.FONT_HERSHEY_TRIPLEX, False),
    "blue": ((20, 40, 160), 1, cv2.FONT_HERSHEY_DUPLEX, True),
}
TILE = (60, 80)  # w, h of a standing tile in the synthetic photos


def draw_face(code: str, style: str, w: int = TILE[0], h: int = TILE[1]) -> np.ndarray:
    """`(h, w, 3)` uint8: a tile of `code` as set `style` prints it (the numeral and a suit mark)."""
    ink, thick, font, top = STYLES[style]
    face = np.full((h, w, 3), 235, np.uint8)
    cv2.rectangle(face, (1, 1), (w - 2, h - 2), (150, 150, 150), 1)
    num, suit = code[0], {"m": "M", "p": "O", "s": "I"}.get(code[1:], code[1:])
    y_num, y_suit = (int(h * 0.45), int(h * 0.88)) if top else (int(h * 0.88), int(h * 0.45))
    cv2.putText(face, num, (int(w * 0.25), y_num), font, 1.2, ink, thick, cv2.LINE_AA)
    cv2.putText(face, suit, (int(w * 0.3), y_suit), font, 0.9, (200, 30, 30), thick, cv2.LINE_AA)
    if style == "hk":  # a corner index
        cv2.putText(face, num, (3, 12), cv2.FONT_HERSHEY_PLAIN, 0.8, (200, 30, 30), 1)
    return face


def photo(codes: list[str], style: str, shift: int = 0, turned: set[int] = frozenset()) -> tuple:
    """A photo of `codes` in a row: `(pixels, boxes (K, 4))`; `shift` moves every tile; a tile in
    `turned` stands upside down."""
    w, h = TILE
    img = np.full((h + 60, (w + 12) * len(codes) + 40, 3), (40, 110, 60), np.uint8)
    boxes = []
    for k, code in enumerate(codes):
        x0, y0 = 20 + k * (w + 12) + shift, 30 + shift // 2
        face = draw_face(code, style)
        img[y0 : y0 + h, x0 : x0 + w] = face[::-1, ::-1] if k in turned else face
        boxes.append((x0 - 1, y0 - 1, x0 + w + 1, y0 + h + 1))  # the localizer's box: a pixel out
    return img, np.array(boxes, np.float32)


def refs_of(codes: list[str], style: str) -> tuple[np.ndarray, np.ndarray]:
    """`(templates, labels)` of a photo of `codes` in `style` (the player's confirmed tiles)."""
    img, boxes = photo(codes, style, shift=3)
    return templates(cut_faces(img, boxes)), np.array([IDX[c] for c in codes])


HAND = ["2m", "3m", "5m", "2p", "4p", "7s", "8s"]


def scores(codes: list[str], style: str, ref_style: str, turned: set[int] = frozenset()) -> np.ndarray:
    img, boxes = photo(codes, style, turned=turned)
    t, lab = refs_of(HAND, ref_style)
    return class_scores(match(cut_faces(img, boxes), t), lab, len(CLASS_CODES))


@pytest.mark.parametrize("style", sorted(STYLES))
def test_the_same_sets_references_put_a_misread_right(style):
    read = np.array([IDX["3m"], IDX["3m"], IDX["4p"]])  # the classifier: 2m -> 3m, 2p -> 4p
    d = decide(read, scores(["2m", "3m", "2p"], style, style), MatchCalibration())
    assert [CLASS_CODES[c] for c in d.cls] == ["2m", "3m", "2p"]
    assert d.changed.tolist() == [True, False, True]
    assert (d.best > 0.9).all() and not d.flag.any()


def test_references_of_another_style_change_nothing():
    read = np.array([IDX["3m"], IDX["3m"], IDX["4p"]])
    s = scores(["2m", "3m", "2p"], "ivory", "hk")
    d = decide(read, s, MatchCalibration())
    assert d.cls.tolist() == read.tolist() and not d.changed.any() and not d.flag.any()
    assert (d.best < MatchCalibration().accept).all()


def test_a_tile_turned_180_is_matched():
    s = scores(["2m", "7s"], "ivory", "ivory", turned={0, 1})
    d = decide(np.array([IDX["3m"], IDX["7s"]]), s, MatchCalibration())
    assert [CLASS_CODES[c] for c in d.cls] == ["2m", "7s"] and d.best.min() > 0.9


def test_decide_overrides_only_a_sure_clear_match_and_flags_a_sure_disagreement():
    inf = -np.inf
    s = np.array(
        [
            [0.95, 0.80, inf],  # sure and clear: class 0
            [0.93, 0.88, inf],  # sure, not clear (margin 0.05 < 0.08): kept, not flagged (< 0.95)
            [0.70, 0.20, inf],  # clear, not sure: kept
            [0.97, 0.92, inf],  # 0.97 >= flag_at, not clear: kept, flagged
            [inf, inf, inf],  # no references
        ],
        np.float32,
    )
    d = decide(np.array([1, 1, 1, 1, 2]), s, MatchCalibration(accept=0.85, margin=0.08, flag_at=0.95))
    assert d.cls.tolist() == [0, 1, 1, 1, 2]
    assert d.changed.tolist() == [True, False, False, False, False]
    assert d.flag.tolist() == [False, False, False, True, False]


def test_match_refs_overrides_clears_the_old_flag_and_keeps_none():
    img, boxes = photo(["2m", "2p", "3m", "5m", "7s", "8s"], "ivory")
    t, lab = refs_of(HAND, "ivory")
    refs = RefSet(np.zeros((1, 4), np.float32), np.array([0]), len(CLASS_CODES), 7, t, lab)
    none = len(CLASS_CODES)  # a class index no reference carries, as the classifier's `none`
    cls = np.array([IDX["3m"], IDX["4p"], none, IDX["5m"], IDX["7s"], IDX["8s"]])
    r = Readings(cls, np.full(6, 0.6), np.full(6, 0.2), np.ones(6, bool), second=np.zeros(6, int))
    out, flags = match_refs(img, boxes, r, np.array([True, True, True, False, False, False]), refs, keep=none)
    assert out.cls.tolist() == [IDX["2m"], IDX["2p"], none, IDX["5m"], IDX["7s"], IDX["8s"]]
    assert out.second.tolist()[:2] == [IDX["3m"], IDX["4p"]] and not out.agree[:2].any()
    assert flags.tolist() == [False, False, True, False, False, False]
    plain = RefSet(np.zeros((1, 4), np.float32), np.array([0]), len(CLASS_CODES))
    assert match_refs(img, boxes, r, np.zeros(6, bool), plain)[0] is r  # no faces: unchanged
    # two tiles read with references of their classes are too few to say the references are this set's
    two = Readings(cls[:3], np.full(3, 0.6), np.full(3, 0.2), np.ones(3, bool))
    assert (
        match_refs(img, boxes[:3], two, np.zeros(3, bool), refs, keep=none)[0].cls.tolist()
        == cls[:3].tolist()
    )


def test_the_blend_moves_a_box_only_to_a_class_its_face_supports():
    """`plain`: the classes without references. The embedding blend moved the boxes of another
    style (faces unlike every reference, below `support`) and an ivory 2m to 3m (its face says
    2m): all go back; a move the face supports stays."""
    t, lab = refs_of(HAND, "ivory")
    refs = RefSet(np.zeros((1, 4), np.float32), np.array([0]), len(CLASS_CODES), 7, t, lab)
    img, boxes = photo(["2m", "3m"], "hk")
    plain = np.array([IDX["2m"], IDX["3m"]])
    blended = np.array([IDX["5m"], IDX["3m"]])
    r = Readings(blended, np.full(2, 0.6), np.full(2, 0.2), np.ones(2, bool))
    out, _ = match_refs(img, boxes, r, np.zeros(2, bool), refs, plain=plain)
    assert out.cls.tolist() == plain.tolist()
    codes = ["2m", "5m", "7s", "8s", "3m"]  # enough tiles read as the references agree with
    img, boxes = photo(codes, "ivory")
    r = Readings(
        np.array([IDX[c] for c in ["3m", *codes[1:]]]), np.full(5, 0.6), np.full(5, 0.2), np.ones(5, bool)
    )
    cal = MatchCalibration(accept=2.0)  # no override: the veto alone
    was = np.array([IDX[c] for c in ["2m", "4p", *codes[2:]]])
    out, _ = match_refs(img, boxes, r, np.zeros(5, bool), refs, cal, plain=was)
    assert [CLASS_CODES[c] for c in out.cls] == codes


def test_faces_are_grey_both_views_and_a_flat_face_matches_nothing():
    img, boxes = photo(["2m"], "ivory")
    f = cut_faces(img, boxes)
    assert f.shape == (1, 4, 40, 36) and np.allclose(f[0, 1], f[0, 0][::-1, ::-1])
    assert np.isnan(f[0, 2:]).all()  # a standing box (60 x 82) is not cut sideways
    flat = np.full((100, 100, 3), 128, np.uint8)
    assert np.allclose(
        match(cut_faces(flat, np.array([[10, 10, 70, 90]], np.float32)), refs_of(HAND, "ivory")[0]), 0
    )


# -- the reader: `detect(refs=)` matches faces after the blend ------------------------------------

SIZE = (1600, 1200)
SCENE = [(b, c) for b, c in testing.hand_scene(*SIZE) if c not in ("back", "flower")]
ODD = next(k for k, (_, code) in enumerate(SCENE) if code == "8s")


def painted(odd_as: str | None) -> np.ndarray:
    """The stand-ins' scene (a tile's red level is its class), each tile with its code written on
    it in an ink of the same red; the 8s painted with the 7s's red (`odd_as`) — the model reads it as a 7s."""
    img = testing.paint_scene(*SIZE, [])
    for k, ((x0, y0, x1, y1), code) in enumerate(SCENE):
        r = testing.tile_colour(odd_as if (k == ODD and odd_as) else code)[0]
        tile = coded_tile((x0, y0, x1, y1), (r, 255, 255), code)  # the ink: invisible to the model
        img[round(y0) : round(y1), round(x0) : round(x1)] = tile
    return img


@pytest.fixture(scope="module")
def reader(tmp_path_factory) -> TileReader:
    d = tmp_path_factory.mktemp("refmatch_models")
    testing.build_localizer(d / "localizer.onnx", [b for b, _ in SCENE], image_size=SIZE)
    calibration = {"temperature": 1.0, "flag_logit_margin": 0.5, "disagree_factor": 0.0}
    testing.build_classifier(
        d / "classifier.onnx", embedding=True, gain=2.0, meta_override={"calibration": calibration}
    )
    return TileReader(d)


def test_the_reader_reads_a_tile_fixed_in_an_earlier_photo_right(reader, tmp_path, monkeypatch):
    earlier = tmp_path / "earlier.png"
    Image.fromarray(painted("7s")).save(earlier)
    refs = reader.embed_refs([Ref(earlier, b, c) for b, c in SCENE])  # the player fixed the 8s
    assert refs.faces is not None and len(refs.faces) == len(SCENE)
    now = painted("7s")

    def odd(result) -> str:
        return next(d.tile for d in result.detections if abs(d.xyxy[0] - SCENE[ODD][0][0]) < 2)

    assert odd(reader.detect(now)) == "7s"
    assert odd(reader.detect(now, refs)) == "8s"
    monkeypatch.setattr("vision.reader.match_refs", lambda _p, _x, r, f, *_a, **_k: (r, f))
    assert odd(reader.detect(now, refs)) == "7s"  # the embedding blend alone does not fix it


def test_another_sets_references_leave_the_reading_as_it_was(reader, tmp_path):
    other = tmp_path / "other.png"
    img = testing.paint_scene(*SIZE, [])
    for (x0, y0, x1, y1), code in SCENE:  # plain faces of another set: no ink, another colour
        img[round(y0) : round(y1), round(x0) : round(x1)] = (testing.tile_colour(code)[0], 90, 200)
    Image.fromarray(img).save(other)
    refs = reader.embed_refs([Ref(other, b, c) for b, c in SCENE])
    now = painted("7s")
    assert [d.tile for d in reader.detect(now, refs).detections] == [
        d.tile for d in reader.detect(now).detections
    ]


def test_refs_json_paths_are_untouched(tmp_path):
    """`Ref` still names a photo and a box; the templates come from the photo, never the file."""
    assert Ref(Path("a.jpg"), (0, 0, 1, 1), "1m").tile == "1m"
