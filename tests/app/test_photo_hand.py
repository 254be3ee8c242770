"""`app.photo_hand.hand_from_photo`: the layout groups read as a hand, per variant."""

from __future__ import annotations

import pytest

from app.photo_hand import NOTE_CODES, UNKNOWN, Note, hand_from_photo
from tests.vision.test_layout import lay
from vision.detection import Detection, DetectResult
from vision.layout import group_tiles


def photo(*rows: str) -> DetectResult:
    """A DetectResult laid out as `lay` rows (one per argument, top to bottom), grouped."""
    dets = [d for k, spec in enumerate(rows) for d in lay(spec, y=100 + 300 * k)]
    return DetectResult(width=2000, height=1200, detections=dets, groups=group_tiles(dets))


def codes(tiles) -> list[str]:
    return [t.code for t in tiles]


def test_empty():
    guess = hand_from_photo(DetectResult(width=10, height=10), "xingzi")
    assert guess.concealed == [] and guess.winning_tile is None and guess.melds == []
    assert guess.to_score_json()["concealed"] == ""


def test_full_hand():
    result = photo("7p 7p~ 7p | back 9s 9s back | F F", "1m 2m 3m 4m 5m 6m 6s 7s 8s 2p | 2p")
    guess = hand_from_photo(result, "xingzi")
    assert guess.winning_tile == "2p" and guess.winning_index == len(guess.concealed) - 1
    assert [(m.kind, "".join(m.codes), m.claimed) for m in guess.melds] == [
        ("pung", "7p7p7p", True),
        ("concealed_kong", "9s9s9s9s", False),
    ]
    assert guess.bonus_tiles == 2
    hand = guess.to_score_json(variant="xingzi", self_drawn=True)
    assert hand == {
        "concealed": "123456m22p678s",
        "winning_tile": "2p",
        "melds": [{"kind": "pung", "tiles": "777p"}, {"kind": "concealed_kong", "tiles": "9999s"}],
        "bonus_tiles": 2,
        "variant": "xingzi",
        "self_drawn": True,
    }
    assert "winning_set_apart" in [n.code for n in guess.notes]


def test_every_tile_keeps_its_detection_and_conf():
    result = photo("7p 7p~ 7p | 1m 2m 3m 5p | 5p")
    guess = hand_from_photo(result, "jiujiang")
    used = [t.detection for t in guess.concealed] + [t.detection for m in guess.melds for t in m.tiles]
    assert sorted(used) == list(range(len(result.detections)))
    for t in guess.concealed:
        assert t.code == result.detections[t.detection].tile and t.conf == pytest.approx(0.9)


def test_winning_tile_defaults_to_the_rightmost_standing_tile():
    guess = hand_from_photo(photo("1m 2m 3m 5p 5p"), "jiujiang")
    assert guess.winning_tile == "5p" and guess.winning_index == 4
    assert any("rightmost" in n.text for n in guess.notes)


@pytest.mark.parametrize("variant,bonus,concealed", [("xingzi", 1, "123m55p"), ("xinyu", 0, "123m55pF")])
def test_fa_in_the_hand_is_a_bonus_tile_except_in_xinyu(variant, bonus, concealed):
    guess = hand_from_photo(photo("1m 2m 3m F 5p 5p"), variant)
    assert guess.bonus_tiles == bonus and guess.to_score_json()["concealed"] == concealed


def test_fa_pung_set_apart_in_xinyu_is_a_pung():
    result = photo("F F F | 1m 2m 3m 5p 5p")
    assert hand_from_photo(result, "xinyu").to_score_json()["melds"] == [{"kind": "pung", "tiles": "FFF"}]
    assert hand_from_photo(result, "jiujiang").bonus_tiles == 3


def test_face_down_tile_in_the_hand_is_an_unknown_tile_left_out_of_score_json():
    guess = hand_from_photo(photo("1m 2m back 5p 5p | flower"), "xingzi")
    assert codes(guess.concealed) == ["1m", "2m", UNKNOWN, "5p", "5p"]
    assert guess.concealed[2].conf == 0.0 and guess.concealed[2].detection == 2
    assert guess.to_score_json()["concealed"] == "12m55p"
    assert {"face_down_in_hand", "flowers_left_out"} <= {n.code for n in guess.notes}


