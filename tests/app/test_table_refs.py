"""The reader learns the table's set (`app.ui.table.refs`): a photo hand recorded at a table keeps
its tiles as references of that table, and the table's next photo is read with them; another
table and the score page read as without.

Painted scenes as in tests/vision/test_refs.py: the stand-in classifier names a tile by its red
level, its embedding is the crop's mean colour, and this set paints its 8s with the red of a 7s
(the model alone reads 7s) and a blue no other tile has.
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image
from streamlit.testing.v1 import AppTest

from app.ui import i18n, services
from app.ui.state import EditHand, EditTile, Selection
from app.ui.table import refs as TR
from ledger import Table
from ledger.store import open_store
from ledger.store import refs as R
from tests.app.conftest import APP
from vision.refmatch import FACE_KEY

pytest.importorskip("onnx", reason="needs onnx (the train extra)")
from vision import testing as VT

SIZE = (1600, 1200)
SCENE = VT.hand_scene(*SIZE)
ODD = next(k for k, (_, code) in enumerate(SCENE) if code == "8s")
SEATS = ("张三", "李四", "王五", "赵六")


def paint(odd_blue: int) -> bytes:
    img = VT.paint_scene(*SIZE, [])
    for k, ((x0, y0, x1, y1), code) in enumerate(SCENE):
        colour = (VT.tile_colour("7s")[0], 255, odd_blue) if k == ODD else (VT.tile_colour(code)[0], 255, 255)
        img[round(y0) : round(y1), round(x0) : round(x1)] = colour
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, "PNG")
    return buf.getvalue()


@pytest.fixture
def models(tmp_path, monkeypatch):
    VT.build_localizer(tmp_path / "localizer.onnx", [b for b, _ in SCENE], image_size=SIZE,
                       backs=[c == "back" for _, c in SCENE])  # fmt: skip
    calibration = {"temperature": 1.0, "flag_logit_margin": 0.5, "disagree_factor": 0.0}
    VT.build_classifier(
        tmp_path / "classifier.onnx", embedding=True, gain=2.0, meta_override={"calibration": calibration}
    )
    monkeypatch.setenv("JXMJ_MODELS_DIR", str(tmp_path))
    services._reader_cached.clear()
    monkeypatch.setattr(services, "_READER_BUILT", False)  # this test's reader: not built yet
    yield tmp_path
    services._reader_cached.clear()


def _open(code: str, token: str | None = None) -> AppTest:
    """The table's page on a phone; ``token``: that phone's ``?d=`` (a reload), else a new phone."""
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["table"] = code
    if token:
        at.session_state["test_cookie"] = token
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _photo(at, data: bytes) -> None:
    at.session_state["pending_photo"] = data
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def _odd(at) -> EditTile:
    """The hand's tile read from the odd box (the bottom row's 8s)."""
    x0 = SCENE[ODD][0][0]
    dets = at.session_state.hip.photo.result.detections
    return next(t for t in at.session_state.hip.hand.tiles if abs(dets[t.detection].xyxy[0] - x0) < 2)


def _read_with(at) -> list[str]:
    """The caption saying the photo was read with the table's learned tiles."""
    line = i18n.catalog("zh")["photo.read_with_refs"].split("{n}")[0]
    return [c.value for c in at.caption if c.value.startswith(line)]


def _learned(at) -> list[str]:
    line = i18n.catalog("zh")["table.refs_learned"].split("{n}")[0]
    return [c.value for c in at.caption if c.value.startswith(line)]


