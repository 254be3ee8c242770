"""Decoding holds no more memory than its cost says, for every accepted format and shape.

Each image is generated here (small: at most ~9 MP), decoded in a forked child of one
subprocess, and the child's peak RSS above its start (`VmHWM` - `VmRSS`) is compared with
`vision.image.decode_cost`. Hostile headers (a WebP canvas of 40 x 1,048,736, a 100 MP
progressive CMYK JPEG) are refused before the decoder allocates anything.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
MIB = 2**20


def _scene(w: int, h: int, mode: str = "RGB") -> Image.Image:
    rng = np.random.default_rng(3)
    small = Image.fromarray(rng.integers(0, 255, (max(1, h // 64), max(1, w // 64), 3), np.uint8))
    return small.resize((w, h), Image.NEAREST).convert(mode)


def _save(im: Image.Image, fmt: str, **kw) -> bytes:
    buf = io.BytesIO()
    im.save(buf, fmt, **kw)
    return buf.getvalue()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return kind + len(data).to_bytes(4, "little") + data + b"\0" * (len(data) % 2)


def webp_big_canvas(width: int, height: int) -> bytes:
    """An animated WebP: one 16 x 16 frame on a `width` x `height` canvas (a few hundred bytes)."""
    frame = _save(Image.new("RGB", (16, 16), (20, 120, 40)), "WEBP", lossless=True)
    vp8l = frame[12:]  # the VP8L chunk, header and all
    vp8x = bytes([0x02, 0, 0, 0]) + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
    anim = _chunk(b"ANIM", b"\0\0\0\0\0\0")
    anmf = _chunk(
        b"ANMF", b"\0" * 6 + (15).to_bytes(3, "little") * 2 + (100).to_bytes(3, "little") + b"\0" + vp8l
    )
    body = b"WEBP" + _chunk(b"VP8X", vp8x) + anim + anmf
    return b"RIFF" + len(body).to_bytes(4, "little") + body


def png_streamed(w: int, h: int) -> bytes:
    """A `w` x `h` RGB PNG of one colour, compressed row by row (never held decoded)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    comp, row, parts = zlib.compressobj(9), b"\0" + b"\x1e\x64\x32" * w, []
    for _ in range(h):
        parts.append(comp.compress(row))
    idat = b"".join(parts) + comp.flush()
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", idat)
        + chunk(b"IEND", b"")
    )


def _heif_cases() -> dict[str, bytes]:
    """HEIC and AVIF of 6 MP, where this Pillow / pillow-heif can write them."""
    try:
        import pillow_heif

        pillow_heif.register_heif_opener()
    except ImportError:  # pragma: no cover - pillow-heif is a dependency
        return {}
    out = {}
    for name, fmt in (("heic_6mp", "HEIF"), ("avif_6mp", "AVIF")):
        try:
            out[name] = _save(_scene(3000, 2000), fmt, quality=80)
        except (KeyError, OSError, ValueError):  # no encoder in this build
            pass
    return out


def cases() -> dict[str, bytes]:
    return {
        "jpeg_baseline_9mp": _save(_scene(3000, 3000), "JPEG", quality=90),
        "jpeg_progressive_9mp": _save(_scene(3000, 3000), "JPEG", quality=90, progressive=True),
        "jpeg_progressive_444": _save(_scene(3000, 2000), "JPEG", progressive=True, subsampling=0),
        "jpeg_progressive_cmyk": _save(_scene(3000, 3000, "CMYK"), "JPEG", progressive=True),
        "jpeg_cmyk": _save(_scene(3000, 3000, "CMYK"), "JPEG"),
        "png_rgb": _save(_scene(3000, 2000), "PNG"),
        "png_rgba": _save(_scene(3000, 2000, "RGBA"), "PNG"),
        "png_palette": _save(_scene(3000, 2000, "P"), "PNG"),
        "png_wide_strip": _save(_scene(500_000, 16), "PNG"),
        "png_tall_strip": _save(_scene(16, 400_000, "L"), "PNG"),
        "webp_lossy": _save(_scene(3000, 2000), "WEBP", quality=80),
        "webp_lossless": _save(_scene(3000, 2000), "WEBP", lossless=True),
        "webp_animated": _save(
            _scene(2000, 1500), "WEBP", save_all=True, append_images=[_scene(2000, 1500, "L")], lossless=True
        ),
        "webp_canvas_40x1048736": webp_big_canvas(40, 1_048_736),
        "png_81mp_over_budget": png_streamed(9000, 9000),
        **_heif_cases(),
    }


CHILD = textwrap.dedent(
    """
    import json, os, sys
    from vision.image import ImageError, decode_cost, open_image

    def kb(key):
        for line in open("/proc/self/status"):
            if line.startswith(key):
                return int(line.split()[1])

    for path in sys.argv[1:]:  # warm: plugins, decoders, numpy, allocator arenas
        try:
            open_image(open(path, "rb").read()[:4096])
        except ImageError:
            pass
    open_image(bytes.fromhex(sys.stdin.read()))
    rows = {}
    for path in sys.argv[1:]:
        data = open(path, "rb").read()
        for min_side in (2000, None):
            r, w = os.pipe()
            pid = os.fork()
            if pid == 0:
                start = kb("VmRSS:")
                try:
                    im = open_image(data, min_side=min_side)
                    outcome = "x".join(map(str, im.pixels.shape[:2]))
                except ImageError as exc:
                    outcome = exc.code
                peak = (kb("VmHWM:") - start) * 1024
                out = {"peak": peak, "cost": decode_cost(data, min_side), "outcome": outcome}
                os.write(w, json.dumps(out).encode())
                os._exit(0)
            os.close(w)
            text = b""
            while chunk := os.read(r, 4096):
                text += chunk
            os.waitpid(pid, 0)
            rows[f"{os.path.basename(path)} {min_side}"] = json.loads(text)
    print(json.dumps(rows))
    """
)


