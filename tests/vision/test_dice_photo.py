"""Issue 35, through the shipped reader: synthetic photos of a hand row with dice or loose true tiles
beside it (`datasets.dice_render`, the faces drawn from fonts: no `../shared`). A die the reader
reads as a weak dot leaves the detections for `rejected`; loose dot, 白 and flower tiles (small,
slanted, lying flat) stay, and the row reads the same.

The faces are drawn with the bundled font alone (`datasets.glyphs.BUNDLED_FONT`): the system's CJK
fonts differ from machine to machine (CI installs Debian's Noto CJK; a user's may have none), and
with them the scene each seed draws. Seeds were picked under it: a scene whose die the reader reads
as a weak dot (23, 34, 38 of 0-39, under OpenCV 4.14 and 5.1 alike); loose tiles of each kind (a
flower behind the row, 白 in front, two 白, a 白 at the row's end)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import datasets.glyphs as glyphs
from datasets.dice_cut import _iou
from datasets.dice_render import dice_scene
from vision.reader import TileReader

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module", autouse=True)
def bundled_font_only():
    """Every face drawn with the font the repository ships (module docstring)."""
    saved = list(glyphs.FONT_GLOBS)
    glyphs.FONT_GLOBS.clear()
    glyphs._fonts.cache_clear()
    yield
    glyphs.FONT_GLOBS[:] = saved
    glyphs._fonts.cache_clear()


@pytest.fixture(scope="module")
def reader() -> TileReader:
    return TileReader(REPO / "models")


def _scene(seed: int, dice: bool):
    img, _rows, things = dice_scene(np.random.default_rng(seed), dice=dice, count=2, source="font")
    return img, things


@pytest.mark.parametrize("seed", [23, 34, 38])
def test_a_die_read_as_a_weak_dot_leaves_the_row(reader, seed):
    img, things = _scene(seed, dice=True)
    result = reader.detect(img)
    gone = [t for t in things if any(_iou(r.xyxy, t.xyxy) >= 0.3 for r in result.rejected)]
    assert len(gone) == 1  # the other die: found by no box, or read as no weak dot
    assert not any(_iou(d.xyxy, gone[0].xyxy) >= 0.3 for d in result.detections)


@pytest.mark.parametrize("seed", [11, 19, 24, 39])
def test_loose_true_tiles_beside_the_row_stay(reader, seed):
    img, things = _scene(seed, dice=False)
    result = reader.detect(img)
    found = [t for t in things if any(_iou(d.xyxy, t.xyxy) >= 0.3 for d in result.detections)]
    assert found, "the reader finds the loose tiles"
    assert not any(_iou(r.xyxy, t.xyxy) >= 0.3 for r in result.rejected for t in things)
