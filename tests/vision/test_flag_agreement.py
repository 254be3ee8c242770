"""Flag 5 (`vision.flagging`, issue 35 item 5): an independent reader's agreement clears doubt, its
disagreement keeps the flag; a flag the readers leave is shown only above the show threshold."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.arrange import arrange
from vision.detection import Detection
from vision.face_checks import check_faces
from vision.flagging import FEATURES, FlagModel, load_flag_model
from vision.reader_config import ReaderConfig
from vision.shape_check import confirm_suit
from vision.text_check import CONFIRM_MIN_SCORE, TEXT_MIN_SCORE, decide
from vision.text_reader import TEXT_CODES, TextReading


def face(code: str, kind: str, seed: int = 0) -> np.ndarray:
    from tests.vision.test_suit_shape import face as world

    return world(code, kind, seed)


def photo_of(*faces_bgr: np.ndarray) -> np.ndarray:
    """The faces side by side, RGB (the reader's crop source)."""
    return np.ascontiguousarray(np.concatenate([f[..., ::-1] for f in faces_bgr], 1))


def flagged(tile: str, k: int = 0, second: str | None = None) -> Detection:
    return Detection((75.0 * k, 0.0, 75.0 * (k + 1), 100.0), tile, 0.5, uncertain=True, second=second)


def test_circles_clear_a_flagged_dot_tile_and_sticks_keep_it():
    """Synthetic faces (`datasets.world_styles`): a 4筒 in dark green dots read 4p, flagged, is
    cleared; a bamboo face the classifier reads 6p (another suit) and a 6p read on a bamboo
    face stay flagged, names unchanged."""
    photo = photo_of(face("4p", "dot_ink"), face("6s", "bamboo_ink"), face("8p", "mixed_dots", 1))
    dets = [flagged("4p", 0), flagged("6p", 1), flagged("8p", 2)]
    got = confirm_suit(dets, photo, 1.0)
    assert [(d.tile, d.uncertain) for d in got] == [("4p", False), ("6p", True), ("8p", False)]


def test_a_sure_tile_and_characters_are_not_looked_at():
    photo = photo_of(face("4p", "dot_ink"), face("6s", "bamboo_ink"))
    sure = Detection((0.0, 0.0, 75.0, 100.0), "4p", 0.9)
    char = flagged("4m", 1)
    assert confirm_suit([sure, char], photo, 1.0) == [sure, char]


def reading(**scores: float) -> TextReading:
    s = np.zeros(len(TEXT_CODES), np.float32)
    for code, v in scores.items():
        s[TEXT_CODES.index(code)] = v
    return TextReading(s)


def test_a_weak_word_that_names_the_reading_clears_the_flag():
    """A riichi 南 read S at a low margin: the text reader reads 南 only weakly (0.06, under the
    text check's bar) — two independent readers agree: not flagged, the reading kept."""
    weak = (CONFIRM_MIN_SCORE + TEXT_MIN_SCORE) / 2
    got = decide(flagged("S", second="W"), reading(S=weak))
    assert (got.tile, got.uncertain) == ("S", False)


def test_a_weak_word_that_names_another_tile_keeps_the_flag():
    weak = (CONFIRM_MIN_SCORE + TEXT_MIN_SCORE) / 2
    d = flagged("S", second="W")
    assert decide(d, reading(N=weak, S=weak / 2)) is d  # disagreement: the flag stays
    assert decide(d, reading(S=CONFIRM_MIN_SCORE / 2)) is d  # too weak to agree
    suit = flagged("5s", second="5p")
    assert decide(suit, reading(S=weak)) is suit  # a suit tile: no word confirms it


def test_the_show_threshold_clears_only_the_scores_flags_under_it_after_the_roles():
    """`show` False (the tile's flag score under the show threshold): a flag the readers leave is
    cleared once the roles are read (`arrange`'s `clear`); one above it stays, as does a flag the
    hand adds (a fifth copy)."""
    photo = photo_of(face("6s", "bamboo_ink"), face("6s", "bamboo_ink"), face("6s", "bamboo_ink"))
    dets = [flagged("6p", 0), flagged("6p", 1), Detection((150.0, 0.0, 225.0, 100.0), "6p", 0.5)]
    cfg = ReaderConfig(shape_confirm=None)
    got, clear = check_faces(dets, [None] * 3, (), (photo, 1.0), None, cfg, show=[False, True, False])
    assert [d.uncertain for d in got] == [True, True, False]  # the roles see flag 2's flags
    assert clear == [True, False, False]
    assert check_faces(dets, [None] * 3, (), (photo, 1.0), None, cfg)[1] == [False] * 3
    row = [
        Detection((80.0 * k, 0.0, 80.0 * k + 75, 100.0), t, 0.9) for k, t in enumerate("1m 2m 3m 5p".split())
    ]
    row[3] = replace(row[3], uncertain=True)
    out, _groups = arrange(row, (400, 300), None, None, clear=[False, False, False, True])
    assert not any(d.uncertain for d in out)
    five = [replace(d, tile="5p", uncertain=True) for d in row] + [
        replace(row[0], xyxy=(320.0, 0, 395, 100), tile="5p")
    ]
    out, _groups = arrange(five, (400, 300), [1.0, 2.0, 3.0, 4.0, 5.0], None, clear=[True] * 5)
    assert sum(d.uncertain for d in out) == 1  # the fifth copy stays flagged


def test_the_show_threshold_round_trips_and_defaults_to_the_threshold(tmp_path):
    fm = FlagModel(np.zeros((2, 3), np.float32), np.zeros(1 + len(FEATURES)), -1.8, 4.0)
    assert fm.show == -1.8
    fm.save(tmp_path / "flag.npz")
    assert load_flag_model(tmp_path).show_threshold is None  # flag 2's file: shown as flagged
    FlagModel(fm.prototypes, fm.weights, -1.8, 4.0, show_threshold=-1.5).save(tmp_path / "flag.npz")
    back = load_flag_model(tmp_path)
    assert back is not None and back.show == -1.5
    assert FlagModel(fm.prototypes, fm.weights, -1.8, 4.0, show_threshold=-2.5).show == -1.8  # never lower
