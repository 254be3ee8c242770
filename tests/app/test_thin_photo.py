"""A valid thin photo never breaks the page: every step of reading it is inside the guard, and a
preview side is at least 1 px."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from app.ui import services


@pytest.mark.parametrize("shape", [(40000, 16, 3), (16, 40000, 3), (100_000, 20, 3)])
def test_a_thin_photo_has_a_preview_of_at_least_one_pixel(shape):
    jpeg, scale, _cut = services._preview(np.zeros(shape, np.uint8))
    with Image.open(io.BytesIO(jpeg)) as im:
        assert min(im.size) == 1 and max(im.size) == services.PREVIEW_SIDE
    assert scale == services.PREVIEW_SIDE / max(shape[:2])


def test_a_16x40000_png_is_read_or_refused_with_a_message_never_a_traceback(monkeypatch):
    buf = io.BytesIO()
    Image.new("RGB", (16, 40000), (30, 100, 50)).save(buf, "PNG")
    try:
        photo = services.read_photo(buf.getvalue())
    except services.PhotoError as e:
        assert e.key in ("image.too_small", "err.vision_missing"), e.key
    else:
        assert photo.preview_jpeg


def test_a_preview_that_fails_is_a_photo_error(monkeypatch):
    def broken(image, *_args):
        raise ValueError("height and width must be > 0")

    monkeypatch.setattr(services, "_preview", broken)
    monkeypatch.setattr(services, "tile_room", lambda *a: None)
    buf = io.BytesIO()
    Image.new("RGB", (400, 300), (30, 100, 50)).save(buf, "PNG")
    with pytest.raises(services.PhotoError) as e:
        services.read_photo(buf.getvalue())
    assert e.value.key in ("err.detect_failed", "err.vision_missing")
