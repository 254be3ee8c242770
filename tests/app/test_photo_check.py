"""`app.photo_check`: a tile whose runner-up reading makes a hand that is not whole whole is flagged
`uncertain`, through `hand_from_photo`; hands are one line (`6p/9p`: read 6p, runner-up 9p)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.photo_hand import hand_from_photo
from tests.vision.test_layout import lay
from vision.detection import DetectResult
from vision.layout import group_tiles


def photo(spec: str, *, uncertain: str = "") -> DetectResult:
    """One row as `lay` writes it, each `code/second` read `code` with runner-up `second`; the
    tiles numbered in `uncertain` (spaces between) flagged by the reader already."""
    tokens = [t for t in spec.replace("|", " | ").split() if t != "|"]
    dets = lay(" ".join(t.split("/")[0] for t in spec.replace("|", " | ").split()))
    flagged = {int(k) for k in uncertain.split()}
    dets = [
        replace(d, second=tok.split("/")[1] if "/" in tok else None, uncertain=k in flagged)
        for k, (d, tok) in enumerate(zip(dets, tokens, strict=True))
    ]
    return DetectResult(width=2000, height=1200, detections=dets, groups=group_tiles(dets))


def flagged(spec: str, variant: str = "jiujiang", uncertain: str = "") -> list[str]:
    """`code@index` of the standing tiles the guess flags `uncertain`."""
    guess = hand_from_photo(photo(spec, uncertain=uncertain), variant)
    return [f"{t.code}@{t.detection}" for t in guess.concealed if t.uncertain]


@pytest.mark.parametrize(
    ("spec", "want"),
    [
        # a 9p read 6p: its runner-up makes the pair, the hand whole
        ("1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s 9p 6p/9p", ["6p@13"]),
        # a fifth 1m whose runner-up 2m makes 111m 123m
        ("1m 1m 1m 1m 1m/2m 3m 4p 5p 6p 7s 8s 9s 9p 9p", ["1m@4"]),
        # either tile of the broken pair may be the misread one: both are flagged
        ("1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s 9p/6p 6p/9p", ["9p@12", "6p@13"]),
        # a whole hand: a runner-up changes nothing
        ("1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s 9p 9p/6p", []),
        # a runner-up that does not help flags nothing
        ("1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s 9p 6p/1p", []),
        # the melds count: a pung laid apart and a misread pair tile
        ("7p 7p~ 7p | 1m 2m 3m 4s 5s 6s 7s 8s 9s 5p 6p/5p", ["6p@13"]),
        # a runner-up the variant has no tile for: jiujiang plays without winds
        ("1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s E C/E", []),
    ],
)
def test_a_runner_up_that_makes_the_hand_whole_flags_its_tile(spec, want):
    assert flagged(spec) == want


def test_the_bonus_tile_is_no_runner_up_where_it_is_set_aside():
    spec = "1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s F F C/F"  # 發 F F: a pair in xinyu only
    assert flagged(spec, "jiujiang") == []
    assert flagged("1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s F C/F", "xinyu") == ["C@13"]


def test_a_tile_the_reader_flagged_stays_flagged():
    spec = "1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s 9p 6p/9p"
    assert flagged(spec, uncertain="2") == ["3m@2", "6p@13"]
    assert flagged(spec.replace("6p/9p", "9p"), uncertain="2") == ["3m@2"]  # whole: as read


@pytest.mark.parametrize(("with_seconds", "first"), [(False, ("8p", "9p")), (True, ("9p", "8p"))])
def test_the_single_tile_fix_tries_the_runner_up_first(with_seconds, first):
    """Both tiles of the broken pair are unsure (the reader flags the 8p, the check the 9p whose
    runner-up is 8p): with the photo's runner-up readings, 9p -> 8p comes first."""
    from app.ui import services
    from app.ui.state import Conditions, EditHand

    result = photo("9p/8p 8p 1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s", uncertain="1")
    hand = EditHand.from_guess(hand_from_photo(result, "jiujiang"))
    assert [t.needs_check for t in hand.concealed][:3] == [True, True, False]
    seconds = {k: d.second for k, d in enumerate(result.detections)} if with_seconds else None
    found = services.suggest(hand, Conditions(variant="jiujiang"), seconds=seconds)
    assert [(s.remove, s.add) for s in found][:1] == [first]
    assert all(s.result.can_win for s in found[:2])
