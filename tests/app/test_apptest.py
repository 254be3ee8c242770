"""The Streamlit app driven headless by `streamlit.testing.v1.AppTest`."""

from __future__ import annotations

import json
import re

import pytest

from app.streamlit_app import PAGES
from app.ui import i18n
from app.ui.hand.typing import parse_typed
from app.ui.state import Selection
from tests.app.conftest import button_by_prefix, total_of


def _items_rows(at) -> int:
    for md in at.markdown:
        if md.value.startswith("<table class='jx-items'>"):
            return md.value.count("<tr><td>")
    return 0


def _type_hand(at, tiles: str) -> None:
    at.text_input(key="typed").input(tiles)
    at.button(key="btn_typed").click()
    at.run()


def test_sample_opens_scored_with_items_and_total(at):
    assert total_of(at) is not None and total_of(at) > 0
    assert _items_rows(at) >= 1
    assert not at.exception


def test_changing_a_tile_changes_the_total(at):
    _type_hand(at, "234m567p678s777p99s")
    before = total_of(at)
    assert before == 9  # 平胡 + 自摸 + 门清, three payers
    button_by_prefix(at, "tile_c8").click()  # 8s
    at.run()
    assert at.session_state.hip.sel == Selection(8)
    at.button(key="pick_change_5s").click()
    at.run()
    assert at.session_state.hip.hand.concealed[8].code == "5s"
    assert total_of(at) == 12  # now 567s: the 9s is a single wait (单钓 +1)
    assert not at.exception


def test_bad_upload_shows_a_message_and_keeps_the_hand(at):
    _type_hand(at, "234m567p678s777p99s")
    hand_before = at.session_state.hip.hand
    total_before = total_of(at)
    at.session_state["pending_photo"] = b"this is not a picture"
    at.run()
    assert not at.exception
    texts = [e.value for e in at.error] + [w.value for w in at.warning]
    i18n.set_lang("zh")
    expected = {i18n.t("image.not_image").split("（")[0], i18n.t("err.vision_missing").split("，")[0]}
    assert any(any(x in text for x in expected) for text in texts), texts
    assert at.session_state.hip.hand == hand_before
    assert total_of(at) == total_before


def test_switching_language_changes_labels(at):
    heads = [s.value for s in at.subheader]
    assert "① 照片" in heads
    at.segmented_control(key="lang").set_value("en")
    at.run()
    heads = [s.value for s in at.subheader]
    assert "① Photo" in heads and "④ Result" in heads
    assert any("Total received" in md.value for md in at.markdown)
    at.segmented_control(key="lang").set_value("zh")
    at.run()
    assert "④ 结果" in [s.value for s in at.subheader]


def test_conditions_survive_a_visit_to_the_learn_page(at):
    at.segmented_control(key="w_variant").set_value("xingzi")
    at.run()
    at.segmented_control(key="page").set_value("learn")
    at.run()
    assert not at.exception
    assert any(re.search("星子|Xingzi", md.value) for md in at.markdown)
    at.segmented_control(key="page").set_value("score")
    at.run()
    assert at.session_state.hip.cond.variant == "xingzi"
    assert at.segmented_control(key="w_variant").value == "xingzi"


def test_discard_win_below_minimum_says_cannot_win(at):
    _type_hand(at, "234m567p678s99s")
    # make 777p a pung: add three 7p, select one, make a pung
    for _ in range(3):
        at.button(key="btn_add").click()
        at.run()
        at.button(key="pick_add_7p").click()
        at.run()
    button_by_prefix(at, "tile_c11").click()
    at.run()
    at.button(key="mk_pung").click()
    at.run()
    assert at.session_state.hip.hand.melds[0].kind == "pung"
    at.segmented_control(key="w_self_drawn").set_value(False)
    at.run()
    i18n.set_lang("zh")
    assert any(i18n.t("res.cannot_win") in md.value and "二炮起胡" in md.value for md in at.markdown)


