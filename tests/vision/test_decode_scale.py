"""The decode size of a photo: the decision table from sizes alone, one decode in the common case,
a second at the scale small tiles need."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.conftest import SCENE_SIZE, encode
from vision import ReaderConfig, TileReader
from vision.scale import current_reduction, header_reduction, min_side_for, reduction_for


@pytest.mark.parametrize(
    "size,min_side,reduction",
    [
        ((4032, 3024), 1000, 4),  # a 12 MP phone photo: a quarter, 1008 px long
        ((3024, 4032), 1000, 4),
        ((4000, 3000), 1000, 4),  # exactly 1000
        ((4032, 3024), 2000, 2),  # the safer half size
        ((3264, 2448), 1000, 2),  # 8 MP: a quarter would be 816 px
        ((2153, 2153), 1000, 2),
        ((1479, 1109), 1000, 1),  # a messenger's copy: full size
        ((8000, 6000), 1000, 8),  # 48 MP: an eighth
        ((12000, 9000), 1000, 8),  # never past 1/8
        ((4032, 3024), 0, 1),  # 0 / None: full size
        ((4032, 3024), None, 1),
    ],
)
def test_header_decides_the_reduction(size, min_side, reduction):
    assert header_reduction(*size, min_side) == reduction


@pytest.mark.parametrize(
    "short_full,current,reduction",
    [
        (200, 4, 4),  # 12 MP hand photo: 50 px at 1/4 >= 48, no second decode
        (192, 4, 4),
        (191, 4, 2),  # 47.75 px at 1/4: half size
        (100, 4, 2),
        (95, 4, 1),  # 47.5 at 1/2: full size
        (400, 4, 4),  # never coarser than the first decode
        (400, 8, 8),
        (30, 8, 1),  # too small even at full size: full size
        (200, 1, 1),
    ],
)
def test_tile_size_decides_the_fallback(short_full, current, reduction):
    assert reduction_for(short_full, 48, current) == reduction


def test_min_side_for_decodes_at_exactly_that_reduction():
    for size in [(4032, 3024), (3024, 4032), (4001, 2999), (1479, 1109)]:
        for r in (1, 2, 4, 8):
            assert header_reduction(*size, min_side_for(*size, r)) == r
    scales = (1.0, 0.5, 1008 / 4032, 504 / 4032, 1479 // 2 / 1479)
    assert [current_reduction(s) for s in scales] == [1, 2, 4, 8, 2]


@pytest.fixture()
def decodes(monkeypatch):
    """The `min_side` of every decode `vision.image.open_image` makes."""
    import vision.image as image

    calls: list = []
    real = image._decode

    def spy(data, min_side):
        calls.append(min_side)
        return real(data, min_side)

    monkeypatch.setattr(image, "_decode", spy)
    return calls


def test_one_decode_when_the_tiles_are_big_enough(models_dir, scene_pixels, decodes):
    data = encode(scene_pixels, "JPEG", quality=97, subsampling=0)
    # 1600 px at 1/2: tiles ~36 px wide there, >= the stand-in classifier's 32
    result = TileReader(models_dir, ReaderConfig(decode_min_side=800)).read(data)
    assert decodes == [800]
    assert result.timing_ms["decode"] > 0 and len(result.detections) > 0


def test_small_tiles_decode_again_once_at_the_scale_they_need(models_dir, scene, scene_pixels, decodes):
    from tests.vision.test_reader import codes

    data = encode(scene_pixels, "JPEG", quality=97, subsampling=0)
    # 1/4 first (tiles ~18 px wide there), then 1/2 for the crops (~36 px), never full size
    result = TileReader(models_dir, ReaderConfig(decode_min_side=400)).read(data)
    assert decodes == [400, min_side_for(*SCENE_SIZE, 2)]
    full = TileReader(models_dir, ReaderConfig(decode_min_side=0)).read(data)
    assert decodes[-1] is None  # the full-size reference read
    assert (result.width, result.height) == SCENE_SIZE
    agree = sum(a == b for a, b in zip(codes(result), codes(full), strict=True))
    assert agree >= len(scene) - 1


def test_second_pass_region_is_decoded_again_when_it_has_too_few_pixels(reader, scene_pixels, decodes):
    from vision.image import LoadedImage

    data = encode(scene_pixels, "PNG")
    w, h = SCENE_SIZE
    px = scene_pixels[::8, ::8].copy()  # as if decoded at 1/8: 200 x 150
    loaded = LoadedImage(px, w, h, scale=px.shape[1] / w, source=data)
    xyxy, _s, _c = reader._localize(px)
    region = (0, 0, px.shape[1], px.shape[0])  # 200 px long at 1/8, 1600 at full size
    need = max(reader._refine_size)
    timing = {"decode": 0.0}
    boxes, again, finer = reader._second_pass(loaded, region, xyxy, timing)
    r = min(reduction_for(w, need, 8), reader.classifier.crop_reduction(loaded, xyxy))
    assert r < 8 and finer is not None and current_reduction(finer.scale) == r
    assert decodes == [min_side_for(w, h, r)] and timing["decode"] > 0  # one decode, at that scale
    k = finer.scale / loaded.scale
    assert np.allclose(boxes, again[0] / k)  # found in the finer pixels, given in loaded's
    assert len(boxes) and (boxes[:, 2] <= px.shape[1] + 1).all() and (boxes[:, 3] <= px.shape[0] + 1).all()
    # with pixels enough there already, no decode
    decodes.clear()
    full = LoadedImage.from_array(scene_pixels)
    _b, _a, none = reader._second_pass(full, (0, 0, w, h), xyxy * 8, timing)
    assert none is None and decodes == []
