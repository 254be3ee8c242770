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


@pytest.mark.parametrize("fmt,kw", [("PNG", {}), ("WEBP", {"lossless": True})])
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
    pytest.importorskip("pillow_heif", reason="needs pillow-heif")
    import pillow_heif

    pillow_heif.register_heif_opener()
    a = np.full((64, 96, 3), (200, 60, 30), np.uint8)
    out = load_image(encode(a, "HEIF", quality=95))
    assert out.shape == (64, 96, 3)
    assert abs(int(out[..., 0].mean()) - 200) < 12


def test_avif_loads():
    a = np.full((64, 96, 3), (30, 160, 220), np.uint8)
    out = load_image(encode(a, "AVIF", quality=95))
    assert out.shape == (64, 96, 3)
    assert abs(int(out[..., 2].mean()) - 220) < 12


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


@pytest.mark.parametrize("fmt", ["PNG", "WEBP"])
def test_other_formats_are_box_averaged_to_what_the_reader_needs(fmt):
    a = np.tile(gradient(400, 300), (4, 4, 1))  # 1600 x 1200
    data = encode(a, fmt, lossless=True) if fmt == "WEBP" else encode(a, fmt)
    half = open_image(data, min_side=800)
    assert (half.width, half.height) == (1600, 1200)
    assert half.pixels.shape == (600, 800, 3) and half.scale == 0.5
    want = (a.reshape(600, 2, 800, 2, 3).mean(axis=(1, 3)) + 0.5).astype(np.uint8)
    assert np.array_equal(half.pixels, want)
    assert open_image(data, min_side=300).pixels.shape == (300, 400, 3)
    assert open_image(data, min_side=1000).scale == 1.0  # never below min_side
    assert open_image(data).scale == 1.0


def test_reduced_decode_of_a_rotated_png_keeps_the_upright_size():
    exif = Image.Exif()
    exif[0x0112] = 6
    data = encode(Image.fromarray(gradient(1600, 1200)), "PNG", exif=exif.tobytes())
    loaded = open_image(data, min_side=400)
    assert (loaded.width, loaded.height) == (1200, 1600)
    assert loaded.pixels.shape == (400, 300, 3) and loaded.scale == 0.25


@pytest.mark.parametrize(
    "mode",
    ["L", "1", "P", "CMYK", "RGBA", "LA", "I;16", "YCbCr"],
)
def test_every_mode_becomes_rgb(mode):
    base = Image.fromarray(gradient())
    if mode == "I;16":
        im = Image.fromarray(np.asarray(base.convert("L")).astype(np.uint16) * 257)
    else:
        im = base.convert(mode)
    fmt = {"CMYK": "JPEG", "YCbCr": "JPEG"}.get(mode, "PNG")
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


def test_sixteen_bit_rgba_png_keeps_top_bits_and_composites_alpha():
    import struct
    import zlib

    from tests.vision.conftest import png_chunk

    w, h = 20, 20
    pixel = struct.pack(">4H", 0x8000, 0x4000, 0xFFFF, 0xFFFF)  # opaque
    clear = struct.pack(">4H", 0, 0, 0, 0)  # fully transparent
    raw = b"".join(b"\x00" + (pixel if y < 10 else clear) * w for y in range(h))
    ihdr = struct.pack(">IIBBBBB", w, h, 16, 6, 0, 0, 0)
    data = (
        b"\x89PNG\r\n\x1a\n"
        + png_chunk(b"IHDR", ihdr)
        + png_chunk(b"IDAT", zlib.compress(raw))
        + png_chunk(b"IEND", b"")
    )
    out = load_image(data)
    assert tuple(int(v) for v in out[0, 0]) == (0x80, 0x40, 0xFF)
    assert (out[10:] == 255).all()


def test_rgba_transparency_goes_white():
    a = np.zeros((32, 32, 4), np.uint8)  # fully transparent black
    out = load_image(encode(Image.fromarray(a, "RGBA"), "PNG"))
    assert (out == 255).all()


def test_animated_webp_gives_first_frame():
    frames = [Image.new("RGB", (40, 30), c) for c in ((255, 0, 0), (0, 0, 255))]
    buf = io.BytesIO()
    frames[0].save(buf, "WEBP", save_all=True, append_images=frames[1:], duration=100, lossless=True)
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


# -- formats, decoder failures, the pixel limit, the memory budget ------------------


def _refused(fmt: str) -> bytes:
    im = Image.fromarray(gradient())
    if fmt == "BLP":
        im = im.convert("P")
    elif fmt == "DDS":
        im = im.convert("RGBA")
    return encode(im, fmt)


