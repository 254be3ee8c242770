"""The corner index (`vision.corner_index`, issue 35 item 5): a set that prints a digit in its suit
tiles' corners tells a misread number (the American set's bold 二萬 read 三萬 by every reader);
a set that does not is never read past its witnesses, and a photo without doubt is not read."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from tests.vision.pip_faces import INKS, dot_face, stick_face
from tests.vision.test_text_reader import MODEL, STYLES, WORDS, face, needs_model
from vision.corner_index import INDEX_P, WITNESS_P, WITNESSES, corner_views, flag_by_index, read_indices
from vision.detection import Detection
from vision.grey_pass import grey_check
from vision.reader_config import ReaderConfig
from vision.text_reader import TextReader

INDEX_INK = (200, 30, 30)  # RGB: the red digits of an American set
PIPS = (("p", dot_face, 1), ("s", stick_face, 2))


@pytest.fixture(scope="module")
def reader() -> TextReader:
    return TextReader(MODEL)


def indexed(code: str, style: str = "black numeral, red 萬", digit: int | None = None, corner: str = "r"):
    """A 萬 face `(88, 64, 3)` uint8 BGR with its number (or `digit`) printed in an upper corner
    (`corner` "r" or "l"; "" prints none), the numeral and 萬 below it."""
    im = Image.new("RGB", (64, 88), STYLES[style][3])
    word = Image.fromarray(np.ascontiguousarray(face(WORDS[code], *STYLES[style], size=(44, 60))[:, :, ::-1]))
    im.paste(word, (2 if corner == "r" else 18, 26))
    if corner:
        font = ImageFont.load_default(32)
        xy, text = (52 if corner == "r" else 12, 18), str(digit or code[0])
        ImageDraw.Draw(im).text(
            xy, text, font=font, fill=INDEX_INK, anchor="mm", stroke_width=1, stroke_fill=INDEX_INK
        )
    return np.ascontiguousarray(np.asarray(im)[:, :, ::-1])


def photo(faces: list[np.ndarray]) -> tuple[np.ndarray, list[tuple[float, float, float, float]]]:
    """The faces in a row on a table: RGB pixels and each face's `xyxy`."""
    h, w = max(f.shape[0] for f in faces), sum(f.shape[1] + 4 for f in faces) + 20
    pixels = np.full((h + 20, w, 3), (30, 90, 40), np.uint8)
    boxes, x = [], 10
    for f in faces:
        pixels[10 : 10 + f.shape[0], x : x + f.shape[1]] = f[:, :, ::-1]
        boxes.append((float(x), 10.0, float(x + f.shape[1]), float(10 + f.shape[0])))
        x += f.shape[1] + 4
    return pixels, boxes


class Counting:
    """A text reader that counts the views it is asked to read."""

    def __init__(self, text: TextReader) -> None:
        self.text, self.digits, self.views = text, text.digits, 0

    def log_probs(self, views):
        self.views += len(views)
        return self.text.log_probs(views)


def american_hand(read_as: str = "3m", corner: str = "r") -> tuple[np.ndarray, list[Detection]]:
    """Six 萬 with their index (in the upper `corner`), a 二萬 (index 2) read `read_as`, and a
    flagged 5p (the photo's doubt)."""
    codes = ["1m", "4m", "5m", "6m", "7m", "9m"]
    faces = [indexed(c, corner=corner) for c in [*codes, "2m"]]
    pixels, boxes = photo([*faces, dot_face(5, "blue", 64, 88)])
    dets = [Detection(b, c, 0.9 - 0.01 * k) for k, (b, c) in enumerate(zip(boxes, codes, strict=False))]
    dets += [Detection(boxes[6], read_as, 0.7, second="5m"), Detection(boxes[7], "5p", 0.4, uncertain=True)]
    return pixels, dets


def test_the_corners_are_the_upper_share_of_the_face_at_either_side():
    f = np.arange(10 * 20).reshape(10, 20, 1).repeat(3, axis=2).astype(np.uint8)
    left, right = corner_views(f)
    assert left.shape == right.shape == (3, 9, 3)
    assert left[0, 0, 0] == 0 and right[0, 0, 0] == 11 and right[0, -1, 0] == 19


