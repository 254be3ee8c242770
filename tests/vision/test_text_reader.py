"""The text reader (`vision.text_reader`) on synthetic faces, its coded model errors, the CTC
scoring, and the rule that lets it decide a character tile (`vision.text_check`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from vision import TileReader, testing
from vision.detection import Detection
from vision.modelfiles import ModelError, models_dir
from vision.text_check import TEXT_MIN_SCORE, decide, wants_text
from vision.text_reader import (
    TEXT_CODES,
    TEXT_MODEL_FILE,
    TextModelError,
    TextReader,
    TextReading,
    ctc_log_prob,
)

FONT = Path(__file__).resolve().parents[2] / "vision" / "fonts" / "TileLabels-DroidSansFallback-subset.ttf"
MODEL = models_dir() / TEXT_MODEL_FILE
needs_model = pytest.mark.skipif(not MODEL.is_file(), reason=f"needs {MODEL.name} in models/")

WORDS = dict(
    zip(
        TEXT_CODES,
        [*(c + "萬" for c in "一二三四五六七八九"), "東", "南", "西", "北", "中", "發"],
        strict=True,
    )
)
STYLES = {  # numeral ink, 萬 / honour ink, stroke width (bold; 2 px on a 34 px 二 fills it to 三), face
    "black numeral, red 萬": ((20, 20, 20), (190, 20, 20), 0, (245, 243, 235)),
    "blue, bold": ((30, 40, 170), (30, 40, 170), 1, (250, 250, 250)),
    "green on ivory": ((20, 110, 40), (20, 110, 40), 0, (238, 228, 200)),
}


def face(word: str, numeral_ink: tuple, ink: tuple, stroke: int, ground: tuple, size=(60, 80)) -> np.ndarray:
    """A tile face `(h, w, 3)` uint8 BGR: two characters stacked (numeral over 萬) or one, centred."""
    w, h = size
    im = Image.new("RGB", size, ground)
    d = ImageDraw.Draw(im)
    if len(word) == 2:
        font = ImageFont.truetype(str(FONT), int(h * 0.42))
        d.text(
            (w / 2, h * 0.27),
            word[0],
            font=font,
            fill=numeral_ink,
            anchor="mm",
            stroke_width=stroke,
            stroke_fill=numeral_ink,
        )
        d.text(
            (w / 2, h * 0.72), word[1], font=font, fill=ink, anchor="mm", stroke_width=stroke, stroke_fill=ink
        )
    else:
        font = ImageFont.truetype(str(FONT), int(w * 0.8))
        d.text((w / 2, h / 2), word, font=font, fill=ink, anchor="mm", stroke_width=stroke, stroke_fill=ink)
    return np.ascontiguousarray(np.asarray(im)[:, :, ::-1])


@pytest.fixture(scope="module")
def reader() -> TextReader:
    return TextReader(MODEL)


@needs_model
@pytest.mark.parametrize("style", list(STYLES))
def test_reads_every_tile_word_in_several_styles(reader, style):
    faces = [face(WORDS[c], *STYLES[style]) for c in TEXT_CODES]
    out = reader.read(faces)
    assert [r.best for r in out] == list(TEXT_CODES)
    assert min(r.score for r in out) >= TEXT_MIN_SCORE


@needs_model
def test_reads_a_face_upside_down_only_with_the_turn(reader):
    faces = [
        np.ascontiguousarray(np.rot90(face(WORDS[c], *STYLES["black numeral, red 萬"]), 2))
        for c in ("6m", "2m")
    ]
    assert [r.best for r in reader.read(faces)] == ["6m", "2m"]
    turned, plain = reader.read(faces), reader.read(faces, upside_down=False)
    assert [t.of(c) > p.of(c) for t, p, c in zip(turned, plain, ("6m", "2m"), strict=True)] == [True, True]


@needs_model
def test_a_dot_tile_scores_no_word(reader):
    im = np.full((80, 60, 3), 245, np.uint8)  # a 4-dot face: four green rings
    for cy in (20, 60):
        for cx in (18, 42):
            yy, xx = np.ogrid[:80, :60]
            ring = np.abs(np.hypot(yy - cy, xx - cx) - 8) < 2
            im[ring] = (40, 120, 20)
    assert reader.read([im])[0].score < TEXT_MIN_SCORE


def test_ctc_log_prob_sums_every_alignment():
    # two frames, classes (blank, a, b): "a" is a-a, a-blank, blank-a
    p = np.array([[0.5, 0.3, 0.2], [0.4, 0.4, 0.2]])
    got = ctc_log_prob(np.log(p), np.array([[1], [2]]))
    want_a = 0.3 * 0.4 + 0.3 * 0.4 + 0.5 * 0.4
    want_b = 0.2 * 0.2 + 0.2 * 0.4 + 0.5 * 0.2
    assert np.exp(got) == pytest.approx([want_a, want_b])
    # "aa" needs a blank between: a-blank-a in three frames only
    p3 = np.array([[0.1, 0.9, 0.0], [0.8, 0.2, 0.0], [0.1, 0.9, 0.0]]) + 1e-12
    assert np.exp(ctc_log_prob(np.log(p3), np.array([[1, 1]])))[0] == pytest.approx(0.9 * 0.8 * 0.9)
    assert ctc_log_prob(np.log(p), np.array([[1, 1]]))[0] == -np.inf


def test_missing_model_is_a_coded_error(tmp_path):
    with pytest.raises(TextModelError) as err:
        TextReader(tmp_path / TEXT_MODEL_FILE)
    assert err.value.code == "text_model_missing"
    assert isinstance(err.value, ModelError)


def test_damaged_model_is_a_coded_error(tmp_path):
    bad = tmp_path / TEXT_MODEL_FILE
    bad.write_bytes(b"\x08\x07not an onnx graph" * 50)
    with pytest.raises(TextModelError) as err:
        TextReader(bad)
    assert err.value.code == "text_model_unreadable"


def test_a_model_without_the_character_list_is_a_coded_error(tmp_path):
    other = tmp_path / TEXT_MODEL_FILE
    testing.build_classifier(other)
    with pytest.raises(TextModelError) as err:
        TextReader(other)
    assert err.value.code == "text_model_contract"


def test_the_tile_reader_refuses_a_damaged_text_model_beside_its_models(tmp_path, scene):
    testing.build_localizer(tmp_path / "localizer.onnx", [b for b, _ in scene], image_size=(1600, 1200))
    testing.build_classifier(tmp_path / "classifier.onnx")
    assert TileReader(tmp_path).text is None  # none beside them: it reads without
    (tmp_path / TEXT_MODEL_FILE).write_bytes(b"truncated")
    with pytest.raises(TextModelError) as err:
        TileReader(tmp_path)
    assert err.value.code == "text_model_unreadable"


def reading(**scores: float) -> TextReading:
    s = np.zeros(len(TEXT_CODES), np.float32)
    for code, v in scores.items():
        s[TEXT_CODES.index(code)] = v
    return TextReading(s)


def det(tile: str, second: str | None = None, uncertain: bool = False) -> Detection:
    return Detection((0, 0, 60, 80), tile, 0.5, uncertain=uncertain, second=second)


def test_rule_a_confident_word_overrides_and_clears_the_flag():
    got = decide(det("3m", "6m", uncertain=True), reading(**{"6m": 0.92, "3m": 0.01}))
    assert (got.tile, got.second, got.uncertain) == ("6m", "3m", False)


def test_rule_a_confident_word_that_agrees_clears_the_flag_only():
    got = decide(det("1m", "1s", uncertain=True), reading(**{"1m": 0.5}))
    assert (got.tile, got.second, got.uncertain) == ("1m", "1s", False)


def test_rule_a_weak_word_leaves_the_classifier_alone():
    d = det("3m", "6m", uncertain=True)
    assert decide(d, reading(**{"8m": TEXT_MIN_SCORE * 0.9})) is d  # the runner-up: test_text_faces


def test_only_flagged_face_up_tiles_are_read():
    assert wants_text(det("5m", uncertain=True)) and wants_text(det("1s", "1m", uncertain=True))
    assert wants_text(det("P", "C", uncertain=True))
    assert not wants_text(det("5m"))  # a sure tile costs no text reading
    assert not wants_text(Detection((0, 0, 1, 1), "back", 0.9, face_down=True, uncertain=True))
