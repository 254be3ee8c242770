"""What decoding a picture costs in *time*, bounded before and while it is decoded
(`vision.cost` bounds its memory).

Most of a decode's time is proportional to its pixels, which `vision.image.MAX_PIXELS` bounds.
Two JPEG shapes cost time per *byte* instead, and are refused from the markers before any
decoder runs (`check_jpeg`):

- **Scans.** A progressive JPEG is sent in scans, and libjpeg walks every block of the
  components a scan holds once per scan, even when the scan says nothing (an end-of-band run
  of ~20 bytes covers a whole picture). A normal progressive JPEG has ~10 scans (libjpeg's
  script: 6 for grey, 10 for colour; mozjpeg's a few more); 13,300 of them in a 1 MB file
  of 7000 x 7000 held a core for a minute. More than `MAX_SCANS` is `too_many_scans`.
- **EXIF segments.** Pillow joins a JPEG's APP1 ``Exif`` segments by repeated ``bytes +=``:
  quadratic in their count (600 segments of 64 KB: ~2 s per open, and a photo is opened up to
  three times). A camera writes one (EXIF's own limit is one 64 KB segment); more than
  `MAX_EXIF_SEGMENTS` is `too_much_metadata`, and so are more than `MAX_SEGMENTS` segments of
  any kind (each costs Pillow's parser, which reads the markers a byte at a time, and this
  walk). Other APPn segments (ICC profiles, extended XMP: a phone's depth map) cost time linear
  in their bytes and are not limited otherwise.

Whatever the format, a decode that has spent more than `DECODE_SECONDS` of its thread's CPU
time when the decoder asks for more of the file is stopped (`TimedBytes`: `DecodeTooSlow`,
which `vision.image.open_image` reports as `too_slow`). The decoders of JPEG and PNG read the
file in 64 KB steps, so what they may overrun is the work of one step, which the limits above
keep small; the WebP, HEIF and AVIF libraries read the whole file at once and are bounded by
their pixels and memory (`vision.cost`).
"""

from __future__ import annotations

import io
import re
import threading
import time
from dataclasses import dataclass

from vision.image_errors import ImageError

__all__ = [
    "DECODE_SECONDS",
    "MAX_EXIF_SEGMENTS",
    "MAX_SCANS",
    "MAX_SEGMENTS",
    "DecodeTooSlow",
    "JpegMarkers",
    "TimedBytes",
    "check_jpeg",
    "forget",
    "jpeg_markers",
    "walked_once",
]

MAX_SCANS = 100
"""Scans (SOS segments) a JPEG's primary picture may hold: 10x libjpeg's progressive script; at
100 megapixels each empty scan costs ~6 ms, so they cost at most ~0.6 s."""

MAX_EXIF_SEGMENTS = 16
"""APP1 ``Exif`` segments a JPEG may hold (a camera writes one; Pillow's joining them then copies
at most 16 x 1 MB)."""

DECODE_SECONDS = 1.5
"""CPU seconds one decode may spend: twice the slowest photo measured (a 72-megapixel progressive
JPEG, the largest the memory budget lets through, 0.77 s; a 100-megapixel baseline one 0.40 s;
a 12-megapixel phone photo ~0.05 s). `jxmj detect` decodes a photo up to three times (`vision.reader`)."""

MAX_SEGMENTS = 20_000
"""Segments (markers) walked at most: a photo has a few dozen (up to ~300 with a large ICC profile
or a phone's depth map in extended XMP); millions of empty ones would hold this walk (and Pillow's
own, a byte at a time) for a minute. Past it the walk stops: `too_much_metadata`."""

_MARKER = re.compile(rb"\xff[^\x00\xd0-\xd7\xff]")
"""The next marker after a scan's entropy-coded data: 0xFF followed by neither a stuffed 0x00, a
restart marker (RSTn, inside the data) nor a fill byte (0xFF; the marker starts at the last one)."""

_JUNK_END = re.compile(rb"\xff[^\x00\xff]")
"""Where junk or fill bytes between segments end: libjpeg's `next_marker` skips every byte up to
a 0xFF followed by neither a stuffed 0x00 nor a fill byte (0xFF), and reads the marker there."""


class DecodeTooSlow(Exception):
    """A decode spent more than its CPU seconds (`TimedBytes`)."""


@dataclass(frozen=True, slots=True)
class JpegMarkers:
    """What a JPEG's markers say about its primary picture (start of image to end of image)."""

    scans: int
    exif_segments: int
    segments: int = 0


