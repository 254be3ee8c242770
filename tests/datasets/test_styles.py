"""The 0.6.0 renderer switches (`datasets.styles`): drawn only when switched on."""

from __future__ import annotations

import numpy as np
import pytest

from datasets import render_options, styles
from datasets.scenes import make_scene


@pytest.fixture(autouse=True)
def _reset_options():
    yield
    render_options.set_render_options()


def scene(seed=3, **opts):
    render_options.set_render_options(**opts)
    return make_scene(np.random.default_rng([seed, 0, 0]))[0]


def test_switches_off_draw_exactly_the_default_scene():
    assert np.array_equal(scene(), scene(mainland_faces=False, table_sets=False, table_felts=False))


@pytest.mark.parametrize("switch", ["mainland_faces", "table_sets", "table_felts"])
def test_each_switch_changes_some_scene(switch):
    assert any(not np.array_equal(scene(s), scene(s, **{switch: True})) for s in range(4))


def test_table_felt_has_a_texture_and_a_felt_colour():
    img = styles.table_felt(np.random.default_rng(1), 120, 160)
    assert img.shape == (120, 160, 3) and np.isfinite(img).all()
    assert img.std(axis=(0, 1)).max() > 3  # honeycomb or weave, not a flat colour


def test_table_style_gives_coloured_backs_and_thick_bodies():
    rng = np.random.default_rng(0)
    picked = [
        styles.table_style(rng, {"back": (0, 0, 0), "thick": 0.1, "ivory_part": 0.5}) for _ in range(40)
    ]
    coloured = [s for s in picked if s["back"] != (0, 0, 0)]
    assert 8 < len(coloured) < 32
    assert all(s["thick"] >= 0.25 for s in coloured)


def test_rail_paints_a_band_along_one_edge():
    img = np.zeros((100, 80, 3), np.float32)
    styles.rail(np.random.default_rng(2), img)
    painted = img.sum(axis=2) > 0
    rows, cols = painted.any(axis=1), painted.any(axis=0)
    assert painted.any() and (rows.all() or cols.all())  # a full-length band
    assert painted.mean() < 0.25
