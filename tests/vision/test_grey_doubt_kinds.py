"""The grey reader's four doubts (`vision.grey_doubt`): it names another tile, it is sure of nothing,
it sees no tile on a dot or bamboo face, it gives the colour reading's runner-up as much — and an
honour the text reader names is not doubted (`text_veto`)."""

from __future__ import annotations

import pytest

from vision import ReaderConfig
from vision.grey_doubt import (
    GREY_BLANK_P,
    GREY_LOST_P,
    GREY_LOST_TOP,
    GREY_RACE_P,
    GREY_RACE_SECOND,
    DoubtBars,
    doubt_by_grey,
    text_veto,
    why_doubt,
)
from vision.grey_pass import grey_check
from vision.text_check import CONFIRM_MIN_SCORE

from .test_grey_doubt import SOURCE, FakeText, det, view

E = 0.005


@pytest.mark.parametrize(
    "tile, second, grey, p, others, why",
    [
        ("6s", None, "9s", 0.6, {"6s": 0.1}, "named"),
        ("4s", "6s", "none", 0.15, {"4s": 0.11}, "lost"),  # an American set's 8條 read 4條
        ("W", "P", "none", 0.25, {"W": 0.13}, "lost"),  # its 白 (a P in a frame) read 西
        ("4s", "6s", "none", GREY_LOST_TOP + E, {"4s": 0.11}, None),  # it sees nothing, surely
        ("4s", None, "none", 0.2, {"4s": GREY_LOST_P + E}, None),
        ("8s", "flower", "flower", 0.43, {"8s": 0.01}, "blank"),  # a 9萬 read 8條, grey: flower
        ("4s", None, "back", 0.9, {"4s": GREY_BLANK_P - E}, "blank"),
        ("4s", None, "flower", 0.39, {"4s": GREY_BLANK_P + E}, None),
        ("W", None, "flower", 0.39, {"W": 0.01}, None),  # an honour: set A's 西, art never seen
        ("6s", "9s", "6s", 0.44, {"9s": 0.28}, "race"),  # a 9條 read 6條, 9條 second
        ("6s", "9s", "6s", GREY_RACE_P + E, {"9s": 0.3}, None),
        ("6s", "9s", "6s", 0.44, {"9s": GREY_RACE_SECOND - E}, None),
        ("6s", "5s", "6s", 0.44, {"9s": 0.28}, None),  # the grey runner-up is not the colour one
        ("6s", "6s", "6s", 0.44, {}, None),
        ("6s", None, "6s", 0.95, {}, None),
    ],
)
def test_why_a_tile_is_doubted(tile, second, grey, p, others, why):
    assert why_doubt(det(tile, second=second), view(grey, p, **others)) == why


def test_each_doubt_can_be_turned_off():
    d, v = det("4s", second="6s"), view("none", 0.15, **{"4s": 0.11})
    assert why_doubt(d, v, DoubtBars(lost_top=None)) is None
    d, v = det("6s", second="9s"), view("6s", 0.44, **{"9s": 0.28})
    assert why_doubt(d, v, DoubtBars(race=None)) is None
    d, v = det("8s"), view("flower", 0.43, **{"8s": 0.01})
    assert why_doubt(d, v, DoubtBars(blank=None)) is None


@pytest.mark.parametrize(
    "grey, p, others, second",
    [
        ("none", 0.15, {"4s": 0.11}, "6s"),  # lost: the colour runner-up stays
        ("9s", 0.25, {"4s": 0.11}, "9s"),  # lost, naming a tile: that tile second
        ("flower", 0.4, {"4s": 0.01}, "6s"),  # blank
    ],
)
def test_the_runner_up_of_a_doubted_tile(grey, p, others, second):
    out = doubt_by_grey([det("4s", second="6s")], [view(grey, p, **others)])[0]
    assert (out.uncertain, out.second) == (True, second)


def test_no_doubt_at_all_when_switched_off():
    d = [det("4s", second="6s")]
    assert doubt_by_grey(d, [view("none", 0.15, **{"4s": 0.11})], None) == d


@pytest.mark.parametrize(
    "score, vetoed",
    [(CONFIRM_MIN_SCORE + 0.001, True), (0.5, True), (CONFIRM_MIN_SCORE - 0.005, False)],
)
def test_an_honour_the_text_reader_names_is_not_doubted(score, vetoed):
    before = [det("W", second="P"), det("4s", 1, second="6s")]
    after = doubt_by_grey(before, [view("none", 0.25, **{"W": 0.13}), view("none", 0.15, **{"4s": 0.11})])
    assert [d.uncertain for d in after] == [True, True]
    text = FakeText([("W", score)])
    out = text_veto(before, after, text, SOURCE)
    assert [d.uncertain for d in out] == [not vetoed, True]  # the bamboo tile is not read
    assert text.faces == 1


def test_the_veto_reads_nothing_without_a_text_reader_or_a_new_flag():
    before = [det("W"), det("E", 1, uncertain=True)]
    after = [det("W", uncertain=True), det("E", 1, uncertain=True)]
    assert text_veto(before, after, None, SOURCE) == after
    text = FakeText([("E", 0.9)])
    assert text_veto(before[1:], after[1:], text, SOURCE) == after[1:]
    assert text.faces == 0  # flagged before the doubt: not the doubt's to take back
    text = FakeText([("N", 0.9)])
    assert text_veto(before, after, text, SOURCE)[0].uncertain  # it names another wind
    text = FakeText([("C", 0.9)])
    assert text_veto([det("P")], [det("P", uncertain=True)], text, SOURCE)[0].uncertain
    assert text.faces == 0  # 白 has no word to read


def test_the_reader_runs_the_veto_after_the_doubt():
    d = det("W", second="P")
    seen = {d.xyxy: view("none", 0.25, **{"W": 0.13})}
    assert grey_check(seen, [d], SOURCE, ReaderConfig(), None)[0].uncertain
    assert not grey_check(seen, [d], SOURCE, ReaderConfig(), FakeText([("W", 0.5)]))[0].uncertain
