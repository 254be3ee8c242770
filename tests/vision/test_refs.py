"""Reading with references of the table's set (`vision.refs`, `TileReader.embed_refs` / `detect(refs=)`).

Painted scenes: the stand-in classifier names a tile by its red level only, and its `embedding`
is the crop's mean RGB minus 0.5, so green and blue are a set's "look" the logits cannot see.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from vision import TileReader, testing
from vision.modelfiles import CLASS_CODES
from vision.refblend import RefCalibration, RefSet, blend
from vision.refs import MAX_REF_PHOTOS, MAX_REFS, Ref, RefsError, load_refs, parse_refs

SIZE = (1600, 1200)
SCENE = testing.hand_scene(*SIZE)
ODD = next(k for k, (_, code) in enumerate(SCENE) if code == "8s")
"""The tile this set paints unlike the sets the model knows: its 8s reads as a 7s."""


def red(code: str) -> int:
    return testing.tile_colour(code)[0]


def paint(green: int = 255, blue: int = 255, odd_blue: int | None = 40) -> np.ndarray:
    """The scene with every tile `(red of its class, green, blue)`; the 8s `(red of 7s, green,
    odd_blue)` (None: painted as the others)."""
    img = testing.paint_scene(*SIZE, [])
    for k, ((x0, y0, x1, y1), code) in enumerate(SCENE):
        colour = (red(code), green, blue)
        if k == ODD and odd_blue is not None:
            colour = (red("7s"), green, odd_blue)
        img[round(y0) : round(y1), round(x0) : round(x1)] = colour
    return img


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> Path:
    """Stand-ins with the embedding output; `gain` 2 so that a neighbouring class keeps some
    probability, and a calibration (logit margins here are 2: no tile is flagged alone)."""
    d = tmp_path_factory.mktemp("refs_models")
    testing.build_localizer(d / "localizer.onnx", [b for b, _ in SCENE], image_size=SIZE,
                            backs=[c == "back" for _, c in SCENE])  # fmt: skip
    calibration = {"temperature": 1.0, "flag_logit_margin": 0.5, "disagree_factor": 0.0}
    testing.build_classifier(
        d / "classifier.onnx", embedding=True, gain=2.0, meta_override={"calibration": calibration}
    )
    return d


@pytest.fixture(scope="module")
def reader(models) -> TileReader:
    return TileReader(models)


def save(tmp: Path, name: str, pixels: np.ndarray) -> Path:
    path = tmp / name
    Image.fromarray(pixels).save(path)
    return path


def refs_of(photo: Path, odd_true: str = "8s") -> list[Ref]:
    """Every tile of the painted scene as a reference, the odd one with its true tile."""
    return [Ref(photo, box, odd_true if k == ODD else code) for k, (box, code) in enumerate(SCENE)]


def tiles(result) -> list[str]:
    return sorted(d.tile for d in result.detections)


def odd_reading(result):
    x0 = SCENE[ODD][0][0]
    return next(d for d in result.detections if abs(d.xyxy[0] - x0) < 2)


def test_refs_of_the_same_set_read_its_odd_tile_right(reader, tmp_path):
    earlier = save(tmp_path, "earlier.png", paint(odd_blue=40))
    now = paint(odd_blue=44)  # another photo of the same set: a few grey levels apart
    plain = reader.detect(now)
    assert odd_reading(plain).tile == "7s"  # the model alone misreads this set's 8s
    refset = reader.embed_refs(refs_of(earlier))
    # one view per tile, two for the sideways 7p (turned both ways)
    assert refset.embeddings.shape == (len(SCENE) + 1, 3) and refset.count == len(SCENE)
    assert np.allclose(np.linalg.norm(refset.embeddings, axis=1), 1.0)
    with_refs = reader.detect(now, refset)
    assert odd_reading(with_refs).tile == "8s"
    others = [d.tile for d in with_refs.detections if d is not odd_reading(with_refs)]
    assert sorted(others) == sorted(c for k, (_, c) in enumerate(SCENE) if k != ODD)
    # the references changed the model's reading: it stays uncertain (refs never hide a flag)
    assert odd_reading(with_refs).uncertain


def test_refs_of_another_set_do_not_make_the_reading_worse(reader, tmp_path):
    other_set = save(tmp_path, "other.png", paint(green=200, blue=200, odd_blue=None))
    refset = reader.embed_refs(refs_of(other_set, odd_true="8s"))
    now = paint(odd_blue=None)  # an ordinary set: every tile reads right alone
    plain = reader.detect(now)
    assert tiles(plain) == sorted(c for _, c in SCENE)
    with_refs = reader.detect(now, refset)
    assert tiles(with_refs) == tiles(plain)
    assert [d.uncertain for d in with_refs.detections] == [d.uncertain for d in plain.detections]


def test_a_tile_unlike_every_reference_of_its_class_is_uncertain(reader, tmp_path):
    dark = save(tmp_path, "dark.png", paint(green=0, blue=0, odd_blue=None))
    refset = reader.embed_refs(refs_of(dark))
    result = reader.detect(paint(odd_blue=None), refset)
    faces = [d for d in result.detections if d.tile != "back"]
    assert faces and all(d.uncertain for d in faces)
    assert not any(d.uncertain for d in reader.detect(paint(odd_blue=None)).detections if d.tile != "back")


def test_empty_refs_read_exactly_as_without(reader):
    pixels = paint()
    empty = reader.embed_refs([])
    assert len(empty.labels) == 0
    a, b = reader.detect(pixels).to_json(), reader.detect(pixels, empty).to_json()
    a.pop("timing_ms"), b.pop("timing_ms")
    assert a == b


def test_each_ref_photo_is_decoded_once(reader, tmp_path, monkeypatch):
    import vision.refembed as ve

    photo = save(tmp_path, "p.png", paint())
    opened = []
    real = ve.open_image
    monkeypatch.setattr(ve, "open_image", lambda src, **kw: opened.append(src) or real(src, **kw))
    same = [Ref(tmp_path / "." / "p.png", r.xyxy, r.tile) for r in refs_of(photo)]
    refset = reader.embed_refs(refs_of(photo) * 2 + same)
    assert [p.resolve() for p in opened] == [photo.resolve()]
    assert refset.count == 3 * len(SCENE)


def test_a_missing_ref_photo_is_a_coded_error_naming_the_reference_from_1(reader, tmp_path):
    photo = save(tmp_path, "p.png", paint())
    with pytest.raises(RefsError) as e:
        reader.embed_refs([Ref(photo, (0, 0, 10, 10), "1m"), Ref(tmp_path / "gone.jpg", (0, 0, 9, 9), "1m")])
    assert e.value.code == "ref_photo_unreadable"
    assert str(e.value).startswith(f"reference 2: the photo {tmp_path / 'gone.jpg'} cannot be read: ")


def test_a_box_outside_its_photo_is_a_coded_error(reader, tmp_path):
    photo = save(tmp_path, "p.png", paint())
    for box in [(0, 0, 1700, 100), (-5, 0, 10, 10), (50, 50, 50, 60)]:
        with pytest.raises(RefsError) as e:
            reader.embed_refs([Ref(photo, box, "1m")])
        assert e.value.code == "ref_box_outside"
    reader.embed_refs([Ref(photo, (0, 0, 1600.5, 1200.0), "1m")])  # detections round to 0.1 px


def test_old_model_without_embedding_and_refs_is_a_coded_error(tmp_path):
    testing.build_models(tmp_path, SCENE, SIZE)  # logits only
    old = TileReader(tmp_path)
    assert not old.embeds
    photo = save(tmp_path, "p.png", paint())
    assert old.embed_refs([]).count == 0  # no references: fine
    with pytest.raises(RefsError) as e:
        old.embed_refs(refs_of(photo))
    assert e.value.code == "refs_unsupported"


def test_parse_refs_paths_and_errors(tmp_path):
    doc = {"refs": [{"image": "a.jpg", "xyxy": [1, 2, 30, 40.5], "tile": "6m"},
                    {"image": str(tmp_path / "b.jpg"), "xyxy": [0, 0, 9, 9], "tile": "F"}]}  # fmt: skip
    (tmp_path / "sub").mkdir()
    path = tmp_path / "sub" / "refs.json"
    path.write_text(json.dumps(doc))
    refs = load_refs(path)
    assert refs[0] == Ref(tmp_path / "sub" / "a.jpg", (1.0, 2.0, 30.0, 40.5), "6m")
    assert refs[1].image == tmp_path / "b.jpg"
    bad = {
        b"{refs": "refs_bad_json",
        b"[]": "refs_bad_json",
        b'{"refs": [{"image": "a.jpg", "xyxy": [1, 2, 3], "tile": "6m"}]}': "refs_bad_json",
        b'{"refs": [{"image": "a.jpg", "xyxy": [1, 2, 3, true], "tile": "6m"}]}': "refs_bad_json",
        b'{"refs": [{"image": "a.jpg", "xyxy": [1, 2, 3, 4]}]}': "refs_bad_json",
        b'{"refs": [{"image": "a.jpg", "xyxy": [1, 2, 3, 4], "tile": "6x"}]}': "refs_bad_tile",
        b'{"refs": [{"image": "a.jpg", "xyxy": [1, 2, 3, 4], "tile": "none"}]}': "refs_bad_tile",
        b"\xff\xfe": "refs_bad_json",
        # a lone surrogate in the path: was internal_error (UnicodeEncodeError)
        b'{"refs": [{"image": "\\ud800.jpg", "xyxy": [1, 2, 3, 4], "tile": "6m"}]}': "refs_bad_json",
    }
    for data, code in bad.items():
        with pytest.raises(RefsError) as e:
            parse_refs(data, tmp_path)
        assert e.value.code == code, data
    odd = parse_refs(b'{"refs": [{"image": "\\udcff.jpg", "xyxy": [1, 2, 3, 4], "tile": "6m"}]}', tmp_path)
    assert os.fsencode(odd[0].image) == os.fsencode(tmp_path) + b"/\xff.jpg"  # a file named in bytes
    many = {"refs": [{"image": "a.jpg", "xyxy": [0, 0, 9, 9], "tile": "1m"}] * (MAX_REFS + 1)}
    photos = {
        "refs": [{"image": f"{n}.jpg", "xyxy": [0, 0, 9, 9], "tile": "1m"} for n in range(MAX_REF_PHOTOS + 1)]
    }
    for doc in (many, photos):
        with pytest.raises(RefsError) as e:
            parse_refs(json.dumps(doc), tmp_path)
        assert e.value.code == "refs_too_many"
    assert len(parse_refs(json.dumps({"refs": photos["refs"][:-1]}), tmp_path)) == MAX_REF_PHOTOS
    with pytest.raises(RefsError) as e:
        load_refs(tmp_path / "missing.json")
    assert e.value.code == "refs_unreadable"


def test_blend_keeps_classes_without_refs_and_ignores_unlike_views():
    z = np.log(np.array([[0.5, 0.3, 0.2], [0.5, 0.3, 0.2]], np.float32))
    sims = np.array([[0.2, 0.95, -np.inf], [0.3, 0.4, -np.inf]], np.float32)  # row 1: below the gate
    p = np.exp(blend(z, sims, RefCalibration(alpha=1.0, tau=0.1, gate=0.7)))
    assert p[0, 2] == pytest.approx(0.2) and p[0, :2].sum() == pytest.approx(0.8)
    assert p[0, 1] > 0.79
    assert np.allclose(p[1], [0.5, 0.3, 0.2])


@pytest.mark.filterwarnings("error::RuntimeWarning")
def test_blend_of_a_view_sure_of_a_class_without_refs_warns_nothing_and_keeps_the_others():
    """A sure model (the stand-ins' steep logits) puts float32-underflowing probability on every
    class with references: their mass is 0, and its log was numpy's divide-by-zero warning. The
    view keeps its reading; the other views of the batch read as they do alone."""
    z = np.log(np.array([[0.5, 0.3, 0.2]], np.float32))
    z = np.vstack([z, np.array([[-200.0, -200.0, 0.0]], np.float32)])  # row 1: sure of class 2
    sims = np.array([[0.2, 0.95, -np.inf], [0.9, 0.3, -np.inf]], np.float32)  # refs of 0 and 1
    cal = RefCalibration(alpha=1.0, tau=0.1, gate=0.5)
    out = blend(z, sims, cal)
    assert out[1].tolist() == [-np.inf, -np.inf, 0.0]  # p = 0, 0, 1: the model's own reading
    assert np.array_equal(out[0], blend(z[:1], sims[:1], cal)[0])  # as alone, bit for bit
    assert [round(float(v), 3) for v in np.exp(out[0])] == [0.001, 0.799, 0.2]  # the docstring's


def test_refset_similar_is_the_nearest_reference_per_class():
    emb = np.array([[1, 0], [0, 1], [0.6, 0.8]], np.float32)
    rs = RefSet(emb, np.array([0, 1, 1]), 3)
    s = rs.similar(np.array([[2.0, 0.0]], np.float32))
    assert s[0, 0] == pytest.approx(1.0) and s[0, 1] == pytest.approx(0.6) and s[0, 2] == -np.inf
    assert rs.has.tolist() == [True, True, False]


def test_tile_codes_a_reference_may_carry():
    assert "none" not in CLASS_CODES and {"back", "flower", "P"} <= set(CLASS_CODES)


def test_gather_views_follows_the_split_stage_origin():
    from vision.refembed import gather_views

    z = np.arange(10, dtype=np.float32).reshape(5, 2)  # 5 views of 3 boxes: owners 0, 0, 1, 2, 2
    views = {
        "boxes": (z, z * 10, [0, 0, 1, 2, 2]),
        "unions": (z[:2] + 100, z[:2] * 1000, [0, 0]),  # one union, two views
    }
    logits, emb, owner = gather_views(views, np.array([-1, 1]))  # union 0 took box 0's place, box 2 went
    assert owner == [0, 0, 1]
    assert logits.tolist() == [[100, 101], [102, 103], [4, 5]]
    assert emb[2].tolist() == [40, 50]
