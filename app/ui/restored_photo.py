"""A draft's photo shown again with the boxes the player saw (`app.ui.state.draft_boxes`), never
read again: the bytes a draft keeps may not be the bytes read (a photo over
`app.drafts.photo.MAX_PHOTO_BYTES` is kept re-encoded smaller), and a new reading of them may find
other boxes in another order, while the hand's tiles name their boxes by number."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.photo_gate import photo_slot
from app.ui import services
from app.ui.state.photo import Photo

if TYPE_CHECKING:
    from vision.detection import DetectResult

__all__ = ["shown"]


def shown(data: bytes, result: DetectResult, refs: int = 0, digest: str = "") -> Photo:
    """The `Photo` of `result` (its boxes in the pixels of the photo first read), its preview drawn
    from `data` (the draft's bytes, of the same picture at any size): decoded only as large as the
    preview needs, no reader; `refs` and `digest` as the `Photo` first read had them. Raises
    `ImageError`, `PhotoBusy`."""
    from vision import open_image
    from vision.image import decode_cost

    side = services.PREVIEW_SIDE
    with photo_slot(None, cost=decode_cost(data, side)):
        image = open_image(data, min_side=side).pixels
        boxes = [d.xyxy for d in result.detections]
        preview, scale, cut = services._preview(image, result.width, boxes)  # px of the first read
    return Photo(preview, scale, result, {}, refs, digest, cut)
