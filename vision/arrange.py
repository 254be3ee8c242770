"""After reading: where to look again (`refine_region`, the coarse-to-fine localizer pass) and
how the named tiles become a hand (`arrange`: roles, fifth copies, groups, melds).

Boxes are `xyxy` in pixels; `vision.reader.TileReader.detect` calls both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

import numpy as np

from vision.detection import Detection, Group, Rejected
from vision.dice import dice
from vision.flagging import fifth_copies
from vision.layout import group_tiles
from vision.reading import beyond_the_set
from vision.roles import meld_roles, table_roles, uncut


class RefineKnobs(Protocol):
    """The `ReaderConfig` fields `refine_region` reads."""

    @property
    def refine_min_gain(self) -> float: ...
    @property
    def refine_margin(self) -> float: ...


def refine_region(
    xyxy: np.ndarray, hw: tuple[int, int], input_size: tuple[int, int], cfg: RefineKnobs
) -> tuple[int, int, int, int] | None:
    """The region `(x0, y0, x1, y1)` (pixels) for a second localizer pass, or None.

    When the boxes found fill a small part of a large image, the region that holds them (widened
    by `cfg.refine_margin` of its size and by two tiles) is localized again, so far tiles get
    `cfg.refine_min_gain` times or more the pixels. Only where the image has those pixels: its
    long side must be at least `cfg.refine_min_gain` x the localizer input's.
    """
    if cfg.refine_min_gain <= 0 or len(xyxy) < 2:
        return None
    h, w = hw
    tile = float(np.median(np.maximum(xyxy[:, 2] - xyxy[:, 0], xyxy[:, 3] - xyxy[:, 1])))
    bx0, by0 = xyxy[:, 0].min(), xyxy[:, 1].min()
    bx1, by1 = xyxy[:, 2].max(), xyxy[:, 3].max()
    pad = max(cfg.refine_margin * max(bx1 - bx0, by1 - by0), 2 * tile)
    x0, y0 = max(0, int(bx0 - pad)), max(0, int(by0 - pad))
    x1, y1 = min(w, int(np.ceil(bx1 + pad))), min(h, int(np.ceil(by1 + pad)))
    side = max(x1 - x0, y1 - y0)
    if (
        side <= 0
        or max(w, h) / side < cfg.refine_min_gain
        or max(w, h) < cfg.refine_min_gain * max(input_size)
    ):
        return None
    return x0, y0, x1, y1


def arrange(
    dets: list[Detection],
    image_size: tuple[int, int] | None = None,
    margins: Sequence[float] | None = None,
    markers: Sequence[bool] | None = None,
    rejected: list[Rejected] | None = None,
    clear: Sequence[bool] | None = None,
) -> tuple[list[Detection], list[Group]]:
    """Give every tile its role (`vision.roles.table_roles`; `image_size` = `(width, height)`
    pixels, for nearness to the bottom edge and boxes cut by it, `vision.roles.uncut`), mark
    `uncertain` every reading of a tile the hand's other tiles show more often than a set holds
    (`vision.reading.beyond_the_set`; with the readings' `margins`, only the copies beyond a
    set with the lowest margins, `vision.flagging.fifth_copies`), group the `hand` tiles
    (`vision.layout`) and make those of sets laid down `meld`. The tiles `markers` names (a red
    marker, `vision.markers.red_markers`) are `other` whatever their place. The tiles `clear` names
    (flag 5, `vision.face_checks`) are then not `uncertain`, but for a copy beyond the set: the roles
    and the groups are read with their flags. With `rejected` (a list), dice lying against the hand
    row (`vision.dice`) leave the detections for it, told by the flags as they were before the
    clears (the classifier's own doubt, whatever flag 5's show threshold clears).

    Returns:
        The detections in reading order (the groups' tiles, then the `off_row` ones: roles
        `discard`, `wall`, `other`) and the groups, indices into that list.
    """
    geo = uncut(dets, image_size)  # the layout sees boxes cut by the photo's edge made whole
    roles = table_roles(geo, image_size)
    roles = [("other" if markers and markers[i] else r) for i, r in enumerate(roles)]
    kept = [replace(d, role=r) if d.role != r else d for d, r in zip(dets, roles, strict=True)]
    inside = [i for i, r in enumerate(roles) if r == "hand"]
    tiles = [kept[i].tile for i in inside]
    over_set = beyond_the_set(tiles) if margins is None else fifth_copies(tiles, [margins[i] for i in inside])
    over_of = dict(zip(inside, over_set, strict=True))
    for i, over in over_of.items():
        if over:
            kept[i] = replace(kept[i], uncertain=True)
    groups = group_tiles([replace(geo[i], uncertain=kept[i].uncertain) for i in inside])
    for j in meld_roles(groups):
        kept[inside[j]] = replace(kept[inside[j]], role="meld")
    order = [inside[i] for g in groups for i in g.tiles]
    order += [i for i, r in enumerate(roles) if r != "hand"]
    flagged = [kept[i] for i in order]  # the flags before the clears: what `dice` reads
    for i in (i for i, c in enumerate(clear or ()) if c and not (roles[i] == "hand" and over_of[i])):
        kept[i] = replace(kept[i], uncertain=False)
    out = [kept[i] for i in order]
    if rejected is not None:  # a die is off the hand: after the groups' tiles, their indices stay
        die = dice(flagged)
        rejected += [Rejected(d.xyxy, d.conf) for d, x in zip(out, die, strict=True) if x]
        out = [d for d, x in zip(out, die, strict=True) if not x]
    remap = {j: n for n, j in enumerate(i for g in groups for i in g.tiles)}
    return out, [g.reindexed(remap) for g in groups]


__all__ = ["RefineKnobs", "arrange", "refine_region"]
