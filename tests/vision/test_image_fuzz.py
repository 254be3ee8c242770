"""A seeded mutation fuzz of `open_image`: every outcome is a decoded image or an `ImageError`.

The corpus is made here, one small picture per accepted format and pixel layout (and a few
formats jxmj refuses, since a phone's "photo.jpg" may hold anything); each case mutates one
seed with a few of: bit flips, interesting bytes, a block deleted, duplicated or moved,
random bytes inserted, truncation. Each run tries the same `FUZZ_CASES` cases (default
20,000, about 5 s on one core; `JXMJ_FUZZ_CASES=63000` for a long run) and stops early at
`FUZZ_SECONDS` (15 s) on a slow machine, so it is bounded in CI. Decoders raise many kinds of
error (RuntimeError for AVIF, BLPFormatError, NotImplementedError for DDS); none may escape.
"""

from __future__ import annotations

import io
import os
import random
import struct
import time

import numpy as np
import pytest
from PIL import Image

from vision import ImageError, open_image
from vision.image import ERROR_CODES

FUZZ_CASES = int(os.environ.get("JXMJ_FUZZ_CASES", "20000"))
FUZZ_SECONDS = float(os.environ.get("JXMJ_FUZZ_SECONDS", "15"))
SEED = 15


def _save(im: Image.Image, fmt: str, **kw) -> bytes:
    buf = io.BytesIO()
    im.save(buf, fmt, **kw)
    return buf.getvalue()


def corpus() -> dict[str, bytes]:
    """Small seeds: every accepted format and pixel layout, plus some refused formats."""
    import pillow_heif

    pillow_heif.register_heif_opener()
    rng = np.random.default_rng(SEED)
    rgb = Image.fromarray(rng.integers(0, 255, (40, 56, 3), np.uint8))
    rgba = Image.fromarray(rng.integers(0, 255, (40, 56, 4), np.uint8), "RGBA")
    grey16 = Image.fromarray((rng.integers(0, 65535, (40, 56))).astype(np.uint16))
    exif = Image.Exif()
    exif[0x0112] = 6
    seeds = {
        "jpeg": _save(rgb, "JPEG", quality=80),
        "jpeg_progressive_exif": _save(rgb, "JPEG", progressive=True, exif=exif.tobytes()),
        "jpeg_cmyk": _save(rgb.convert("CMYK"), "JPEG"),
        "jpeg_grey": _save(rgb.convert("L"), "JPEG"),
        "mpo": _save(rgb, "MPO", save_all=True, append_images=[rgb.resize((28, 20))]),
        "png_rgb": _save(rgb, "PNG"),
        "png_rgba": _save(rgba, "PNG"),
        "png_palette_transparent": _save(rgb.convert("P"), "PNG", transparency=3),
        "png_grey16": _save(grey16, "PNG"),
        "png_1bit": _save(rgb.convert("1"), "PNG"),
        "png_optimized": _save(rgb, "PNG", optimize=True),
        "apng": _save(rgb, "PNG", save_all=True, append_images=[rgba], duration=50),
        "webp_lossy": _save(rgb, "WEBP", quality=60),
        "webp_lossless_alpha": _save(rgba, "WEBP", lossless=True),
        "webp_animated": _save(rgb, "WEBP", save_all=True, append_images=[rgba], duration=50),
        "heif": _save(rgb, "HEIF", quality=60),
        "avif": _save(rgb, "AVIF", quality=60),
        "avif_alpha": _save(rgba, "AVIF", quality=60),
        # refused formats, as a mislabelled upload would bring them
        "tiff": _save(rgb, "TIFF"),
        "gif": _save(rgb, "GIF"),
        "bmp": _save(rgb, "BMP"),
        "dds": _save(rgba, "DDS"),
        "blp": _save(rgb.convert("P"), "BLP"),
    }
    return seeds


def mutate(data: bytes, rnd: random.Random) -> bytes:
    """One to four random edits of `data` (deterministic for a given `rnd` state)."""
    b = bytearray(data)
    for _ in range(rnd.randint(1, 4)):
        op = rnd.randrange(7)
        n = len(b)
        if n < 4:
            break
        i = rnd.randrange(n)
        if op == 0:  # bit flips
            for _ in range(rnd.randint(1, 8)):
                j = rnd.randrange(n)
                b[j] ^= 1 << rnd.randrange(8)
        elif op == 1:  # interesting values, often in a header length/size field
            j = rnd.randrange(min(n, 64)) if rnd.random() < 0.5 else i
            b[j : j + 2] = rnd.choice([b"\x00\x00", b"\xff\xff", b"\x7f\xff", b"\x80\x00", b"\x00\x01"])
        elif op == 2:  # delete a block
            del b[i : i + rnd.randint(1, 64)]
        elif op == 3:  # duplicate a block
            k = rnd.randint(1, 64)
            b[i:i] = b[i : i + k]
        elif op == 4:  # insert random bytes
            b[i:i] = rnd.randbytes(rnd.randint(1, 16))
        elif op == 5:  # truncate
            del b[max(8, i) :]
        else:  # a 32-bit big or little endian number somewhere in the header
            j = rnd.randrange(min(n, 48))
            value = rnd.choice([0, 1, 2**16, 2**31 - 1, 2**32 - 1])
            b[j : j + 4] = struct.pack(rnd.choice([">I", "<I"]), value)
    return bytes(b)


def test_corpus_seeds_decode_or_are_refused_by_format():
    seeds = corpus()
    for name, data in seeds.items():
        if name in ("tiff", "gif", "bmp", "dds", "blp"):
            with pytest.raises(ImageError) as exc:
                open_image(data)
            assert exc.value.code == "unsupported_format", name
        else:
            loaded = open_image(data)
            assert loaded.pixels.dtype == np.uint8 and loaded.pixels.shape[2] == 3, name
            assert {loaded.width, loaded.height} == {56, 40}, name


@pytest.mark.filterwarnings("ignore")  # Pillow warns about the corrupt EXIF blocks it skips
def test_mutated_images_decode_or_raise_image_error():
    seeds = list(corpus().items())
    rnd = random.Random(SEED)
    outcomes = {"decoded": 0, **{code: 0 for code in ERROR_CODES}}
    t0 = time.perf_counter()
    done = 0
    for case in range(FUZZ_CASES):
        if time.perf_counter() - t0 > FUZZ_SECONDS:
            break
        done += 1
        name, seed = seeds[case % len(seeds)]
        data = mutate(seed, rnd)
        try:
            loaded = open_image(data, min_side=rnd.choice([None, 20]))
        except ImageError as exc:  # anything else fails the test, naming the case
            assert exc.code in ERROR_CODES and str(exc) and "\n" not in str(exc)
            outcomes[exc.code] += 1
        except BaseException as exc:  # pragma: no cover - the failure this test exists for
            raise AssertionError(f"case {case} ({name}): {type(exc).__name__}: {exc}") from exc
        else:
            assert loaded.pixels.ndim == 3 and loaded.pixels.shape[2] == 3
            assert loaded.pixels.dtype == np.uint8 and loaded.width * loaded.height > 0
            outcomes["decoded"] += 1
    seconds = time.perf_counter() - t0
    print(f"fuzz: {done} cases in {seconds:.1f} s: {outcomes}")
    # the mutations reach both sides: some still decode, many are refused as corrupt
    assert done >= min(FUZZ_CASES, 2000)
    assert outcomes["decoded"] > done // 20 and outcomes["corrupt"] > done // 10
