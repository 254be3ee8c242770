"""Image loading for tile reading: bytes or a path in, upright RGB pixels out.

Formats: only what phones and photo apps produce — JPEG (and MPO, a JPEG with extra
pictures), PNG, WebP, HEIC/HEIF (via pillow-heif) and AVIF (`ACCEPTED_FORMATS`, passed to
Pillow's `Image.open(formats=...)`). Any other format (TIFF, GIF, BMP, DDS, BLP, ...) is
refused before its decoder runs, whatever the file is called. EXIF orientation is applied, so
every coordinate jxmj reports is in pixels of the *upright* image, the way a viewer shows it.

Policy (all limits are module constants):

- **Pixel limit.** The size is read from the header before anything is decoded; an image of
  more than `MAX_PIXELS` (100 megapixels) is refused with `ImageError`, and so is one with a
  side under `MIN_SIDE` px. This is the only pixel limit: importing this module sets Pillow's
  `MAX_IMAGE_PIXELS` (89.5 MP by default) to it and silences Pillow's warning, so the limit
  that applies and the message always agree.
- **Memory budget.** Everything one decode holds at its peak — the file, the picture as the
  decoder stores it (JPEG coefficient buffers, WebP canvases, library copies: `vision.cost`),
  the RGB result and one conversion chunk — is costed from the header before decoding
  (`decode_cost`) and must fit `DECODE_BUDGET` (256 MiB): with the interpreter and the models
  `jxmj detect` then stays under 450 MB for every image it accepts. A picture whose result
  would not fit is reduced to 1/2, 1/4 or 1/8 (a JPEG by libjpeg while decoding, any other
  format box-averaged chunk by chunk); one whose decoder alone would not fit is refused
  (`too_much_memory`): e.g. a 100 MP PNG, a 60 MP HEIC, a 20 MP WebP, a 100 MP progressive
  CMYK JPEG. The conversion runs in chunks of at most `vision.cost.CHUNK_PIXELS` pixels, so
  no other full-size copy is made, whatever the image's shape.
- **Reduced decoding.** `open_image(..., min_side=N)` returns the image no larger than the
  caller needs, as long as its long side stays >= N px: a JPEG is decoded at a reduced DCT
  scale (1/2, 1/4 or 1/8; *faster* than a full decode), any other format is decoded and then
  box-averaged strip by strip to 1/2, 1/4 or 1/8 (those formats cannot decode at a smaller
  size: Pillow's PNG, WebP and pillow-heif's HEIC/AVIF decoders have no reduced decode). The
  tile reader uses N = 1000 and decodes again, at the scale they need, when the tiles it finds
  are too small for that (`vision.scale`, `vision.reader`).
- **Pixel formats.** Whatever the mode (grayscale, palette, CMYK, RGBA, LA, 16-bit), the
  result is 8-bit RGB; transparency is composited onto white; 16-bit samples keep their top
  8 bits. An animated image or a multi-picture file contributes its first (primary) picture.
- **Time.** A JPEG that would cost time per byte is refused from its markers before it is
  decoded: more than 100 scans (`too_many_scans`; a progressive photo has ~10) or 16 EXIF
  blocks (`too_much_metadata`); and any decode stops with `too_slow` once it has spent
  `vision.decode_time.DECODE_SECONDS` (1.5 s) of CPU time (`vision.decode_time`).
- **Errors.** Every failure — including any exception a decoder raises on corrupt data — is
  an `ImageError` whose message is one sentence for the user and whose `code` names the
  problem (`ERROR_CODES`) so that the app can translate it.
"""

from __future__ import annotations

import io
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image, ImageFile, UnidentifiedImageError

from vision.cost import Plan, decoded_bytes, plan, webp_canvas
from vision.decode_time import DECODE_SECONDS, DecodeTooSlow, TimedBytes, check_jpeg, forget
from vision.image_errors import ERROR_CODES, ImageError
from vision.pixels import orient, to_rgb

__all__ = [
    "DECODE_BUDGET",
    "ERROR_CODES",
    "MAX_PIXELS",
    "ImageError",
    "LoadedImage",
    "decode_cost",
    "decoded_bytes",
    "open_image",
]

MAX_PIXELS = 100_000_000
"""Images with more pixels than this (width x height, before any downscale) are refused."""

