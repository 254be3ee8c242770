"""What decoding a picture holds in memory, from its header alone, and the decode plan that fits.

`vision.image.open_image` follows `plan`; `vision.image.decode_cost` reports its `cost`; the
server's photo gate (`app.photo_gate`) reserves it. Bytes per pixel of the picture the decoder
holds (`decoded_bytes`), measured with Pillow 13 / libjpeg-turbo / libwebp:

- **Pillow's picture**: 4 bytes per pixel for RGB, RGBA, LA, CMYK and YCbCr (16-bit PNG samples
  are narrowed to 8 bits while decoding), 2 for 16-bit grey, 1 for grey, palette or 1-bit.
- **JPEG**: Pillow's picture at the DCT scale (`reduce`), plus — for a progressive or
  multi-scan JPEG (a first scan that does not hold every component) — libjpeg's coefficient
  buffer, 2 bytes per sample of every component at *full* resolution whatever the scale
  (`jpeg_coefficient_bytes`): a 100 MP progressive CMYK JPEG holds 800 MB however it is scaled.
- **WebP**: libwebp's animation decoder holds two canvases, the frame it decodes and the copy
  it hands over, besides Pillow's picture: 16 bytes per pixel of the canvas (an animated
  WebP's canvas may be far larger than its frames), allocated when the file is *opened*, so
  `webp_canvas` reads the size from the header first.
- **HEIF / AVIF**: the library's decoded copy, 4 bytes per pixel, besides Pillow's picture.
- **Every format**: the file's bytes (WebP, HEIF and AVIF read a second copy), the 8-bit RGB
  result (3 bytes per pixel of the result) and one conversion chunk (`CHUNK_BYTES`).
"""

from __future__ import annotations

from dataclasses import dataclass

CHUNK_PIXELS = 1_000_000
"""Pixels converted to RGB at a time (`vision.pixels.to_rgb`)."""

CHUNK_BYTES = 16 * CHUNK_PIXELS
"""Bytes one conversion chunk may hold: its crop, the converted copy and their temporaries."""

_LIBRARY_COPY = {"WEBP": 12, "HEIF": 4, "AVIF": 4}  # bytes/pixel the decoding library holds besides Pillow
_FILE_COPIES = {"WEBP": 2, "HEIF": 2, "AVIF": 2}  # the file's bytes, counted this many times


def decoded_bytes(fmt: str, mode: str, width: int, height: int, coefficients: int = 0) -> int:
    """Bytes a `width` x `height` picture of Pillow `mode` occupies while `fmt` decodes it
    (`coefficients`: a JPEG's coefficient buffer, `jpeg_coefficient_bytes`).

    >>> decoded_bytes("PNG", "RGBA", 1000, 1000), decoded_bytes("HEIF", "RGB", 1000, 1000)
    (4000000, 8000000)
    >>> decoded_bytes("WEBP", "RGB", 1000, 1000)
    16000000
    """
    if mode in ("1", "L", "P"):
        per_pixel = 1
    elif mode.startswith("I;16"):
        per_pixel = 2
    else:
        per_pixel = 4
    return width * height * (per_pixel + _LIBRARY_COPY.get(fmt, 0)) + coefficients


