"""The text reader on the faces it missed on sets it never saw (issue 35, item 1): a face printed
light on dark (black faces, white and gold print), an upright face in a box wider than tall (a
slanted shot foreshortens it: the reader turned it sideways), a character tile the classifier
reads as another family (西 as 白, 北 as a flower); and the guard: no word strong enough to
override a dot or bamboo face, in either polarity and any turn."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.test_text_reader import MODEL, WORDS, face, needs_model
from vision.detection import Detection
from vision.text_check import (
    CROSS_MIN_SCORE,
    RUNNER_UP_MIN_SCORE,
    TEXT_MIN_SCORE,
    check_with_text,
    decide,
    wants_text,
)
from vision.text_reader import TEXT_CODES, TextReader, TextReading
from vision.text_views import light_on_dark

DARK = {  # numeral ink, 萬 / honour ink, stroke, face (RGB): white and gold print on black faces
    "white and gold on black": ((235, 235, 230), (215, 170, 50), 0, (25, 25, 28)),
    "white on dark green": ((240, 240, 240), (240, 240, 240), 0, (20, 60, 35)),
}


@pytest.fixture(scope="module")
def reader() -> TextReader:
    return TextReader(MODEL)


def squat(f: np.ndarray, k: float = 0.75) -> np.ndarray:
    """`f` foreshortened: its height times `k`, as a shot at a slant shows an upright face."""
    return cv2.resize(f, (f.shape[1], round(f.shape[0] * k)), interpolation=cv2.INTER_AREA)


def reading(**scores: float) -> TextReading:
    s = np.zeros(len(TEXT_CODES), np.float32)
    for code, v in scores.items():
        s[TEXT_CODES.index(code)] = v
    return TextReading(s)


def test_light_on_dark_tells_a_black_face_from_a_face_in_shadow():
    black = face("北", *DARK["white and gold on black"])
    shadow = (face("三萬", (20, 20, 20), (190, 20, 20), 0, (245, 243, 235)) * 0.45).astype(np.uint8)
    assert light_on_dark(black) and not light_on_dark(shadow)
    assert not light_on_dark(face("北", (20, 20, 20), (20, 20, 20), 0, (245, 243, 235)))


@needs_model
def test_reads_a_small_dim_face_printed_light_on_dark(reader):
    """Dim white and gold print on a black face, 30 x 40 px and soft, as a far tile of set C:
    read as printed, 13 of the 15 words; inverted, all 15."""
    style = ((150, 150, 140), (140, 110, 40), 0, (35, 32, 30))
    faces = [cv2.GaussianBlur(face(WORDS[c], *style, size=(30, 40)), (0, 0), 1.0) for c in TEXT_CODES]
    out = reader.read(faces)
    assert [r.best for r in out] == list(TEXT_CODES)
    assert min(r.score for r in out) >= TEXT_MIN_SCORE


@needs_model
def test_reads_an_upright_face_the_box_made_sideways_only_both_ways(reader):
    """The reader turns a box wider than tall upright 90° one way (`text_check.face_crop`); a
    foreshortened upright face comes out lying: read as it lies too (`sideways`)."""
    ink = ((20, 20, 20), (20, 20, 20), 0, (245, 243, 235))
    codes = ("8m", "2m", "5m", "F")  # a lone 北 or 西 reads turned too: not these
    lying = [np.ascontiguousarray(np.rot90(squat(face(WORDS[c], *ink)))) for c in codes]
    both = reader.read(lying, sideways=[True] * len(codes))
    assert [r.best for r in both] == list(codes)
    assert min(r.score for r in both) >= TEXT_MIN_SCORE
    plain = reader.read(lying)
    assert all(p.of(c) < min(b.of(c), 0.5) for p, b, c in zip(plain, both, codes, strict=True))


def dots(n_side: int, ink: tuple, ground: tuple) -> np.ndarray:
    """A dot face `(80, 60, 3)`: `n_side` x 2 rings with a centre."""
    im = np.full((80, 60, 3), ground, np.uint8)
    yy, xx = np.ogrid[:80, :60]
    for cy in np.linspace(16, 64, n_side):
        for cx in (18, 42):
            im[np.abs(np.hypot(yy - cy, xx - cx) - 8) < 2] = ink
            im[np.hypot(yy - cy, xx - cx) < 3] = ink
    return im


def sticks(n_side: int, ink: tuple, ground: tuple) -> np.ndarray:
    """A bamboo face `(80, 60, 3)`: two or three columns of `n_side` jointed sticks."""
    im = np.full((80, 60, 3), ground, np.uint8)
    for cx in (14, 30, 46):
        for cy in np.linspace(14, 66, n_side):
            cv2.rectangle(im, (cx - 3, int(cy) - 9), (cx + 3, int(cy) + 9), ink, -1)
            cv2.line(im, (cx - 4, int(cy)), (cx + 4, int(cy)), ground, 1)
    return im


@needs_model
def test_no_word_strong_enough_to_override_a_dot_or_bamboo_face(reader):
    light, dark, green, red = (245, 243, 235), (25, 25, 28), (40, 120, 20), (30, 30, 190)
    faces = [
        f(n, ink, ground)
        for f in (dots, sticks)
        for n in (2, 3)
        for ink, ground in ((green, light), (red, light), (light, dark))
    ]
    out = reader.read(faces, sideways=[True] * len(faces))
    assert max(r.score for r in out) < CROSS_MIN_SCORE


def det(tile: str, second: str | None, **kw) -> Detection:
    return Detection((0, 0, 60, 80), tile, 0.3, uncertain=True, second=second, **kw)


def test_every_flagged_face_up_tile_is_read():
    assert wants_text(det("4p", "2p")) and wants_text(det("P", "7p")) and wants_text(det("flower", "3s"))
    assert not wants_text(Detection((0, 0, 60, 80), "4p", 0.9, second="2p"))  # sure: no cost


def test_a_word_overrides_another_family_only_when_strong():
    got = decide(det("P", "7p"), reading(W=0.9))  # 西 read as 白, runner-up a dot tile
    assert (got.tile, got.second, got.uncertain) == ("W", "P", False)
    weak = det("5p", None)  # a ring of dots with a faint 中 in it
    assert decide(weak, reading(C=CROSS_MIN_SCORE * 0.5)) is weak
    assert decide(det("flower", "1m"), reading(N=0.3)).tile == "N"  # runner-up a 萬: the family's bar


def test_a_weak_word_that_names_the_runner_up_takes_it_flagged_between_character_tiles_only():
    weak = TEXT_MIN_SCORE * 0.6  # 四萬 at 0.063 on an HK 四 drawn as a holed blob
    got = decide(det("1m", "4m"), reading(**{"4m": weak, "1m": 0.001}))
    assert (got.tile, got.second, got.uncertain) == ("4m", "1m", True)
    bird = det("1s", "E")  # a bird read 1s, runner-up 東: a weak 東 does not take it
    assert decide(bird, reading(E=weak)) is bird
    other = det("3m", "2m")
    assert decide(other, reading(**{"5m": weak})) is other  # a word that is not the runner-up
    assert decide(other, reading(**{"2m": RUNNER_UP_MIN_SCORE * 0.9})) is other


def test_a_weak_word_of_the_other_view_never_takes_the_runner_up():
    """A 萬 tile's words are read on the numeral-and-萬 view, an honour's on the whole face: a weak
    word of one against a reading of the other is no second signal (set C's gold 七萬 on black, 60
    px: the classifier 7m at 0.69, 東 second; the text 東 0.068, 七萬 0.003)."""
    weak = TEXT_MIN_SCORE * 0.68
    for tile, second in (("7m", "E"), ("1m", "C"), ("E", "7m"), ("F", "9m")):
        d = det(tile, second)
        assert decide(d, reading(**{second: weak, tile: 0.003})) is d, (tile, second)
    # the same kind still agrees: two honours, two 萬 tiles
    assert decide(det("E", "N"), reading(N=weak)).tile == "N"
    assert decide(det("3m", "2m"), reading(**{"2m": weak})).tile == "2m"
    # a strong word of the other view still decides (its own bar, as before)
    got = decide(det("7m", "E"), reading(E=TEXT_MIN_SCORE * 2))
    assert (got.tile, got.second, got.uncertain) == ("E", "7m", False)


@needs_model
def test_check_with_text_puts_right_a_foreshortened_character_tile_read_as_another_family(reader):
    """A photo with a 西 face squashed by the slant (the box wider than tall, so `rotated`) that
    the classifier read as 白 with 7p as runner-up: the text reader reads it upright and names it."""
    tile = squat(face("西", *DARK["white and gold on black"]), 0.6)[:, :, ::-1]  # RGB
    pixels = np.full((200, 300, 3), 120, np.uint8)
    h, w = tile.shape[:2]
    pixels[60 : 60 + h, 100 : 100 + w] = tile
    d = Detection((100, 60, 100 + w, 60 + h), "P", 0.3, uncertain=True, second="7p", rotated=w > 1.15 * h)
    assert d.rotated
    (got,) = check_with_text([d], pixels, 1.0, reader)
    assert (got.tile, got.second, got.uncertain) == ("W", "P", False)
