"""The tile reader end to end on stand-in ONNX models, and its pieces (letterbox, decoding, NMS)."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from tests.vision.conftest import SCENE_SIZE, encode
from vision import ImageError, ModelError, ReaderConfig, TileReader, get_reader, testing
from vision.boxes import Letterbox, cut_crops, decode_localizer, letterbox


def codes(result):
    return [d.tile for d in result.detections]


def scene_codes_in_reading_order(scene):
    """Tile codes of the scene in reading order: top row left to right, then bottom row."""
    rows = sorted({round(xyxy[3]) for xyxy, _ in scene})
    return [code for r in rows for xyxy, code in sorted(scene, key=lambda t: t[0][0]) if round(xyxy[3]) == r]


# -- pieces ----------------------------------------------------------------------------------


def test_letterbox_centres_and_pads_with_114():
    img = np.full((100, 200, 3), 255, np.uint8)
    blob, lb = letterbox(img, (64, 64))
    assert blob.shape == (1, 3, 64, 64) and blob.dtype == np.float32
    assert lb.ratio == pytest.approx(0.32) and lb.left == 0 and lb.top == 16
    assert blob[0, :, 0, 0] == pytest.approx(114 / 255)
    assert blob[0, :, 32, 32] == pytest.approx(1.0)
    assert blob[0, :, 63, 32] == pytest.approx(114 / 255)


def test_letterbox_matches_the_stand_in_geometry():
    r, left, top = testing.letterbox_geometry(1600, 1200, 128)
    _, lb = letterbox(np.zeros((1200, 1600, 3), np.uint8), (128, 128))
    assert (lb.ratio, lb.left, lb.top) == (pytest.approx(r), left, top)


def yolo_output(boxes_cxcywh, scores, n_classes=2):
    out = np.zeros((1, 4 + n_classes, len(boxes_cxcywh)), np.float32)
    for k, (b, s) in enumerate(zip(boxes_cxcywh, scores, strict=True)):
        out[0, :4, k] = b
        out[0, 4:, k] = s
    return out


def test_decode_localizer_maps_back_through_the_letterbox_and_applies_nms():
    lb = Letterbox(ratio=0.5, left=10, top=20)
    out = yolo_output(
        [(60, 70, 20, 40), (61, 70, 20, 40), (200, 70, 20, 40), (300, 300, 10, 10)],
        [(0.9, 0.1), (0.8, 0.0), (0.05, 0.7), (0.1, 0.2)],
    )
    xyxy, scores, cls = decode_localizer(out, 2, lb, (1000, 1000), 0.35, 0.5, 100)
    assert len(xyxy) == 2  # the near-duplicate is suppressed, the weak box dropped
    assert xyxy[0] == pytest.approx([80, 60, 120, 140])  # ((60-10)-10)/0.5 ...
    assert scores.tolist() == pytest.approx([0.9, 0.7])
    assert cls.tolist() == [0, 1]


def test_decode_localizer_accepts_transposed_layout_and_rejects_others():
    lb = Letterbox(1.0, 0, 0)
    out = yolo_output([(50, 50, 10, 20)], [(0.9, 0.0)])
    a = decode_localizer(out, 2, lb, (100, 100), 0.35, 0.5, 10)
    b = decode_localizer(out.transpose(0, 2, 1), 2, lb, (100, 100), 0.35, 0.5, 10)
    assert np.allclose(a[0], b[0])
    with pytest.raises(ModelError, match="shape"):
        decode_localizer(np.zeros((1, 9, 5), np.float32), 2, lb, (100, 100), 0.35, 0.5, 10)


def test_decode_localizer_empty_and_clipped():
    lb = Letterbox(1.0, 0, 0)
    out = yolo_output([(5, 5, 30, 30)], [(0.9, 0.0)])
    xyxy, _, _ = decode_localizer(out, 2, lb, (100, 100), 0.35, 0.5, 10)
    assert xyxy[0].tolist() == [0, 0, 20, 20]
    none = decode_localizer(np.zeros((1, 6, 0), np.float32), 2, lb, (100, 100), 0.35, 0.5, 10)
    assert len(none[0]) == 0


def test_cut_crops_turns_sideways_boxes_both_ways():
    img = np.zeros((100, 100, 3), np.uint8)
    img[10:40, 10:50] = 200  # a sideways tile 40 wide, 30 tall
    batch, rotated, owner = cut_crops(
        img, np.array([[10, 10, 50, 40], [60, 10, 80, 40]], np.float32), (32, 24)
    )
    assert batch.shape == (3, 3, 32, 24)
    assert rotated.tolist() == [True, False]
    assert owner == [0, 0, 1]
    assert batch[0].mean() == pytest.approx(200 / 255, abs=0.01)


# -- end to end ------------------------------------------------------------------------------


def test_reads_the_scene_exactly(reader, scene, scene_pixels):
    result = reader.detect(scene_pixels)
    assert codes(result) == scene_codes_in_reading_order(scene)
    assert (result.width, result.height) == SCENE_SIZE
    for d in result.detections:  # boxes come back in image pixels
        match = [xy for xy, c in scene if np.allclose(xy, d.xyxy, atol=2.0)]
        assert match, d
        assert 0 <= d.conf <= 1
        assert d.face_down == (d.tile == "back")
    assert sum(d.rotated for d in result.detections) == 1
    kinds = [g.kind_guess for g in result.groups]
    assert kinds == ["pung", "concealed_kong", "bonus", "hand", "winning_tile"]
    assert set(result.timing_ms) == {"decode", "detect", "classify"}


def test_json_follows_the_contract(reader, scene_pixels):
    j = json.loads(json.dumps(reader.detect(scene_pixels).to_json()))
    assert set(j) == {"image", "detections", "groups", "timing_ms", "rejected"}
    assert j["rejected"] == []
    d = j["detections"][0]
    assert set(d) == {
        "xyxy",
        "tile",
        "conf",
        "face_down",
        "rotated",
        "uncertain",
        "off_row",
        "role",
        "second",
    }
    assert all(e["second"] is None or e["second"] != e["tile"] for e in j["detections"])
    x0, y0, x1, y1 = d["xyxy"]
    assert x0 < x1 and y0 < y1
    assert all(0 <= i < len(j["detections"]) for g in j["groups"] for i in g["tiles"])


def test_jpeg_decoded_at_reduced_size_still_reports_full_size_boxes(reader, scene, scene_pixels):
    data = encode(scene_pixels, "JPEG", quality=97, subsampling=0)
    cfg = ReaderConfig(decode_min_side=800)
    small = TileReader(reader.directory, cfg)
    result = small.read(data)
    assert (result.width, result.height) == SCENE_SIZE
    assert len(result.detections) == len(scene)
    for d in result.detections:
        assert any(np.allclose(xy, d.xyxy, atol=4.0) for xy, _ in scene)
    # JPEG shifts the stand-in's colour code a little; what matters is that the reduced
    # decode reads what a full-resolution decode of the same file reads
    full = TileReader(reader.directory, ReaderConfig(decode_min_side=0)).read(data)
    agree = sum(a == b for a, b in zip(codes(result), codes(full), strict=True))
    assert agree >= len(scene) - 1


def test_small_tiles_are_cropped_from_a_decode_at_the_scale_they_need(reader, scene_pixels, monkeypatch):
    data = encode(scene_pixels, "PNG")
    calls = []
    import vision.views as rd

    real = rd.open_image

    def spy(source, **kw):
        loaded = real(source, **kw)
        calls.append(loaded.scale)
        return loaded

    monkeypatch.setattr(rd, "open_image", spy)
    from vision.image import LoadedImage

    # pretend the photo was decoded at 1/8: tiles are then ~9 px wide, < the classifier's 32
    px = scene_pixels[::8, ::8].copy()
    loaded = LoadedImage(px, SCENE_SIZE[0], SCENE_SIZE[1], scale=px.shape[1] / SCENE_SIZE[0], source=data)
    result = reader.detect(loaded)
    # one extra decode, at the coarsest scale where they are wide enough: ~72 px at full size,
    # 36 at 1/2 (>= 32), 18 at 1/4
    assert calls == [0.5]
    assert len(result.detections) > 0


def test_dark_photo_without_tiles_gives_an_empty_result(reader):
    result = reader.detect(np.full((900, 1200, 3), 40, np.uint8))
    assert result.detections == [] and result.groups == []
    assert result.to_json()["detections"] == []


def test_rejects_arrays_that_are_not_rgb(reader):
    with pytest.raises(ImageError):
        reader.detect(np.zeros((100, 100), np.uint8))
    with pytest.raises(ImageError):
        reader.detect(np.zeros((100, 100, 3), np.float32))


def test_one_reader_many_threads(reader, scene_pixels):
    want = codes(reader.detect(scene_pixels))
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda _: codes(reader.detect(scene_pixels)), range(8)))
    assert all(g == want for g in got)


def test_get_reader_is_cached_and_thread_safe(models_dir):
    seen = []
    barrier = threading.Barrier(4)

    def grab():
        barrier.wait()
        seen.append(get_reader(models_dir))

    threads = [threading.Thread(target=grab) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({id(r) for r in seen}) == 1
    assert get_reader(models_dir) is seen[0]


def test_models_dir_from_environment(models_dir, monkeypatch):
    from vision import models_dir as find

    monkeypatch.setenv("JXMJ_MODELS_DIR", str(models_dir))
    assert find() == models_dir.resolve()


def test_missing_models_give_a_clear_error(tmp_path):
    with pytest.raises(ModelError, match=r"localizer\.onnx.*JXMJ_MODELS_DIR"):
        TileReader(tmp_path)


def test_models_without_metadata_or_with_the_wrong_task_are_refused(tmp_path):
    testing.build_localizer(tmp_path / "localizer.onnx", [(0, 0, 10, 10)], image_size=(100, 100))
    testing.build_classifier(tmp_path / "classifier.onnx", meta_override={"task": "localize"})
    with pytest.raises(ModelError, match="task"):
        TileReader(tmp_path)
    testing.build_classifier(tmp_path / "classifier.onnx", meta_override={"classes": ["1m", "zz"]})
    with pytest.raises(ModelError, match="unknown classifier classes"):
        TileReader(tmp_path)
    (tmp_path / "classifier.onnx").write_bytes(b"not onnx")
    with pytest.raises(ModelError, match="cannot load"):
        TileReader(tmp_path)


def test_sizes_and_classes_come_from_metadata(tmp_path, scene, scene_pixels):
    testing.build_localizer(
        tmp_path / "localizer.onnx", [xy for xy, _ in scene], image_size=SCENE_SIZE, size=96
    )
    testing.build_classifier(tmp_path / "classifier.onnx", size=(40, 30))
    r = TileReader(tmp_path)
    assert r.localizer.input_size == (96, 96) and r.classifier.input_size == (40, 30)
    assert len(r.detect(scene_pixels).detections) == len(scene)


def test_classifier_with_the_wrong_number_of_classes_is_refused(tmp_path, scene, scene_pixels):
    testing.build_localizer(tmp_path / "localizer.onnx", [xy for xy, _ in scene], image_size=SCENE_SIZE)
    testing.build_classifier(tmp_path / "classifier.onnx", meta_override={"classes": ["1m", "2m"]})
    with pytest.raises(ModelError, match="classifier output has shape"):
        TileReader(tmp_path).detect(scene_pixels)


def test_a_shifted_duplicate_with_low_iou_is_dropped_but_neighbours_stay():
    lb = Letterbox(1.0, 0, 0)
    # a tile, a smaller duplicate inside it (IoU 0.42), and a neighbour touching it
    out = yolo_output(
        [(100, 100, 60, 80), (110, 95, 36, 56), (160, 100, 60, 80)],
        [(0.9, 0.0), (0.5, 0.0), (0.8, 0.0)],
    )
    xyxy, _, _ = decode_localizer(out, 2, lb, (400, 400), 0.3, 0.45, 10, containment_threshold=0.8)
    assert len(xyxy) == 2
    assert xyxy[:, 0].tolist() == pytest.approx([70, 130])
    plain, _, _ = decode_localizer(out, 2, lb, (400, 400), 0.3, 0.45, 10)
    assert len(plain) == 3


def test_get_reader_reloads_replaced_models(tmp_path, scene):
    import os

    testing.build_models(tmp_path, scene, SCENE_SIZE)
    first = get_reader(tmp_path)
    assert get_reader(tmp_path) is first
    testing.build_classifier(tmp_path / "classifier.onnx", size=(40, 30))
    st = (tmp_path / "classifier.onnx").stat()
    os.utime(tmp_path / "classifier.onnx", ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    second = get_reader(tmp_path)
    assert second is not first and second.classifier.input_size == (40, 30)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("conf_threshold", 0.0, "conf_threshold must lie in 0.01..0.99, got 0.0"),
        ("conf_threshold", 1e-320, "conf_threshold must lie in 0.01..0.99, got 1e-320"),
        ("conf_threshold", float("nan"), "conf_threshold must lie in 0.01..0.99, got nan"),
        ("conf_threshold", "0.3", "conf_threshold must lie in 0.01..0.99, got '0.3'"),
        ("iou_threshold", 0.0, "iou_threshold must lie in 0.1..0.9, got 0.0"),
        ("iou_threshold", 1.0, "iou_threshold must lie in 0.1..0.9, got 1.0"),
        ("containment_threshold", 0.0, "containment_threshold must lie in 0.1..1, got 0.0"),
        ("max_detections", 0, "max_detections must lie in 1..10000, got 0"),
        ("max_detections", 2.5, "max_detections must lie in 1..10000, got 2.5"),
        ("max_detections", True, "max_detections must lie in 1..10000, got True"),
    ],
)
def test_reader_config_refuses_a_threshold_that_keeps_everything_or_nothing(field, value, message):
    with pytest.raises(ValueError) as e:
        ReaderConfig(**{field: value})
    assert str(e.value) == message


def test_reader_config_takes_the_ends_of_each_range():
    from vision.boxes import LIMITS

    for field, (lo, hi) in LIMITS.items():
        assert getattr(ReaderConfig(**{field: lo}), field) == lo
        assert getattr(ReaderConfig(**{field: hi}), field) == hi


def test_sessions_keep_no_memory_arena():
    """Issue 37: ONNX Runtime's CPU arena keeps the peak of the reads made at once for good;
    without it a burst's tensors go back when freed."""
    from vision.modelfiles import session_options

    assert session_options().enable_cpu_mem_arena is False
    assert session_options(2).enable_cpu_mem_arena is False