def jpeg_markers(data: bytes) -> JpegMarkers | None:
    """Count the scans, APP1 Exif segments and all segments of a JPEG's primary picture, walking
    its segments by their lengths and each scan's entropy-coded data to the next marker; None
    when `data` does not start as a JPEG. Junk between segments and a segment length under 2 are
    passed over as libjpeg passes over them (it decodes on with a warning: a walk that stopped
    there let a scan bomb through); a walk that runs off the data stops there with what it
    counted (the decoder reports the damage), and so does one past `MAX_SEGMENTS` segments.

    >>> scan = b"\\xff\\xda\\x00\\x02" + b"\\x12\\xff\\x00\\x34\\xff\\xd0\\x56"  # a stuffed 0xFF, a restart
    >>> jpeg_markers(b"\\xff\\xd8" + scan + scan + b"\\xff\\xd9")
    JpegMarkers(scans=2, exif_segments=0, segments=2)
    """
    if not data.startswith(b"\xff\xd8"):
        return None
    i, scans, exif, segments = 2, 0, 0, 0
    while i + 4 <= len(data) and segments <= MAX_SEGMENTS:
        if data[i] != 0xFF or data[i + 1] in (0x00, 0xFF):  # junk or fill bytes before a marker:
            found = _JUNK_END.search(data, i)  # libjpeg skips them (junk with a warning), in one step
            if found is None:
                break
            i = found.start()
            continue
        marker = data[i + 1]
        if marker == 0xD9:  # end of image: what follows (an MPO's other pictures) is not decoded
            break
        if marker in (0x01, *range(0xD0, 0xD8)):  # markers without a length
            i += 2
            continue
        segments += 1
        end = i + 2 + max(2, int.from_bytes(data[i + 2 : i + 4], "big"))  # libjpeg skips no less
        if marker == 0xE1 and data[i + 4 : i + 10] == b"Exif\x00\x00":
            exif += 1
        elif marker == 0xDA:
            scans += 1
            found = _MARKER.search(data, end)
            if found is None:
                break
            end = found.start()
        i = end
    return JpegMarkers(scans, exif, segments)


_last = threading.local()
"""This thread's last walk: `(data, JpegMarkers | None)` (`walked_once`)."""


def walked_once(data: bytes) -> JpegMarkers | None:
    """`jpeg_markers(data)`, walked once for the same `bytes` object checked again in a row on
    this thread: a photo is checked for each plan of its cost (`vision.image.read_cost`) and
    again when it is decoded, three walks of its ~2 MB (~0.7 ms each for a 12 MP photo). Only
    an immutable `bytes` is remembered (by identity: a buffer that may change is walked again);
    `forget` lets it go."""
    last = getattr(_last, "walk", None)
    if last is not None and last[0] is data:
        return last[1]
    found = jpeg_markers(data)
    if type(data) is bytes:
        _last.walk = (data, found)
    return found


def forget() -> None:
    """Let go of this thread's last walked bytes (`walked_once`): the photo is decoded."""
    _last.walk = None


def check_jpeg(data: bytes) -> None:
    """Refuse a JPEG whose markers say its decode would cost time per byte: `too_many_scans`
    past `MAX_SCANS`, `too_much_metadata` past `MAX_EXIF_SEGMENTS` (nothing for other files)."""
    found = walked_once(data)
    if found is None:
        return
    if found.scans > MAX_SCANS:
        raise ImageError(
            "too_many_scans",
            f"this JPEG is sent in {found.scans} scans (at most {MAX_SCANS} are read; a photo has about "
            "10): decoding it would take minutes; save it again as a JPEG",
            scans=found.scans,
            limit=MAX_SCANS,
        )
    for count, limit, what in (
        (found.exif_segments, MAX_EXIF_SEGMENTS, "EXIF blocks (a camera writes one"),
        (found.segments, MAX_SEGMENTS, "header blocks (a photo has a few dozen"),
    ):
        if count > limit:
            raise ImageError(
                "too_much_metadata",
                f"this JPEG holds {count} {what}; at most {limit} are read): "
                "save it again without its metadata",
                segments=count,
                limit=limit,
            )


class TimedBytes(io.BytesIO):
    """A picture's bytes as its decoder reads them: a read after the reading thread has spent
    `seconds` of CPU time since this was made raises `DecodeTooSlow` (Pillow's decoders read
    the file step by step, and pass that exception on)."""

    def __init__(self, data: bytes, seconds: float) -> None:
        super().__init__(data)
        self.seconds = seconds
        self._until = time.thread_time() + seconds

    def read(self, size: int | None = -1) -> bytes:
        if time.thread_time() > self._until:
            raise DecodeTooSlow(f"decoding took more than {self.seconds:g} s of CPU time")
        return super().read(size)
