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
- **Memory budget.** Decoding holds the picture as the decoder stores it:
  `width x height x bytes per pixel`, where Pillow keeps 4 bytes per pixel for RGB, RGBA and
  CMYK (16-bit PNG samples are narrowed to 8 bits while decoding), 2 for 16-bit grey and 1
  for grey, palette or 1-bit images, and the WebP, HEIF and AVIF libraries hold a 4-byte
  copy of their own besides (`decoded_bytes`). This must fit `DECODE_BUDGET` (384 MiB): a
  100 MP PNG fits, a 48 MP HEIC fits, a 60 MP WebP does not. A JPEG that would not fit is
  decoded at 1/2, 1/4 or 1/8 scale instead (libjpeg scales while decoding). The RGB result
  costs 3 more bytes per pixel *of the result*; the conversion runs in strips, so no other
  full-size copy is made. Peak memory of `open_image` is therefore at most about
  budget + result + the file itself (`MAX_BYTES`).
- **Reduced decoding.** `open_image(..., min_side=N)` returns the image no larger than the
  caller needs, as long as its long side stays >= N px: a JPEG is decoded at a reduced DCT
  scale (1/2, 1/4 or 1/8; *faster* than a full decode), any other format is decoded and then
  box-averaged strip by strip to 1/2, 1/4 or 1/8 (those formats cannot decode at a smaller
  size). The tile reader uses N = 2000 and decodes again at full resolution when the tiles
  it finds are too small for that (see `vision.reader`).
- **Pixel formats.** Whatever the mode (grayscale, palette, CMYK, RGBA, LA, 16-bit), the
  result is 8-bit RGB; transparency is composited onto white; 16-bit samples keep their top
  8 bits. An animated image or a multi-picture file contributes its first (primary) picture.
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

from vision.pixels import orient, to_rgb

MAX_PIXELS = 100_000_000
"""Images with more pixels than this (width x height, before any downscale) are refused."""

MAX_BYTES = 200 * 1024 * 1024
"""Files larger than this are refused (no photo of <= 100 MP needs more; /dev/zero does)."""

MIN_SIDE = 16
"""Images with a side shorter than this many pixels are refused."""

DECODE_BUDGET = 384 * 2**20
"""The most bytes one decoded picture may occupy while it is decoded (see `decoded_bytes`)."""

ACCEPTED_FORMATS = ("JPEG", "MPO", "PNG", "WEBP", "HEIF", "AVIF")
"""Pillow format ids that are ever decoded (HEIF covers .heic; MPO is a multi-picture JPEG)."""

FORMAT_NAMES = "JPEG, PNG, WebP, HEIC/HEIF or AVIF"

ERROR_CODES = (
    "empty",
    "no_file",
    "is_directory",
    "unreadable",
    "file_too_large",
    "not_image",
    "unsupported_format",
    "corrupt",
    "too_many_pixels",
    "too_much_memory",
    "too_small",
    "bad_array",
)
"""Every `ImageError.code`; the app has a translated message for each (`image.<code>`)."""

_EXIF_ORIENTATION = 0x0112
_OPENERS: tuple[str, ...] = ()  # ACCEPTED_FORMATS this Pillow build has, once registered
_LIBRARY_COPY = {"WEBP": 4, "HEIF": 4, "AVIF": 4}  # bytes/pixel the decoding library holds besides Pillow
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


class ImageError(ValueError):
    """The input is not a usable image: empty, not an image, corrupt, too big or too small.

    `str(error)` is one sentence meant for the user (the CLI prints it as `{"error": ...}`);
    `error.code` is one of `ERROR_CODES` and `error.fields` holds the numbers the sentence
    names (e.g. `width`, `height`, `limit`), so a translated message can say the same.
    """

    def __init__(self, code: str, message: str, **fields: object) -> None:
        super().__init__(message)
        self.code = code
        self.fields = fields


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


