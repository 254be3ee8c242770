"""Is there room in a photo for one tile the reader can read? The one rule the reader
(`TileReader.detect`: `too_small`) and the app (`app.ui.tile_room`) both use.

The minimum comes from the classifier, not from a photo: `TILE_ROOM` of its crop height
(`input_size[0]`; 64 px for models 0.6.x, so 32 px). Measured on `real_rows_public` and the
bundled sample (models 0.6.2): 770 tile crops read confidently at full size, shrunk to h px tall
and classified again (read alike: the same tile), and the 29 whole photos shrunk until their row's
tiles were h px tall and read by `TileReader.detect` (tiles read: the labelled tiles found):

| tile height | crops read alike | whole photos, tiles read |
|---|---|---|
| 12 px | 0.739 | 0.764 |
| 16 px | 0.944 | 0.929 |
| 20 px | 0.992 | 0.973 |
| 24 px | 1.000 | 0.983 |
| 32 px | 1.000 | 0.989 |
| 48 px | 1.000 | 0.990 |

Whole photos read as well as large ones from half the crop height, not below. A photo whose
short side is under that cannot hold one such tile (upright or lying), so it is "too small"
instead of the junk tiles a reader finds in a few dozen pixels (a 60 × 24 PNG read as 5–7
tiles). `vision.image.MIN_SIDE` (16 px) stays the decoder's own floor.

>>> tile_room(60, 24, (64, 48)), tile_room(1200, 800, (64, 48))
(32, None)
"""

from __future__ import annotations

TILE_ROOM = 0.5
"""A readable tile is this fraction of the classifier's crop height tall (the module's table)."""


def min_tile_px(crop_size: tuple[int, int]) -> int:
    """The shortest tile, in pixels, read as well as a large one, for a classifier of `(H, W)` crops."""
    return max(1, round(TILE_ROOM * crop_size[0]))


def tile_room(width: int, height: int, crop_size: tuple[int, int]) -> int | None:
    """None when a `width` x `height` photo has room for a readable tile, else the pixels it needs."""
    need = min_tile_px(crop_size)
    return need if min(width, height) < need else None


def check_room(width: int, height: int, crop_size: tuple[int, int]) -> None:
    """Raises `vision.image.ImageError` `too_small` (with `width`, `height`, `limit`) when a
    `width` x `height` image has no room for a readable tile (`tile_room`)."""
    need = tile_room(width, height, crop_size)
    if need:
        from vision.image import ImageError

        raise ImageError(
            "too_small",
            f"image is too small to hold a readable tile: {width}x{height} pixels "
            f"(need {need}+ on each side)",
            width=width,
            height=height,
            limit=need,
        )


__all__ = ["TILE_ROOM", "check_room", "min_tile_px", "tile_room"]
