"""The grey reader's second pass (`vision.grey_reader`, `vision.grey_doubt`, `vision.grey_text`):
its doubt flags a tile whose reading it gives little, its sure agreement clears a flag the colour
reader's doubt raised (never a fifth copy), and a 萬 tile it doubts is read as text — confirmed,
renamed or flagged."""

from __future__ import annotations

import numpy as np
import pytest

from vision import ReaderConfig
from vision.arrange import arrange
from vision.detection import Detection
from vision.face_checks import check_faces
from vision.grey_doubt import GREY_DOUBT_P, doubt_by_grey
from vision.grey_pass import grey_check
from vision.grey_reader import GREY_CLEAR_P, GREY_TEXT_P, GreyView
from vision.grey_text import CONFIRM_P, check_characters, decide, doubted
from vision.modelfiles import CLASS_CODES
from vision.text_check import TEXT_MIN_SCORE, WEAK_RENAME
from vision.text_reader import TEXT_CODES, TextReading

PIXELS = np.full((400, 1200, 3), 200, np.uint8)
SOURCE = (PIXELS, 1.0)


def view(name: str, p: float, **others: float) -> GreyView:
    """A grey reading of `name` at `p`, the classes in `others` at theirs (the rest shared evenly)."""
    classes = tuple(CLASS_CODES)
    rest = (1.0 - p - sum(others.values())) / max(1, len(classes) - 1 - len(others))
    probs = np.array([p if c == name else others.get(c, rest) for c in classes], np.float32)
    return GreyView(name, p, probs, classes)


def det(tile: str, k: int = 0, uncertain: bool = False, second: str | None = None, **kw) -> Detection:
    x = 20.0 + 70 * k
    return Detection((x, 100.0, x + 60.0, 180.0), tile, 0.9, uncertain=uncertain, second=second, **kw)


class FakeText:
    """A text reader that names `words[k]` (a code, a score) for the k-th face it is given; it
    reads no digit (`digits` None: no corner index, `vision.corner_index`)."""

    digits = None

    def __init__(self, words: list[tuple[str, float]]) -> None:
        self.words, self.faces = words, 0

    def read(self, faces, upside_down=True, sideways=None):
        out = []
        for code, score in self.words[self.faces : self.faces + len(faces)]:
            scores = np.zeros(len(TEXT_CODES), np.float32)
            scores[TEXT_CODES.index(code)] = score
            out.append(TextReading(scores))
        self.faces += len(faces)
        return out


def test_a_grey_view_gives_every_class_its_probability():
    v = view("9s", 0.6, **{"6s": 0.3})
    assert (v.p_of("9s"), v.p_of("6s"), v.p_of("no such tile")) == (
        pytest.approx(0.6),
        pytest.approx(0.3),
        0.0,
    )
    assert v.probs.sum() == pytest.approx(1.0, abs=1e-5)


@pytest.mark.parametrize(
    "tile, grey, p, read_p, flagged, second",
    [
        ("9s", "6s", 0.44, 0.44, False, None),  # both read 6s..: the reading has 0.44, not doubted
        ("6s", "6s", 0.44, 0.44, False, None),
        ("8s", "9s", 0.15, 0.05, True, "9s"),
        ("8s", "none", 0.45, 0.05, False, None),  # it sees no tile: set A's 白, its art never seen
        ("W", "flower", 0.3, 0.15, False, None),  # nor a flower: set A's 西
        ("flower", "5s", 0.24, 0.19, True, "5s"),  # a 5s read as a flower: its grey reading second
        ("C", "F", 0.5, GREY_DOUBT_P + 0.005, False, None),  # over the bar: not doubted
        ("C", "F", 0.5, GREY_DOUBT_P - 0.01, True, "F"),
        ("3m", "5m", 0.9, 0.01, False, None),  # 萬: the text reader's (`vision.grey_text`)
    ],
)
def test_the_doubt(tile, grey, p, read_p, flagged, second):
    v = view(grey, p, **({tile: read_p} if tile != grey else {}))
    out = doubt_by_grey([det(tile)], [v])[0]
    assert (out.uncertain, out.second) == (flagged, second)


def test_the_doubt_leaves_flagged_face_down_and_unread_tiles():
    dets = [det("6s", uncertain=True, second="9s"), det("back", 1, face_down=True), det("2p", 2)]
    v = view("9s", 0.99, **{"6s": 0.0, "back": 0.0, "2p": 0.0})
    assert doubt_by_grey(dets, [v, v, None]) == dets
    assert doubt_by_grey(dets, [v, v, v], None) == dets
    assert doubt_by_grey(dets, [v, v, v])[2].uncertain


def test_a_renamed_tile_is_not_doubted_again():
    """The disagreement renames 6s to 9s (grey 0.95): the 9s is then not looked at for doubt."""
    d = det("6s")
    out = grey_check({d.xyxy: view("9s", 0.95, **{"6s": 0.01})}, [d], SOURCE, ReaderConfig())
    assert (out[0].tile, out[0].uncertain, out[0].second) == ("9s", True, "6s")


