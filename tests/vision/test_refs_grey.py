"""References of the same set never drop a tile the reader keeps without them (issue 35,
"references of the same set help"): `vision.refmatch`'s veto sends a box the embedding blend
moved back to the reader's **plain** class — the whole plain call, its grey look
(`vision.grey_look`) included. On real_sets_dev R4 a riichi 赤五 read `none` by the colour views
and 5條 by the grey look lost its tile with the set's own references: the veto sent it back to
the colour views' `none`, and a `none` box is no tile.

A stand-in scene (`vision.testing`: a tile's red level is its class) with a classifier that knows
`none`: one tile painted so that its colour reads `none`, unsure, and its grey (the channels'
mean) a tile.
"""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

import vision.reader
from tests.vision.util import coded_tile
from vision import ReaderConfig, TileReader, testing
from vision.modelfiles import CLASS_CODES, NONE_CLASS
from vision.refs import Ref

CLASSES = [*CLASS_CODES[:10], NONE_CLASS, *CLASS_CODES[10:]]  # `none` between 1p and 2p
SIZE = (1600, 1200)
SCENE = [(b, c) for b, c in testing.hand_scene(*SIZE) if c not in ("back", "flower")]
ODD = next(k for k, (_, code) in enumerate(SCENE) if code == "8s")
# red at `none` + 0.4 (colour: `none` 0.46, unsure); green and blue make the grey mean a 9p
ODD_RGB = (round((CLASSES.index(NONE_CLASS) + 0.4) * 255 / (len(CLASSES) - 1)), 225, 225)


def painted() -> np.ndarray:
    """The scene, each tile's code written on it in an ink of its red (the faces have something
    to match); the odd tile in `ODD_RGB`."""
    img = testing.paint_scene(*SIZE, [], CLASSES)
    for k, ((x0, y0, x1, y1), code) in enumerate(SCENE):
        rgb = ODD_RGB if k == ODD else testing.tile_colour(code, CLASSES)
        tile = coded_tile((x0, y0, x1, y1), rgb, code)
        img[round(y0) : round(y1), round(x0) : round(x1)] = tile
    return img


@pytest.fixture(scope="module")
def reader(tmp_path_factory) -> TileReader:
    d = tmp_path_factory.mktemp("refs_grey_models")
    testing.build_localizer(d / "localizer.onnx", [b for b, _ in SCENE], image_size=SIZE)
    calibration = {"temperature": 1.0, "flag_logit_margin": 0.5, "disagree_factor": 0.0}
    meta = {"calibration": calibration}
    testing.build_classifier(
        d / "classifier.onnx", classes=CLASSES, embedding=True, gain=1.0, meta_override=meta
    )
    return TileReader(d, ReaderConfig(grey_min_p=0.5))  # the stand-in's steepness: a sure grey at 0.56


def odd(result) -> str | None:
    return next((d.tile for d in result.detections if abs(d.xyxy[0] - SCENE[ODD][0][0]) < 2), None)


def test_the_veto_goes_back_to_the_plain_reading_after_the_grey_look(reader, tmp_path, monkeypatch):
    now = painted()
    plain = reader.detect(now)
    assert odd(plain) == "9p"  # colour `none`, grey 9p: kept as a 9p without references
    earlier = tmp_path / "earlier.png"
    Image.fromarray(now).save(earlier)
    refs = reader.embed_refs([Ref(earlier, b, "9p" if k == ODD else c) for k, (b, c) in enumerate(SCENE)])
    seen: list[tuple[np.ndarray, np.ndarray]] = []  # (boxes, plain classes) given to the match
    real = vision.reader.match_refs

    def spy(pixels, xyxy, *args, plain=None, **kwargs):
        seen.append((xyxy, plain))
        return real(pixels, xyxy, *args, plain=plain, **kwargs)

    monkeypatch.setattr("vision.reader.match_refs", spy)
    got = reader.detect(now, refs)
    ((boxes, was),) = seen
    at = int(np.abs(boxes - np.array(SCENE[ODD][0])).sum(1).argmin())  # the odd box
    assert CLASSES[was[at]] == "9p"  # what the reader reads without references, not the colour's `none`
    assert odd(got) == "9p"
    assert [d.tile for d in got.detections] == [d.tile for d in plain.detections]
