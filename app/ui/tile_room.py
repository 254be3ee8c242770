"""Is there room in a photo for one tile the reader can read? The rule is `vision.room`'s (the
reader answers `too_small` by it as well); the app asks first, to say "too small" in its words.

>>> tile_room(60, 24, (64, 48)), tile_room(1200, 800, (64, 48))
(32, None)
"""

from __future__ import annotations

from vision.room import TILE_ROOM, min_tile_px, tile_room

__all__ = ["TILE_ROOM", "min_tile_px", "tile_room"]
