"""Tile notation (DECISIONS §0): parse, format, Chinese input, the 5z rejection."""

from __future__ import annotations

import pytest

from scoring import HandError, Tile, format_tiles, parse_tile, parse_tiles
from scoring.tiles import counts_of, tiles_of


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("123m", "123m"),
        ("123m456p789s", "123m456p789s"),
        ("ESWNCFP", "ESWNCFP"),
        ("1m 2m,3m", "123m"),
        ("一万二万三万", "123m"),
        ("1万2万3万", "123m"),
        ("五萬", "5m"),
        ("三筒三饼三餅", "333p"),
        ("九条九索九條", "999s"),
        ("东南西北", "ESWN"),
        ("東風南风", "ES"),
        ("中发發白", "CFFP"),
        ("红中发财白板", "CFP"),
        ("123万", "123m"),
        ("１２３ｍ４５６ｐ", "123m456p"),  # full-width, as a Chinese IME types them
    ],
)
def test_parse_accepts_notation_and_chinese(text, expected):
    assert format_tiles(parse_tiles(text)) == expected


def test_parse_keeps_order_and_format_groups_runs():
    tiles = parse_tiles("3m1pC2m")
    assert [t.code for t in tiles] == ["3m", "1p", "C", "2m"]
    assert format_tiles(tiles) == "3m1pC2m"
    assert format_tiles(tiles, sort=True) == "23m1pC"


@pytest.mark.parametrize("text", ["5z", "123m7z", "1z"])
def test_z_notation_rejected_with_the_ambiguity_explained(text):
    with pytest.raises(HandError) as e:
        parse_tiles(text)
    msg = str(e.value)
    assert "riichi" in msg and "Guobiao" in msg and "白" in msg and "中" in msg


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("0m", "rank 0"),
        ("123", "no suit"),
        ("m", "without ranks"),
        ("12C", "before honour"),
        ("x", "unknown tile character 'x'"),
        ("e", "upper-case"),
    ],
)
def test_parse_errors_name_the_problem(text, fragment):
    with pytest.raises(HandError, match=fragment):
        parse_tiles(text)


def test_tile_model_properties():
    assert Tile.M5.code == "5m" and Tile.M5.rank == 5 and Tile.M5.suit == "m" and Tile.M5.zh == "五万"
    assert Tile.C.is_honour and Tile.C.code == "C" and Tile.C.zh == "中" and Tile.C.rank == 0
    assert Tile.P.zh == "白" and Tile.S9.code == "9s" and int(Tile.P1) == 9


def test_parse_tile_single_and_errors():
    assert parse_tile("九筒") is Tile.P9
    with pytest.raises(HandError, match="exactly one tile"):
        parse_tile("12m")
    with pytest.raises(HandError):
        parse_tile(5)  # type: ignore[arg-type]


def test_count_vectors_round_trip():
    tiles = parse_tiles("1123mCC")
    c = counts_of(tiles)
    assert c[0] == 2 and c[Tile.C] == 2 and sum(c) == 6
    assert format_tiles(tiles_of(c)) == "1123mCC"


def test_tile_of_and_the_one_table_of_chinese_names():
    """`tile_of` is the non-raising code lookup the UI uses; the traditional names the photo
    annotation draws are `Tile.zh` with 万 条 东 written 萬 條 東."""
    from scoring.tiles import ALL_TILES, RANK_ZH, tile_of

    assert [tile_of(t.code) for t in ALL_TILES] == list(ALL_TILES)
    assert tile_of("?") is tile_of("back") is tile_of("") is tile_of("5z") is None
    assert [Tile.M5.zh_traditional, Tile.S1.zh_traditional, Tile.E.zh_traditional] == ["五萬", "一條", "東"]
    assert [Tile.P5.zh_traditional, Tile.F.zh_traditional, Tile.P.zh_traditional] == ["五筒", "發", "白"]
    assert all(t.zh[0] == RANK_ZH[t.rank - 1] for t in ALL_TILES if not t.is_honour)
