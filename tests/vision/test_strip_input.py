"""A strip (a tight photo of one row of tiles) is localized through an input of its own shape
(issue 35: a 2480 x 392 riichi hand letterboxed into 384 x 384 found 1 of 13 tiles)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

import vision.reader as reader_module
from tests.vision.util import localizer_shapes
from vision.image import open_image
from vision.reader import TileReader
from vision.scale import strip_input

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "app" / "assets" / "sample_hand.jpg"
ROW = "2m 3m 4m 5p 6p 7p 6s 7s 8s 7p 7p 7p 9s 9s"
"""The bundled sample hand, left to right."""


def _strip() -> np.ndarray:
    """The sample hand's row cut tight (1348 x 156: aspect 8.6), as a phone crop of a rack."""
    return np.ascontiguousarray(open_image(SAMPLE).pixels[572:728, 132:1480])


def test_a_strip_keeps_the_inputs_pixels_in_its_own_shape():
    assert strip_input((384, 384), (392, 2480)) == (160, 960)
    assert strip_input((384, 384), (2480, 392)) == (960, 160)  # a row shot upright
    assert strip_input((384, 384), (156, 1348)) == (128, 1088)  # capped at 8:1
    assert strip_input((384, 384), (3024, 4032)) == (384, 384)  # a photo: unchanged
    assert strip_input((384, 384), (1000, 1990)) == (384, 384)  # just under 2:1


def test_the_reader_localizes_a_strip_through_a_strip(monkeypatch):
    reader = TileReader(REPO / "models")
    shapes = localizer_shapes(monkeypatch, reader)
    result = reader.detect(_strip())
    assert shapes == [(1, 3, 128, 1088)]
    hand = [result.detections[k].tile for g in result.groups for k in g.tiles]
    assert " ".join(hand) == ROW  # the hand guess takes the row, and only it
    shapes.clear()
    reader.detect(open_image(SAMPLE).pixels)
    assert shapes == [(1, 3, 384, 384)]  # a 4:3 photo as before


def test_a_fixed_graph_keeps_its_square(monkeypatch):
    reader = TileReader(REPO / "models")
    monkeypatch.setitem(reader.localizer.meta, "refine_input_size", None)
    shapes: list = []
    run = reader_module.run_model
    monkeypatch.setattr(
        reader_module, "run_model", lambda spec, batch: shapes.append(tuple(batch.shape)) or run(spec, batch)
    )
    reader.detect(_strip())
    assert shapes[0] == (1, 3, 384, 384)
