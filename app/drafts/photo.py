"""A draft's photo bounded to what the reader needs, not the bytes uploaded.

A phone photo as taken (≤ :data:`MAX_PHOTO_BYTES`) is kept as it is, so a restored draft reads the
very bytes the page read. A larger one (a 40 MB upload, a JPEG padded with metadata) is decoded by
`vision.open_image` (its memory and time bounds, at reduced scale where it can) and kept as a JPEG
whose long side is at most :data:`MAX_SIDE` pixels (the reader decodes at a long side of ~1,000
and reads small tiles again at a higher scale) and whose bytes are at most :data:`MAX_PHOTO_BYTES`.
"""

from __future__ import annotations

import io
import logging

__all__ = ["MAX_PHOTO_BYTES", "MAX_SIDE", "bounded"]

MAX_PHOTO_BYTES = (
    8 * 2**20
)  # a 12 MP phone JPEG (2-6 MB) is kept byte for byte: a restored draft reads what the page read
MAX_SIDE = 3072
QUALITIES = (85, 70, 50)

log = logging.getLogger("jxmj.app")


def bounded(blob: bytes) -> bytes | None:
    """`blob` when it is at most :data:`MAX_PHOTO_BYTES`, else the picture re-encoded as a bounded
    JPEG; None when it does not decode (no vision stack, a refused picture): the draft keeps the
    hand without its photo."""
    if len(blob) <= MAX_PHOTO_BYTES:
        return blob
    try:
        from PIL import Image

        from vision import open_image

        loaded = open_image(blob, min_side=MAX_SIDE)
        img = Image.fromarray(loaded.pixels)
    except Exception:  # the photo already read on the page; here a refusal only drops the copy
        log.warning("a draft's photo was not bounded: not kept", exc_info=True)
        return None
    side = MAX_SIDE
    while side >= 256:
        img.thumbnail((side, side))
        for quality in QUALITIES:
            out = io.BytesIO()
            img.save(out, "JPEG", quality=quality)
            if out.tell() <= MAX_PHOTO_BYTES:
                return out.getvalue()
        side //= 2
    return None