@pytest.mark.filterwarnings("error::RuntimeWarning")  # vision.refblend.blend's log 0 of the stand-ins
def test_a_recorded_photo_hand_teaches_the_table_its_set(models):
    store = open_store()
    code = store.create_table(Table("jiujiang", SEATS)).table.code
    other = store.create_table(Table("jiujiang", SEATS)).table.code
    at = _open(code)
    assert _learned(at) == []  # no photo read yet in this process: no reader built for the line
    _photo(at, paint(odd_blue=40))
    assert _learned(at) == [i18n.catalog("zh")["table.refs_learned"].format(n=0)]
    assert _read_with(at) == []  # nothing learned yet: read as without
    assert _odd(at).code == "7s"  # the model alone misreads this set's 8s
    hand: EditHand = at.session_state.hip.hand
    i = next(k for k, t in enumerate(hand.concealed) if t is _odd(at))
    at.session_state.hip.hand = hand.with_tile(Selection(i), "8s")  # the player renames it
    at.run()
    at.segmented_control(key="tw_winner").set_value(1)
    at.run()
    at.button(key="tb_record").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert len(store.get(code).hands) == 1
    reader = services._reader()[0]
    kept = R.table_refs(store, code, TR.model_key(reader))
    # every face-up photo tile of the recorded hand, the renamed one as the player named it;
    # the kong's backs and the 發 set aside are not references
    want = ["7p"] * 3 + ["9s"] * 2 + ["1m", "2m", "3m", "6s", "7s", "8s"] + ["2p"] * 2
    assert sorted(r.tile for r in kept) == sorted(want)
    assert all(r.dim == 3 and len(r.views) in (12, 24) for r in kept)  # the sideways 7p: two views
    faces = R.table_refs(store, code, FACE_KEY)  # each beside its face template (vision.refmatch)
    assert sorted(r.tile for r in faces) == sorted(want) and all(r.dim == 560 for r in faces)
    assert _learned(at) == [i18n.catalog("zh")["table.refs_learned"].format(n=13)]

    _photo(at, paint(odd_blue=44))  # the next photo at this table, the same set
    assert _odd(at).code == "8s"
    assert _read_with(at) == [i18n.catalog("zh")["photo.read_with_refs"].format(n=13)]
    assert sorted(t.code for t in at.session_state.hip.hand.concealed) == ["1m", "2m", "2p", "2p", "3m", "6s",
                                                                       "7s", "8s"]  # fmt: skip

    again = _open(code, at.session_state["draft_token"])  # a reload: its photo read again
    assert _odd(again).code == "8s" and _odd(again).detection == _odd(at).detection
    dets = again.session_state.hip.photo.result.detections
    assert dets[_odd(again).detection].tile == "8s"

    b = _open(other)  # another table learned nothing of this one's set
    assert _learned(b) == [i18n.catalog("zh")["table.refs_learned"].format(n=0)]
    _photo(b, paint(odd_blue=44))
    assert _odd(b).code == "7s"
    plain = services.read_photo(paint(odd_blue=44))  # no references
    assert sorted(d.tile for d in plain.result.detections).count("8s") == 0

    at.segmented_control(key="page").set_value("score")  # this session, from the table to the score page
    at.run()
    _photo(at, paint(odd_blue=44))
    assert _odd(at).code == "7s"  # the score page reads as without the table's set
    assert _read_with(at) == []


def test_undo_takes_the_hands_references_back(models):
    store = open_store()
    code = store.create_table(Table("jiujiang", SEATS)).table.code
    at = _open(code)
    _photo(at, paint(odd_blue=40))
    hand: EditHand = at.session_state.hip.hand
    i = next(k for k, t in enumerate(hand.concealed) if t is _odd(at))
    at.session_state.hip.hand = hand.with_tile(Selection(i), "8s")
    at.run()
    at.segmented_control(key="tw_winner").set_value(0)
    at.run()
    at.button(key="tb_record").click()
    at.run()
    assert R.ref_state(store, code)[0] == 26  # 13 tiles: an embedding and a face template each
    at.button(key="tb_undo").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert R.ref_state(store, code) == (0, 0) and store.get(code).hands == ()


def test_photo_boxes_once_per_face_up_box():
    from vision.detection import Detection, DetectResult

    dets = [
        Detection((0, 0, 10, 10), "1m", 0.9),
        Detection((10, 0, 20, 10), "back", 0.9, face_down=True),
        Detection((20, 0, 30, 10), "9s", 0.9),
        Detection((30, 0, 40, 10), "5p", 0.9),
    ]
    result = DetectResult(100, 100, dets)
    hand = EditHand(
        concealed=(EditTile("1m", 0.9, 0), EditTile("6p", 0.9, 3), EditTile("6p", 0.9, 3), EditTile("2m")),
    )
    assert TR.photo_boxes(hand, result) == [((0.0, 0.0, 10.0, 10.0), "1m"), ((30.0, 0.0, 40.0, 10.0), "6p")]
    kong = EditHand(concealed=(EditTile("9s", 0.9, 1), EditTile("9s", 0.9, 2), EditTile("3m", 0.9, 3),
                               EditTile("4m", 0.9, 3)))  # fmt: skip
    assert TR.photo_boxes(kong, result) == [((20.0, 0.0, 30.0, 10.0), "9s")]  # a back; a box named twice


def test_refset_leaves_out_unknown_codes_and_other_widths():
    classes = ["1m", "2m", "none"]
    stored = [
        R.TableRef("1m", "m", 2, np.array([[3, 4]], "<f4").tobytes()),
        R.TableRef("2m", "m", 2, np.array([[1, 0], [0, 1]], "<f4").tobytes()),
        R.TableRef("?", "m", 2, np.array([[1, 0]], "<f4").tobytes()),
        R.TableRef("1m", "m", 3, np.array([[1, 0, 0]], "<f4").tobytes()),
    ]
    refset = TR.to_refset(stored, classes)
    assert refset.count == 2 and refset.labels.tolist() == [0, 1, 1]
    assert np.allclose(refset.embeddings, [[0.6, 0.8], [1, 0], [0, 1]])
    assert TR.to_refset([], classes) is None


