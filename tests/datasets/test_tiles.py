"""Tile face rendering: glyph variation and font fallback (datasets/glyphs.py, datasets/faces.py), the
renderer switches (datasets/render_options.py)."""

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from datasets import glyphs, render_options
from datasets.faces import render_font_face
from datasets.glyphs import available_fonts, glyph_variation, has_glyph
from datasets.tiles import CLS_INDEX


def _bar_glyph() -> Image.Image:
    im = Image.new("L", (120, 160), 0)
    ImageDraw.Draw(im).rectangle((50, 10, 70, 150), fill=255)
    return im


def test_glyph_variation_p0_returns_the_glyph_unchanged():
    g = _bar_glyph()
    assert glyph_variation(g, np.random.default_rng(0), p=0.0) is g


@pytest.mark.parametrize("seed", range(6))
def test_glyph_variation_changes_shape_but_keeps_ink(seed):
    g = _bar_glyph()
    out = np.asarray(glyph_variation(g, np.random.default_rng(seed), p=1.0))
    ink = (out > 127).sum()
    base = (np.asarray(g) > 127).sum()
    # cropped to its ink, never empty, never blown up to a blob
    assert out.shape[0] > 100 and out.shape[1] >= 10
    assert 0.4 * base < ink < 3.0 * base
    assert out[0].any() and out[-1].any() and out[:, 0].any() and out[:, -1].any()


def test_glyph_variation_is_seeded():
    a = np.asarray(glyph_variation(_bar_glyph(), np.random.default_rng(5), p=1.0))
    b = np.asarray(glyph_variation(_bar_glyph(), np.random.default_rng(5), p=1.0))
    assert np.array_equal(a, b)


needs_fonts = pytest.mark.skipif(
    not available_fonts(), reason="needs a CJK font (none installed and vision/fonts/ missing)"
)


@needs_fonts
def test_has_glyph_knows_a_cjk_font_draws_wan_but_not_a_private_use_char():
    font = available_fonts()[0]
    assert has_glyph(font, "萬")
    assert not has_glyph(font, "\ue000")


@needs_fonts
@pytest.mark.parametrize("name", ["7m", "9m", "N", "F"])
def test_font_face_has_ink_for_every_font(name):
    # each font in turn (a GB-only Kai lacks 萬 and 發: the fallback must still draw them)
    for seed in range(len(available_fonts()) * 2):
        face = np.asarray(render_font_face(CLS_INDEX[name], np.random.default_rng(seed)))
        assert face[:, :, 3].max() == 255
        assert (face[:, :, 3] > 0).mean() > 0.03
        if name.endswith("m"):  # 萬 fills the lower half
            assert (face[face.shape[0] // 2 :, :, 3] > 0).mean() > 0.05


def test_glyph_variation_p0_draws_nothing_from_the_rng():
    # recipe 0.2.0 must keep drawing the same scenes from the same seeds
    rng, ref = np.random.default_rng(3), np.random.default_rng(3)
    glyph_variation(_bar_glyph(), rng, p=0.0)
    assert rng.random() == ref.random()


@pytest.fixture
def restore_options():
    yield
    render_options.set_render_options()


def test_default_render_options_are_recipe_0_2_0(restore_options):
    opts = render_options.set_render_options()
    assert opts == render_options.RenderOptions(
        brush_fonts=False, glyph_variation=0.0, glyph_vshear=False, faint_rims=False, sheet_edges=False
    )
    assert render_options.OPTIONS is opts


def test_unknown_render_option_is_refused(restore_options):
    with pytest.raises(TypeError):
        render_options.set_render_options(glyph_wobble=1.0)


@needs_fonts
def test_brush_fonts_option_adds_fonts_without_dropping_any(restore_options):
    render_options.set_render_options()
    base = set(available_fonts())
    render_options.set_render_options(brush_fonts=True)
    with_brush = set(available_fonts())
    assert base <= with_brush
    installed_brush = {p for p in glyphs.BRUSH_FONT_GLOBS if Path(p).exists()}
    assert with_brush - base == installed_brush