@pytest.mark.parametrize("fmt", ["TIFF", "GIF", "BMP", "DDS", "BLP"])
def test_formats_phones_do_not_make_are_refused_by_name(tmp_path, fmt):
    path = tmp_path / "photo.jpg"  # the name does not matter, the bytes do
    path.write_bytes(_refused(fmt))
    with pytest.raises(ImageError) as exc:
        open_image(path)
    assert exc.value.code == "unsupported_format" and exc.value.fields == {"format": fmt}
    assert str(exc.value) == f"this is a {fmt} file; jxmj reads JPEG, PNG, WebP, HEIC/HEIF or AVIF photos"


def test_any_decoder_exception_becomes_an_image_error(monkeypatch):
    from PIL import PngImagePlugin

    def broken_load(self):
        raise TypeError("Missing dimensions")  # what a corrupt AVIF raised, as a traceback

    monkeypatch.setattr(PngImagePlugin.PngImageFile, "load", broken_load)
    with pytest.raises(ImageError) as exc:
        open_image(encode(gradient(), "PNG"))
    assert exc.value.code == "corrupt"
    assert str(exc.value) == "the image file is truncated or corrupt"  # no internal names


def test_the_pixel_limit_and_its_message_agree():
    # 99.9 MP passes the size check (Pillow's own 89.5 MP check no longer decides) ...
    with pytest.raises(ImageError) as exc:
        open_image(huge_png(10000, 9990, header_only=True))
    assert exc.value.code == "corrupt"  # the header is fine; there is no pixel data
    # ... 100.01 MP does not, and the message names the limit that applied
    with pytest.raises(ImageError) as exc:
        open_image(huge_png(10000, 10001, header_only=True))
    assert exc.value.code == "too_many_pixels" and exc.value.fields["limit"] == MAX_PIXELS / 1e6
    assert str(exc.value) == (
        "image is too large: 10000x10001 = 100 megapixels (the limit is 100); scale it down first"
    )


def test_decoded_size_over_the_budget_is_refused_or_reduced(monkeypatch):
    from vision import cost, image

    monkeypatch.setattr(cost, "CHUNK_BYTES", 0)
    monkeypatch.setattr(image, "DECODE_BUDGET", 96 * 64 * 4 - 1)  # one RGB(A) picture of 96x64, less a byte
    with pytest.raises(ImageError) as exc:
        open_image(encode(gradient(), "PNG"))
    assert exc.value.code == "too_much_memory"
    assert exc.value.fields == {"width": 96, "height": 64, "need": 1, "limit": 0}
    jpeg = open_image(encode(gradient(), "JPEG"))  # a JPEG is decoded at 1/2 scale instead
    assert jpeg.scale == 0.5 and jpeg.pixels.shape == (32, 48, 3)


def test_decoded_bytes_counts_the_decoder_copy():
    from vision.image import DECODE_BUDGET, decoded_bytes

    assert decoded_bytes("PNG", "RGBA", 9460, 9460) == 9460 * 9460 * 4 > DECODE_BUDGET  # 89 MP RGBA16 PNG
    assert decoded_bytes("PNG", "RGBA", 7000, 7000) <= DECODE_BUDGET  # 49 MP
    assert decoded_bytes("HEIF", "RGB", 5712, 4284) <= DECODE_BUDGET  # a 24 MP iPhone HEIC
    assert decoded_bytes("WEBP", "RGB", 4000, 3000) == 12_000_000 * 16 <= DECODE_BUDGET
    assert decoded_bytes("PNG", "I;16", 100, 100) == 20000 and decoded_bytes("PNG", "P", 100, 100) == 10000


@pytest.mark.parametrize("mode", ["RGB", "L", "RGBA_opaque", "RGBA_clear", "P"])
def test_reduced_pixels_are_the_mean_of_the_converted_pixels(mode):
    from vision.pixels import to_rgb

    rng = np.random.default_rng(7)
    if mode.startswith("RGBA"):
        a = rng.integers(0, 255, (64, 96, 4), np.uint8)
        a[..., 3] = 255 if mode == "RGBA_opaque" else rng.choice([0, 255], (64, 96))
        im = Image.fromarray(a, "RGBA")
    else:
        im = Image.fromarray(rng.integers(0, 255, (64, 96, 3), np.uint8)).convert(mode)
    full = to_rgb(im)  # converted (alpha composited on white) at full size
    want = (full.reshape(16, 4, 24, 4, 3).astype(np.float64).mean(axis=(1, 3)) + 0.5).astype(np.uint8)
    got = to_rgb(im, 4)
    assert got.shape == (16, 24, 3)
    assert np.abs(got.astype(int) - want.astype(int)).max() <= 1  # rounding of the mean only
