"""A sure stick count that disagrees flags the tile (issue 35, "Your set, read right").

Some sets draw 6條 and 9條 as columns of sticks that touch end to end; once their red middle
column is gone (a recoloured set) the classifier reads a 9 as a 6, surely, and no flag shows it.
The stick counter (`vision.pip_sticks`, its columns: `vision.pip_columns`) counts them. The rule
(`ReaderConfig.sticks_flag_conf`; on by default at `STICKS_FLAG_CONF`): a face up tile the
classifier reads, unflagged, as 6條 whose sticks count 9 at that confidence or more is flagged, 9條
its runner-up. Only 6條 is counted (`COUNTED`): every confident misread of the kind the val split
and its stand-ins show is a 9 read as a 6 (27 of 27), and a count costs ~15 ms of CPU a face (a
9條 read right was half the counts, for nothing); counts of the other bamboo tiles disagree with
right readings too often (`models/MODEL.md`, "Sticks that touch").
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.detection import Detection
from vision.pips import count_pips
from vision.text_check import face_crop

STICKS_FLAG_CONF = 0.1
"""The count's confidence from which it flags: the least of 0.1, 0.15, 0.2, 0.3 that flags no right
tile on the val split of real_photos_rf, original and swap stand-in (6 of swap's 10 unflagged
6條/9條 misreads flagged; held out: 7 of mono's 17, 1 of hue's 2, no right tile on mono, hue,
bold, real_sets_dev, real_rows_public; the vote's confidence is a share over all the masks'
counters, hence low; `datasets/reports/model-history.md`, "Sticks that touch")."""
PAIR = {"6s": "9s", "9s": "6s"}
"""The reading and the count that disagrees with it."""
COUNTED = frozenset({"6s"})
"""The readings counted (module docstring)."""


def flag_by_sticks(
    dets: list[Detection], pixels: np.ndarray, scale: float, min_conf: float = STICKS_FLAG_CONF
) -> tuple[list[Detection], list[int]]:
    """`(detections, indices flagged)`: the rule of the module docstring.

    Args:
        dets: detections, `xyxy` in full-photo pixels.
        pixels: the RGB uint8 `[H, W, 3]` the faces are cut from, at `scale` to the photo.
    """
    out, flagged = list(dets), []
    for k, d in enumerate(dets):
        if d.uncertain or d.face_down or d.tile not in COUNTED:
            continue
        count = count_pips(face_crop(pixels, scale, d), "s")
        if count is not None and count.conf >= min_conf and f"{count.count}s" == PAIR[d.tile]:
            out[k] = replace(d, uncertain=True, second=PAIR[d.tile])
            flagged.append(k)
    return out, flagged


__all__ = ["COUNTED", "STICKS_FLAG_CONF", "flag_by_sticks"]