def test_winners_on_one_discard_are_learned_with_the_hand(models):
    store = open_store()
    code = store.create_table(Table("jiujiang", SEATS)).table.code
    at = _open(code)
    _photo(at, paint(odd_blue=40))
    hand: EditHand = at.session_state.hip.hand
    i = next(k for k, t in enumerate(hand.concealed) if t is _odd(at))
    at.session_state.hip.hand = hand.with_tile(Selection(i), "8s")
    at.run()
    at.segmented_control(key="tw_winner").set_value(1)
    at.run()
    at.segmented_control(key="tw_how").set_value(2)
    at.run()
    at.button(key="tb_more").click()  # 一炮多响: another winner on 王五's discard
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert R.ref_state(store, code) == (0, 0)  # nothing kept before the hand is recorded
    at.text_input(key="typed").input("111m456p678s55s13p2p")  # the second winner's, typed: on the same 2p
    at.button(key="btn_typed").click()
    at.run()
    at.segmented_control(key="tw_winner").set_value(3)
    at.run()
    at.segmented_control(key="tw_how").set_value(2)
    at.run()
    at.button(key="tb_record").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert [len(h.winners) for h in store.get(code).hands] == [2]
    assert R.ref_state(store, code)[0] == 26  # the first winner's 13 photo tiles (embedding + face)


def test_a_table_that_learned_another_set_reads_a_plain_photo_as_without(models):
    """References of another set (every tile greener and bluer) kept and read back through the
    store: a photo of an ordinary set reads exactly as without them."""
    img = VT.paint_scene(*SIZE, [])
    for (x0, y0, x1, y1), code in SCENE:
        img[round(y0) : round(y1), round(x0) : round(x1)] = (VT.tile_colour(code)[0], 200, 200)
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, "PNG")
    reader = services._reader()[0]
    made = TR.embed(reader, buf.getvalue(), [(box, code) for box, code in SCENE if code != "back"])
    store = open_store()
    code = store.create_table(Table("jiujiang", SEATS)).table.code
    assert R.add_refs(store, code, 1, made) == 2 * (len(SCENE) - 2)  # an embedding and a face each
    faces = R.table_refs(store, code, FACE_KEY)
    refset = TR.to_refset(R.table_refs(store, code, TR.model_key(reader)), reader.classifier.classes, faces)
    assert refset is not None and refset.faces is not None and len(refset.faces) == len(SCENE) - 2
    plain = VT.paint_scene(*SIZE, SCENE)
    buf = io.BytesIO()
    Image.fromarray(plain).save(buf, "PNG")
    a, b = services.read_photo(buf.getvalue()), services.read_photo(buf.getvalue(), refs=refset)
    assert [(d.tile, d.uncertain) for d in b.result.detections] == [
        (d.tile, d.uncertain) for d in a.result.detections
    ]
    assert sorted(d.tile for d in a.result.detections) == sorted(c for _, c in SCENE)


def inked(odd_as_7s: bool) -> bytes:
    """The scene with each tile's code written on it in an ink of the tile's own red (the stand-in
    model sees the red level only); the 8s painted with the 7s's red when `odd_as_7s`."""
    import cv2

    img = VT.paint_scene(*SIZE, [])
    for k, ((x0, y0, x1, y1), code) in enumerate(SCENE):
        r = VT.tile_colour("7s" if (k == ODD and odd_as_7s) else code)[0]
        tile = np.empty((round(y1) - round(y0), round(x1) - round(x0), 3), np.uint8)
        tile[:] = (r, 255, 255)
        h, w = tile.shape[:2]
        font = cv2.FONT_HERSHEY_SIMPLEX
        cv2.putText(tile, code[0], (w // 5, h // 2), font, w / 40, (r, 0, 0), max(2, w // 12))
        cv2.putText(tile, code[1:], (w // 4, h - h // 8), font, w / 60, (r, 0, 0), max(2, w // 16))
        img[round(y0) : round(y1), round(x0) : round(x1)] = tile
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, "PNG")
    return buf.getvalue()


def test_the_tables_face_templates_read_a_fixed_tile_right_where_the_embedding_cannot(models):
    """The 8s printed with the 7s's red: its embedding is a 7s's, its face is not."""
    reader = services._reader()[0]
    made = TR.embed(reader, inked(True), [(box, code) for box, code in SCENE if code != "back"])
    store = open_store()
    code = store.create_table(Table("jiujiang", SEATS)).table.code
    R.add_refs(store, code, 1, made)
    stored = R.table_refs(store, code, TR.model_key(reader))
    with_faces = TR.to_refset(stored, reader.classifier.classes, R.table_refs(store, code, FACE_KEY))
    without = TR.to_refset(stored, reader.classifier.classes)
    x0 = SCENE[ODD][0][0]

    def odd(refset) -> str:
        result = services.read_photo(inked(True), refs=refset).result
        return next(d.tile for d in result.detections if abs(d.xyxy[0] - x0) < 2)

    assert odd(None) == "7s" and odd(without) == "7s"
    assert odd(with_faces) == "8s"
