"""The grey reader's rules on the arranged detections (`vision.grey_reader`, `vision.grey_doubt`,
`vision.grey_text`), run last by the reader: the disagreement (`flag_by_grey`), the doubt
(`doubt_by_grey`; an honour the text reader names is not doubted, `text_veto`), then the 萬
tiles it doubts read as text (`check_characters`); last, with or without the grey reader, copies
of one reading printed in other inks (`vision.ink_match`), then, where the photo holds a doubt,
the suit tiles whose corner index shows another number (`vision.corner_index`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from vision.corner_index import flag_by_index
from vision.detection import Detection
from vision.grey_doubt import doubt_by_grey, text_veto
from vision.grey_reader import GreyView, flag_by_grey
from vision.grey_text import check_characters
from vision.ink_match import flag_unlike_inks

if TYPE_CHECKING:
    from vision.reader_config import ReaderConfig
    from vision.text_reader import TextReader


def grey_check(
    seen: dict[tuple[float, ...], GreyView],
    dets: Sequence[Detection],
    source: tuple[np.ndarray, float],
    config: ReaderConfig,
    text: TextReader | None = None,
) -> list[Detection]:
    """The detections after the grey reader's rules (`read_grey`'s views `seen`, by box; nothing
    changes without them or with `config.grey_flag_p` None): the disagreement (`flag_by_grey`),
    the doubt (`vision.grey_doubt`; an honour the text reader names is not doubted), then the
    萬 tiles it doubts, read as text (`vision.grey_text.check_characters`, with `text`); last, with
    or without the grey reader, the copies of one reading printed in other inks are flagged
    (`vision.ink_match.flag_unlike_inks`, `config.ink_match_z`), and the suit tiles whose corner
    index shows another number (`vision.corner_index.flag_by_index`, `config.index_p`, with `text`).

    Args:
        source: the pixels the faces are cut from (RGB uint8 `[H, W, 3]`) and their scale to the photo.
    """
    if not seen or config.grey_flag_p is None:
        out = flag_unlike_inks(dets, *source, config.ink_match_z)
        return flag_by_index(out, *source, text, config.index_p)
    views = [seen.get(tuple(d.xyxy)) if not d.face_down else None for d in dets]
    out, changed = flag_by_grey(dets, views, config.grey_flag_p, config.grey_rename_p)
    keep = [None if k in changed and out[k].tile != dets[k].tile else v for k, v in enumerate(views)]
    doubted = doubt_by_grey(out, keep, config.grey_doubt_p)  # a renamed tile is not doubted again
    out = text_veto(out, doubted, text, source)  # an honour the text reader names is not doubted
    out = check_characters(out, keep, text, source, config.grey_text_p)
    out = flag_unlike_inks(out, *source, config.ink_match_z)
    return flag_by_index(out, *source, text, config.index_p)


__all__ = ["grey_check"]
