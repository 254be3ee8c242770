"""The pure renderers: HTML of the result, tile rows, boxes on the photo (no Streamlit)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from app.photo_hand import hand_from_photo
from app.ui import i18n
from app.ui.render import html as R
from app.ui.render.photo import (
    BLUE,
    GOLD,
    GREEN,
    GREY,
    RED,
    Box,
    crop_to_tiles,
    draw_boxes,
    tile_boxes,
    unsure_count,
)
from app.ui.render.tiles import groups_html, name, row_html
from app.ui.state import EditHand, Selection
from scoring import HandInput, Meld, Payer, score
from tests.app.test_photo_hand import photo


@pytest.fixture(autouse=True)
def zh():
    i18n.set_lang("zh")
    yield
    i18n.set_lang("zh")


def scored(variant="jiujiang", concealed="234m567p678s99s", win="6s", self_drawn=True, **more):
    return score(HandInput(variant, concealed, win, self_drawn, melds=(Meld.of("pung", "777p"),), **more))


def test_num():
    assert [R.num(v) for v in (3.0, 2.5, 7, None)] == ["3", "2.5", "7", "0"]


def test_items_table_lists_every_item_and_the_own_total():
    r = scored()
    out = R.items_table(r)
    assert out.count("<tr><td>") == len(r.items) == 2  # 平胡, 自摸
    assert "平胡" in out and "自摸" in out and "+1" in out
    assert f"<td class='jx-pts'>{R.num(r.own)}</td>" in out
    i18n.set_lang("en")
    assert R.items_table(r).index("Self-drawn") < R.items_table(r).index("自摸")


@pytest.mark.parametrize("page, shown, hidden", [("zh", "平胡", "Basic hand"), ("en", "Basic hand", "")])
def test_items_table_names_items_in_the_page_language(page, shown, hidden):
    i18n.set_lang(page)
    out = R.items_table(scored())
    assert shown in out and "平胡" in out  # the English page keeps the Chinese term beside
    assert not hidden or hidden not in out  # the Chinese page carries no English name


def test_items_table_of_xinyu_shows_multipliers():
    r = score(HandInput("xinyu", "123m456p789s345sEE", "E", True))
    out = R.items_table(r)
    assert "×2" in out and "<th>倍</th>" in out


def test_payments_table_marks_the_doubled_dealer():
    payers = (Payer("right", is_dealer=True), Payer("across"), Payer("left"))
    r = scored("xingzi", payers=payers)
    out = R.payments_table(r)
    assert out.count("jx-badge") == 2 and "下家" in out  # 庄 and ×2 on the dealer's row
    assert [p.amount for p in r.payments] == [4, 2, 2]
    assert f"<td class='jx-pts'>{R.num(r.total)}</td></tr></tbody>" in out


def test_payments_table_names_every_payer_by_the_names_given_else_by_relative_seat():
    import re

    payers = (Payer("right"), Payer("across"), Payer("left", is_dealer=True))
    r = scored("xingzi", payers=payers)

    def first_cells(out: str) -> list[str]:
        cells = re.findall(r"<tr><td>(.*?)</td><td class='jx-why'>", out)
        return [re.sub(r"<[^>]+>", " ", c).split()[0] for c in cells]  # the name, not its marks

    names = {"me": "李四", "right": "王五", "across": "赵六", "left": "张三"}  # the 牌局 page's seats
    assert first_cells(R.payments_table(r, names)) == ["王五", "赵六", "张三"]
    assert first_cells(R.payments_table(r)) == ["下家", "对家", "上家"]  # the 计分 page: no table


def test_total_html_carries_the_total_for_tests_and_phones():
    r = scored()
    assert f'data-total="{R.num(r.total)}"' in R.total_html(r)
    assert "合计收" in R.mini_html(r) and "#jx-result" in R.mini_html(r)


@pytest.mark.parametrize(("variant", "own", "unit"), [("jiujiang", "本手", ""), ("xinyu", "番数", " 倍")])
def test_the_phone_bar_names_the_hand_value_as_the_headline_does(variant, own, unit):
    r = scored(variant)
    assert f"{own}<" in R.total_html(r)
    assert f"{own} <b>{R.num(r.own)}</b>{unit} &nbsp;" in R.mini_html(r)


def test_cannot_win_html_escapes_the_reason():
    out = R.cannot_win_html("<b>x</b>")
    assert "&lt;b&gt;x&lt;/b&gt;" in out and "不能胡" in out


def test_decomposition_frames_the_winning_tile_once_and_draws_concealed_kongs_with_backs():
    r = score(
        HandInput("jiujiang", "234m456p678s99s", "9s", True, melds=(Meld.of("concealed_kong", "7777p"),))
    )
    out = R.decomposition_html(r.decomposition, "9s")
    assert out.count("jx-win") == 1
    assert out.count(f'alt="{name("back")}"') == 2 and "暗杠" in out


def test_whatif_marks_the_current_cell():
    out = R.whatif_html(["a"], [("自摸", [("9", True)]), ("点炮", [("<3>", False)])])
    assert "<td class='jx-cur'>9</td>" in out and "&lt;3&gt;" in out


def test_tiles_rows_and_names():
    assert name("5p") == "五筒" and name("C") == "红中" and name("?") == i18n.t("tile.unknown")
    row = row_html(["1m", "?", "back"], win=0)
    assert row.count("<img") == 3 and row.count("jx-win") == 1
    groups = groups_html([("刻子", ["7p", "7p", "7p"]), ("将", ["7p", "7p"])], win_tile="7p")
    assert groups.count("jx-win") == 1 and "刻子" in groups


def test_tile_boxes_colour_by_what_the_tile_is_now():
    result = photo("1m 2m back 5p 5p | 9s")
    result.detections[1] = type(result.detections[1])(result.detections[1].xyxy, "2m", 0.3, uncertain=True)
    h = EditHand.from_guess(hand_from_photo(result, "xingzi"))
    boxes = tile_boxes(result.detections, h, Selection(0), chinese=False)
    assert [b.color for b in boxes] == [BLUE, RED, RED, GREEN, GREEN, GOLD]
    assert boxes[0].thick and boxes[1].text == "2m?"
    fixed = h.with_tile(Selection(2), "3m")
    assert tile_boxes(result.detections, fixed, None, chinese=False)[2].text == "3m"
    stale = tile_boxes(result.detections, h, None, chinese=False, stale=True)
    assert {b.color for b in stale} == {GREY}


def test_draw_boxes_returns_a_jpeg_cropped_to_the_tiles():
    im = Image.new("RGB", (1000, 800), (20, 90, 40))
    buf = io.BytesIO()
    im.save(buf, "JPEG")
    result = photo("1m 2m")
    h = EditHand.from_guess(hand_from_photo(result, "xingzi"))
    boxes = tile_boxes(result.detections, h, None, chinese=False)
    out = Image.open(io.BytesIO(draw_boxes(buf.getvalue(), 1.0, boxes, None)))
    assert out.format == "JPEG" and out.width < 1000
    assert crop_to_tiles(im, []) is im


def test_patterns_html_marks_and_escapes():
    out = R.patterns_html([("清一色", False, "有 <中>", "把 中 换成 5万"), ("混一色", True, "成立 +10", "")])
    assert out.count("✗") == 1 and out.count("✓") == 1 and "&lt;中&gt;" in out and "换成" in out


def test_streamlit_words_ask_the_json_import_for_a_file_not_a_photo():
    from app.ui.style import streamlit_words_css

    words = {"upload": "选照片", "limit": "每个文件最多 40 MB", "camera_hint": "相机", "take": "拍"}
    css = streamlit_words_css(
        words | {"upload_file": "选文件", "clear": "清除照片", "skip": "跳到正文", "enter": "回车"}
    )
    photo, json_import = (css.index(f'content: "{w}"') for w in ("选照片", "选文件"))
    assert photo < json_import  # the later, narrower rule wins inside the import uploader
    assert '[class*="st-key-tb_import"] [data-testid="stFileUploaderDropzone"] button' in css


def test_the_camera_buttons_words_follow_its_state():
    """After a capture the clear button read "✕ 拍照" (take photo): one rule named both states."""
    from app.ui.style import streamlit_words_css

    words = {"upload": "u", "upload_file": "f", "limit": "l", "camera_hint": "h", "skip": "s", "enter": "e"}
    css = streamlit_words_css(words | {"take": "拍照", "clear": "清除照片"})
    take = '[data-testid="stCameraInputWebcamComponent"] [data-testid="stCameraInputButton"]::after'
    clear = '[data-testid="stCameraInput"] > [data-testid="stCameraInputButton"]::after'
    assert f'{take} {{content: "拍照";' in css and f'{clear} {{content: "清除照片";' in css


# -- issue 21: what the player sees of a flag; tiles left out greyed ---------------------------


def _near(im, rgb, tol=40) -> int:
    """Pixels of `im` within `tol` of `rgb` on every channel."""
    import numpy as np

    a = np.asarray(im.convert("RGB")).astype(int)
    return int((np.abs(a - np.array(rgb)).max(axis=2) <= tol).sum())


@pytest.mark.parametrize(
    "conf, flagged, win, colour, unsure",
    [
        (0.9, True, True, GOLD, True),  # winning and uncertain: both marks (the sample's 9s)
        (0.44, False, True, GOLD, True),  # 44 %: never shown as sure
        (0.9, False, True, GOLD, False),
        (0.44, False, False, RED, True),
        (0.9, True, False, RED, True),
        (0.6, False, False, GREEN, False),
    ],
)
def test_a_winning_tile_that_is_unsure_keeps_both_marks(conf, flagged, win, colour, unsure):
    from vision.detection import Detection

    result = photo("1m 2m 3m 5p 5p")
    k = 4 if win else 1
    result.detections[k] = Detection(
        result.detections[k].xyxy, result.detections[k].tile, conf, uncertain=flagged
    )
    h = EditHand.from_guess(hand_from_photo(result, "xingzi"))
    assert h.winning_index == 4
    boxes = tile_boxes(result.detections, h, None, chinese=False)
    assert (boxes[k].color, boxes[k].unsure) == (colour, unsure)
    assert unsure_count(boxes) == int(unsure)


def _jpeg(w=1000, h=800, rgb=(20, 90, 40)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (w, h), rgb).save(buf, "JPEG", quality=95)
    return buf.getvalue()


def test_draw_boxes_draws_the_red_dashes_inside_the_gold_frame_and_greys_left_out_tiles():
    gold_red = Box((100.0, 100.0, 300.0, 380.0), "9s", GOLD, unsure=True)
    grey = Box((600.0, 100.0, 800.0, 380.0), "6m", GREY, grey=True)
    out = Image.open(io.BytesIO(draw_boxes(_jpeg(), 1.0, (gold_red, grey), None)))
    assert out.size == (1000, 632)  # cropped below the tiles only: the boxes keep their place
    left, right = out.crop((90, 60, 310, 390)), out.crop((605, 105, 795, 375))
    assert _near(left, RED) > 1000 and _near(left, GOLD) > 1000  # both frames
    assert _near(right, RED) == 0 and _near(right, (20, 90, 40)) == 0  # veiled: no felt green shows
    assert min(right.getpixel((95, 135))) > 110  # the felt under a left-out tile is greyed


def test_css_keeps_the_red_dashes_of_an_unsure_winning_or_selected_tile():
    import re

    from app.ui.render.tiles import tile_flags
    from app.ui.style import CSS

    assert tile_flags(True, win=True) == "_WIN_LOW" and tile_flags(True, selected=True) == "_LOW_SEL"
    for mark, ring in (("_WIN", "#e8a317"), ("_SEL", "#1c7ed6")):
        both = [r for r in re.findall(r"([^{}]+)\{([^}]*)\}", CSS) if mark in r[0] and "_LOW" in r[0]]
        assert both, mark
        (_sel, body), *_ = both
        assert "dashed #e03131" in body and ring in body


def test_left_out_tiles_are_greyed_and_not_counted_unsure():
    from vision.detection import Detection

    result = photo("1m 2m 3m 5p 5p")
    result.detections.append(
        Detection((1500.0, 900.0, 1560.0, 980.0), "6m", 0.44, uncertain=True, role="discard")
    )
    h = EditHand.from_guess(hand_from_photo(result, "xingzi"))
    boxes = tile_boxes(result.detections, h, None, chinese=False)
    assert [b.grey for b in boxes] == [False] * 5 + [True] and boxes[5].color == GREY
    assert unsure_count(boxes) == 0  # a left-out tile asks for no check: the caption counts frames drawn
    out = tile_boxes(result.detections, h.without(Selection(0)), None, chinese=False)
    assert out[0].grey and not out[1].grey  # a tile taken out is greyed like the reader's


def test_the_sample_photo_draws_the_red_frame_its_caption_promises():
    """The bundled sample's winning 9s is uncertain (models 0.6.2; flag 2 is sure of it, so the
    test marks it): its gold frame and a red dashed one are drawn, and the caption's count
    equals the frames drawn."""
    from app.ui import services

    if services.reader_status() is not None:
        pytest.skip("no models")
    from dataclasses import replace

    photo_ = services.read_photo(services.sample_photo())
    res = photo_.result
    h = EditHand.from_guess(hand_from_photo(res, "jiujiang"))
    if not any(d.uncertain for d in res.detections):  # every tile read sure (flag 2 does)
        dets = list(res.detections)
        k = h.concealed[h.winning_index].detection
        dets[k] = replace(dets[k], uncertain=True)
        res = replace(res, detections=dets)
        h = EditHand.from_guess(hand_from_photo(res, "jiujiang"))
    boxes = tile_boxes(res.detections, h, None, chinese=False)
    flagged = [k for k, d in enumerate(res.detections) if d.uncertain or d.conf < 0.5]
    assert unsure_count(boxes) == len(flagged) >= 1
    assert (
        all(boxes[k].unsure for k in flagged) and boxes[h.concealed[h.winning_index].detection].color == GOLD
    )
    out = Image.open(io.BytesIO(draw_boxes(photo_.preview_jpeg, photo_.scale, boxes, None, photo_.cut)))
    assert _near(out, RED) > 200  # was 0: the gold frame hid the red one
