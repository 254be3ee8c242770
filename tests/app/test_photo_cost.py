"""What a photo costs the server (issue 37, seventh sitting): counted, never timed."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from app.photo_hand import hand_from_photo
from app.ui import services
from app.ui.render.photo import draw_boxes, tile_boxes
from app.ui.state import EditHand


def _sample():
    if services.reader_status() is not None:
        pytest.skip("no models")
    return services.read_photo(services.sample_photo())


def test_the_preview_kept_is_the_tiles_part_and_draws_the_same_photo_as_the_whole_one():
    """The preview is resized, encoded, kept and decoded again for the tiles' part only (the sample:
    under half its pixels), and the boxed photo drawn from it is the one the whole preview gave: the
    same size, the frames in the same places (JPEG's noise apart)."""
    from vision import open_image

    photo = _sample()
    pixels = open_image(services.sample_photo(), min_side=1000).pixels
    whole, scale, cut = services._preview(pixels)  # no boxes: the whole photo, as before
    assert cut[:2] == (0, 0) and scale == pytest.approx(photo.scale)
    with Image.open(io.BytesIO(whole)) as w, Image.open(io.BytesIO(photo.preview_jpeg)) as p:
        assert p.width * p.height < 0.5 * w.width * w.height
        assert photo.cut[2] == max(w.size) and photo.cut[:2] != (0, 0)
    h = EditHand.from_guess(hand_from_photo(photo.result, "jiujiang"))
    boxes = tile_boxes(photo.result.detections, h, None, chinese=False)
    a = Image.open(io.BytesIO(draw_boxes(whole, scale, boxes, None)))
    b = Image.open(io.BytesIO(draw_boxes(photo.preview_jpeg, photo.scale, boxes, None, photo.cut)))
    assert a.size == b.size
    diff = np.abs(np.asarray(a, dtype=int) - np.asarray(b, dtype=int))
    assert diff.mean() < 3 and np.percentile(diff, 99) < 40  # was: the frames a cut's width away


def test_a_new_phone_writes_no_draft_until_its_hand_changes(monkeypatch):
    """A new phone's first run opens on the sample and writes no draft (a reload opens on it again:
    one write transaction less per phone, issue 37); its token is issued and known, and the first
    photo writes its draft, the photo with it, and a reload brings that hand back."""
    from streamlit.testing.v1 import AppTest

    from app.drafts import store as D
    from app.ui import drafting
    from tests.app.conftest import APP, COOKIE, token_of

    saves: list[str] = []
    real = D.DraftStore.save

    def counted(self, key, *args, **kwargs):
        saves.append(key)
        return real(self, key, *args, **kwargs)

    monkeypatch.setattr(D.DraftStore, "save", counted)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    assert not at.exception and saves == []  # was: the sample written as the phone's draft
    token = token_of(at)
    assert drafting.store().known(token)  # issued: a reload keeps the phone's token
    at.run()  # a run that changes nothing writes nothing either
    assert saves == []
    data = services.SAMPLE_PHOTO.read_bytes()
    at.session_state["pending_photo"] = data + b"\x00"  # bytes of its own: a photo, not the sample
    at.run()
    assert not at.exception and saves == [f"token:{token}"]
    assert drafting.store().load(f"token:{token}")[1] == data + b"\x00"
    again = AppTest.from_file(str(APP), default_timeout=60)
    again.session_state[COOKIE] = token
    again.run()
    assert token_of(again) == token and again.session_state["hip"].photo_src == "upload"


def test_a_photo_is_one_run_one_decode_and_one_draft_write(monkeypatch):
    """A new photo is read, decoded and drawn in the run that took it in, once each: the page asks
    for no second run (no `st.rerun`, no fragment), the photo's bytes are decoded once and nothing
    else is (the preview is made from those pixels and the boxes drawn on them: its JPEG is not
    decoded again in that run), the boxed photo is drawn once, and the draft is written once; a
    later run that draws other frames (a tile tapped) decodes the kept preview."""
    import PIL.Image
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    import vision
    from app.drafts import store as D
    from app.ui.hand import photo as photo_section
    from app.ui.score import page
    from tests.app.conftest import APP

    if services.reader_status() is not None:
        pytest.skip("no models")
    calls: dict[str, int] = {}

    def counting(owner, name):
        real = getattr(owner, name)

        def wrapped(*args, **kwargs):
            calls[name] = calls.get(name, 0) + 1
            return real(*args, **kwargs)

        monkeypatch.setattr(owner, name, wrapped)

    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    assert not at.exception
    photo_section.draw_boxes.cache_clear()  # the sample's boxed photo, drawn by the first run
    for owner, name in (
        (page, "_draw"),
        (st, "rerun"),
        (vision, "open_image"),
        (D.DraftStore, "save"),
        (photo_section, "draw_boxes"),
    ):
        counting(owner, name)
    real_decoder = PIL.Image._getdecoder

    def decoder(mode, name, *args, **kwargs):  # a JPEG decoded (`frombytes`' raw copies are not)
        calls[f"decode {name}"] = calls.get(f"decode {name}", 0) + (name == "jpeg")
        return real_decoder(mode, name, *args, **kwargs)

    monkeypatch.setattr(PIL.Image, "_getdecoder", decoder)
    at.session_state["pending_photo"] = services.SAMPLE_PHOTO.read_bytes() + b"\x00"
    at.run()
    assert not at.exception
    # JPEG decodes: the photo's (`open_image`) only (was 2: the preview decoded again to draw on)
    want = {"_draw": 1, "open_image": 1, "decode jpeg": 1, "decode raw": 0, "draw_boxes": 1, "save": 1}
    assert calls == want, calls
    calls.clear()
    at.button(key="tile_c0").click().run()  # selected: a blue frame, drawn on the preview decoded
    assert not at.exception
    assert calls.get("decode jpeg") == 1 and calls.get("open_image") is None and calls["_draw"] == 1, calls


def test_a_label_is_measured_once_and_drawn_where_textbbox_puts_it():
    """Every draw measured each label again (`ImageDraw.textbbox`, ~0.3 ms of a ~4 ms draw): now
    once per font, size and text; the box is the one `textbbox` gives at the label's place."""
    from PIL import Image, ImageDraw, ImageFont

    from app.ui.render import photo as render

    render._text_box.cache_clear()
    pic = Image.new("RGB", (400, 200), (30, 100, 50))
    buf = io.BytesIO()
    pic.save(buf, "JPEG")
    first = (
        render.Box((10, 60, 60, 130), "5p", render.GREEN),
        render.Box((70, 60, 120, 130), "9s", render.GOLD),
    )
    second = (render.Box((10, 60, 60, 130), "5p", render.BLUE, thick=True), first[1])
    render.draw_boxes(buf.getvalue(), 1.0, first, None)
    render.draw_boxes(buf.getvalue(), 1.0, second, None)
    info = render._text_box.cache_info()
    assert (info.misses, info.hits) == (2, 2)
    size = max(12, round(50 * 0.42))
    want = ImageDraw.Draw(pic).textbbox((17.5, 33.25), "5p", font=ImageFont.load_default(size))
    left, top, right, bottom = render._text_box(None, size, "5p")
    assert (17.5 + left, 33.25 + top, 17.5 + right, 33.25 + bottom) == want


def test_the_boxes_drawn_on_the_fresh_pixels_are_those_drawn_on_the_kept_preview():
    """The photo's own run draws on the pixels the preview was made from (no decode); a later run
    on the preview's JPEG decoded: the same picture, JPEG's noise apart."""
    from app.ui.render import photo as render

    photo = _sample()
    h = EditHand.from_guess(hand_from_photo(photo.result, "jiujiang"))
    boxes = tile_boxes(photo.result.detections, h, None, chinese=False)
    draw_boxes.cache_clear()
    again = services.read_photo(services.sample_photo() + b"\x00")  # its pixels kept, not drawn yet
    assert id(again.preview_jpeg) in render._fresh
    fresh = Image.open(io.BytesIO(draw_boxes(again.preview_jpeg, again.scale, boxes, None, again.cut)))
    assert id(again.preview_jpeg) not in render._fresh  # taken: the next draw decodes the JPEG
    draw_boxes.cache_clear()
    kept = Image.open(io.BytesIO(draw_boxes(again.preview_jpeg, again.scale, boxes, None, again.cut)))
    assert fresh.size == kept.size
    diff = np.abs(np.asarray(fresh, dtype=int) - np.asarray(kept, dtype=int))
    assert diff.mean() < 3 and np.percentile(diff, 99) < 40


def test_a_change_of_the_conditions_alone_on_the_untouched_sample_is_kept():
    """The sample counts as written (`drafting.begun`), so a change of how it was won alone is the
    first write: a reload brings back the variant, 点炮, the discarder and the dealer; and going back
    to the sample's own conditions is written too (the draft held 星子 then)."""
    from streamlit.testing.v1 import AppTest

    from tests.app.conftest import APP, COOKIE, token_of
    from tests.app.held import Phone

    def reloaded(phone):
        at = AppTest.from_file(str(APP), default_timeout=60)
        at.session_state[COOKIE] = token_of(phone.at)
        at.run()
        assert not at.exception
        return at.session_state["hip"].cond

    phone = Phone({})
    phone.set("segmented_control", "w_variant", "xingzi")
    phone.set("segmented_control", "w_dealer", "left")
    phone.set("segmented_control", "w_self_drawn", False)
    phone.set("segmented_control", "w_discarder", "across")
    cond = reloaded(phone)
    assert (cond.variant, cond.dealer, cond.self_drawn, cond.discarder) == ("xingzi", "left", False, "across")
    other = Phone({})
    other.set("segmented_control", "w_variant", "xingzi")
    other.set("segmented_control", "w_variant", "jiujiang")
    assert reloaded(other).variant == "jiujiang"