def test_kong_whose_tile_cannot_be_seen_is_unknown():
    guess = hand_from_photo(photo("back back back back | 1m 1m"), "xingzi")
    assert [(m.kind, m.codes) for m in guess.melds] == [("concealed_kong", [UNKNOWN] * 4)]
    assert guess.to_score_json()["melds"] == []
    assert any("cannot be seen" in n.text for n in guess.notes)


def test_four_with_one_back_is_a_concealed_kong_of_its_faces():
    result = photo("5s 5s 5s back | 1m 1m")  # one back: the layout calls it a hand set
    guess = hand_from_photo(result, "xinyu")
    assert [(m.kind, m.codes) for m in guess.melds] == [("concealed_kong", ["5s"] * 4)]


PUNG = {"kind": "pung", "tiles": "777p"}
FOUR = "6s~ 7s 8s | 1p 1p 1p | 2p 2p~ 2p | 3p~ 3p 3p | 9s 9s"  # a claimed chow and three pungs


def _pungs(*tiles: str) -> list[dict]:
    return [{"kind": "pung", "tiles": t} for t in tiles]


@pytest.mark.parametrize(
    "row,variant,melds,concealed",
    [
        ("1m 2m 3m | 6s 7s 8s | 9s 9s | 7p 7p 7p", "jiujiang", [PUNG], "123m67899s"),
        # issue 36 item 6: a pung between standing sets is the player's spacing, not a meld
        ("1m 2m 3m | 6s 7s 8s | 7p 7p 7p | 9s 9s", "jiujiang", [], "123m777p67899s"),
        # a claimed chow is a meld only where the variant lets it be: as 九江's fourth meld ...
        (FOUR, "jiujiang", [*_pungs("111p", "222p", "333p"), {"kind": "chow", "tiles": "678s"}], "99s"),
        # ... never in 新余, and not beside one meld in 九江 (was "这种打法这里不能吃")
        (FOUR, "xinyu", _pungs("111p", "222p", "333p"), "67899s"),
        ("1m 2m 3m | 6s~ 7s 8s | 7p 7p 7p | 9s 9s", "jiujiang", [], "123m777p67899s"),
    ],
)
def test_a_run_set_apart_is_a_chow_only_with_a_sideways_tile_where_the_variant_claims_one(
    row, variant, melds, concealed
):
    json_ = hand_from_photo(photo(row), variant).to_score_json()
    assert json_["melds"] == melds and json_["concealed"] == concealed


def test_without_groups_the_layout_is_made():
    result = photo("1m 2m 3m | 5p")
    result.groups = []
    assert hand_from_photo(result, "xingzi").winning_tile == "5p"


def test_unknown_variant_is_an_error():
    with pytest.raises(ValueError):
        hand_from_photo(photo("1m"), "riichi")


@pytest.mark.parametrize("code", NOTE_CODES)
def test_every_note_has_an_english_sentence(code):
    assert Note(code, tiles="5p", count=2, kind="pung").text.strip()


@pytest.mark.parametrize(
    "row,melds,standing",
    [
        # no gaps: the claimed pung and the concealed kong lie inside the standing run
        (
            "7p 7p~ 7p 1m 2m 3m back 9s 9s back 4s 4s",
            [("pung", "7p7p7p", True), ("concealed_kong", "9s9s9s9s", False)],
            "1m2m3m4s4s",
        ),
        ("1m 2m 3m 5s 5s~ 5s 5s 8p 8p", [("kong", "5s5s5s5s", True)], "1m2m3m8p8p"),
        # an upright triplet stands; a claimed chow with no three melds beside it is no 星子 chow
        # (issue 36 item 6: it stands, after the rest; it was a chow the engine then refused)
        ("4m~ 5m 6m 1p 1p 1p", [], "1p1p1p4m5m6m"),
        ("1m 2m 3m 5p 5p", [], "1m2m3m5p5p"),
        # four backs inside the run: a kong turned down whose tile cannot be seen, as set apart
        # (it was a concealed kong of 1m, a face-down tile left standing)
        ("back back back back 1m 2m 3m 4s 4s", [("concealed_kong", "????", False)], "1m2m3m4s4s"),
    ],
)
def test_melds_inside_a_standing_run(row, melds, standing):
    result = photo(row)
    result.groups = [type(result.groups[0])(tuple(range(len(result.detections))), "hand")]
    guess = hand_from_photo(result, "xingzi")
    assert [(m.kind, "".join(m.codes), m.claimed) for m in guess.melds] == melds
    assert "".join(t.code for t in guess.concealed) == standing


