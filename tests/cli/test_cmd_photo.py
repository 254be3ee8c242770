"""`jxmj photo`: photo -> tiles -> hand guess -> score."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from app import cli
from scoring.tiles import parse_tiles
from tests.vision.conftest import encode


@pytest.fixture
def photo(scene_pixels, tmp_path):
    p = tmp_path / "hand.png"
    p.write_bytes(encode(scene_pixels, "PNG"))
    return p


def test_photo_json_reads_and_guesses_the_hand(models_env, photo, capsys):
    status = cli.main(["photo", str(photo), "--variant", "xingzi", "--self-drawn", "--dealer", "--json"])
    j = json.loads(capsys.readouterr().out)
    hand = j["hand"]
    assert hand["concealed"] == "123m22p678s"
    assert hand["winning_tile"] == "2p"
    assert hand["melds"] == [{"kind": "pung", "tiles": "777p"}, {"kind": "concealed_kong", "tiles": "9999s"}]
    assert hand["bonus_tiles"] == 2
    assert hand["variant"] == "xingzi" and hand["self_drawn"] is True
    assert j["notes"]
    assert status == 0, j
    assert "own" in j["score"] or j["score"].get("can_win") is False


def test_photo_text_output(models_env, photo, capsys):
    status = cli.main(["photo", str(photo), "--variant", "jiujiang"])
    out = capsys.readouterr()
    assert status == 0, out.err
    assert "hand (guessed)" in out.out and "九江 Jiujiang — " in out.out
    assert "row 1" in out.out and "row 2" in out.out


def test_photo_winning_tile_override(models_env, photo, capsys):
    cli.main(["photo", str(photo), "--variant", "xingzi", "--winning-tile", "3m", "--json"])
    j = json.loads(capsys.readouterr().out)
    assert j["hand"]["winning_tile"] == "3m"


def test_photo_unscorable_hand_exits_2_and_shows_the_hand(models_env, photo, capsys):
    status = cli.main(["photo", str(photo), "--variant", "xingzi", "--winning-tile", "9m", "--json"])
    j = json.loads(capsys.readouterr().out)
    assert status == 2
    assert "cannot be scored" in j["error"] and j["hand"]["winning_tile"] == "9m"
    assert j["code"] == "winning_tile_not_in_hand"  # the engine's code


def test_the_readme_tour_scores_the_bundled_sample_photo(capsys):
    """`jxmj photo app/assets/sample_hand.jpg ...` of the README, with the shipped models: the
    sample's upright 678s set apart stands (no chow meld), so the hand scores as its truth."""
    sample = Path(__file__).resolve().parents[2] / "app" / "assets"
    status = cli.main(
        [
            "photo",
            str(sample / "sample_hand.jpg"),
            "--variant",
            "xingzi",
            "--self-drawn",
            "--dealer",
            "--json",
        ]
    )
    out = json.loads(capsys.readouterr().out)
    truth = json.loads((sample / "sample_hand.json").read_text(encoding="utf-8"))
    assert status == 0, out.get("error")
    assert out["hand"]["melds"] == []
    assert sorted(parse_tiles(out["hand"]["concealed"])) == sorted(parse_tiles(truth["tiles"]))
    assert out["score"]["can_win"] is True


def test_photo_without_tiles_exits_2(models_env, tmp_path, capsys):
    p = tmp_path / "table.jpg"
    p.write_bytes(encode(np.full((480, 640, 3), (30, 90, 40), np.uint8), "JPEG"))
    status = cli.main(["photo", str(p), "--variant", "xingzi"])
    err = capsys.readouterr().err
    assert status == 2 and "no tiles" in err and "Traceback" not in err


def test_photo_bad_image_exits_2(models_env, tmp_path, capsys):
    p = tmp_path / "x.jpg"
    p.write_bytes(b"")
    status = cli.main(["photo", str(p), "--variant", "xingzi", "--json"])
    j = json.loads(capsys.readouterr().out)
    assert status == 2 and "empty" in j["error"] and j["code"] == "empty"


def test_photo_needs_a_variant(capsys):
    assert cli.main(["photo", "x.jpg"]) == 2
    out = capsys.readouterr()
    assert out.out == "" and "jxmj photo: the following arguments are required: --variant" in out.err


@pytest.mark.parametrize("value", ["nan", "-2", "0", "inf", "1e-320", "0.00009", "1e13", "1e400"])
def test_photo_point_value_must_be_positive(value, capsys):
    assert cli.main(["photo", "x.jpg", "--variant", "xingzi", "--point-value", value]) == 2
    assert (
        "argument --point-value: points per 炮 must lie in 0.0001..1,000,000,000,000"
        in capsys.readouterr().err
    )


def test_photo_at_the_table_leaves_discards_and_the_logo_out(tmp_path, monkeypatch, capsys):
    """A painted table scene (hand row, a pung beside it, 8 discards turned, a logo) through the
    stand-in models: the hand guess holds the hand row and the pung; the CLI names what it left out."""
    from vision import testing, testing_table

    codes = ["1m", "2m", "3m", "4m", "5m", "6m", "7s", "8s", "9s", "1p", "1p"]
    scene = testing_table.table_scene(21, melds=1, discards=8, walls=False, hand=codes)
    tiles = [(xyxy, code) for xyxy, code, _role in scene]
    testing.build_models(tmp_path / "models", tiles, (1600, 1200))
    monkeypatch.setenv("JXMJ_MODELS_DIR", str(tmp_path / "models"))
    photo = tmp_path / "table.png"
    photo.write_bytes(encode(testing.paint_scene(1600, 1200, tiles), "PNG"))
    cli.main(["detect", str(photo)])
    roles = [d["role"] for d in json.loads(capsys.readouterr().out)["detections"]]
    assert roles[:14] == ["hand"] * 11 + ["meld"] * 3
    assert sorted(roles[14:]) == ["discard"] * 8 + ["other"] * (len(roles) - 22)  # the logo, the watermark
    cli.main(["photo", str(photo), "--variant", "xinyu", "--self-drawn", "--json"])
    hand = json.loads(capsys.readouterr().out)["hand"]
    assert (hand["concealed"], hand["winning_tile"]) == ("123456m11p789s", "1p")
    assert hand["melds"] == [{"kind": "pung", "tiles": "777p"}]
    assert cli.main(["photo", str(photo), "--variant", "xinyu", "--self-drawn"]) == 0
    assert f"left out: 8 discard, {len(roles) - 22} other" in capsys.readouterr().out


def test_photo_text_is_the_score_text_of_the_guessed_hand(models_env, photo, capsys):
    """One formatter (`scoring.format_text`): the score part of `jxmj photo`'s text is, line for line,
    `jxmj score --format text` of the hand it guessed (the wait in one wording, never 单钓 for
    seven pairs or a shape waiting on several kinds)."""
    from scoring import HandInput, format_text, score

    args = ["photo", str(photo), "--variant", "xingzi", "--self-drawn", "--dealer"]
    assert cli.main([*args, "--json"]) == 0
    hand = json.loads(capsys.readouterr().out)["hand"]
    assert cli.main(args) == 0
    text = capsys.readouterr().out
    expected = format_text(score(HandInput.from_json(hand)), "en")
    assert text.rstrip("\n").endswith(expected.rstrip("\n"))
    assert "score (xingzi)" not in text  # the command's own summary is gone