def test_the_add_picker_says_a_fifth_copy_and_refuses_a_hand_past_22_tiles(at):
    """As typing does (break-it, session 23: 134 tiles added one tap at a time, six 1m, kept, the
    picker silent). A fifth copy is added, and said: the player may fix the misread one next."""
    zh = i18n.catalog("zh")
    _type_hand(at, "1111m")
    at.button(key="btn_add").click()
    at.run()
    at.button(key="pick_add_1m").click()
    at.run()
    assert [x.code for x in at.session_state.hip.hand.tiles] == ["1m"] * 5
    i18n.set_lang("zh")
    assert any(w.value == zh["hand.fifth_copy"].format(tile="一万", n=5) for w in at.warning)
    at.segmented_control(key="lang").set_value("en")  # worded when shown: the tile's name too
    at.run()
    en = i18n.catalog("en")
    assert any(w.value == en["hand.fifth_copy"].format(tile="1 Characters", n=5) for w in at.warning)
    at.segmented_control(key="lang").set_value("zh")
    at.run()
    _type_hand(at, "1112223334445556667778m")  # 22: the most typing takes
    at.button(key="btn_add").click()
    at.run()
    at.button(key="pick_add_9p").click()
    at.run()
    assert len(at.session_state.hip.hand.tiles) == 22
    assert any(w.value == zh["msg.typed_too_long"].format(n=22) for w in at.warning)


def test_catalogs_have_the_same_keys():
    zh, en = i18n.catalog("zh"), i18n.catalog("en")
    assert set(zh) == set(en)
    assert all(v.strip() for v in zh.values()) and all(v.strip() for v in en.values())


def test_browser_language_choice():
    assert i18n.pick_lang("en-US,en;q=0.9,zh-CN;q=0.8") == "en"
    assert i18n.pick_lang("zh-CN,zh;q=0.9,en;q=0.8") == "zh"
    assert i18n.pick_lang("fr-FR,fr;q=0.9") == "zh"
    assert i18n.pick_lang(None, "en-GB") == "en"
    assert i18n.pick_lang("", None) == "zh"


def test_photo_path_with_stand_in_models(tmp_path, monkeypatch):
    """Upload -> detect -> layout -> hand -> score, with vision's stand-in ONNX models."""
    import io

    import pytest

    pytest.importorskip("onnx", reason="needs onnx (the train extra)")
    from PIL import Image
    from streamlit.testing.v1 import AppTest

    from app.ui import services
    from tests.app.conftest import APP
    from vision import testing as VT

    scene = VT.hand_scene(1600, 1200)
    VT.build_models(tmp_path, scene, (1600, 1200))
    monkeypatch.setenv("JXMJ_MODELS_DIR", str(tmp_path))
    buf = io.BytesIO()
    Image.fromarray(VT.paint_scene(1600, 1200, scene)).save(buf, "PNG")
    services._reader_cached.clear()
    try:
        at = AppTest.from_file(str(APP), default_timeout=60)
        at.run()
        at.session_state["pending_photo"] = buf.getvalue()
        at.run()
        assert not at.exception
        h = at.session_state.hip.hand
        assert {m.kind: "".join(m.codes) for m in h.melds} == {"pung": "7p7p7p", "concealed_kong": "9s9s9s9s"}
        assert h.bonus_tiles == 2
        assert [x.code for x in h.concealed] == ["1m", "2m", "3m", "6s", "7s", "8s", "2p", "2p"]
        assert h.concealed[h.winning_index].detection is not None  # the tile set apart
        assert total_of(at) is not None and total_of(at) > 0
        assert at.session_state.hip.photo is not None  # kept for the box view
        assert any("识别到 17 张牌" in c.value for c in at.caption), [c.value for c in at.caption]
    finally:
        services._reader_cached.clear()


def test_every_catalog_key_the_code_uses_exists():
    """Literal `t("...")` keys in the app's source, and the families built from engine codes."""
    from app.ui.learn.examples import EXAMPLES
    from app.ui.learn.rules import catalog_keys
    from app.ui.state import OTHER_SEATS
    from app.ui.state.conditions import COUNTERS
    from scoring.model import EVENTS, MELD_KINDS
    from scoring.rules import VARIANTS
    from tests.app.conftest import ROOT

    src = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "app").rglob("*.py"))
    keys = set(re.findall(r'\bt\(\s*"([a-z_]+\.[a-zA-Z0-9_.]+)"', src))
    keys |= set(re.findall(r'"((?:err|msg|res|sug|hand|photo|cond|learn|ex)\.[a-z_]+)"', src))
    keys |= {f"meld.{k}" for k in (*MELD_KINDS, "concealed")}
    keys |= {f"event.{e}" for e in EVENTS}
    keys |= {f"seat.{s}" for s in ("me", *OTHER_SEATS)}
    keys |= {f"payer.{f}" for f in (*COUNTERS, "ready_declared")}
    keys |= {f"variant.{v}" for v in VARIANTS} | {k for v in VARIANTS for k in catalog_keys(v)}
    keys |= {k for v in EXAMPLES.values() for k, _ in v}
    keys |= {f"lang.{code}" for code in i18n.LANGS} | {f"nav.{p}" for p in PAGES}
    missing = sorted(k for k in keys if k not in i18n.catalog("zh"))
    assert not missing