def _jpeg_frame(data: bytes) -> tuple[bool, list[tuple[int, int]], int, int] | None:
    """`(progressive, [(h, v) sampling per component], components in the first scan, SOS offset)`
    from a JPEG's markers, or None when they cannot be read."""
    i, progressive, sampling = 2, False, []
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):  # markers without a length
            i += 2
            continue
        length = int.from_bytes(data[i + 2 : i + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            progressive = marker in (0xC2, 0xC6, 0xCA, 0xCE)
            n = data[i + 9] if i + 9 < len(data) else 0
            comps = data[i + 10 : i + 10 + 3 * n]
            sampling = [(comps[k + 1] >> 4 or 1, comps[k + 1] & 15 or 1) for k in range(0, len(comps) - 2, 3)]
        elif marker == 0xDA:
            return progressive, sampling, data[i + 4] if i + 4 < len(data) else 0, i
        i += 2 + length
    return None


def jpeg_coefficient_bytes(data: bytes, width: int, height: int) -> int:
    """Bytes of libjpeg's whole-image coefficient buffer for this JPEG: 0 for a single-scan
    (baseline, interleaved) JPEG, else 128 bytes per 8x8 block of every component at full size
    (blocks rounded up to whole MCUs). A header that cannot be read counts as buffered with
    four full-size components (the most libjpeg allocates for its size)."""
    frame = _jpeg_frame(data)
    if frame is None:
        return 4 * 128 * (_up(width, 8) + 1) * (_up(height, 8) + 1)
    progressive, sampling, in_first_scan, _ = frame
    if not progressive and in_first_scan >= len(sampling):
        return 0
    hmax = max((h for h, _ in sampling), default=1)
    vmax = max((v for _, v in sampling), default=1)
    total = 0
    for h, v in sampling:
        bw, bh = _up(_up(width * h, hmax), 8), _up(_up(height * v, vmax), 8)
        total += 128 * (_up(bw, h) * h) * (_up(bh, v) * v)
    return total


def _up(a: int, b: int) -> int:
    return -(-a // b)


def webp_canvas(data: bytes) -> tuple[int, int] | None:
    """A WebP file's canvas size from its first chunk (VP8, VP8L or VP8X), or None."""
    if len(data) < 30 or data[:4] != b"RIFF" or data[8:12] != b"WEBP":
        return None
    chunk = data[12:16]
    if chunk == b"VP8 " and data[23:26] == b"\x9d\x01\x2a":
        return int.from_bytes(data[26:28], "little") & 0x3FFF, int.from_bytes(data[28:30], "little") & 0x3FFF
    if chunk == b"VP8X":
        return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    if chunk == b"VP8L" and data[20] == 0x2F:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    return None


@dataclass(frozen=True, slots=True)
class Plan:
    """How a picture is decoded: the JPEG DCT scale `reduce` (1, 2, 4, 8; 1 for other formats),
    then box-averaged by `factor`; `held` bytes while decoding, `result` bytes of RGB, `file`
    bytes of the file and its copies. `cost` is their sum plus one conversion chunk."""

    reduce: int
    factor: int
    held: int
    result: int
    file: int

    @property
    def cost(self) -> int:
        return self.held + self.result + self.file + CHUNK_BYTES


def box_factor(w: int, h: int, min_side: int | None) -> int:
    """1, 2, 4 or 8: the largest reduction that keeps the long side >= `min_side` (None: 1)."""
    factor = 1
    while factor < 8 and min_side and max(w, h) / (factor * 2) >= min_side:
        factor *= 2
    return factor


def plan(fmt: str, mode: str, size: tuple[int, int], data: bytes, min_side: int | None, budget: int) -> Plan:
    """The decode of a `fmt` picture of Pillow `mode` and `size` (its file `data`): as small as
    `min_side` allows, and reduced further (up to 1/8) while its `cost` is over `budget`. The
    caller refuses a plan whose cost is still over the budget."""
    w, h = size
    file = len(data) * _FILE_COPIES.get(fmt, 1)
    step = box_factor(w, h, min_side)
    if fmt in ("JPEG", "MPO"):
        coefficients = jpeg_coefficient_bytes(data, w, h)
        out_mode = mode if mode in ("L", "CMYK") else "RGB"
        while True:
            ow, oh = _up(w, step), _up(h, step)
            p = Plan(step, 1, decoded_bytes("JPEG", out_mode, ow, oh, coefficients), 3 * ow * oh, file)
            if p.cost <= budget or step == 8:
                return p
            step *= 2
    held = decoded_bytes(fmt, mode, w, h)
    while True:
        p = Plan(1, step, held, 3 * (w // step) * (h // step), file)
        if p.cost <= budget or step == 8:
            return p
        step *= 2
