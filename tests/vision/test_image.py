"""Image loading: formats, EXIF orientation, pixel modes, limits, and every kind of bad input."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image, ImageOps

from tests.vision.conftest import encode, huge_png
from vision import ImageError, load_image, open_image
from vision.image import MAX_PIXELS


def gradient(w: int = 96, h: int = 64) -> np.ndarray:
    y, x = np.mgrid[0:h, 0:w]
    return np.stack([x * 255 // w, y * 255 // h, (x + y) % 256], axis=2).astype(np.uint8)


@pytest.mark.parametrize("fmt,kw", [("PNG", {}), ("WEBP", {"lossless": True}), ("BMP", {}), ("TIFF", {})])
def test_lossless_formats_round_trip(fmt, kw):
    a = gradient()
    out = load_image(encode(a, fmt, **kw))
    assert out.dtype == np.uint8 and out.shape == (64, 96, 3)
    assert np.array_equal(out, a)


def test_jpeg_is_rgb_not_bgr():
    a = np.zeros((64, 64, 3), np.uint8)
    a[..., 0] = 220  # red
    out = load_image(encode(a, "JPEG", quality=95))
    assert out[..., 0].mean() > 200 and out[..., 2].mean() < 40


def test_heic_loads():
    pytest.importorskip("pillow_heif")
    import pillow_heif

    pillow_heif.register_heif_opener()
    a = np.full((64, 96, 3), (200, 60, 30), np.uint8)
    out = load_image(encode(a, "HEIF", quality=95))
    assert out.shape == (64, 96, 3)
    assert abs(int(out[..., 0].mean()) - 200) < 12


def test_path_and_bytes_agree(tmp_path):
    a = gradient()
    p = tmp_path / "x.png"
    p.write_bytes(encode(a, "PNG"))
    assert np.array_equal(load_image(p), load_image(str(p)))
    assert np.array_equal(load_image(p), load_image(p.read_bytes()))


@pytest.mark.parametrize("orientation", range(1, 9))
def test_exif_orientation_matches_pillow(orientation):
    a = gradient(90, 60)
    im = Image.fromarray(a)
    exif = Image.Exif()
    exif[0x0112] = orientation
    data = encode(im, "PNG", exif=exif.tobytes())
    want = np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(data))).convert("RGB"))
    loaded = open_image(data)
    assert np.array_equal(loaded.pixels, want)
    assert (loaded.width, loaded.height) == (want.shape[1], want.shape[0])


def test_jpeg_draft_decode_keeps_full_size_and_scale():
    a = np.tile(gradient(400, 300), (4, 4, 1))  # 1600 x 1200
    data = encode(a, "JPEG", quality=90)
    full = open_image(data)
    assert full.scale == 1.0 and full.pixels.shape == (1200, 1600, 3)
    half = open_image(data, min_side=800)
    assert (half.width, half.height) == (1600, 1200)
    assert half.pixels.shape == (600, 800, 3) and half.scale == 0.5
    quarter = open_image(data, min_side=400)
    assert quarter.pixels.shape == (300, 400, 3) and quarter.scale == 0.25
    assert open_image(data, min_side=1000).scale == 1.0  # never below min_side


def test_png_is_never_downscaled():
    data = encode(gradient(400, 300), "PNG")
    assert open_image(data, min_side=50).scale == 1.0


@pytest.mark.parametrize(
    "mode",
    ["L", "1", "P", "CMYK", "RGBA", "LA", "I;16", "I", "F", "YCbCr"],
)
def test_every_mode_becomes_rgb(mode):
    base = Image.fromarray(gradient())
    if mode == "I;16":
        im = Image.fromarray(np.asarray(base.convert("L")).astype(np.uint16) * 257)
    else:
        im = base.convert(mode)
    fmt = {"CMYK": "JPEG", "YCbCr": "JPEG", "F": "TIFF", "I": "TIFF"}.get(mode, "PNG")
    out = load_image(encode(im, fmt))
    assert out.dtype == np.uint8 and out.shape == (64, 96, 3)


def test_sixteen_bit_grey_keeps_top_bits():
    a = np.full((32, 32), 0xAB00, np.uint16)
    im = Image.fromarray(a)
    assert im.mode.startswith("I;16")
    out = load_image(encode(im, "PNG"))
    assert out.shape == (32, 32, 3) and int(out[0, 0, 0]) == 0xAB


def test_sixteen_bit_rgb_png():
    import struct
    import zlib

    from tests.vision.conftest import png_chunk

    w, h = 20, 20
    raw = b"".join(b"\x00" + struct.pack(">3H", 0x8000, 0x4000, 0xFFFF) * w for _ in range(h))
    data = (
        b"\x89PNG\r\n\x1a\n"
        + png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 16, 2, 0, 0, 0))
        + png_chunk(b"IDAT", zlib.compress(raw))
        + png_chunk(b"IEND", b"")
    )
    out = load_image(data)
    assert out.shape == (20, 20, 3)
    assert tuple(int(v) for v in out[0, 0]) == (0x80, 0x40, 0xFF)


def test_rgba_transparency_goes_white():
    a = np.zeros((32, 32, 4), np.uint8)  # fully transparent black
    out = load_image(encode(Image.fromarray(a, "RGBA"), "PNG"))
    assert (out == 255).all()


def test_animated_gif_gives_first_frame():
    frames = [Image.new("RGB", (40, 30), c) for c in ((255, 0, 0), (0, 0, 255))]
    buf = io.BytesIO()
    frames[0].save(buf, "GIF", save_all=True, append_images=frames[1:], duration=100, loop=0)
    out = load_image(buf.getvalue())
    assert out.shape == (30, 40, 3)
    assert out[..., 0].mean() > 200 and out[..., 2].mean() < 50


# -- bad input: a clear ImageError, never anything else --------------------------------------


def truncated_jpeg() -> bytes:
    data = encode(gradient(200, 150), "JPEG", quality=90)
    return data[: len(data) // 2]


BAD_INPUTS = {
    "empty": (lambda: b"", "empty"),
    "not_an_image": (lambda: b"hello, this is text and not a photo\n" * 10, "not an image"),
    "truncated_jpeg": (truncated_jpeg, "truncated"),
    "one_pixel": (lambda: encode(np.zeros((1, 1, 3), np.uint8), "PNG"), "too small"),
    "huge_png_header": (lambda: huge_png(header_only=True), "too large"),
    "huge_png": (huge_png, "too large"),
    "garbage_after_jpeg_magic": (lambda: b"\xff\xd8\xff\xe0" + b"\x00" * 100, ""),
}


@pytest.mark.parametrize("name", list(BAD_INPUTS))
def test_bad_input_raises_image_error(name):
    make, words = BAD_INPUTS[name]
    with pytest.raises(ImageError) as exc:
        load_image(make())
    assert words in str(exc.value)
    assert "\n" not in str(exc.value)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(ImageError, match="no such file"):
        load_image(tmp_path / "nope.jpg")
    with pytest.raises(ImageError, match="directory"):
        load_image(tmp_path)


def test_pixel_limit_is_checked_before_decoding():
    side = int(MAX_PIXELS**0.5) + 10
    with pytest.raises(ImageError, match="megapixels"):
        open_image(huge_png(side, side, header_only=True))


def test_mpo_first_picture_and_reduced_decode():
    a = np.tile(gradient(400, 300), (4, 4, 1))  # 1600 x 1200
    buf = io.BytesIO()
    Image.fromarray(a).save(buf, "MPO", save_all=True, append_images=[Image.fromarray(a[::2, ::2].copy())])
    loaded = open_image(buf.getvalue(), min_side=800)
    assert (loaded.width, loaded.height) == (1600, 1200)
    assert loaded.pixels.shape == (600, 800, 3) and loaded.scale == 0.5
