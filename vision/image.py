"""Image loading for tile reading: bytes or a path in, upright RGB pixels out.

Formats: JPEG, PNG, WebP, GIF (first frame), BMP, TIFF and HEIC/HEIF (iPhone photos, via
pillow-heif). EXIF orientation is applied, so every coordinate jxmj reports is in pixels of
the *upright* image, the way a photo viewer shows it.

Policy (all limits are module constants):

- **Pixel limit.** The size is read from the header before anything is decoded; an image of
  more than `MAX_PIXELS` (100 megapixels) is refused with `ImageError` — a decompression
  bomb costs nothing. Images smaller than `MIN_SIDE` px on a side are refused too (nothing
  that small can show a readable tile).
- **Downscale policy.** `load_image` decodes at full resolution unless asked otherwise.
  `open_image(..., min_side=N)` lets a JPEG be decoded at a reduced DCT scale (1/2, 1/4 or
  1/8, chosen by libjpeg while decoding, so it is *faster* than a full decode) as long as
  the long side of the result stays >= N px. The tile reader uses this with N = 2000: a
  12-megapixel phone photo (4032x3024) is decoded once at 2016x1512 — tiles in a photo of a
  hand are still 100+ px wide there, more than the classifier's input — and the reader
  decodes the photo again at full resolution when the tiles it finds are too small for
  that (see `vision.reader`). Other formats are always decoded at full resolution.
- **Pixel formats.** Whatever the mode (grayscale, palette, CMYK, RGBA, LA, 16-bit, float),
  the result is 8-bit RGB; transparency is composited onto white; 16-bit samples keep
  their top 8 bits. An animated image contributes its first frame.
"""

from __future__ import annotations

import io
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image, ImageFile, UnidentifiedImageError

MAX_PIXELS = 100_000_000
# No photo format we read needs more bytes than this for 100 MP; more is junk or a stream (/dev/zero).
MAX_BYTES = 200 * 1024 * 1024
"""Images with more pixels than this (width x height, before any downscale) are refused."""

MIN_SIDE = 16
"""Images with a side shorter than this many pixels are refused."""

_EXIF_ORIENTATION = 0x0112
_HEIF_REGISTERED = False


class ImageError(ValueError):
    """The input is not a usable image: empty, not an image, truncated, too big or too small.

    The message is one sentence meant for the user (the CLI prints it as `{"error": ...}`).
    """


