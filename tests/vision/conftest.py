"""Fixtures for the vision tests: stand-in ONNX models built on the fly (no real models needed)."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from vision import testing

SCENE_SIZE = (1600, 1200)


@pytest.fixture(scope="session")
def scene() -> list:
    """`(xyxy, code)` of the synthetic winning hand (see `vision.testing.hand_scene`)."""
    return testing.hand_scene(*SCENE_SIZE)


@pytest.fixture(scope="session")
def scene_pixels(scene) -> np.ndarray:
    return testing.paint_scene(*SCENE_SIZE, scene)


@pytest.fixture(scope="session")
def models_dir(tmp_path_factory, scene) -> Path:
    """A directory with stand-in `localizer.onnx` + `classifier.onnx` for the scene."""
    return testing.build_models(tmp_path_factory.mktemp("models"), scene, SCENE_SIZE)


@pytest.fixture(scope="session")
def reader(models_dir):
    from vision import TileReader

    return TileReader(models_dir)


def encode(pixels: np.ndarray | Image.Image, fmt: str, **kw) -> bytes:
    im = pixels if isinstance(pixels, Image.Image) else Image.fromarray(pixels)
    buf = io.BytesIO()
    im.save(buf, fmt, **kw)
    return buf.getvalue()


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    )


def huge_png(width: int = 20000, height: int = 20000, header_only: bool = False) -> bytes:
    """A 1-bit PNG of `width` x `height` (all zeros, ~50 KB), or just its header."""
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    out = b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr)
    if not header_only:
        comp = zlib.compressobj(9)
        row = bytes(1 + (width + 7) // 8)
        parts = [comp.compress(row * 1000) for _ in range(height // 1000)]
        parts.append(comp.flush())
        out += png_chunk(b"IDAT", b"".join(parts))
    return out + png_chunk(b"IEND", b"")