WINDOW_TILES = ("5s", "6s", "7s", "back", UNKNOWN)


@pytest.mark.parametrize("claimed", [False, True])
@pytest.mark.parametrize("n", [3, 4])
def test_a_meld_inside_the_standing_hand_has_the_layouts_shape(n, claimed):
    """One rule of a set's shape (`vision.layout.guess_kind`): inside the standing hand the app
    only decides whether that shape counts (a sideways tile for a pung, kong or chow; none for
    a concealed kong); it never names a shape the layout does not (one back among three alike
    was a concealed kong here and a hand set there)."""
    from itertools import product

    from app.photo_hand import _meld_kind
    from vision.layout import guess_kind

    named = 0
    for window in product(WINDOW_TILES, repeat=n):
        kind = _meld_kind(list(window), claimed)
        shape = guess_kind(window, claimed, fa_is_bonus=False)
        assert kind in (None, shape), window
        wanted = shape == "concealed_kong" if not claimed else shape in ("pung", "kong", "chow")
        assert (kind is not None) == wanted, window
        named += kind is not None
    # 3 sideways: 4 pungs (5s 6s 7s ?) + 6 orders of 5-6-7s; 4 upright: all backs, or 1-3 faces
    # of one tile (4 x 14 placings); 4 sideways: 4 kongs
    assert named == {(3, False): 0, (3, True): 10, (4, False): 57, (4, True): 4}[(n, claimed)]


def test_only_hand_and_meld_tiles_make_the_hand():
    result = photo("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 5s 5s | 5s")
    discard = Detection((900.0, 50.0, 960.0, 130.0), "5s", 0.9, role="discard")
    result.detections.append(discard)  # the fourth 5s is a discard: no kong, no fifth tile
    guess = hand_from_photo(result, "xingzi")
    assert 14 not in [t.detection for t in guess.concealed]
    assert guess.to_score_json()["concealed"] == "123456789m11p555s"
    result.groups = []  # made again: over the tiles not off_row only
    assert hand_from_photo(result, "xingzi").to_score_json()["concealed"] == "123456789m11p555s"


@pytest.mark.parametrize(
    ("rows", "kept", "melds"),
    [
        # two full rows (a sheet, or a second player's hand): the lower one, nearest the camera
        (
            ("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 1p 2p 2p", "1s 2s 3s 4s 5s 6s 7s 8s 9s 3p 3p 3p 4p 4p"),
            "33344p123456789s",
            [],
        ),
        # a pung laid apart in the upper row fits beside an 11-tile row: kept, the rest not
        (
            ("7p 7p 7p | 1m 2m 3m 4m 5m 6m 7m 8m", "1s 2s 3s 4s 5s 6s 7s 8s 9s 3p 3p"),
            "33p123456789s",
            ["777p"],
        ),
    ],
)
def test_more_tiles_than_a_hand_keeps_the_likeliest_hand(rows, kept, melds):
    result = photo(*rows)
    guess = hand_from_photo(result, "xinyu")
    hand = guess.to_score_json()
    assert hand["concealed"] == kept and [m["tiles"] for m in hand["melds"]] == melds
    note = next(n for n in guess.notes if n.code == "too_many_tiles")
    assert note.count == 28 if not melds else note.count == 22
    assert "than the 18 a winning hand holds" in note.text


def test_eighteen_tiles_with_four_kongs_are_one_hand():
    result = photo("1m 1m 1m 1m | 2m 2m 2m 2m | 3m 3m 3m 3m | 4m 4m 4m 4m | 5p 5p")
    guess = hand_from_photo(result, "xinyu")
    assert "too_many_tiles" not in [n.code for n in guess.notes]
    assert [m.kind for m in guess.melds] == ["kong"] * 4 and len(guess.concealed) == 2


