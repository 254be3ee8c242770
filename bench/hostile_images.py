"""Hostile images for `bench_memory.py --hostile` and `bench_load.py --photos`: small files that
cost a decoder far more than their pixels suggest (issue 24), generated into `bench/out/`.

- `cmyk_prog_100mp.jpg`: a progressive CMYK JPEG header of 10000 x 10000 (libjpeg's coefficient
  buffer: 800 MB whatever the scale);
- `prog_35mp.jpg`: a real progressive 7000 x 5000 JPEG (4:2:0), the largest kind accepted;
- `webp_lossless_7000.webp`: a 7000 x 7000 lossless WebP (a few kB; 16 bytes per pixel to decode);
- `webp_canvas.webp`: an animated WebP, one 16 x 16 frame on a 40 x 1,048,736 canvas;
- `png_strip.png`: 6,250,000 x 16 RGB PNG (100 MP in one strip), streamed, never held;
  `png_strip_48mp.png`: 3,000,000 x 16, a strip that is accepted;
- `png_49mp.png`: 7000 x 7000 RGB PNG, the largest PNG accepted.
"""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    )


def png_rgb(path: Path, w: int, h: int) -> Path:
    """A `w` x `h` 8-bit RGB PNG of felt green, streamed row by row."""
    if path.exists():
        return path
    row = b"\0" + bytes((30, 100, 50)) * w
    comp = zlib.compressobj(9)
    with path.open("wb") as fh:
        fh.write(b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)))
        for _ in range(h):
            part = comp.compress(row)
            if part:
                fh.write(_png_chunk(b"IDAT", part))
        fh.write(_png_chunk(b"IDAT", comp.flush()) + _png_chunk(b"IEND", b""))
    return path


def cmyk_progressive_header(path: Path, side: int = 10000) -> Path:
    from PIL import Image

    if not path.exists():
        buf = io.BytesIO()
        Image.new("CMYK", (64, 64), (10, 20, 30, 0)).save(buf, "JPEG", progressive=True)
        data = bytearray(buf.getvalue())
        sof = data.index(b"\xff\xc2")
        data[sof + 5 : sof + 9] = side.to_bytes(2, "big") * 2
        path.write_bytes(bytes(data))
    return path


def progressive_jpeg(path: Path, w: int = 7000, h: int = 5000) -> Path:
    from PIL import Image

    if not path.exists():
        Image.new("RGB", (w, h), (30, 100, 50)).save(path, "JPEG", progressive=True, quality=90)
    return path


def webp_lossless(path: Path, side: int = 7000) -> Path:
    from PIL import Image

    if not path.exists():
        Image.new("RGB", (side, side), (30, 100, 50)).save(path, "WEBP", lossless=True)
    return path


def _riff(kind: bytes, data: bytes) -> bytes:
    return kind + len(data).to_bytes(4, "little") + data + b"\0" * (len(data) % 2)


def webp_canvas(path: Path, width: int = 40, height: int = 1_048_736) -> Path:
    from PIL import Image

    if not path.exists():
        buf = io.BytesIO()
        Image.new("RGB", (16, 16), (20, 120, 40)).save(buf, "WEBP", lossless=True)
        vp8x = bytes([0x02, 0, 0, 0]) + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
        frame = (
            b"\0" * 6
            + (15).to_bytes(3, "little") * 2
            + (100).to_bytes(3, "little")
            + b"\0"
            + buf.getvalue()[12:]
        )
        body = b"WEBP" + _riff(b"VP8X", vp8x) + _riff(b"ANIM", b"\0" * 6) + _riff(b"ANMF", frame)
        path.write_bytes(b"RIFF" + len(body).to_bytes(4, "little") + body)
    return path


NAMES = (
    "cmyk_prog_100mp.jpg",
    "prog_35mp.jpg",
    "webp_lossless_7000.webp",
    "webp_canvas.webp",
    "png_strip.png",
    "png_strip_48mp.png",
    "png_49mp.png",
)


def hostile(out: Path) -> list[Path]:
    """Every hostile image, generated once into `out`."""
    out.mkdir(parents=True, exist_ok=True)
    return [
        cmyk_progressive_header(out / "cmyk_prog_100mp.jpg"),
        progressive_jpeg(out / "prog_35mp.jpg"),
        webp_lossless(out / "webp_lossless_7000.webp"),
        webp_canvas(out / "webp_canvas.webp"),
        png_rgb(out / "png_strip.png", 6_250_000, 16),
        png_rgb(out / "png_strip_48mp.png", 3_000_000, 16),
        png_rgb(out / "png_49mp.png", 7000, 7000),
    ]
