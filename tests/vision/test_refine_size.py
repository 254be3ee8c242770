"""The second (coarse-to-fine) localizer pass at the localizer's `refine_input_size` (0.6.2)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.vision.util import localizer_shapes
from vision import testing
from vision.image import open_image
from vision.modelfiles import ModelError, open_model
from vision.reader import ReaderConfig, TileReader

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "app" / "assets" / "sample_hand.jpg"


def _far_hand() -> np.ndarray:
    """The bundled sample hand pasted, halved, into a grey frame 3x its size: far tiles."""
    pix = open_image(SAMPLE).pixels[::2, ::2]
    h, w = pix.shape[:2]
    frame = np.full((3 * h, 3 * w, 3), 128, np.uint8)
    frame[h : 2 * h, w : 2 * w] = pix
    return frame


def _passes(monkeypatch, reader: TileReader, pixels: np.ndarray) -> tuple[list, int]:
    """Localizer input shapes of one `detect`, and the tiles it found."""
    shapes = localizer_shapes(monkeypatch, reader)
    return shapes, len(reader.detect(pixels).detections)


def test_the_shipped_localizer_runs_its_second_pass_at_512(monkeypatch):
    reader = TileReader(REPO / "models")
    assert reader.localizer.meta["refine_input_size"] == [512, 512]
    assert reader.localizer.input_size == (384, 384)
    shapes, found = _passes(monkeypatch, reader, _far_hand())
    # fewer than a hand's 13 boxes at 384: the whole photo again, finer (`vision.scale.finer_input`)
    assert shapes == [(1, 3, 384, 384), (1, 3, 896, 1184), (1, 3, 512, 512)]
    assert found >= 12  # the sample's 14 tiles, far away
    close, _ = _passes(monkeypatch, reader, open_image(SAMPLE).pixels)
    assert close == [(1, 3, 384, 384)]  # the hand fills the photo: one pass


def test_without_refine_input_size_the_second_pass_keeps_the_input_size(monkeypatch, tmp_path):
    reader = TileReader(REPO / "models", ReaderConfig())
    monkeypatch.setitem(reader.localizer.meta, "refine_input_size", None)
    shapes, _ = _passes(monkeypatch, reader, _far_hand())
    assert shapes == [(1, 3, 384, 384), (1, 3, 384, 384)]


def test_refine_input_size_on_a_fixed_graph_is_refused(tmp_path):
    path = testing.build_localizer(
        tmp_path / "localizer.onnx",
        [[10, 10, 40, 50]],
        image_size=(100, 100),
        meta_override={"refine_input_size": [512, 512]},
    )
    with pytest.raises(ModelError, match=r"refine_input_size .* fixed"):
        open_model(path, "localize")
