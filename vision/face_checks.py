"""The readers that check a classified face by what it says and shows, after the classifier.

`check_faces` runs, in order and each only where its `ReaderConfig` switch is set: the text
reader on character faces (`vision.text_check`, `text_min_score`), the pip counter on flagged
suit tiles (`vision.pips_check`, `pips_min_conf`), the stick count of unflagged 6條
(`vision.sticks_flag`, `sticks_flag_conf`, on by default: a sure count of 9 flags it, never
cleared by flag 5) and the suit by its shapes (`vision.shape_check`, `shape_min_conf`).
Each may rename a tile it reads surely and flags one
it doubts (issue 35 items 1 and 2). Then flag 5 (`vision.flagging`): a flagged dot or bamboo tile
whose shapes show its suit is to be cleared (`vision.shape_check.confirm_suit`, `shape_confirm`;
the text reader's weak agreement clears a character tile in `vision.text_check`; the grey reader's
sure agreement any tile, `vision.grey_reader.agrees`, `grey_clear_p`), and so is a flag
the readers leave on a tile whose flag score is under the model's show threshold (`show` False):
after the roles (`vision.arrange.arrange`'s `clear`), which read a box in doubt as a marker.
Flag 6: a tile a reader renamed and left in doubt (the text reader's word under
`ReaderConfig.weak_rename`, its runner-up rule) is never cleared.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.detection import Detection
from vision.grey_reader import GreyView, agrees
from vision.pips_check import check_with_pips
from vision.reader_config import ReaderConfig
from vision.shape_check import check_with_shape, confirm_suit
from vision.sticks_flag import flag_by_sticks
from vision.text_check import check_with_text
from vision.text_reader import TextReader


def check_faces(
    dets: list[Detection],
    probs: Sequence[np.ndarray | None],
    classes: Sequence[str],
    source: tuple[np.ndarray, float],
    text: TextReader | None,
    config: ReaderConfig,
    show: Sequence[bool] | None = None,
    grey: dict[tuple[float, ...], GreyView] | None = None,
) -> tuple[list[Detection], list[bool]]:
    """The detections after the face checks `config` switches on, and per detection whether its
    flag is to be cleared once the roles are read (flag 5, `vision.arrange.arrange`'s `clear`:
    the roles and the layout see the flags as flag 2 gives them, a box in doubt may be a marker).

    Args:
        dets: the classified detections, `xyxy` in full-photo pixels.
        probs: per detection its class probabilities (`[len(classes)]`) or None.
        classes: the classifier's classes, in its output order.
        source: the pixels crops are cut from (RGB uint8 `[H, W, 3]`) and their scale to the photo.
        text: the text reader, None when its model is absent.
        config: the reader's settings.
        show: per detection, whether a flag the score gave and the checks left is shown (None:
            all are); a flag a check adds always is.
        grey: the grey reader's views by box (`vision.grey_reader.read_grey`): a flagged tile it
            names too from `config.grey_clear_p` on is to be cleared (`agrees`).
    """
    before, read = [d.uncertain for d in dets], [d.tile for d in dets]
    pixels, scale = source
    if text is not None and config.text_min_score is not None:
        dets = check_with_text(dets, pixels, scale, text, config.text_min_score, config.weak_rename)
    if config.pips_min_conf is not None:  # flagged suit tiles counted
        dets = check_with_pips(dets, pixels, scale, config.pips_min_conf)
    stuck: list[int] = []
    if config.sticks_flag_conf is not None:  # a 6條 whose sticks count 9 is flagged
        dets, stuck = flag_by_sticks(dets, pixels, scale, config.sticks_flag_conf)
    if config.shape_min_conf is not None:  # the suit by its shapes
        dets = check_with_shape(dets, list(probs), classes, pixels, scale, config.shape_min_conf)
    clear = [
        d.uncertain and was and show is not None and not show[k]
        for k, (d, was) in enumerate(zip(dets, before, strict=True))
    ]
    if config.shape_confirm is not None:  # agreement clears doubt: the suit its shapes show
        sure = confirm_suit(dets, pixels, scale, config.shape_confirm)
        clear = [c or (d.uncertain and not s.uncertain) for c, d, s in zip(clear, dets, sure, strict=True)]
    if grey:  # agreement clears doubt: the grey reader, trained apart from colour, names it surely
        agree = [agrees(d, grey.get(tuple(d.xyxy)), config.grey_clear_p) for d in dets]
        clear = [c or (d.uncertain and a) for c, d, a in zip(clear, dets, agree, strict=True)]
    for k in stuck:  # the suit is right, the number in doubt: flag 5 does not clear it
        clear[k] = False
    if config.weak_rename is not None:  # flag 6: a tile renamed and left in doubt stays flagged
        clear = [c and d.tile == t for c, d, t in zip(clear, dets, read, strict=True)]
    return dets, clear
