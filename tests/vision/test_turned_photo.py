"""A photo turned 90° without EXIF (a phone held sideways, the orientation tag lost on the way):
the hand runs down the photo. It is read again turned upright (`vision.turned`), its boxes turned
back into the photo's pixels: the same tiles, groups and sideways tiles as the upright photo."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from vision import TileReader
from vision.image import LoadedImage
from vision.modelfiles import CLASSIFIER_FILE, models_dir
from vision.turned import read_upright, turn_back

SAMPLE = Path(__file__).resolve().parents[2] / "app" / "assets" / "sample_hand.jpg"
needs_models = pytest.mark.skipif(
    not (models_dir() / CLASSIFIER_FILE).is_file(), reason="needs the shipped models in models/"
)
TURNS = {"clockwise": cv2.ROTATE_90_CLOCKWISE, "anticlockwise": cv2.ROTATE_90_COUNTERCLOCKWISE}


@pytest.fixture(scope="module")
def reader() -> TileReader:
    return TileReader(models_dir())


@pytest.fixture(scope="module")
def upright(reader):
    return reader.read(SAMPLE)


def summary(result) -> tuple:
    """What a player sees of a reading: the hand's tiles in order, the groups, the sideways tiles."""
    hand = [d.tile for d in result.detections if d.role == "hand"]
    groups = [(len(g.tiles), g.kind_guess) for g in result.groups]
    return hand, groups, [d.tile for d in result.detections if d.rotated]


@needs_models
@pytest.mark.parametrize("turn", list(TURNS))
def test_a_turned_photo_reads_as_the_upright_one(reader, upright, turn):
    image = cv2.imread(str(SAMPLE))
    turned = reader.read(cv2.imencode(".jpg", cv2.rotate(image, TURNS[turn]))[1].tobytes())
    assert summary(turned) == summary(upright)
    assert (turned.width, turned.height) == (upright.height, upright.width)
    for d in turned.detections:  # the boxes in the turned photo's pixels: standing tiles lie wide
        x0, y0, x1, y1 = d.xyxy
        assert 0 <= x0 < x1 <= turned.width and 0 <= y0 < y1 <= turned.height
        assert x1 - x0 > y1 - y0


@needs_models
def test_an_upright_photo_is_read_once(reader, upright):
    calls = []

    def detect(loaded: LoadedImage):
        calls.append(loaded.pixels.shape)
        return reader._detect(loaded, None, True)

    rgb = cv2.cvtColor(cv2.imread(str(SAMPLE)), cv2.COLOR_BGR2RGB)
    assert summary(read_upright(detect, LoadedImage.from_array(rgb))) == summary(upright)
    assert calls == [rgb.shape]
    assert [len(g.tiles) for g in upright.groups] == [6, 3, 4, 1] and not summary(upright)[2]


def test_boxes_turn_back_into_the_photo_either_way():
    box = (10.0, 20.0, 30.0, 60.0)  # in the upright photo, 100 wide x 200 tall
    assert turn_back(box, (200, 100), 1) == (140.0, 10.0, 180.0, 30.0)
    assert turn_back(box, (200, 100), -1) == (20.0, 70.0, 60.0, 90.0)
    upright = cv2.rotate(cv2.imread(str(SAMPLE)), cv2.ROTATE_90_CLOCKWISE)  # 1200 x 1600, upright
    photo = cv2.rotate(upright, cv2.ROTATE_90_COUNTERCLOCKWISE)  # as it came: turned back, anticlockwise
    x0, y0, x1, y1 = turn_back((100.0, 200.0, 180.0, 300.0), (photo.shape[1], photo.shape[0]), -1)
    assert (
        upright[200:300, 100:180]
        == cv2.rotate(photo[int(y0) : int(y1), int(x0) : int(x1)], cv2.ROTATE_90_CLOCKWISE)
    ).all()