MAX_BYTES = 200 * 1024 * 1024
"""Files larger than this are refused (no photo of <= 100 MP needs more; /dev/zero does)."""

MIN_SIDE = 16
"""Images with a side shorter than this many pixels are refused."""

DECODE_BUDGET = 256 * 2**20
"""The most bytes one decode may hold at its peak (`decode_cost`; `vision.cost`)."""

ACCEPTED_FORMATS = ("JPEG", "MPO", "PNG", "WEBP", "HEIF", "AVIF")
"""Pillow format ids that are ever decoded (HEIF covers .heic; MPO is a multi-picture JPEG)."""

FORMAT_NAMES = "JPEG, PNG, WebP, HEIC/HEIF or AVIF"


_EXIF_ORIENTATION = 0x0112
_OPENERS: tuple[str, ...] = ()  # ACCEPTED_FORMATS this Pillow build has, once registered
# Formats we refuse, told by their first bytes, so the message can name them.
_OTHER_MAGIC = {
    b"II*\0": "TIFF",
    b"MM\0*": "TIFF",
    b"GIF8": "GIF",
    b"BM": "BMP",
    b"DDS ": "DDS",
    b"BLP1": "BLP",
    b"BLP2": "BLP",
    b"8BPS": "PSD",
    b"\0\0\0\x0cjP  ": "JPEG 2000",
    b"%PDF": "PDF",
}

# One pixel limit: Pillow's bomb check (a warning above its limit, an error above twice that)
# moves to ours, and its warning is silenced since open_image refuses such images itself.
Image.MAX_IMAGE_PIXELS = MAX_PIXELS
warnings.filterwarnings("ignore", category=Image.DecompressionBombWarning)
# Pillow refuses truncated files by default; keep it that way (a truncated photo is an error).
ImageFile.LOAD_TRUNCATED_IMAGES = False


@dataclass(frozen=True, slots=True)
class LoadedImage:
    """An upright RGB image, possibly decoded at reduced size, and the size it really has.

    Attributes:
        pixels: `(h, w, 3)` uint8 RGB, upright. May be smaller than the original (see
            `scale`).
        width: width in pixels of the full-resolution upright image.
        height: height in pixels of the full-resolution upright image.
        scale: `pixels.shape[1] / width` (1.0 = full resolution; 0.5 = decoded at 1/2).
            A point `(x, y)` of `pixels` is `(x / scale, y / scale)` in the full image.
        decode_ms: wall time spent decoding, in milliseconds.
        source: the encoded bytes, kept so that the image can be decoded again at full
            resolution (`None` when the image was given as pixels).
    """

    pixels: np.ndarray = field(repr=False)
    width: int
    height: int
    scale: float = 1.0
    decode_ms: float = 0.0
    source: bytes | None = field(default=None, repr=False)

    @classmethod
    def from_array(cls, pixels: np.ndarray) -> LoadedImage:
        """Wrap an `(h, w, 3)` uint8 RGB array that is already full resolution and upright."""
        pixels = np.asarray(pixels)
        if pixels.ndim != 3 or pixels.shape[2] != 3 or pixels.dtype != np.uint8:
            raise ImageError(
                "bad_array", f"expected an HxWx3 uint8 RGB array, got shape {pixels.shape} {pixels.dtype}"
            )
        h, w = pixels.shape[:2]
        _check_size(w, h)
        return cls(pixels=pixels, width=w, height=h)


def _openers() -> tuple[str, ...]:
    """Register Pillow's plugins and pillow-heif once; the accepted formats that are available."""
    global _OPENERS
    if not _OPENERS:
        try:
            import pillow_heif

            pillow_heif.register_heif_opener()
        except ImportError:  # pragma: no cover - pillow-heif is a dependency
            pass
        Image.init()
        _OPENERS = tuple(f for f in ACCEPTED_FORMATS if f in Image.OPEN)
    return _OPENERS


