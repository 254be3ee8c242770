"""Dark faces (`vision.face_polarity`): a black set is read through its inverted photo; a light
face, a back, a face in shadow, one with dark-green dots or in a loose box never turns."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from vision import ReaderConfig, TileReader
from vision.face_polarity import dark_face, dark_photo, light_face, polarity

IVORY = (238, 234, 222)


def face(code: str, kind: str, body=IVORY, seed: int = 0) -> np.ndarray:
    """A tile's box `(100, 75, 3)` RGB: `code` drawn by `datasets.world_styles` in `kind` on `body`."""
    from datasets.world_styles import world_face

    art = world_face(code, np.random.default_rng(seed), None, kind)
    canvas = Image.new("RGB", (300, 400), body)
    canvas.paste(art, (0, 0), art)
    return np.asarray(canvas.resize((75, 100), Image.Resampling.LANCZOS))


def black_set(code: str, kind: str) -> np.ndarray:
    """The same face as a black set prints it: the light face inverted (gold / white ink on black)."""
    return light_face(face(code, kind))


FACES = [("5p", "dot_ink"), ("8p", "dot_ink"), ("4s", "bamboo_ink"), ("8s", "bamboo_ink")]


@pytest.mark.parametrize(("code", "kind"), FACES)
def test_a_black_face_is_dark_and_its_light_face_is_not(code, kind):
    assert polarity(black_set(code, kind)) == 1
    assert polarity(face(code, kind)) == -1
    assert dark_face(black_set(code, kind)) and not dark_face(face(code, kind))


def test_a_back_a_shadowed_face_and_dark_green_dots_are_not_dark():
    back = np.zeros((100, 75, 3), np.uint8)
    back[:] = (20, 70, 45)  # a dark-green back: no ink at all
    back[:8] = IVORY  # the cream layer of a standing tile's back, at its rim
    assert polarity(back) == 0
    shadowed = (face("6p", "dot_ink").astype(np.float32) * 0.38).astype(np.uint8)  # body ~ 88 grey
    assert np.median(shadowed.mean(axis=2)) < 100
    assert polarity(shadowed) == -1
    green = face("4p", "dot_ink", seed=3)
    assert polarity(green) == -1


def test_a_light_face_in_a_loose_box_on_a_dark_table_is_not_dark():
    box = np.zeros((130, 100, 3), np.uint8)
    box[:] = (25, 30, 28)  # the table around the tile
    box[15:115, 12:87] = face("3s", "bamboo_ink")
    assert polarity(box) != 1


def scene_with_ink(scene, pixels: np.ndarray) -> np.ndarray:
    """The stand-in scene with a dark stroke in each tile's centre of the tile's own red (the
    stand-in classifier reads only the red of a crop's centre, so the codes stay the same)."""
    out = pixels.copy()
    for (x0, y0, x1, y1), _code in scene:
        w, h = x1 - x0, y1 - y0
        a, b = round(x0 + 0.42 * w), round(y0 + 0.25 * h)
        out[b : round(b + 0.5 * h), a : round(a + 0.16 * w), 1:] = 0  # red kept, green and blue 0
    return out


def test_dark_photo_counts_faces_that_vote(scene, scene_pixels):
    xyxy = np.array([xyxy for xyxy, _ in scene], np.float32)
    up = np.array([code != "back" for _, code in scene])
    inked = scene_with_ink(scene, scene_pixels)
    assert not dark_photo(inked, xyxy, up)
    assert dark_photo(light_face(inked), xyxy, up)
    assert not dark_photo(light_face(inked), xyxy[:1], up[:1])  # one face never turns a photo