@pytest.fixture(scope="module")
def measured(tmp_path_factory) -> dict[str, dict]:
    folder = tmp_path_factory.mktemp("decode_memory")
    paths = []
    for name, data in cases().items():
        path = folder / name
        path.write_bytes(data)
        paths.append(str(path))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, *paths],
        input=_save(_scene(640, 480), "PNG").hex(),
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return json.loads(proc.stdout)


def test_every_decode_stays_within_its_cost(measured):
    from vision.image import DECODE_BUDGET

    over = {}
    for key, row in measured.items():
        if row["outcome"] in ("too_much_memory", "too_many_pixels"):
            assert row["peak"] < 32 * MIB, key  # refused from the header: nothing decoded
            continue
        assert "x" in row["outcome"], (key, row)
        assert 0 < row["cost"] <= DECODE_BUDGET, key
        if row["peak"] > row["cost"]:
            over[key] = (row["peak"] // MIB, row["cost"] // MIB)
    assert over == {}


def test_hostile_headers_are_refused(measured):
    assert measured["webp_canvas_40x1048736 2000"]["outcome"] == "too_much_memory"
    assert measured["webp_canvas_40x1048736 None"]["outcome"] == "too_much_memory"
    assert measured["png_wide_strip 2000"]["outcome"] == "2x62500"
    assert measured["png_81mp_over_budget None"]["outcome"] == "too_much_memory"  # refused unread
    assert measured["jpeg_progressive_cmyk None"]["outcome"] == "3000x3000"


def test_a_progressive_cmyk_jpeg_costs_its_coefficients():
    from vision.cost import jpeg_coefficient_bytes
    from vision.image import decode_cost

    data = _save(Image.new("CMYK", (800, 640)), "JPEG", progressive=True)
    assert jpeg_coefficient_bytes(data, 800, 640) == 4 * 100 * 80 * 128  # 4 components, 8x8 blocks
    assert jpeg_coefficient_bytes(_save(Image.new("CMYK", (800, 640)), "JPEG"), 800, 640) == 0
    baseline = _save(Image.new("RGB", (800, 640)), "JPEG")  # 4:2:0, one interleaved scan
    assert jpeg_coefficient_bytes(baseline, 800, 640) == 0
    multi_scan = bytearray(baseline)  # the first scan announces one component of three
    sos = multi_scan.index(b"\xff\xda")
    multi_scan[sos + 4] = 1
    assert jpeg_coefficient_bytes(bytes(multi_scan), 800, 640) == (100 * 80 + 2 * 50 * 40) * 128
    plain = _save(Image.new("CMYK", (800, 640)), "JPEG")
    assert decode_cost(data) - len(data) - (decode_cost(plain) - len(plain)) == 4 * 100 * 80 * 128


def test_a_100mp_progressive_cmyk_jpeg_is_refused_from_its_header():
    from vision.image import ImageError, open_image

    head = _save(Image.new("CMYK", (100, 100)), "JPEG", progressive=True)
    sof = head.index(b"\xff\xc2")
    big = bytearray(head)
    big[sof + 5 : sof + 9] = (10000).to_bytes(2, "big") * 2  # height, width: 10000 x 10000
    with pytest.raises(ImageError) as exc:
        open_image(bytes(big), min_side=2000)
    assert exc.value.code == "too_much_memory" and exc.value.fields["need"] > 800_000_000 // MIB


def test_a_wide_strip_is_converted_in_bounded_chunks(monkeypatch):
    from vision import pixels
    from vision.cost import CHUNK_PIXELS

    im = Image.fromarray(np.random.default_rng(1).integers(0, 255, (16, 300_000, 3), np.uint8)).convert(
        "RGBA"
    )
    crops = []
    crop = Image.Image.crop

    def spy(self, box=None):
        crops.append((box[2] - box[0]) * (box[3] - box[1]))
        return crop(self, box)

    monkeypatch.setattr(Image.Image, "crop", spy)
    got = pixels.to_rgb(im, 8)
    assert got.shape == (2, 37_500, 3) and max(crops) <= CHUNK_PIXELS and sum(crops) == 16 * 300_000
    want = np.asarray(im.convert("RGB").reduce(8))[:, :37_500]
    assert np.array_equal(got, want)


def test_a_picture_of_one_chunk_is_converted_without_a_copy_first(monkeypatch):
    """Issue 37: a photo decoded reduced (1008 x 756) is one chunk: converted as it is, not
    cropped into a copy of itself first; a larger one is still cut into chunks."""
    from PIL import Image

    from vision import cost, pixels

    rng = np.random.default_rng(1)
    small = Image.fromarray(rng.integers(0, 256, (30, 40, 3), np.uint8))
    crops = []
    real = Image.Image.crop
    monkeypatch.setattr(Image.Image, "crop", lambda self, box=None: crops.append(box) or real(self, box))
    assert np.array_equal(pixels.to_rgb(small), np.asarray(small)) and crops == []
    assert np.array_equal(pixels.to_rgb(small, 2), np.asarray(small.reduce(2)))
    monkeypatch.setattr(cost, "CHUNK_PIXELS", 300)
    monkeypatch.setattr(pixels, "CHUNK_PIXELS", 300)
    assert np.array_equal(pixels.to_rgb(small), np.asarray(small)) and len(crops) > 1
