"""The text reader's word on the flagged tiles of a reading (`vision.text_reader`).

Only the flagged tiles (`uncertain`) are read as text: the cost stays with the faces where it can
help (reading every character tile cost 12x the plain read on 12 MP photos of 17 萬 tiles; on
real_sets_dev the text put right only flagged tiles, and turned no sure tile). Any flagged face-up
tile, not only those the classifier reads as a character tile (1m..9m, E S W N, C, F) or names one
as its runner-up: on sets it never saw, the classifier calls a 西 a 白 (runner-up 7p) and a 北 a
flower. The rule, two thresholds (`models/MODEL.md`, "The text reader" and "Character tiles of
any family"):

- the classifier's reading or runner-up is a character tile (the same family): the text reader's
  best word decides from a probability of `TEXT_MIN_SCORE` (chosen leaving each physical set of
  real_sets_dev out in turn). A tile it names otherwise takes its reading (the classifier's moves
  to `second`); either way the tile is not uncertain;
- neither is (a dot, bamboo, dragon or flower reading): the word must reach `CROSS_MIN_SCORE`,
  since a recogniser asked for a closed lexicon finds a weak 中 in a ring of dots (0.1 to 0.25 on
  real photos) but never a strong one;
- below its threshold (a face it cannot read: a slanted, tiny or stylised one) the reading is the
  classifier's, flag and all; but where the reading and its runner-up are character tiles **of one
  kind** (two 萬 tiles, or two honours: `same_view`) and the best word names the runner-up from
  `RUNNER_UP_MIN_SCORE`, the runner-up is taken, flagged. A 萬 tile's words are read on the
  numeral-and-萬 view, an honour's on the whole face (`vision.text_reader.lexicon`): a weak word
  of one view against a reading of the other compares two unrelated scores (set C's gold 七萬,
  60 px on black, read 7m at p 0.69 with 東 second: 東 0.068 on the whole face, 七萬 0.003).
  Where the best word names the reading itself from `CONFIRM_MIN_SCORE`, the flag is cleared
  (flag 5: agreement clears doubt).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from vision.boxes import box_pixels
from vision.detection import Detection
from vision.text_reader import TEXT_CODES, TextReader, TextReading

TEXT_MIN_SCORE = 0.1
"""The CTC probability of the best tile word from which the text reader decides a tile the
classifier reads as a character tile (or names one as its runner-up)."""
RUNNER_UP_MIN_SCORE = 0.02
"""Below the threshold, a word that names the classifier's runner-up, both character tiles of one
kind (一萬 read 四萬 with 四萬 second; `same_view`), from this probability: the runner-up is taken
and the flag kept. Two weak signals agreeing; never for a suit tile's reading (a bird 1s, runner-up
東, has 東 at 0.09 on the val split), nor between a 萬 and an honour (a gold 七萬 read 7m, 東
second, has 東 at 0.07)."""
CONFIRM_MIN_SCORE = RUNNER_UP_MIN_SCORE
"""Flag 5 (`vision.flagging`): below the threshold, a word that names the classifier's own reading,
a character tile, from this probability clears the flag (the reading kept): two independent readers
agreeing, at the bar the runner-up rule already trusts. On real_sets_dev and the validation split it
confirmed 17 right tiles flagged and no wrong one (`datasets.flag5`)."""
CROSS_MIN_SCORE = 0.5
"""The same for a tile of another family: the classifier reads a suit tile, 白, a flower, and
names no character tile as its runner-up."""
WEAK_RENAME = CROSS_MIN_SCORE
"""Flag 6: a tile the text reader renames on a word under this probability stays flagged (and flag
5's clears leave it): the bar from which the word is trusted against any reading, whatever its
family. Below it the classifier and the text reader disagree and neither is sure: the issue's "where
they disagree it is a reason to flag" (`ReaderConfig.weak_rename`)."""


def same_view(a: str | None, b: str | None) -> bool:
    """Whether `a` and `b` are character tiles the text reader reads on one view: two 萬 tiles
    (numeral and 萬) or two honours (the whole face)."""
    if a not in TEXT_CODES or b not in TEXT_CODES:
        return False
    assert a is not None and b is not None  # in TEXT_CODES
    return a.endswith("m") == b.endswith("m")


def wants_text(det: Detection) -> bool:
    """Whether the text reader should read `det`: a flagged face-up tile."""
    return det.uncertain and not det.face_down


def decide(
    det: Detection,
    reading: TextReading,
    min_score: float = TEXT_MIN_SCORE,
    cross: float = CROSS_MIN_SCORE,
    weak: float | None = None,
) -> Detection:
    """`det` as the rule has it (module docstring): unchanged below its threshold (`min_score`
    for a character-like reading, `cross` for another family); else the text's code, not
    uncertain, and the classifier's reading kept as `second` when they differ. With `weak` (flag
    6, `WEAK_RENAME`): a renaming on a word under `weak` stays uncertain, two readers disagreeing
    with neither sure (R3's 9m renamed 8m at 0.13)."""
    family = det.tile in TEXT_CODES or det.second in TEXT_CODES
    if reading.score < (min_score if family else max(min_score, cross)):
        runner_up = reading.best == det.second and reading.score >= RUNNER_UP_MIN_SCORE
        if runner_up and same_view(det.tile, det.second):
            return replace(det, tile=reading.best, second=det.tile)  # taken, still flagged
        if det.tile in TEXT_CODES and reading.best == det.tile and reading.score >= CONFIRM_MIN_SCORE:
            return replace(det, uncertain=False)  # flag 5: a weak word that agrees clears the doubt
        return det
    best = reading.best
    if best == det.tile:
        return replace(det, uncertain=False)
    return replace(det, tile=best, uncertain=weak is not None and reading.score < weak, second=det.tile)


MIN_FACE_PX = 8
"""A face smaller than this a side (pixels of the crop source) is not read as text."""


def face_crop(pixels: np.ndarray, scale: float, det: Detection) -> np.ndarray:
    """The face of `det` cut from `pixels` (`(h, w, 3)` uint8 RGB at `scale` of the full photo),
    BGR, a sideways tile turned upright (90° one way; the text reader's 180° turn covers the other,
    and its `sideways` reading the face as it lies)."""
    crop = box_pixels(pixels, scale, det.xyxy)[..., ::-1]
    return np.ascontiguousarray(np.rot90(crop) if det.rotated else crop)


def check_with_text(
    dets: Sequence[Detection],
    pixels: np.ndarray,
    scale: float,
    text: TextReader,
    min_score: float = TEXT_MIN_SCORE,
    weak: float | None = None,
) -> list[Detection]:
    """`dets` with the character tiles decided by the text reader (`decide`, `weak` its), in one
    model batch.

    Args:
        dets: detections, `xyxy` in pixels of the full photo.
        pixels: `(h, w, 3)` uint8 RGB, the photo at `scale` (the reader's crop source).
    """
    out = list(dets)
    for k, reading in read_faces(text, pixels, scale, dets, [k for k, d in enumerate(dets) if wants_text(d)]):
        out[k] = decide(out[k], reading, min_score, weak=weak)
    return out


def read_faces(
    text: TextReader, pixels: np.ndarray, scale: float, dets: Sequence[Detection], todo: Sequence[int]
) -> list[tuple[int, TextReading]]:
    """`(k, reading)` for each detection `dets[k]` of `todo` whose face (`face_crop`) is at least
    `MIN_FACE_PX` a side, all read in one batch (a sideways tile read as it lies too).

    Args:
        pixels: `(h, w, 3)` uint8 RGB, the photo at `scale` of the full photo.
    """
    faces = {k: face_crop(pixels, scale, dets[k]) for k in todo}
    keep = [k for k in todo if min(faces[k].shape[:2]) >= MIN_FACE_PX]
    readings = text.read([faces[k] for k in keep], sideways=[dets[k].rotated for k in keep])
    return list(zip(keep, readings, strict=True))


__all__ = [
    "CONFIRM_MIN_SCORE",
    "CROSS_MIN_SCORE",
    "RUNNER_UP_MIN_SCORE",
    "TEXT_MIN_SCORE",
    "WEAK_RENAME",
    "check_with_text",
    "decide",
    "face_crop",
    "read_faces",
    "same_view",
    "wants_text",
]