@pytest.mark.parametrize(
    "grey, p, clear_p, cleared",
    [
        ("6s", GREY_CLEAR_P, GREY_CLEAR_P, True),  # sure agreement clears
        ("6s", GREY_CLEAR_P - 0.01, GREY_CLEAR_P, False),
        ("9s", 0.99, GREY_CLEAR_P, False),  # it reads another tile
        ("6s", 0.99, None, False),  # switched off
    ],
)
def test_sure_agreement_clears_a_flag(grey, p, clear_p, cleared):
    d = det("6s", uncertain=True, second="9s")
    config = ReaderConfig(grey_clear_p=clear_p)
    dets, clear = check_faces([d], [None], CLASS_CODES, SOURCE, None, config, None, {d.xyxy: view(grey, p)})
    assert clear == [cleared]
    out, _ = arrange(dets, (1200, 400), None, None, None, clear)
    assert out[0].uncertain is not cleared


def test_a_fifth_copy_stays_flagged_though_the_grey_reader_agrees():
    dets = [det("7p", k) for k in range(5)] + [det(t, 5 + k) for k, t in enumerate(["1m", "2m", "3m"])]
    dets += [det(t, 8 + k) for k, t in enumerate(["E", "E", "E", "9s", "9s", "9s"])]
    seen = {d.xyxy: view(d.tile, 0.99) for d in dets}
    flagged = [d if d.tile != "7p" else Detection(d.xyxy, d.tile, d.conf, uncertain=True) for d in dets]
    out, clear = check_faces(flagged, [None] * 14, CLASS_CODES, SOURCE, None, ReaderConfig(), None, seen)
    assert clear == [d.tile == "7p" for d in dets]
    margins = [1.0 if k == 4 else 5.0 for k in range(14)]  # the fifth 7p, the least sure, is beyond
    arranged, _ = arrange(out, (1200, 400), margins, None, None, clear)
    assert [d.uncertain for d in arranged if d.tile == "7p"] == [False] * 4 + [True]


@pytest.mark.parametrize(
    "tile, uncertain, read_p, text_p, looked_at",
    [
        ("4m", False, 0.09, GREY_TEXT_P, True),  # set A: 四萬 that the grey reader reads as 一萬
        ("4m", False, GREY_TEXT_P + 0.005, GREY_TEXT_P, False),
        ("4m", True, 0.09, GREY_TEXT_P, False),  # flagged already: the text check has read it
        ("4m", False, 0.09, None, False),
        ("4p", False, 0.09, GREY_TEXT_P, False),  # not a 萬
    ],
)
def test_the_man_tiles_the_grey_reader_doubts(tile, uncertain, read_p, text_p, looked_at):
    v = view("1m", 0.86, **{tile: read_p})
    assert doubted(det(tile, uncertain=uncertain), v, text_p) is looked_at


@pytest.mark.parametrize(
    "best, score, tile, uncertain, second",
    [
        ("3m", CONFIRM_P, "3m", False, "5m"),  # the text reader confirms: as it was
        ("3m", CONFIRM_P / 2, "3m", True, "2m"),  # too weak to confirm: flagged, the grey 萬 second
        ("2m", WEAK_RENAME, "2m", True, "3m"),  # another 萬, surely: renamed, flagged
        ("2m", TEXT_MIN_SCORE, "3m", True, "2m"),  # another 萬, weakly: its runner-up, flagged
        ("2m", TEXT_MIN_SCORE / 2, "3m", True, "2m"),  # too weak: the grey 萬 its runner-up
        ("F", 0.9, "3m", True, "2m"),  # not a 萬: only flagged
    ],
)
def test_the_text_reader_decides_a_doubted_man_tile(best, score, tile, uncertain, second):
    d = det("3m", second="5m")
    out = decide(d, view("2m", 0.6, **{"3m": 0.1}), best, score)
    assert (out.tile, out.uncertain, out.second) == (tile, uncertain, second)


def test_only_the_doubted_man_tiles_are_read_as_text():
    dets = [det("2m"), det("3m", 1), det("5m", 2), det("9p", 3), det("5m", 4, uncertain=True)]
    views = [view("2m", 0.99), view("2m", 0.6, **{"3m": 0.1}), view("6m", 0.93, **{"5m": 0.02}), None, None]
    text = FakeText([("2m", 0.59), ("6m", 0.46)])
    out = check_characters(dets, views, text, SOURCE, GREY_TEXT_P)
    assert text.faces == 2  # the 3m and the 6m; never the sure 2m, the 9p or the flagged 5m
    assert [(d.tile, d.uncertain, d.second) for d in out] == [
        ("2m", False, None),
        ("2m", True, "3m"),
        ("5m", True, "6m"),  # R4's 六萬 the colour reader read 五萬: its word too weak to rename
        ("9p", False, None),
        ("5m", True, None),
    ]
    assert check_characters(dets, views, None, SOURCE, GREY_TEXT_P) == dets  # no text reader
    assert check_characters(dets, views, FakeText([]), SOURCE, None) == dets


def test_a_face_too_small_to_read_is_left_as_it_was():
    tiny = Detection((20.0, 100.0, 25.0, 104.0), "3m", 0.9)
    text = FakeText([("2m", 0.9)])
    assert check_characters([tiny], [view("3m", 0.5)], text, SOURCE, GREY_TEXT_P) == [tiny]
    assert text.faces == 0