@dataclass(frozen=True, slots=True)
class LoadedImage:
    """An upright RGB image, possibly decoded at reduced size, and the size it really has.

    Attributes:
        pixels: `(h, w, 3)` uint8 RGB, upright. May be smaller than the original (see
            `scale`).
        width: width in pixels of the full-resolution upright image.
        height: height in pixels of the full-resolution upright image.
        scale: `pixels.shape[1] / width` (1.0 = full resolution; 0.5 = a JPEG decoded at 1/2).
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
            raise ImageError(f"expected an HxWx3 uint8 RGB array, got shape {pixels.shape} {pixels.dtype}")
        h, w = pixels.shape[:2]
        _check_size(w, h)
        return cls(pixels=pixels, width=w, height=h)


def _register_heif() -> None:
    global _HEIF_REGISTERED
    if not _HEIF_REGISTERED:
        try:
            import pillow_heif

            pillow_heif.register_heif_opener()
        except ImportError:  # pragma: no cover - pillow-heif is a dependency
            pass
        _HEIF_REGISTERED = True


def _read_source(source: bytes | bytearray | memoryview | str | Path) -> bytes:
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    else:
        path = Path(source)
        try:
            with path.open("rb") as fh:
                data = fh.read(MAX_BYTES + 1)
        except FileNotFoundError:
            raise ImageError(f"no such file: {path}") from None
        except IsADirectoryError:
            raise ImageError(f"{path} is a directory, not an image") from None
        except OSError as exc:
            raise ImageError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not data:
        raise ImageError("the image file is empty (0 bytes)")
    if len(data) > MAX_BYTES:
        raise ImageError(f"the image file is too large: more than {MAX_BYTES // 2**20} MiB")
    return data


def _check_size(w: int, h: int) -> None:
    if w * h > MAX_PIXELS:
        raise ImageError(
            f"image is too large: {w}x{h} = {w * h / 1e6:.0f} megapixels "
            f"(the limit is {MAX_PIXELS / 1e6:.0f}); scale it down first"
        )
    if min(w, h) < MIN_SIDE:
        raise ImageError(f"image is too small to show tiles: {w}x{h} pixels (need {MIN_SIDE}+ on each side)")


def _to_rgb(im: Image.Image) -> np.ndarray:
    """Any PIL mode -> `(h, w, 3)` uint8 RGB (alpha composited on white)."""
    mode = im.mode
    if mode == "RGB":
        return np.asarray(im)
    if mode in ("I;16", "I;16L", "I;16B", "I;16N", "I", "F"):
        a = np.asarray(im)
        if mode.startswith("I;16"):
            a8 = (a.astype(np.uint16) >> 8).astype(np.uint8)
        else:
            a = a.astype(np.float64)
            hi = 65535.0 if a.max(initial=0) > 255 else 255.0
            a8 = np.clip(a * (255.0 / hi), 0, 255).astype(np.uint8)
        return np.repeat(a8[:, :, None], 3, axis=2)
    if mode == "P" and "transparency" in im.info:
        im = im.convert("RGBA")
    if mode in ("RGBA", "LA", "PA", "La", "RGBa") or im.mode == "RGBA":
        im = im.convert("RGBA")
        background = Image.new("RGBA", im.size, (255, 255, 255, 255))
        return np.asarray(Image.alpha_composite(background, im).convert("RGB"))
    return np.asarray(im.convert("RGB"))


def _orient(a: np.ndarray, orientation: int) -> np.ndarray:
    """Apply EXIF orientation 1..8 to `(h, w, 3)` pixels (numpy views, one copy at most)."""
    if orientation in (None, 1) or orientation not in range(2, 9):
        return a
    ops = {
        2: lambda x: x[:, ::-1],
        3: lambda x: x[::-1, ::-1],
        4: lambda x: x[::-1],
        5: lambda x: np.swapaxes(x, 0, 1),
        6: lambda x: np.rot90(x, -1),
        7: lambda x: np.swapaxes(x, 0, 1)[::-1, ::-1],
        8: lambda x: np.rot90(x, 1),
    }
    out = ops[orientation](a)
    return np.ascontiguousarray(out)


def open_image(
    source: bytes | bytearray | memoryview | str | Path,
    *,
    min_side: int | None = None,
) -> LoadedImage:
    """Decode an image file into upright RGB pixels, following the module's policy.

    Args:
        source: the encoded image (bytes) or a path to it.
        min_side: allow a JPEG to be decoded at reduced size, keeping its long side >= this
            many pixels (`None`: always full resolution).

    Returns:
        A `LoadedImage` (`pixels` `(h, w, 3)` uint8 RGB, full size `width` x `height`, `scale`).

    Raises:
        ImageError: empty, unreadable, truncated, not an image, more than `MAX_PIXELS`, or a
            side under `MIN_SIDE` pixels.
    """
    t0 = time.perf_counter()
    data = _read_source(source)
    _register_heif()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            im = Image.open(io.BytesIO(data))
            w0, h0 = im.size
            _check_size(w0, h0)
            orientation = 1
            try:
                orientation = int(im.getexif().get(_EXIF_ORIENTATION, 1) or 1)
            except Exception:  # a broken EXIF block does not make the image unusable
                orientation = 1
            if getattr(im, "n_frames", 1) > 1:
                im.seek(0)  # first frame (animated GIF/WebP, MPO with a depth map or preview)
            if min_side and im.format in ("JPEG", "MPO"):
                long0 = max(w0, h0)
                reduce = 1
                while reduce < 8 and long0 / (reduce * 2) >= min_side:
                    reduce *= 2
                if reduce > 1:
                    im.draft(im.mode if im.mode in ("RGB", "L") else "RGB", (w0 // reduce, h0 // reduce))
            im.load()
            pixels = _to_rgb(im)
    except ImageError:
        raise
    except UnidentifiedImageError:
        raise ImageError(
            "not an image, or an image format jxmj cannot read (JPEG, PNG, WebP, HEIC)"
        ) from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageError(
            f"image is too large: more than {MAX_PIXELS / 1e6:.0f} megapixels (the limit); "
            "scale it down first"
        ) from None
    except (OSError, SyntaxError, ValueError, EOFError, IndexError) as exc:
        msg = str(exc) or type(exc).__name__
        if "truncated" in msg or "broken data stream" in msg or isinstance(exc, EOFError):
            raise ImageError("the image file is truncated or corrupt") from None
        raise ImageError(f"cannot decode the image: {msg}") from None
    except MemoryError:
        raise ImageError("image is too large to decode in memory") from None
    pixels = _orient(pixels, orientation)
    if orientation in (5, 6, 7, 8):
        w0, h0 = h0, w0
    scale = pixels.shape[1] / w0
    return LoadedImage(
        pixels=pixels,
        width=w0,
        height=h0,
        scale=scale,
        decode_ms=(time.perf_counter() - t0) * 1000.0,
        source=data,
    )


def load_image(source: bytes | bytearray | memoryview | str | Path) -> np.ndarray:
    """Decode an image at full resolution: `(h, w, 3)` uint8 RGB, EXIF orientation applied.

    Raises:
        ImageError: see `open_image`.
    """
    return open_image(source).pixels


# Pillow refuses truncated files by default; keep it that way (a truncated photo is an error).
ImageFile.LOAD_TRUNCATED_IMAGES = False