def _read_source(source: bytes | bytearray | memoryview | str | Path) -> bytes:
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    else:
        path = Path(source)
        try:
            with path.open("rb") as fh:
                data = fh.read(MAX_BYTES + 1)
        except FileNotFoundError:
            raise ImageError("no_file", f"no such file: {path}") from None
        except IsADirectoryError:
            raise ImageError("is_directory", f"{path} is a directory, not an image") from None
        except OSError as exc:
            raise ImageError("unreadable", f"cannot read {path}: {exc.strerror or exc}") from None
    if not data:
        raise ImageError("empty", "the image file is empty (0 bytes)")
    if len(data) > MAX_BYTES:
        limit = MAX_BYTES // 2**20
        raise ImageError("file_too_large", f"the image file is too large: more than {limit} MiB", limit=limit)
    return data


def _check_size(w: int, h: int) -> None:
    if w * h > MAX_PIXELS:
        limit = round(MAX_PIXELS / 1e6)
        raise ImageError(
            "too_many_pixels",
            f"image is too large: {w}x{h} = {w * h / 1e6:.0f} megapixels "
            f"(the limit is {limit}); scale it down first",
            width=w,
            height=h,
            limit=limit,
        )
    if min(w, h) < MIN_SIDE:
        raise ImageError(
            "too_small",
            f"image is too small to show tiles: {w}x{h} pixels (need {MIN_SIDE}+ on each side)",
            width=w,
            height=h,
            limit=MIN_SIDE,
        )


def _not_accepted(data: bytes) -> ImageError:
    for magic, name in _OTHER_MAGIC.items():
        if data.startswith(magic):
            return ImageError(
                "unsupported_format", f"this is a {name} file; jxmj reads {FORMAT_NAMES} photos", format=name
            )
    return ImageError("not_image", f"not an image, or not one jxmj can read ({FORMAT_NAMES})")