@needs_model
@pytest.mark.parametrize("style", list(STYLES))
@pytest.mark.parametrize("corner", [0, 1])
def test_reads_the_index_in_either_upper_corner_in_several_inks(reader, style, corner):
    faces = [indexed(f"{n}m", style, corner="lr"[corner]) for n in range(1, 10)]
    out = read_indices(reader, faces)
    assert [r[corner][0] for r in out] == list(range(1, 10))
    assert min(r[corner][1] for r in out) >= INDEX_P
    assert max(r[1 - corner][1] for r in out) < WITNESS_P  # the other corner: nothing
    assert read_indices(reader, faces, (corner,)) == [(r[corner],) for r in out]


@needs_model
def test_a_face_without_an_index_never_shows_its_own_number(reader):
    """What the witnesses rest on. The end of a 五's stroke reads as "3", the dot of a 六 as "1"
    (over 0.8): another number alone must flag nothing, hence the witnesses."""
    faces = [(f"{n}{s}", f(n, ink)) for ink in INKS for s, f, lo in PIPS for n in range(lo, 10)]
    faces += [(f"{n}m", face(WORDS[f"{n}m"], *STYLES[style])) for style in STYLES for n in range(1, 10)]
    out = read_indices(reader, [f for _c, f in faces])
    own = [
        c for (c, _f), r in zip(faces, out, strict=True) for d, p in r if d == int(c[0]) and p >= WITNESS_P
    ]
    assert own == []
    strong = {(c, d) for (c, _f), r in zip(faces, out, strict=True) for d, p in r if p >= INDEX_P}
    assert ("5m", 3) in strong and ("6m", 1) in strong  # other digits do show


@needs_model
@pytest.mark.parametrize("corner", ["r", "l"])
def test_an_index_that_shows_another_number_flags_the_reading(reader, corner):
    pixels, dets = american_hand(corner=corner)
    text = Counting(reader)
    out = flag_by_index(dets, pixels, 1.0, text)
    assert out[6].uncertain and out[6].tile == "3m" and out[6].second == "2m"  # the fix: one tap
    assert out[:6] == dets[:6] and out[7] == dets[7]
    assert text.views == 2 * WITNESSES + (7 - WITNESSES)  # the others in the set's corner only


@needs_model
def test_an_index_that_agrees_changes_nothing(reader):
    pixels, dets = american_hand(read_as="2m")
    assert flag_by_index(dets, pixels, 1.0, reader) == dets


@needs_model
def test_a_photo_without_doubt_reads_no_corner(reader):
    pixels, dets = american_hand()
    calm = [replace(d, uncertain=False) for d in dets]
    text = Counting(reader)
    assert flag_by_index(calm, pixels, 1.0, text) == calm  # the misread stays unframed: the price
    assert text.views == 0


@needs_model
def test_a_set_without_indices_is_read_no_further_than_its_witnesses(reader):
    codes = ["1m", "3m", "5m", "7m", "9m", "2m"]
    faces = [face(WORDS[c], *STYLES["blue, bold"], size=(64, 88)) for c in codes] + [
        stick_face(4, "green", 64, 88)
    ]
    pixels, boxes = photo([*faces, dot_face(5, "blue", 64, 88)])
    dets = [
        Detection(b, c, 0.9 - 0.01 * k) for k, (b, c) in enumerate(zip(boxes, [*codes, "4s"], strict=False))
    ]
    dets.append(Detection(boxes[-1], "5p", 0.4, uncertain=True))
    text = Counting(reader)
    assert flag_by_index(dets, pixels, 1.0, text) == dets  # the 4條's stick reads "1": not a flag
    assert text.views == 2 * WITNESSES


def test_off_without_the_text_reader_or_with_index_p_none():
    pixels, dets = american_hand()
    assert flag_by_index(dets, pixels, 1.0, None) == dets
    assert ReaderConfig().index_p == INDEX_P and ReaderConfig(index_p=None).index_p is None


@needs_model
def test_off_with_index_p_none_and_with_a_model_without_digits(reader):
    pixels, dets = american_hand()
    assert flag_by_index(dets, pixels, 1.0, reader, index_p=None) == dets
    text = Counting(reader)
    text.digits = None
    assert flag_by_index(dets, pixels, 1.0, text) == dets and text.views == 0


@needs_model
def test_the_reader_runs_it_last_with_or_without_the_grey_reader(reader):
    pixels, dets = american_hand()
    out = grey_check({}, dets, (pixels, 1.0), ReaderConfig(ink_match_z=None), reader)
    assert out[6].uncertain and out[6].second == "2m"
    assert grey_check({}, dets, (pixels, 1.0), ReaderConfig(ink_match_z=None, index_p=None), reader) == dets
