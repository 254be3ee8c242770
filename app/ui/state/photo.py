"""A photo read for the hand in progress, as a value (`app.ui.services.read_photo` makes one,
`HandInProgress.photo` keeps the last)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # vision is imported lazily: the app opens without it
    from vision.detection import DetectResult

__all__ = ["Photo"]


@dataclass(slots=True)
class Photo:
    """A read photo: its tiles (the typed `DetectResult`), a small preview for drawing boxes,
    `scale` = preview px per full-resolution px, the seconds each step took, `refs`: how many
    references of the table's set it was read with (0: none, as on the score page), and `digest`:
    the sha256 of the bytes first read (kept in the draft with the boxes: a restored photo is the
    same photo, whatever bytes the draft keeps); `cut`: where the preview, cut to the tiles, lies."""

    preview_jpeg: bytes
    scale: float
    result: DetectResult
    seconds: dict[str, float] = field(default_factory=dict)
    refs: int = 0
    digest: str = ""
    cut: tuple[int, int, int] = (0, 0, 0)
    """The preview holds the tiles' part only (`app.ui.services._preview`): its top-left in the
    whole preview's px and the whole preview's long side (0: the whole preview)."""