def decoded_bytes(fmt: str, mode: str, width: int, height: int) -> int:
    """Bytes a `width` x `height` picture of Pillow `mode` occupies while `fmt` decodes it.

    >>> decoded_bytes("PNG", "RGBA", 1000, 1000), decoded_bytes("HEIF", "RGB", 1000, 1000)
    (4000000, 8000000)
    """
    if mode in ("1", "L", "P"):
        per_pixel = 1
    elif mode.startswith("I;16"):
        per_pixel = 2
    else:
        per_pixel = 4
    return width * height * (per_pixel + _LIBRARY_COPY.get(fmt, 0))


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


def _box_factor(w: int, h: int, min_side: int | None) -> int:
    """1, 2, 4 or 8: the largest reduction that keeps the long side >= `min_side` (None: 1)."""
    factor = 1
    while factor < 8 and min_side and max(w, h) / (factor * 2) >= min_side:
        factor *= 2
    return factor


def _jpeg_reduction(im: Image.Image, min_side: int | None) -> int:
    """1, 2, 4 or 8: the DCT scale for a JPEG — as small as `min_side` allows, small enough to fit."""
    w, h = im.size
    reduce = _box_factor(w, h, min_side)
    while reduce < 8 and decoded_bytes("JPEG", im.mode, w // reduce, h // reduce) > DECODE_BUDGET:
        reduce *= 2
    return reduce


def _decode(data: bytes, min_side: int | None) -> tuple[np.ndarray, int, int, int]:
    """`(pixels, width, height, orientation)`; raises ImageError or whatever the decoder raises."""
    with Image.open(io.BytesIO(data), formats=_openers()) as im:
        w0, h0 = im.size
        _check_size(w0, h0)
        try:
            orientation = int(im.getexif().get(_EXIF_ORIENTATION, 1) or 1)
        except Exception:  # a broken EXIF block does not make the image unusable
            orientation = 1
        if getattr(im, "n_frames", 1) > 1:
            im.seek(0)  # first frame (animated WebP/AVIF, MPO with a depth map or preview)
        factor = 1
        if im.format in ("JPEG", "MPO"):
            reduce = _jpeg_reduction(im, min_side)
            if reduce > 1:
                im.draft(im.mode if im.mode in ("RGB", "L") else "RGB", (w0 // reduce, h0 // reduce))
        else:
            factor = _box_factor(w0, h0, min_side)
        need = decoded_bytes(im.format or "", im.mode, *im.size)
        if need > DECODE_BUDGET:
            mib, limit = -(-need // 2**20), DECODE_BUDGET // 2**20
            raise ImageError(
                "too_much_memory",
                f"image is too large to decode: this {w0}x{h0} {im.format} needs {mib} MiB of memory "
                f"(the limit is {limit} MiB); save it smaller or as a JPEG",
                width=w0,
                height=h0,
                need=mib,
                limit=limit,
            )
        im.load()
        return to_rgb(im, factor), w0, h0, orientation


def decode_cost(data: bytes, min_side: int | None = None) -> int:
    """Bytes `open_image(data, min_side=min_side)` will hold at its peak, from the header alone:
    the decoded picture (`decoded_bytes`, after a JPEG's reduction) plus the RGB result.
    0 when the header cannot be read (decoding it will say why).

    >>> import io; from PIL import Image; buf = io.BytesIO(); Image.new("RGB", (400, 300)).save(buf, "PNG")
    >>> decode_cost(buf.getvalue()), decode_cost(buf.getvalue(), min_side=200)
    (840000, 570000)
    """
    try:
        with Image.open(io.BytesIO(data), formats=_openers()) as im:
            w, h = im.size
            if im.format in ("JPEG", "MPO"):
                r = _jpeg_reduction(im, min_side)
                mode = im.mode if im.mode in ("RGB", "L") or r == 1 else "RGB"
                return decoded_bytes("JPEG", mode, w // r, h // r) + 3 * (w // r) * (h // r)
            f = _box_factor(w, h, min_side)
            return decoded_bytes(im.format or "", im.mode, w, h) + 3 * (w // f) * (h // f)
    except Exception:
        return 0


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
    except MemoryError:
        raise ImageError("too_much_memory", "image is too large to decode in memory") from None
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