def test_whole_keeps_every_grouped_tile_for_the_app_to_offer_its_own_likeliest_hand():
    result = photo("6m 1p 9s E 3s 6m | 2p 8m 5s W N 1s", "6m 6m 6m 2m 3m 4m 5p 6p 7p 6s 7s 8s 9s | 9s")
    whole = hand_from_photo(result, "xingzi", whole=True)
    assert len(whole.concealed) == 26 and "too_many_tiles" not in [n.code for n in whole.notes]
    cut = hand_from_photo(result, "xingzi")
    assert sorted(t.detection for t in cut.concealed) == list(range(12, 26)) and cut.winning_tile == "9s"


def _unsure(result: DetectResult, *ks: int, conf: float = 0.33, **more) -> DetectResult:
    """`result` with detections `ks` read at `conf` (and `more` fields, e.g. `uncertain=True`)."""
    import dataclasses

    for k in ks:
        result.detections[k] = dataclasses.replace(result.detections[k], conf=conf, **more)
    return result


def test_an_unsure_reading_never_completes_a_kong_laid_apart():
    """Issue 36 item 5: a flower read as 七万 at 33 % beside 777m was a kong (+2 炮): now the
    pung of the three sure 7m, the unsure one standing for the player to check."""
    result = _unsure(photo("1m 2m 3m 4m 5m 6m 2p 3p 4p 9s 9s | 7m 7m 7m 7m"), 14)
    guess = hand_from_photo(result, "jiujiang", whole=True)
    assert [(m.kind, m.codes) for m in guess.melds] == [("pung", ["7m"] * 3)]
    assert [t.detection for m in guess.melds for t in m.tiles] == [11, 12, 13]
    assert guess.concealed[-1].detection == 14 and guess.concealed[-1].conf == pytest.approx(0.33)
    sure = hand_from_photo(photo("1m 2m 3m 4m 5m 6m 2p 3p 4p 9s 9s | 7m 7m 7m 7m"), "jiujiang")
    assert [m.kind for m in sure.melds] == ["kong"]  # four sure readings: the kong


def test_a_claimed_kong_never_lays_apart_an_unsure_reading_inside_the_row():
    row = "1m 2m 3m 5s 5s~ 5s 5s 8p 8p"
    result = _unsure(photo(row), 6, conf=0.9, uncertain=True)  # flagged by the reader
    result.groups = [type(result.groups[0])(tuple(range(len(result.detections))), "hand")]
    guess = hand_from_photo(result, "xingzi")
    assert [(m.kind, "".join(m.codes)) for m in guess.melds] == [("pung", "5s5s5s")]
    assert "5s" in [t.code for t in guess.concealed]


def test_a_kong_whose_tops_are_cut_off_is_that_kong_with_its_odd_tile_flagged():
    """Issue 36 item 6: a claimed kong laid apart, read 111s + a 1m (its tops cut off), came
    as a pung of 一條 and a stray 一万 standing: now the kong of 1s, the odd tile to check."""
    row = "1s 1s~ 1s 1m | 2m 3m 4m 5p 6p 7p 2s 3s 4s 9p | 9p"
    guess = hand_from_photo(_unsure(photo(row), 3, conf=0.38), "jiujiang")
    assert [(m.kind, m.codes) for m in guess.melds] == [("kong", ["1s"] * 4)]
    odd = guess.melds[0].tiles[3]
    assert odd.detection == 3 and odd.uncertain and odd.conf == 0.0
    assert "1m" not in [t.code for t in guess.concealed] and len(guess.concealed) == 11
    sure = hand_from_photo(photo(row), "jiujiang")  # the 1m read sure: a tile laid beside the pung
    assert [(m.kind, m.codes) for m in sure.melds] == [("pung", ["1s"] * 3)]


@pytest.mark.parametrize(
    ("unsure", "melds", "standing"),
    [
        ((2,), [("concealed_kong", "7m7m7m7m")], "1m2m3m4s4s"),  # one face sure: it names the kong
        ((1, 2), [], "?7m7m?1m2m3m4s4s"),  # no face sure: no kong, the faces stand to be checked
    ],
)
def test_a_concealed_kong_inside_the_row_needs_a_face_read_sure(unsure, melds, standing):
    result = _unsure(photo("back 7m 7m back 1m 2m 3m 4s 4s"), *unsure)
    result.groups = [type(result.groups[0])(tuple(range(len(result.detections))), "hand")]
    guess = hand_from_photo(result, "xingzi")
    assert [(m.kind, "".join(m.codes)) for m in guess.melds] == melds
    assert "".join(t.code for t in guess.concealed) == standing
