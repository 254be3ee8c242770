"""Run-time knobs of the tile reader (`ReaderConfig`), apart from the reader that uses them
(`vision.reader` re-exports it)."""

from __future__ import annotations

from dataclasses import dataclass

from vision.boxes import LIMITS, check_limit
from vision.corner_index import INDEX_P
from vision.grey_doubt import GREY_DOUBT_P
from vision.grey_look import GREY_MIN_P
from vision.grey_reader import GREY_CLEAR_P, GREY_FLAG_P, GREY_RENAME_P, GREY_TEXT_P
from vision.ink_match import INK_Z
from vision.sticks_flag import STICKS_FLAG_CONF
from vision.text_check import TEXT_MIN_SCORE

__all__ = ["ReaderConfig"]


@dataclass(frozen=True, slots=True)
class ReaderConfig:
    """Run-time knobs of the tile reader (all generic; none is tuned to a photo).

    Attributes:
        conf_threshold: minimum localizer score for a box to be kept (0.01..0.99: the ranges of
            the thresholds are `vision.boxes.LIMITS`; outside them, ValueError).
        iou_threshold: NMS overlap (intersection over union) above which the weaker box goes (0.1..0.9).
        containment_threshold: after NMS, a box goes too when more than this fraction of it
            (or of the stronger box) is covered by a stronger box: a duplicate that is shifted
            or a different size can have a low IoU. Loose boxes of neighbouring tiles seen at
            a slant overlap by up to ~70%, hence 0.8. 1.0 turns it off.
        max_detections: at most this many boxes per photo (the strongest; 1..10000).
        decode_min_side: a JPEG may be decoded at 1/2, 1/4 or 1/8 scale while its long side
            stays >= this many pixels (0: always full resolution; `vision.scale`). 1000 keeps
            the tiles of a phone photo of a hand (short side ~200 px at 4032 px) ~50 px wide,
            above the classifier's 48; 2000 is the safer half size.
        min_crop_px: when the median short side of the boxes, in pixels of the decoded
            image, is below `min_crop_px` x the classifier's input width, the photo is
            decoded again, at the coarsest scale where it is not, for the crops.
        crop_margin: each crop is widened by this fraction of the box size on every side.
        refine_min_gain: coarse-to-fine: when the boxes of the first localizer pass lie in a
            region this many times smaller (long side) than the image, the localizer runs again
            on that region and the boxes are merged (`refine_region`); 0 turns it off.
        refine_margin: the region is widened by this fraction of its long side on every side.
            The second pass runs at the localizer's `refine_input_size` (metadata, 0.6.2 on:
            a graph with free height and width) when it has one, else at its `input_size`.
        merge_splits: put a tile boxed as two halves back together (`vision.splits`).
        fill_gaps: read a tile the localizer missed between two neighbours of a row (`vision.gaps`).
        row_ends: read a tile the localizer saw only under `conf_threshold` one pitch past a row's
            end (`vision.row_ends`: its weak boxes as evidence).
        split_wide: a box around several tiles is localized again, closer, and replaced by the
            tiles found there that read confidently (`vision.wide_boxes`).
        join_doubled: two boxes on one tile (overlapping by half a tile along the row) that read
            the same face are one box, their union (`vision.doubled`).
        stand_loose: a box wider than a sideways tile's ratio but as tall as its row's upright
            boxes is cut to the row's width and read upright where that reads likelier
            (`vision.standing`).
        trim_rows: neighbouring boxes of a row that reach into each other are cut where the
            tiles meet (`vision.row_pitch`).
        threads: onnxruntime intra-op threads (None: one per core).
        text_min_score: the text reader (`text_rec.onnx` beside the models) decides a character
            tile from this probability of its best word on (`vision.text_check`); None: it does
            not read.
        pips_min_conf: the pip counter (`vision.pips`) decides a flagged or low-margin dot or
            bamboo tile from this confidence of its count on (`vision.pips_check`); None: it does
            not count.
        sticks_flag_conf: an unflagged 6條 whose sticks count 9 from this confidence on is
            flagged, 9條 its runner-up (`vision.sticks_flag`: sets that draw them as columns of
            touching sticks; on by default at `STICKS_FLAG_CONF`); None: it does not count.
        grey_flag_p: the grey reader (`grey_classifier.onnx` beside the models, trained on shapes
            alone) flags an unflagged dot, bamboo, honour or flower tile it reads as another tile
            from this probability on (`vision.grey_reader`; on by default at `GREY_FLAG_P`); None:
            it does not read.
        grey_rename_p: from this grey probability on such a tile, flagged or not, takes the grey
            reading, the colour reading its runner-up, flagged unless that was the colour
            reading's own runner-up (`GREY_RENAME_P`); None: the grey reader only flags.
        grey_doubt_p: an unflagged dot, bamboo, honour or flower tile that the grey reader reads
            as another tile, giving its reading less than this, is flagged (`GREY_DOUBT_P`), as
            are the tiles of the other doubts of `vision.grey_doubt` (it is sure of nothing, sees
            no tile on a suit face, gives the runner-up as much); None: no doubt at all.
        grey_clear_p: a tile flagged for the colour reader's doubt whose reading the grey reader
            names too from this probability on is not flagged (agreement clears doubt:
            `vision.grey_reader.agrees`, `GREY_CLEAR_P`; never a fifth copy or a doubled box);
            None: the flag stays.
        grey_text_p: an unflagged 萬 tile whose reading the grey reader gives less than this is
            read as text, flagged unless the text reader names its reading, renamed where it names
            another 萬 surely (`vision.grey_text`, `GREY_TEXT_P`); None: 萬 tiles are not looked at.
        ink_match_z: two copies of one reading whose inks are other colours, this many of their
            faces' colour spreads apart, are flagged (`vision.ink_match`: copies of one tile
            print alike; `INK_Z`); None: inks are not compared.
        shape_min_conf: the suit a face shows by its shapes (`vision.suit_shape`) decides a dot
            or bamboo tile the classifier reads in the other suit, and flags other disagreements,
            from this confidence on (`vision.shape_check`); None: it does not look.
        shape_confirm: a flagged dot or bamboo tile whose shapes show its suit from this
            confidence on is not flagged (flag 5, `vision.shape_check.confirm_suit`; its
            `SHAPE_MIN_CONF`); None: the flag stays.
        grey_min_p: a box the classifier reads unsurely is read again made grey, and takes that
            reading, flagged, from this probability on (`vision.grey_look`: a set coloured as
            none it trained on, a riichi red five); None: it does not look.
        dark_faces: a photo whose faces are darker than their ink (a black set) is read
            inverted (`vision.face_polarity`); False: as it is.
        flag_geometry: a face-up box that shares its tile's slot with another, or is no tile's
            width in its row, is flagged whatever its reading (flag 6, `vision.flag_geometry`).
        weak_rename: a tile the text reader renames on a word under this probability stays
            flagged, and flag 5's clears leave it (flag 6, `vision.text_check.WEAK_RENAME`); None
            (the default: on real_sets_dev the renamings under 0.5 were right, 5 of 5): a renaming
            is never in doubt.
        index_p: in a photo that holds a flagged suit tile, and whose set prints a digit in its
            suit tiles' corners (its most confident suit tiles show their own), an unflagged suit
            tile whose corner shows another digit from this probability on is flagged, that
            digit's tile its runner-up (`vision.corner_index`, `INDEX_P`); None: corners are not read.
    """

    conf_threshold: float = 0.3
    iou_threshold: float = 0.45
    containment_threshold: float = 0.8
    max_detections: int = 300
    decode_min_side: int = 1000
    min_crop_px: float = 1.0
    crop_margin: float = 0.0
    refine_min_gain: float = 1.6
    refine_margin: float = 0.1
    merge_splits: bool = True
    fill_gaps: bool = True
    row_ends: bool = True
    split_wide: bool = True
    trim_rows: bool = True
    join_doubled: bool = True
    stand_loose: bool = True
    threads: int | None = None
    text_min_score: float | None = TEXT_MIN_SCORE
    pips_min_conf: float | None = None
    sticks_flag_conf: float | None = STICKS_FLAG_CONF
    grey_flag_p: float | None = GREY_FLAG_P
    grey_rename_p: float | None = GREY_RENAME_P
    grey_doubt_p: float | None = GREY_DOUBT_P
    grey_clear_p: float | None = GREY_CLEAR_P
    grey_text_p: float | None = GREY_TEXT_P
    ink_match_z: float | None = INK_Z
    shape_min_conf: float | None = None
    shape_confirm: float | None = 0.8
    grey_min_p: float | None = GREY_MIN_P
    dark_faces: bool = True
    flag_geometry: bool = True
    weak_rename: float | None = None
    index_p: float | None = INDEX_P

    def __post_init__(self) -> None:
        """Raises ValueError: a value outside `vision.boxes.LIMITS` (named, with its range)."""
        for name in LIMITS:
            check_limit(name, getattr(self, name))
