"""The 0.7.0 renderer styles (`datasets.world_styles`): each kind draws, and draws the class it is
asked for (the dots and sticks counted, the inks checked); off, nothing changes."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from datasets import render_options, world_styles
from datasets.glyphs import BUNDLED_FONT
from datasets.scenes import make_scene
from datasets.tiles import CLS_INDEX, make_tile, random_style

FONT = BUNDLED_FONT  # every machine has it; it has every glyph of a suit or honour face


@pytest.fixture(autouse=True)
def _reset_options():
    yield
    render_options.set_render_options()


def face(name, kind, seed=0):
    img = world_styles.world_face(name, np.random.default_rng(seed), FONT, kind)
    return np.asarray(img)


def blobs(rgba) -> list[np.ndarray]:
    """The outer outlines of the inked parts (a ring with petals inside counts once)."""
    mask = (rgba[:, :, 3] > 128).astype(np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return [c for c in contours if cv2.contourArea(c) > 60]


def ink(rgba) -> np.ndarray:
    """The RGB of the inked pixels (opaque and not the white details drawn on the ink)."""
    px = rgba[rgba[:, :, 3] > 200][:, :3].astype(int)
    return px[px.min(1) < 200]


def is_red(px) -> np.ndarray:
    return (px[:, 0] > 120) & (px[:, 0] > px[:, 1] + 60) & (px[:, 0] > px[:, 2] + 60)


def test_kinds_for_each_class():
    assert world_styles.kinds_for("6m") == ("numeral_ink",)
    assert world_styles.kinds_for("5p") == ("dot_ink", "mixed_dots", "red_five")
    assert world_styles.kinds_for("1s") == ()  # the bird stays the bird
    assert world_styles.kinds_for("5s") == ("bamboo_ink", "beaded", "red_five")
    assert world_styles.kinds_for("P") == ("white_dragon",)
    assert world_styles.kinds_for("flower") == ("flower", "marker")  # X, never a suit or a wind
    assert world_styles.kinds_for("E") == ()
    assert world_styles.world_face("E", np.random.default_rng(0), FONT) is None
    with pytest.raises(ValueError, match="beaded"):
        world_styles.world_face("1s", np.random.default_rng(0), FONT, "beaded")


@pytest.mark.parametrize("kind", ["dot_ink", "mixed_dots"])
@pytest.mark.parametrize("n", range(1, 10))
def test_dot_faces_show_their_number_of_dots(kind, n):
    for seed in range(3):
        assert len(blobs(face(f"{n}p", kind, seed))) == n


def test_dot_inks_are_dark_green_black_or_blue():
    for seed in range(6):
        px = ink(face("9p", "dot_ink", seed))
        assert len(px) and is_red(px).mean() < 0.1  # (a petal dot's small red centre at most)
        assert np.percentile(px.max(1), 90) < 200  # no bright ink: dark greens, blacks, blues


def test_set_g_dots_six_has_four_red_and_two_black():
    img = face("6p", "mixed_dots")
    reds = []
    for c in blobs(img):
        m = np.zeros(img.shape[:2], np.uint8)
        cv2.drawContours(m, [c], -1, 1, -1)
        px = ink(img * m[:, :, None])
        reds.append(is_red(px).mean() > 0.5)
    assert sorted(reds) == [False, False, True, True, True, True]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 9])
def test_bamboo_faces_show_their_number_of_sticks(n):
    for seed in range(3):
        assert len(blobs(face(f"{n}s", "bamboo_ink", seed))) == n


def test_beaded_sticks_are_columns_of_beads_in_green_with_a_red_accent():
    img = face("6s", "beaded")
    assert len(blobs(img)) > 6 * 4  # every stick a column of at least four beads
    px = ink(img)
    red = is_red(px)
    assert 0.05 < red.mean() < 0.4
    assert (px[~red][:, 1] >= px[~red][:, 0]).mean() > 0.9  # the rest green


@pytest.mark.parametrize("name", ["5m", "5p", "5s"])
def test_red_fives_are_all_red_and_still_five(name):
    for seed in range(3):
        img = face(name, "red_five", seed)
        assert is_red(ink(img)).mean() > 0.95
        if name != "5m":
            assert len(blobs(img)) == 5


def test_red_art_turns_a_black_ink_red_and_keeps_the_face():
    art = np.zeros((4, 4, 4), np.uint8)
    art[..., 3] = 255
    art[:2, :, :3] = 20  # ink
    art[2:, :, :3] = 245  # the white of the art
    out = np.asarray(world_styles.red_art(__import__("PIL.Image").Image.fromarray(art)))
    assert is_red(out[:2].reshape(-1, 4)[:, :3].astype(int)).all()
    assert out[2:, :, :3].min() > 225


def test_wan_numerals_in_black_blue_or_green_over_a_wan():
    for seed in range(8):
        img = face("6m", "numeral_ink", seed)
        top, bottom = ink(img[:160]), ink(img[220:])
        assert len(top) > 200 and len(bottom) > 1000  # a numeral, then 萬
        assert not is_red(top).any()


def test_white_dragons_are_frames_diamonds_or_blanks():
    designs = set()
    for seed in range(12):
        img = face("P", "white_dragon", seed)
        assert img[170:230, 130:170, 3].max() == 0  # nothing in the middle: never a character
        designs.add(int((img[:, :, 3] > 0).sum() > 0))
    assert designs == {0, 1}  # some blank, some drawn


@pytest.mark.parametrize("kind", ["flower", "marker"])
def test_flowers_and_markers_draw_something(kind):
    assert all((face("flower", kind, s)[:, :, 3] > 0).any() for s in range(4))


def test_ink_weight_bold_thin_worn():
    base = world_styles.world_face("9p", np.random.default_rng(1), FONT, "dot_ink")
    area = (np.asarray(base)[:, :, 3] > 128).sum()
    rng = np.random.default_rng(2)
    grown = {
        k: (np.asarray(world_styles.ink_weight(base, rng, k))[:, :, 3] > 128).sum()
        for k in world_styles.INK_KINDS
    }
    assert grown["bold"] > area * 1.05
    assert grown["thin"] < area * 0.95
    assert grown["worn"] < area
    assert len(blobs(np.asarray(world_styles.ink_weight(base, rng, "bold")))) == 9  # still nine
    with pytest.raises(ValueError, match="unknown ink kind"):
        world_styles.ink_weight(base, rng, "shiny")


def test_switches_off_draw_the_default_scene_and_on_change_some():
    def scene(seed, **opts):
        render_options.set_render_options(**opts)
        return make_scene(np.random.default_rng([seed, 0, 0]))[0]

    assert np.array_equal(scene(3), scene(3, world_styles=0.0, ink_weight=0.0))
    for switch in ("world_styles", "ink_weight"):
        assert any(not np.array_equal(scene(s), scene(s, **{switch: 1.0})) for s in range(4))


def test_a_tile_with_world_styles_on_shows_its_class():
    render_options.set_render_options(world_styles=1.0, ink_weight=0.0)
    rng = np.random.default_rng(5)
    tile = make_tile(CLS_INDEX["4p"], rng, "font", random_style(rng))
    face_px = tile[:200, 15:135]
    dark = (face_px[:, :, :3].min(2) < 150).astype(np.uint8)
    contours, _ = cv2.findContours(dark, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    assert len([c for c in contours if cv2.contourArea(c) > 40]) == 4
