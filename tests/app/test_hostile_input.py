"""The app under hostile input: bad uploads translated by code with the hand kept,
the server-wide photo limit, no Markdown from the player, no internal names, number fields
that never show one value and score another, and no stale total beside new tiles."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest
from PIL import Image

from app.ui import i18n
from tests.app.conftest import photo_gate_held, total_of
from tests.vision.jpeg_bombs import scan_bomb

HAND = "234m567p678s777p99s"
INTERNAL = re.compile(r"\b\w*(Error|Exception)\b|Traceback|\(\w+: ")  # exception names, "(TypeError: ..."


def _type_hand(at, tiles: str) -> None:
    at.text_input(key="typed").input(tiles)
    at.button(key="btn_typed").click()
    at.run()


def _messages(at) -> list[str]:
    return [e.value for e in at.error] + [w.value for w in at.warning] + [i.value for i in at.info]


def _encode(im: Image.Image, fmt: str) -> bytes:
    buf = io.BytesIO()
    im.save(buf, fmt)
    return buf.getvalue()


def _truncated_jpeg() -> bytes:
    data = _encode(
        Image.fromarray(np.random.default_rng(1).integers(0, 255, (300, 400, 3), np.uint8)), "JPEG"
    )
    return data[: len(data) // 3]


BAD_UPLOADS = {
    "text": (lambda: b"this is not a picture", "image.not_image", {}),
    "scan_bomb": (lambda: scan_bomb(5000), "image.too_many_scans", {"scans": 5000, "limit": 100}),
    "gif": (
        lambda: _encode(Image.new("RGB", (64, 48)), "GIF"),
        "image.unsupported_format",
        {"format": "GIF"},
    ),
    "truncated_jpeg": (_truncated_jpeg, "image.corrupt", {}),
    "tiny_png": (
        lambda: _encode(Image.new("RGB", (8, 8)), "PNG"),
        "image.too_small",
        {"width": 8, "height": 8},
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("name", list(BAD_UPLOADS))
def test_a_bad_upload_is_translated_by_code_and_keeps_the_hand(at, name, lang):
    make, key, fields = BAD_UPLOADS[name]
    at.segmented_control(key="lang").set_value(lang)
    at.run()
    _type_hand(at, HAND)
    hand, total = at.session_state.hip.hand, total_of(at)
    at.session_state["pending_photo"] = make()
    at.run()
    assert not at.exception
    i18n.set_lang(lang)
    from app.ui.services import IMAGE_FIELDS

    want = i18n.t(key, **{**IMAGE_FIELDS, **fields})
    assert want in [e.value for e in at.error], _messages(at)
    assert at.session_state.hip.hand == hand and total_of(at) == total
    assert not [m for m in _messages(at) if INTERNAL.search(m)]
    i18n.set_lang("zh")


def test_every_image_error_code_has_words_in_both_languages():
    from app.ui.services import IMAGE_FIELDS
    from vision.image import ERROR_CODES

    for lang in i18n.LANGS:
        i18n.set_lang(lang)
        for code in ERROR_CODES:
            assert i18n.has(f"image.{code}"), (lang, code)
            assert "{" not in i18n.t(f"image.{code}", **IMAGE_FIELDS)
    i18n.set_lang("zh")


def test_a_reading_failure_names_no_internals(at, monkeypatch):
    from app.ui import services

    reader = services._reader_cached()

    def broken(loaded):
        raise TypeError("Missing dimensions")

    monkeypatch.setattr(reader, "detect", broken)
    _type_hand(at, HAND)
    hand = at.session_state.hip.hand
    at.session_state["pending_photo"] = _encode(Image.new("RGB", (320, 240), (20, 90, 40)), "JPEG")
    at.run()
    i18n.set_lang("zh")
    assert [e.value for e in at.error] == [i18n.t("err.detect_failed")]
    assert at.session_state.hip.hand == hand and not at.exception


def test_a_photo_waits_for_a_free_slot_and_gives_up_busy(at, monkeypatch):
    from app import photo_gate

    monkeypatch.setattr(photo_gate, "WAIT_SECONDS", 0.05)
    _type_hand(at, HAND)
    hand = at.session_state.hip.hand
    with photo_gate_held():
        at.session_state["pending_photo"] = _encode(Image.new("RGB", (320, 240)), "JPEG")
        at.run()
    i18n.set_lang("zh")
    assert [e.value for e in at.error] == [i18n.t("err.photo_busy")]
    assert at.session_state.hip.hand == hand and photo_gate.free_slots() == photo_gate.SLOTS


@pytest.mark.parametrize(
    "typed", ["![t](http://host/x.png)", "<img src=http://host/x.png>", "[a](javascript:x) :red[x] $x$"]
)
def test_typed_text_is_shown_as_text_not_markdown(at, typed):
    _type_hand(at, typed)
    shown = " ".join(e.value for e in at.error)
    assert shown, _messages(at)
    for syntax in ("![", "](", "<img", ":red[", "$x$"):
        assert syntax not in shown
    assert "&#33;&#91;t&#93;" in shown or "&lt;img" in shown or "&#91;a&#93;" in shown


@pytest.mark.parametrize("typed_value", [2.5, 0, 10_000, -3])
def test_a_bad_point_value_is_an_error_and_no_total(at, typed_value):
    _type_hand(at, HAND)
    assert total_of(at) is not None
    at.number_input(key="w_point_value").set_value(typed_value)
    at.run()
    i18n.set_lang("zh")
    errors = [e.value for e in at.error]
    field = i18n.t("cond.point_value")
    assert i18n.t("num.bad_field", field=field, lo=1, hi=9999) in errors
    assert i18n.t("msg.bad_number_in", fields=field) in errors  # the result panel names the field
    assert total_of(at) is None  # not the total of the previous value
    assert at.session_state.hip.cond.point_value == 1
    at.number_input(key="w_point_value").set_value(3)
    at.run()
    assert not at.error and at.session_state.hip.cond.point_value == 3 and total_of(at) is not None


def test_a_fractional_count_is_not_rounded(at):
    _type_hand(at, HAND)
    at.session_state["payers_open"] = True  # the 吃炮 panel opened: a closed one draws no field
    at.run()
    keys = [n.key for n in at.number_input if n.key and n.key.endswith("_bonus_tiles")]
    assert keys
    at.number_input(key=keys[0]).set_value(2.5)
    at.run()
    i18n.set_lang("zh")
    assert i18n.t("num.bad_field", field="發", lo=0, hi=4) in [e.value for e in at.error]
    assert total_of(at) is None
    seat = keys[0].removeprefix("w_").removesuffix("_bonus_tiles")
    assert at.session_state.hip.cond.seats[seat].bonus_tiles == 0  # never 2


def test_the_result_is_drawn_before_the_hand(monkeypatch):
    """Streamlit shows the last run's elements until this run reaches them: drawing the total
    first means no old total is shown beside the new tiles while the rest is drawn."""
    from streamlit.testing.v1 import AppTest

    from app.ui.score import page
    from tests.app.conftest import APP

    order = []
    for name in ("total_banner", "hand_editor", "photo_inputs", "conditions"):
        real = getattr(page, name)
        monkeypatch.setattr(page, name, lambda *a, _r=real, _n=name: (order.append(_n), _r(*a))[1])
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    assert not at.exception
    assert order[:4] == ["total_banner", "photo_inputs", "hand_editor", "conditions"]


def test_a_fractional_practice_guess_is_not_rounded(at):
    at.segmented_control(key="page").set_value("learn")
    at.run()
    at.number_input(key="practice_guess").set_value(2.5)
    at.run()
    i18n.set_lang("zh")
    [said] = [e.value for e in at.error]
    assert said.endswith("：请输入 0 到 100000 之间的整数。") and said == i18n.t(
        "num.bad_field", field=at.number_input(key="practice_guess").label, lo=0, hi=100000
    )
    at.number_input(key="practice_guess").set_value(3)
    at.run()
    assert not at.error and not at.exception
