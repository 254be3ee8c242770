"""JPEGs that cost time per byte, built by hand for the tests (nothing large is committed).

- :func:`scan_bomb`: a progressive JPEG of one flat grey with thousands of scans. Pillow writes
  libjpeg's ~6 scans; the first AC scan (all end-of-band runs: ~20 bytes, whatever the size) is
  copied before the end-of-image marker as often as asked. libjpeg decodes every copy, walking
  every block of the picture once per scan: the cost is scans x blocks.
- :func:`exif_padded`: a baseline JPEG with many full APP1 ``Exif`` segments after its SOI
  (Pillow joins them by repeated ``bytes +=``: quadratic in their count).
"""

from __future__ import annotations

import io

from PIL import Image

SOI, EOI, SOS = b"\xff\xd8", b"\xff\xd9", b"\xff\xda"


def _flat(size: tuple[int, int], **kw) -> bytes:
    buf = io.BytesIO()
    Image.new("L", size, 128).save(buf, "JPEG", quality=90, **kw)
    return buf.getvalue()


def _segment_end(data: bytes, start: int) -> int:
    """Where the scan whose SOS marker is at ``start`` ends: the next marker after its entropy-coded
    data (0xFF followed by neither 0x00 nor a restart marker)."""
    i = start + 2 + int.from_bytes(data[start + 2 : start + 4], "big")
    while True:
        i = data.index(b"\xff", i)
        if data[i + 1] != 0 and not 0xD0 <= data[i + 1] <= 0xD7:
            return i
        i += 2


def scan_bomb(scans: int, size: tuple[int, int] = (64, 64)) -> bytes:
    """A progressive JPEG of ``size`` holding exactly ``scans`` scans (SOS segments)."""
    base = _flat(size, progressive=True)
    starts = [i for i in range(len(base) - 1) if base[i : i + 2] == SOS]  # Pillow's file: no EXIF
    assert base.endswith(EOI) and 2 <= len(starts) <= scans, (len(starts), scans)
    ac = base[starts[1] : _segment_end(base, starts[1])]
    out = base[:-2] + ac * (scans - len(starts)) + EOI
    assert out.count(SOS) == scans  # entropy-coded data never holds FF DA: every one is a scan
    return out


def exif_padded(segments: int, size: tuple[int, int] = (64, 64), payload: int = 65_000) -> bytes:
    """A baseline JPEG of ``size`` with ``segments`` APP1 Exif segments of ``payload`` bytes each."""
    base = _flat(size)
    tiff = b"II*\x00\x08\x00\x00\x00\x00\x00\x00\x00\x00\x00"  # an empty IFD
    body = b"Exif\x00\x00" + tiff + b"\x00" * (payload - 6 - len(tiff))
    app1 = b"\xff\xe1" + (len(body) + 2).to_bytes(2, "big") + body
    return SOI + app1 * segments + base[2:]