def _too_much(w: int, h: int, fmt: str, need: int) -> ImageError:
    mib, limit = -(-need // 2**20), DECODE_BUDGET // 2**20
    return ImageError(
        "too_much_memory",
        f"image is too large to decode: this {w}x{h} {fmt} needs {mib} MiB of memory "
        f"(the limit is {limit} MiB); save it smaller or as a JPEG",
        width=w,
        height=h,
        need=mib,
        limit=limit,
    )


def _check_webp(data: bytes) -> None:
    """Refuse a WebP whose canvas is over the limits before Pillow opens it (libwebp allocates
    the canvas when the file is opened)."""
    size = webp_canvas(data)
    if size is not None:
        _check_size(*size)
        p = plan("WEBP", "RGBA", size, data, 8, DECODE_BUDGET)
        if p.cost > DECODE_BUDGET:
            raise _too_much(*size, "WEBP", p.cost)


def _plan(im: Image.Image, data: bytes, min_side: int | None) -> Plan:
    return plan(im.format or "", im.mode, im.size, data, min_side, DECODE_BUDGET)


def _decode(data: bytes, min_side: int | None) -> tuple[np.ndarray, int, int, int]:
    """`(pixels, width, height, orientation)`; raises ImageError or whatever the decoder raises."""
    try:
        return _decode_checked(data, min_side)
    finally:
        forget()  # the markers walked for this photo (`vision.decode_time.walked_once`)


def _decode_checked(data: bytes, min_side: int | None) -> tuple[np.ndarray, int, int, int]:
    _check_webp(data)
    check_jpeg(data)
    with Image.open(TimedBytes(data, DECODE_SECONDS), formats=_openers()) as im:
        w0, h0 = im.size
        _check_size(w0, h0)
        p = _plan(im, data, min_side)
        if p.cost > DECODE_BUDGET:  # before getexif: a PNG's getexif decodes the whole picture
            raise _too_much(w0, h0, im.format or "", p.cost)
        try:
            orientation = int(im.getexif().get(_EXIF_ORIENTATION, 1) or 1)
        except Exception:  # a broken EXIF block does not make the image unusable
            orientation = 1
        if getattr(im, "n_frames", 1) > 1:
            im.seek(0)  # first frame (animated WebP/AVIF, MPO with a depth map or preview)
        if p.reduce > 1:
            im.draft(im.mode if im.mode in ("RGB", "L") else "RGB", (w0 // p.reduce, h0 // p.reduce))
        im.load()
        return to_rgb(im, p.factor), w0, h0, orientation


def _plan_of(data: bytes, min_side: int | None) -> Plan:
    return _plans_of(data, (min_side,))[0]


def _plans_of(data: bytes, sides: tuple[int | None, ...]) -> list[Plan]:
    """The decode plan for each `min_side` of `sides`, from one reading of the header."""
    size = webp_canvas(data)
    if size is not None:
        return [plan("WEBP", "RGBA", size, data, side, DECODE_BUDGET) for side in sides]
    check_jpeg(data)  # before Pillow reads its EXIF blocks
    with Image.open(io.BytesIO(data), formats=_openers()) as im:
        return [_plan(im, data, side) for side in sides]


def decode_cost(data: bytes, min_side: int | None = None) -> int:
    """Bytes `open_image(data, min_side=min_side)` holds at its peak, from the header alone
    (`vision.cost.Plan.cost`); 0 when the header cannot be read (decoding it will say why).

    >>> import io; from PIL import Image; buf = io.BytesIO(); Image.new("RGB", (400, 300)).save(buf, "PNG")
    >>> from vision.cost import CHUNK_BYTES; png = buf.getvalue()
    >>> decode_cost(png) - CHUNK_BYTES - len(png), decode_cost(png, min_side=200) - CHUNK_BYTES - len(png)
    (840000, 570000)
    """
    try:
        return _plan_of(data, min_side).cost
    except Exception:
        return 0


def read_cost(data: bytes, min_side: int | None = None) -> int:
    """Bytes reading a photo holds at its peak when the reader may decode it again at full
    resolution (`vision.reader`): the reduced result, kept meanwhile, plus the full decode;
    0 when the header cannot be read."""
    try:
        reduced, full = _plans_of(data, (min_side, None))
    except Exception:
        return 0
    return max(reduced.cost, full.cost + reduced.result)


def open_image(
    source: bytes | bytearray | memoryview | str | Path,
    *,
    min_side: int | None = None,
) -> LoadedImage:
    """Decode an image file into upright RGB pixels, following the module's policy.

    Args:
        source: the encoded image (bytes) or a path to it.
        min_side: allow the image to be decoded at 1/2, 1/4 or 1/8 size, keeping its long side
            >= this many pixels (`None`: full resolution, unless a JPEG must be reduced to fit
            `DECODE_BUDGET`).

    Returns:
        A `LoadedImage` (`pixels` `(h, w, 3)` uint8 RGB, full size `width` x `height`, `scale`).

    Raises:
        ImageError: empty, unreadable, not one of `ACCEPTED_FORMATS`, corrupt or truncated,
            more than `MAX_PIXELS`, over `DECODE_BUDGET`, or a side under `MIN_SIDE` pixels.
            Never any other exception (a decoder's own error becomes `code="corrupt"`).
    """
    t0 = time.perf_counter()
    data = _read_source(source)
    try:
        pixels, w0, h0, orientation = _decode(data, min_side)
    except ImageError:
        raise
    except UnidentifiedImageError:
        raise _not_accepted(data) from None
    except Image.DecompressionBombError:  # Pillow's hard limit, 2 x MAX_PIXELS
        limit = round(MAX_PIXELS / 1e6)
        raise ImageError(
            "too_many_pixels",
            f"image is too large: more than {limit} megapixels (the limit); scale it down first",
            limit=limit,
        ) from None
    except DecodeTooSlow:
        raise ImageError(
            "too_slow",
            f"the image took more than {DECODE_SECONDS:g} s to decode (the limit); save it again as a JPEG",
            limit=DECODE_SECONDS,
        ) from None
    except MemoryError:
        limit = DECODE_BUDGET // 2**20
        raise ImageError("too_much_memory", "image is too large to decode in memory", limit=limit) from None
    except Exception:  # any decoder failure on corrupt data (OSError, SyntaxError, struct.error, ...)
        raise ImageError("corrupt", "the image file is truncated or corrupt") from None
    pixels = orient(pixels, orientation)
    if orientation in (5, 6, 7, 8):
        w0, h0 = h0, w0
    return LoadedImage(
        pixels=pixels,
        width=w0,
        height=h0,
        scale=pixels.shape[1] / w0,
        decode_ms=(time.perf_counter() - t0) * 1000.0,
        source=data,
    )


def load_image(source: bytes | bytearray | memoryview | str | Path) -> np.ndarray:
    """Decode an image at full resolution: `(h, w, 3)` uint8 RGB, EXIF orientation applied.

    Raises:
        ImageError: see `open_image`.
    """
    return open_image(source).pixels