def test_xinyu_is_self_drawn_only_and_its_what_if_says_so(at):
    _type_hand(at, "123m456p789s345sEE")
    at.segmented_control(key="w_variant").set_value("xinyu")
    at.run()
    assert not at.exception
    assert total_of(at) == 6  # 门清 x2, three payers
    i18n.set_lang("zh")
    whatif = next(md.value for md in at.markdown if md.value.startswith("<table class='jx-whatif'>"))
    assert whatif.count(i18n.t("res.wi_no")) == 1  # no discard wins in xinyu (one column: no dealer rule)


def test_typed_hand_replaces_the_bonus_count_instead_of_adding(at):
    for _ in range(3):
        _type_hand(at, "123m456p789s111mCCF")
    assert at.session_state.hip.hand.bonus_tiles == 1
    _type_hand(at, "234m567p678s777p99s")
    assert at.session_state.hip.hand.bonus_tiles == 0


def test_full_width_and_chinese_typed_tiles_become_plain_codes():
    hand = parse_typed("１２３ｍ 东 發", "xinyu")
    assert [t.code for t in hand.concealed] == ["1m", "2m", "3m", "E", "F"]


def test_overlong_typed_hand_is_refused_and_the_hand_kept(at):
    before = at.session_state.hip.hand
    _type_hand(at, "1" * 5000 + "m")
    assert at.session_state.hip.hand == before
    assert any("22" in e.value for e in at.error)
    assert not at.exception


def test_riichi_5z_typed_gets_the_engines_reason(at):
    _type_hand(at, "123m5z")
    assert any("ambiguous" in e.value or "5z" in e.value for e in at.error)


@pytest.mark.parametrize("page", list(PAGES))
@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_page_opens_in_both_languages(at, page, lang):
    """Smoke test over `PAGES`: each page draws its title and no error, in zh and in en."""
    at.segmented_control(key="lang").set_value(lang)
    at.run()
    at.segmented_control(key="page").set_value(page)
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    i18n.set_lang(lang)
    assert at.segmented_control(key="page").value == page
    assert len(at.subheader) >= 1 and at.markdown


def test_cli_and_app_read_a_face_down_tile_in_the_hand_alike(monkeypatch, capsys):
    """One decision (app/photo_hand.py): a back among the standing tiles is an unknown tile `?`;
    `jxmj photo` leaves it out of its score JSON with a note, the app shows it to be named."""
    from streamlit.testing.v1 import AppTest

    from app import cli, cmd_detect
    from app.ui import services
    from tests.app.conftest import APP
    from tests.app.test_photo_hand import photo

    result = photo("7p 7p~ 7p | 1m 2m back 6s 7s 8s 2p | 2p")
    monkeypatch.setattr(cmd_detect, "detect", lambda args: (result, None))
    cli.main(["photo", "x.png", "--variant", "xingzi", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["hand"]["concealed"] == "12m22p678s" and out["hand"]["winning_tile"] == "2p"
    assert out["hand"]["melds"] == [{"kind": "pung", "tiles": "777p"}]
    assert any("face-down" in n for n in out["notes"])

    import io

    from PIL import Image

    jpeg = io.BytesIO()
    Image.new("RGB", (result.width, result.height), (20, 90, 40)).save(jpeg, "JPEG")
    monkeypatch.setattr(
        services, "read_photo", lambda data, **kw: services.Photo(jpeg.getvalue(), 1.0, result)
    )
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.session_state["pending_photo"] = b"stand-in"
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    h = at.session_state.hip.hand
    assert [t.code for t in h.concealed] == ["1m", "2m", "?", "6s", "7s", "8s", "2p", "2p"]
    assert h.winning_tile == "2p" and [m.codes for m in h.melds] == [["7p"] * 3]
    known = "".join(t.code for t in h.concealed if t.code != "?")
    assert sorted(known[k : k + 2] for k in range(0, len(known), 2)) == sorted(
        ["1m", "2m", "2p", "2p", "6s", "7s", "8s"]
    )
