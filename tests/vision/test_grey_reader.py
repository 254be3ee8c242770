"""The grey reader (`vision.grey_reader`): a tile it reads surely as another tile is flagged, its
reading the runner-up; 萬 tiles (the text reader's), face-down and already flagged tiles are
never looked at; a weak, `none` or back grey reading flags nothing; its model missing reads as
before and a damaged one is a coded error."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision import ReaderConfig
from vision.detection import Detection
from vision.grey_pass import grey_check
from vision.grey_reader import (
    GREY_FLAG_P,
    GREY_MODEL_FILE,
    GREY_RENAME_P,
    GreyModelError,
    GreyReader,
    GreyView,
    checked,
    flag_by_grey,
    suit_of,
)
from vision.modelfiles import ModelError, models_dir
from vision.reader import TileReader
from vision.testing import CLASS_CODES, build_classifier, build_localizer, paint_scene


def view(name: str, p: float, **others: float) -> GreyView:
    """A grey reading of `name` at `p`, the other classes at `others` (the rest shared evenly)."""
    classes = tuple(CLASS_CODES)
    rest = (1.0 - p - sum(others.values())) / max(1, len(classes) - 1 - len(others))
    probs = np.array([p if c == name else others.get(c, rest) for c in classes], np.float32)
    return GreyView(name, p, probs, classes)


def det(tile: str, uncertain: bool = False, face_down: bool = False, x: float = 0.0) -> Detection:
    return Detection((x, 0.0, x + 60.0, 80.0), tile, 0.9, face_down=face_down, uncertain=uncertain)


@pytest.mark.parametrize(
    "tile, kind, looked_at",
    [
        ("6s", "s", True),
        ("4p", "p", True),
        ("C", "z", True),
        ("E", "z", True),
        ("flower", "f", True),
        ("3m", "m", False),  # the text reader's
        ("back", "x", False),
    ],
)
def test_the_kinds_looked_at(tile, kind, looked_at):
    assert suit_of(tile) == kind
    assert checked(det(tile, face_down=tile == "back")) is looked_at


def test_a_face_down_tile_is_not_looked_at_a_flagged_one_is():
    assert not checked(det("back", face_down=True))
    assert checked(det("6s", uncertain=True))


@pytest.mark.parametrize(
    "p, runner_up, tile, uncertain, second",
    [
        (GREY_RENAME_P, "4s", "9s", True, "6s"),  # sure: the grey reading, the colour one its runner-up
        (GREY_RENAME_P, "9s", "9s", False, "6s"),  # flagged 9s by another signal too: both name it
        (GREY_RENAME_P - 0.01, "4s", "6s", True, "4s"),  # flagged already: as it was
    ],
)
def test_a_flagged_tile_is_only_renamed(p, runner_up, tile, uncertain, second):
    d = Detection((0.0, 0.0, 60.0, 80.0), "6s", 0.5, uncertain=True, second=runner_up)
    out, at = flag_by_grey([d], [view("9s", p)])
    assert at == ([0] if tile != "6s" else [])
    assert (out[0].tile, out[0].uncertain, out[0].second) == (tile, uncertain, second)


@pytest.mark.parametrize(
    "tile, grey, p, flagged",
    [
        ("6s", "9s", 0.8, True),  # a sure other reading: flagged, the grey reading its runner-up
        ("C", "F", GREY_FLAG_P, True),  # at the bar
        ("5p", "5s", GREY_FLAG_P - 0.01, False),  # under it
        ("6s", "6s", 0.99, False),  # agreement
        ("6s", "none", 0.99, False),  # "not a tile" is not a tile to offer
        ("6s", "back", 0.99, False),
    ],
)
def test_the_rule(tile, grey, p, flagged):
    out, at = flag_by_grey([det(tile)], [view(grey, p)], rename_p=None)
    assert out[0].uncertain is flagged
    assert at == ([0] if flagged else [])
    assert out[0].second == (grey if flagged else None)
    assert out[0].tile == tile  # it never renames


@pytest.mark.parametrize(
    "p, runner_up, tile, uncertain, second",
    [
        (GREY_RENAME_P, None, "9s", True, "6s"),  # sure: the grey reading, the colour one its runner-up
        (GREY_RENAME_P, "4s", "9s", True, "6s"),
        (GREY_RENAME_P, "9s", "9s", False, "6s"),  # the colour's own runner-up: both name it
        (GREY_RENAME_P - 0.01, None, "6s", True, "9s"),  # flagged only
        (GREY_RENAME_P - 0.01, "9s", "6s", True, "9s"),
    ],
)
def test_a_sure_grey_reading_renames(p, runner_up, tile, uncertain, second):
    d = Detection((0.0, 0.0, 60.0, 80.0), "6s", 0.9, second=runner_up)
    out, at = flag_by_grey([d], [view("9s", p)])
    assert at == [0]
    assert (out[0].tile, out[0].uncertain, out[0].second) == (tile, uncertain, second)


def test_the_readings_follow_the_tiles_looked_at():
    dets = [det("3m"), det("6s", x=70), det("C", uncertain=True, x=140), det("7p", x=210)]
    views = [view("9s", 0.99), view("9s", 0.8), view("C", 0.99), view("7p", 0.99)]  # the 3m is not looked at
    out, at = flag_by_grey(dets, views)
    assert at == [1]
    assert [(d.tile, d.uncertain) for d in out] == [("3m", False), ("6s", True), ("C", True), ("7p", False)]


def test_without_views_or_a_bar_nothing_changes():
    dets = [det("6s")]
    pixels = np.zeros((100, 100, 3), np.uint8)
    seen = {dets[0].xyxy: view("9s", 0.99)}
    assert grey_check({}, dets, (pixels, 1.0), ReaderConfig()) == dets
    assert grey_check(seen, dets, (pixels, 1.0), ReaderConfig(grey_flag_p=None)) == dets
    assert grey_check(seen, dets, (pixels, 1.0), ReaderConfig())[0].tile == "9s"


SIZE = (1600, 1200)
CODES = ["2m", "4p", "6s", "E", "9m"]
TILES = [((100.0 + 130 * k, 500.0, 220.0 + 130 * k, 660.0), code) for k, code in enumerate(CODES)]


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    d = tmp_path_factory.mktemp("grey_models")
    build_localizer(d / "localizer.onnx", [b for b, _ in TILES], image_size=SIZE)
    build_classifier(d / "classifier.onnx")
    return d


def test_the_reader_flags_what_its_grey_reader_reads_otherwise(models, tmp_path):
    """The stand-in classifier reads a face's red; the same model as the grey reader reads the
    mean of its channels (`tile_colour`: red, 255, 255), so it reads 4p as E, 6s as C, E as F,
    surely: the dot, bamboo and honour tiles take its reading, flagged, the colour reading their
    runner-up (only flagged, their reading the runner-up, without renaming); the 萬 tiles are
    not looked at."""
    pixels = paint_scene(*SIZE, TILES)
    plain = TileReader(models).detect(pixels).detections
    assert [d.tile for d in plain] == [c for _, c in TILES]
    assert not any(d.uncertain for d in plain)
    for f in models.iterdir():
        (tmp_path / f.name).symlink_to(f)
    build_classifier(tmp_path / GREY_MODEL_FILE)
    reader = TileReader(tmp_path)
    assert reader.grey is not None
    renamed = reader.detect(pixels).detections
    flagged = TileReader(tmp_path, ReaderConfig(grey_rename_p=None)).detect(pixels).detections
    n = len(CLASS_CODES) - 1
    for d, f, before, (_, code) in zip(renamed, flagged, plain, TILES, strict=True):
        red = round(CLASS_CODES.index(code) * 255 / n)
        grey_code = CLASS_CODES[round((red + 510) / 3 / 255 * n)]
        assert (code, grey_code) in {("2m", "7s"), ("4p", "E"), ("6s", "C"), ("E", "F"), ("9m", "9s")}
        if suit_of(code) == "m":
            assert (d, f) == (before, before)
            continue
        assert (d.tile, d.uncertain, d.second) == (grey_code, True, code)
        assert (f.tile, f.uncertain, f.second) == (code, True, grey_code)
    off = TileReader(tmp_path, ReaderConfig(grey_flag_p=None)).detect(pixels).detections
    assert off == plain


def test_a_damaged_grey_model_is_a_coded_error(models, tmp_path):
    for f in models.iterdir():
        (tmp_path / f.name).symlink_to(f)
    (tmp_path / GREY_MODEL_FILE).write_bytes(b"\x08\x07not an onnx graph" * 50)
    with pytest.raises(GreyModelError) as err:
        TileReader(tmp_path)
    assert err.value.code == "grey_model_unreadable"
    assert isinstance(err.value, ModelError)


def test_a_grey_model_of_another_task_or_crop_is_a_coded_error(models, tmp_path):
    build_localizer(tmp_path / "loc.onnx", [b for b, _ in TILES], image_size=SIZE)
    with pytest.raises(GreyModelError) as err:
        GreyReader(tmp_path / "loc.onnx", (48, 32))
    assert err.value.code == "grey_model_contract"
    import onnx

    bare = onnx.load(str(build_classifier(tmp_path / "bare.onnx")))
    del bare.metadata_props[:]  # loads, but says nothing of its task, crops or classes
    onnx.save(bare, str(tmp_path / "bare.onnx"))
    with pytest.raises(GreyModelError) as err:
        GreyReader(tmp_path / "bare.onnx", (48, 32))
    assert err.value.code == "grey_model_contract"
    build_classifier(tmp_path / "small.onnx", size=(32, 24))
    with pytest.raises(GreyModelError) as err:
        GreyReader(tmp_path / "small.onnx", (48, 32))
    assert err.value.code == "grey_model_contract"
    assert "crops (32, 24)" in str(err.value)


SHIPPED = models_dir() / GREY_MODEL_FILE
ASSETS = Path(__file__).resolve().parents[2] / "app" / "assets"
FACES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + list("ESWNCFP")


def face_on_table(code: str) -> np.ndarray:
    """The bundled face of `code` (CC0 art, `app/assets/CREDITS.md`) on an ivory tile, on a dark
    table: BGR uint8, the face at (20, 20)."""
    import cv2

    im = cv2.imread(str(ASSETS / f"tile-{code}.png"), cv2.IMREAD_UNCHANGED)
    if im.shape[2] == 4:
        a = im[:, :, 3:4] / 255.0
        im = (im[:, :, :3] * a + 235 * (1 - a)).astype(np.uint8)
    h, w = im.shape[:2]
    out = np.full((h + 40, w + 40, 3), 40, np.uint8)
    out[20 : 20 + h, 20 : 20 + w] = im
    return out


@pytest.mark.skipif(not SHIPPED.is_file(), reason=f"needs {SHIPPED.name} in models/")
@pytest.mark.parametrize("ink", [None, "swap", "hue", "bold", "mono"])
def test_the_shipped_grey_reader_reads_every_face_in_any_ink(ink):
    """Every kind, as drawn and in the stand-ins' inks (`datasets.stand_ins`: channels swapped,
    hue turned, bold, one blue ink) is read right, at least at one half."""
    from datasets.stand_ins import recolour

    reader = GreyReader(SHIPPED, (64, 48))
    for code in FACES:
        bgr = face_on_table(code)
        bgr = recolour(bgr, ink) if ink else bgr
        h, w = bgr.shape[0] - 40, bgr.shape[1] - 40
        names, p = reader.read(
            np.ascontiguousarray(bgr[:, :, ::-1]), 1.0, np.array([[20, 20, 20 + w, 20 + h]]), 0.0
        )
        assert names == [code], (ink, code, names)
        assert p[0] >= 0.5, (ink, code, float(p[0]))


@pytest.mark.skipif(not SHIPPED.is_file(), reason=f"needs {SHIPPED.name} in models/")
def test_the_bundled_sample_reads_as_without_the_grey_reader():
    """A right tile is never flagged by it on the sample the app opens on (14 tiles, none flagged)."""
    with_grey = TileReader().read(ASSETS / "sample_hand.jpg").detections
    without = TileReader(config=ReaderConfig(grey_flag_p=None)).read(ASSETS / "sample_hand.jpg").detections
    assert len(with_grey) == 14
    assert [(d.tile, d.uncertain, d.second) for d in with_grey] == [
        (d.tile, d.uncertain, d.second) for d in without
    ]
