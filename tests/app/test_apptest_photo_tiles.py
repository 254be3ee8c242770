"""Issue 21 in the app (AppTest): tiles left out of the hand greyed, listed and taken back in one
tap (and kept over a reload), an over-full hand offered its likeliest hand, a pung made a
concealed kong without a fifth copy, a photo too small to hold a tile."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from streamlit.testing.v1 import AppTest

from app.ui import i18n, services
from tests.app.conftest import APP, button_by_prefix
from tests.app.test_photo_hand import photo
from vision.detection import Detection


def _app(monkeypatch, result, query: dict[str, str] | None = None) -> AppTest:
    """The app whose photo reads as `result` (read_photo stands in for the reader)."""
    jpeg = io.BytesIO()
    Image.new("RGB", (result.width, result.height), (20, 90, 40)).save(jpeg, "JPEG")
    monkeypatch.setattr(
        services, "read_photo", lambda data, **kw: services.Photo(jpeg.getvalue(), 1.0, result)
    )
    at = AppTest.from_file(str(APP), default_timeout=60)
    for k, v in (query or {}).items():  # "d": the phone's token, kept by its browser (a cookie)
        if k == "d":
            at.session_state["test_cookie"] = v
        else:
            at.query_params[k] = v
    at.run()
    return at


def _upload(at) -> None:
    stand_in = io.BytesIO()  # a picture: a reload shows it again with the boxes its draft keeps
    Image.new("RGB", (64, 48), (20, 90, 40)).save(stand_in, "JPEG")
    at.session_state["pending_photo"] = stand_in.getvalue()
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]


def _captions(at) -> list[str]:
    return [c.value for c in at.caption]


def _hand_dets(at) -> list[int]:
    return sorted(x.detection for x in at.session_state.hip.hand.tiles if x.detection is not None)


def test_a_discard_is_greyed_listed_and_one_tap_puts_it_in_and_takes_it_out(monkeypatch):
    result = photo("2m 3m 4m 5p 6p 7p 6s 7s 8s 7p 7p 7p 9s | 9s")
    result.detections.append(Detection((1500.0, 900.0, 1560.0, 980.0), "6m", 0.44, role="discard"))
    at = _app(monkeypatch, result)
    _upload(at)
    i18n.set_lang("zh")
    assert i18n.t("photo.found", n=15, low=0, out=1) in _captions(at)
    assert i18n.t("photo.left_out", n=1) in _captions(at)
    assert _hand_dets(at) == list(range(14))
    at.button(key="tile_out14").click()  # one tap: into the hand
    at.run()
    assert _hand_dets(at) == list(range(15)) and at.session_state.hip.hand.winning_tile == "9s"
    assert not [b for b in at.button if b.key and b.key.startswith("tile_out")]
    assert i18n.t("photo.found", n=15, low=1, out=0) in _captions(at)  # 44 %: shown unsure
    token = at.session_state["draft_token"]

    again = _app(monkeypatch, result, {"d": token})  # a reload: the draft keeps the move
    assert not again.exception
    assert _hand_dets(again) == list(range(15))

    button_by_prefix(again, "tile_c14").click()  # the 6m, then its one "take out"
    again.run()
    i18n.set_lang("zh")
    assert again.button(key="btn_del").label == i18n.t("hand.take_out")
    again.button(key="btn_del").click()
    again.run()
    assert _hand_dets(again) == list(range(14)) and again.button(key="tile_out14")


def test_a_whole_row_goes_out_and_back_with_one_tap(monkeypatch):
    result = photo("7p 7p~ 7p", "2m 3m 4m 5p 6p 7p 6s 7s 8s 9s | 9s")
    at = _app(monkeypatch, result)
    _upload(at)
    assert [m.codes for m in at.session_state.hip.hand.melds] == [["7p"] * 3]
    at.button(key="rowout_1").click()
    at.run()
    assert _hand_dets(at) == list(range(3, 14)) and at.session_state.hip.hand.melds == ()
    assert [k for k in range(3) if at.button(key=f"tile_out{k}")] == [0, 1, 2]
    at.button(key="rowin_1").click()
    at.run()
    assert _hand_dets(at) == list(range(14))


def test_the_minus_on_a_meld_puts_its_tiles_back_into_the_hand(monkeypatch):
    """Issue 36 item 6: ⊖ sent the meld's tiles to the grey "not in the hand" pool; now they stand
    in the hand again (taking them out is their row's button)."""
    result = photo("7p 7p~ 7p | 2m 3m 4m 5p 6p 7p 6s 7s 8s 9s | 9s")
    at = _app(monkeypatch, result)
    _upload(at)
    assert len(at.session_state.hip.hand.melds) == 1
    at.button(key="meldout_0").click()
    at.run()
    h = at.session_state.hip.hand
    assert h.melds == () and _hand_dets(at) == list(range(14))
    assert [x.code for x in h.concealed].count("7p") == 4 and h.winning_tile == "9s"
    assert not [b for b in at.button if b.key and b.key.startswith("tile_out")]


def test_too_many_tiles_says_so_and_offers_the_hand_row_not_a_kong_question(monkeypatch):
    """The issue's table photo: 12 discards read in front of the hand row, one of them the fourth 6m."""
    result = photo("6m 1p 9s E 3s 6m | 2p 8m 5s W N 1s", "6m 6m 6m 2m 3m 4m 5p 6p 7p 6s 7s 8s 9s | 9s")
    at = _app(monkeypatch, result)
    _upload(at)
    i18n.set_lang("zh")
    assert any(i18n.t("hand.too_many", n=26, most=18) in w.value for w in at.warning)
    assert not [b for b in at.button if b.key and b.key.startswith("mkkong_")]  # no kong question
    at.button(key="btn_keep_likely").click()
    at.run()
    assert _hand_dets(at) == list(range(12, 26)) and at.session_state.hip.hand.winning_tile == "9s"
    assert not at.warning and at.button(key="tile_out0") and at.button(key="tile_out11")


def test_a_pung_made_a_concealed_kong_takes_the_fourth_tile_out_of_the_hand(at):
    at.text_input(key="typed").input("234m456s678s7p777p99s")
    at.button(key="btn_typed").click()
    at.run()
    button_by_prefix(at, "tile_c10").click()  # one of the 777p
    at.run()
    at.button(key="mk_pung").click()
    at.run()
    h = at.session_state.hip.hand
    assert [m.codes for m in h.melds] == [["7p"] * 3] and [x.code for x in h.concealed].count("7p") == 1
    at.selectbox(key="meldkind_0_pung_zh").set_value("concealed_kong")
    at.run()
    h = at.session_state.hip.hand
    assert [(m.kind, len(m.tiles)) for m in h.melds] == [("concealed_kong", 4)]
    assert [x.code for x in h.tiles].count("7p") == 4 and h.tile_count == 14  # was 5 (a fifth 7p)
    assert not at.exception


@pytest.mark.parametrize("size", [(60, 24), (24, 60), (31, 400)])
def test_a_photo_too_small_for_a_tile_gets_the_too_small_message_not_junk_tiles(at, size):
    if services.reader_status() is not None:
        pytest.skip("no models")
    before = at.session_state.hip.hand
    buf = io.BytesIO()
    Image.open(services.SAMPLE_PHOTO).resize(size).save(buf, "PNG")  # the sample shrunk: 5 junk tiles before
    at.session_state["pending_photo"] = buf.getvalue()
    at.run()
    assert not at.exception
    i18n.set_lang("zh")
    want = i18n.t("image.too_small", width=size[0], height=size[1])
    assert any(want in e.value for e in at.error), [e.value for e in at.error]
    assert at.session_state.hip.hand == before


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_left_out_tiles_and_the_over_full_hand_speak_the_page_language(monkeypatch, lang):
    result = photo("6m 1p 9s E 3s 6m | 2p 8m 5s W N 1s", "6m 6m 6m 2m 3m 4m 5p 6p 7p 6s 7s 8s 9s | 9s")
    at = _app(monkeypatch, result, {"lang": lang})
    _upload(at)
    at.button(key="btn_keep_likely").click()
    at.run()
    i18n.set_lang(lang)
    from app.ui.render.tiles import name

    assert i18n.t("photo.found", n=26, low=0, out=12) in _captions(at)
    assert i18n.t("photo.left_out", n=12) in _captions(at)
    assert at.button(key="tile_out0").help == i18n.t("photo.put_back", tile=name("6m"))
    assert at.button(key="rowout_2").label == i18n.t("photo.row_out", row=2, n=14)
    assert at.button(key="rowin_1").label == i18n.t("photo.row_in", row=1, n=12)


def test_an_unsure_fourth_reading_makes_no_kong_on_the_page(monkeypatch):
    """Issue 36 item 5: a flower read 七万 at 33 % beside 777m laid apart was a kong (+2 炮): the
    page shows the pung and the unsure tile standing, flagged, and asks no kong question."""
    import dataclasses

    result = photo("1m 2m 3m 4m 5m 6m 2p 3p 4p 9s 9s | 7m 7m 7m 7m")
    result.detections[14] = dataclasses.replace(result.detections[14], conf=0.33)
    at = _app(monkeypatch, result)
    _upload(at)
    h = at.session_state.hip.hand
    assert [(m.kind, m.codes) for m in h.melds] == [("pung", ["7m"] * 3)]
    assert h.concealed[-1].code == "7m" and h.concealed[-1].needs_check
    assert not [b for b in at.button if b.key and b.key.startswith("mkkong_")]


def test_a_marker_read_as_a_tile_is_left_out_of_the_hand(monkeypatch):
    """Issue 36 item 8: a square box read 中 (flagged) at the row's end is `other`: greyed, listed
    to put back, not in the hand."""
    from tests.vision.test_markers import SIZE, _disc, _row_and
    from vision.arrange import arrange
    from vision.detection import DetectResult

    dets, groups = arrange(_row_and(_disc()), SIZE)
    at = _app(monkeypatch, DetectResult(width=SIZE[0], height=SIZE[1], detections=dets, groups=groups))
    _upload(at)
    assert "C" not in [x.code for x in at.session_state.hip.hand.tiles] and _hand_dets(at) == list(range(14))
    assert at.button(key="tile_out14")


def test_sets_inside_the_standing_row_stand_on_the_page(monkeypatch):
    """Issue 36 item 6: a standing 333p between standing sets was a 碰, a 789p one of whose boxes
    looked sideways a 吃 (then "这种打法这里不能吃"): both stand in the hand."""
    result = photo("1m 2m 3m | 7p~ 8p 9p | 3p 3p 3p | 5s 6s 7s 9s | 9s")
    at = _app(monkeypatch, result)
    _upload(at)
    h = at.session_state.hip.hand
    assert h.melds == () and len(h.concealed) == 14 and h.winning_tile == "9s"