def test_the_reader_reads_a_black_set_inverted(models_dir, scene, scene_pixels, monkeypatch):
    """A localiser that finds the dark tiles (the stand-in sees only light boxes: it is told them);
    the classifier then reads the inverted faces, which are the stand-in scene's."""
    black = light_face(scene_with_ink(scene, scene_pixels))
    boxes = np.array([xyxy for xyxy, _ in scene], np.float32)
    ids = np.array([1 if code == "back" else 0 for _, code in scene])

    def found(reader):
        real = reader._first_pass

        def first_pass(pix, weak=None):  # `weak`: the boxes under the cut (`vision.row_ends`)
            if np.array_equal(pix, black):  # the dark photo: the tiles a real localiser finds there
                return boxes.copy(), np.full(len(boxes), 0.9, np.float32), ids.copy()
            return real(pix, weak)

        monkeypatch.setattr(reader, "_first_pass", first_pass)
        return reader

    light = TileReader(models_dir).detect(scene_pixels)
    on = found(TileReader(models_dir)).detect(black)
    off = found(TileReader(models_dir, ReaderConfig(dark_faces=False))).detect(black)
    want = sorted(d.tile for d in light.detections)
    assert sorted(d.tile for d in on.detections) == want
    assert sorted(d.tile for d in off.detections) != want


def test_references_of_a_black_set_are_embedded_as_its_photos_are_read(tmp_path, scene, scene_pixels):
    """A reference photo of dark faces is embedded through its inverted photo, as `detect` reads
    the next photo of that set: its rows are those of the light photo's references."""
    from tests.vision.conftest import SCENE_SIZE
    from vision import testing
    from vision.refs import Ref

    d = tmp_path / "models"
    testing.build_localizer(d / "localizer.onnx", [b for b, _ in scene], image_size=SCENE_SIZE)
    testing.build_classifier(d / "classifier.onnx", embedding=True)
    inked = scene_with_ink(scene, scene_pixels)
    Image.fromarray(inked).save(tmp_path / "light.png")
    Image.fromarray(light_face(inked)).save(tmp_path / "black.png")
    faces = [(xyxy, code) for xyxy, code in scene if code != "back"]

    def embed(name: str, config: ReaderConfig):
        return TileReader(d, config).embed_refs([Ref(tmp_path / name, xyxy, code) for xyxy, code in faces])

    light = embed("light.png", ReaderConfig())
    black = embed("black.png", ReaderConfig())
    np.testing.assert_allclose(black.embeddings, light.embeddings, atol=1e-5)
    assert not np.allclose(
        embed("black.png", ReaderConfig(dark_faces=False)).embeddings, light.embeddings, atol=1e-2
    )


def test_the_boxes_of_a_photo_are_measured_together_as_each_alone(monkeypatch):
    """Issue 37: `box_polarity` measures a photo's faces in one batch (not one median and two
    means per box in Python); each box's polarity is still its own, dark, light or neither, a
    box cut by the photo's edge or too small to measure included."""
    from vision import face_polarity

    faces = (
        [black_set(c, k) for c, k in FACES]
        + [face(c, k) for c, k in FACES]
        + [np.zeros((100, 75, 3), np.uint8)]
    )
    photo = np.full((120, 75 * len(faces) + 40, 3), 90, np.uint8)
    boxes = []
    for i, f in enumerate(faces):
        photo[10:110, 20 + 75 * i : 95 + 75 * i] = f
        boxes.append((20 + 75 * i, 10, 95 + 75 * i, 110))
    boxes += [(-30, -5, 50, 60), (5, 5, 9, 9), (photo.shape[1] - 40, 0, photo.shape[1] + 50, 200)]
    batches = []
    real = face_polarity._polarities
    monkeypatch.setattr(face_polarity, "_polarities", lambda greys: batches.append(len(greys)) or real(greys))
    got = face_polarity.box_polarity(photo, np.array(boxes, np.float64))
    assert batches == [len(boxes) - 1]  # one batch; the 4 x 4 box is too small to measure
    alone = [polarity(photo[max(y0, 0) : y1, max(x0, 0) : x1]) for x0, y0, x1, y1 in boxes]
    assert got.tolist() == alone and alone[:9] == [1, 1, 1, 1, -1, -1, -1, -1, 0]
