"""The score page on a phone at the table (issue 27), in a real browser (Debian's Chromium via
playwright, 390 x 844, touch): a refused upload says why, the 吃炮 panel stays open, the
camera's clear button says "clear" and nothing to tap lies under the total bar, the toast's
close is a finger's size, the 牌局 import says why too. (The whole page: test_phone_whole_browser.)
Skipped without /usr/bin/chromium."""

from __future__ import annotations

import pytest

from app.ui import i18n
from tests.app import phone_app
from tests.app.phone_app import WAIT, panel, phone
from tests.app.test_browser import ARTIFACTS, CHROMIUM

app_db, browser, server = phone_app.app_db, phone_app.browser, phone_app.server  # fixtures
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="needs /usr/bin/chromium (see tests/app/test_browser.py)"
    ),
]


def _hand(page) -> list[str]:
    """The names the hand row's tile buttons say (their pictures' alt text), once the row has
    stopped changing (a run still drawing leaves the last run's buttons, marked stale)."""
    page.locator("[class*=st-key-tile_c0] button img").first.wait_for(state="attached", timeout=WAIT)
    read = """bs => bs.filter(b => !b.closest('[data-stale=true]'))
      .map(b => [...b.querySelectorAll('img')].map(i => i.alt).join('+'))"""
    last = None
    for _ in range(20):
        now = page.locator("[class*=st-key-tile_c] button").evaluate_all(read)
        if now == last:
            return now
        last = now
        page.wait_for_timeout(500)
    return last


# -- 1. a refused upload says what and why, beside the uploader ----------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_refused_upload_says_what_and_why_and_keeps_the_hand(browser, server, tmp_path, lang):
    """A .txt, a .pdf and a 48 MB photo became a red "!" chip with the file name only (Streamlit's
    English reason hidden under it); now a line under the uploader says which file and why."""
    files = {"notes.txt": b"hello", "rules.pdf": b"%PDF-1.4\n", "huge.jpg": b""}
    for fname, data in files.items():
        (tmp_path / fname).write_bytes(data)
    with (tmp_path / "huge.jpg").open("r+b") as f:
        f.truncate(48 * 1000 * 1000)
    i18n.set_lang(lang)
    kinds = i18n.t("punct.list").join(["JPG", "JPEG", "PNG", "HEIC", "HEIF", "WEBP", "AVIF"])
    why = {
        "notes.txt": i18n.t("upload.wrong_type", file="notes.txt", kinds=kinds),
        "rules.pdf": i18n.t("upload.wrong_type", file="rules.pdf", kinds=kinds),
        "huge.jpg": i18n.t("upload.too_big", file="huge.jpg", size="48.0", limit=40),
    }
    want = {f: i18n.t("upload.and_then", text=w, then=i18n.t("upload.hand_kept")) for f, w in why.items()}
    with phone(browser, server, lang) as page:
        hand = _hand(page)  # settled first: the total is that run's
        total = page.locator("#jx-total").first.inner_text()
        for fname, text in want.items():
            page.locator("[class*=st-key-uploader] input[type=file]").set_input_files(str(tmp_path / fname))
            slot = page.locator(".jx-refused[data-for=uploader]")
            slot.wait_for(state="visible", timeout=WAIT)
            assert slot.inner_text() == text
            # right under the uploader, and nothing went to Streamlit: no chip, the same hand
            below = page.evaluate(
                """() => document.querySelector('.jx-refused').getBoundingClientRect().top
                - document.querySelector('[class*=st-key-uploader]').getBoundingClientRect().bottom"""
            )
            assert 0 <= below < 40, below
            assert page.locator("[data-testid=stFileUploaderFile]").count() == 0
            page.wait_for_timeout(500)
            assert page.locator("#jx-total").first.inner_text() == total and _hand(page) == hand
        page.screenshot(path=str(ARTIFACTS / f"phone-refused-{lang}.png"))


# -- 2. the 吃炮 panel stays open ----------------------------------------------------------------


def _panel_open(page) -> bool:
    return panel(page).evaluate("e => e.open")


def test_the_eaten_panel_stays_open_while_two_payers_are_entered(browser, server):
    """The panel closed on its first entry (3 of 3 fresh sessions): each payer cost a tap more."""
    with phone(browser, server, "zh") as page:
        panel(page).locator("summary").tap()
        for n, seat in enumerate(("right", "across")):
            panel(page).locator("[role=tab]").nth(n).tap()
            field = page.locator(f"[class*=st-key-w_{seat}_bonus_tiles] input").first
            field.fill("1")
            field.press("Enter")
            page.get_by_text(i18n.t("cond.payers_some", n=n + 1)).first.wait_for(timeout=WAIT)
            page.wait_for_timeout(800)
            assert _panel_open(page), seat
            selected = panel(page).locator("[role=tab][aria-selected=true]")
            assert selected.inner_text().strip() == i18n.t(f"seat.{seat}")
        panel(page).locator("summary").tap()  # the player closes it
        page.wait_for_timeout(1500)
        assert not _panel_open(page)


# -- 3. the camera's clear button, and nothing under the total bar -------------------------------

UNDER_THE_BAR = """() => {
  const bar = document.querySelector('.jx-mini').getBoundingClientRect();
  const main = document.querySelector('[data-testid=stMain]').getBoundingClientRect();
  return [Math.round(main.bottom), Math.round(bar.top)];
}"""


def _after(page, selector: str) -> str:
    return page.locator(selector).first.evaluate("e => getComputedStyle(e, '::after').content")


def test_after_a_capture_the_camera_button_clears_and_is_never_under_the_total_bar(browser, server):
    """The clear button read "✕ 拍照" (take photo) and, at the screen's bottom, lay under the
    fixed total bar. Now it says 清除照片, and the page scrolls above the bar: the bottom of the
    scrolling page is the bar's top, and a tap at the button's centre reaches the button."""
    with phone(browser, server, "zh") as page:
        main_bottom, bar_top = page.evaluate(UNDER_THE_BAR)
        assert main_bottom <= bar_top, (main_bottom, bar_top)
        page.locator("[class*=st-key-camera_on] label").first.tap()
        take = page.locator("[data-testid=stCameraInputWebcamComponent] [data-testid=stCameraInputButton]")
        take.wait_for(timeout=WAIT)
        assert _after(page, "[data-testid=stCameraInputButton]") == f'"{i18n.t("photo.take")}"'
        page.wait_for_timeout(2500)  # the fake camera's first frames
        take.first.tap()
        clear = page.locator("[data-testid=stCameraInput] > [data-testid=stCameraInputButton]").first
        clear.wait_for(timeout=WAIT)
        assert _after(page, "[data-testid=stCameraInput] > [data-testid=stCameraInputButton]") == (
            f'"{i18n.t("photo.clear")}"'
        )
        assert clear.get_attribute("aria-label") == i18n.t("photo.clear")
        page.locator(".jx-timing").first.wait_for(timeout=WAIT)  # the capture was read and scored
        clear.evaluate("b => b.scrollIntoView(false)")  # the button at the bottom of the page's view
        page.wait_for_timeout(500)
        hit = clear.evaluate(
            """b => { const r = b.getBoundingClientRect();
              return b.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }"""
        )
        bottom = clear.evaluate("b => b.getBoundingClientRect().bottom")
        assert hit and bottom <= page.evaluate(UNDER_THE_BAR)[1], bottom
        clear.tap()
        take.wait_for(timeout=WAIT)  # cleared: the live picture again


# -- 8. the toast's close, on the 牌局 page --------------------------------------------------------


def test_the_toasts_close_is_a_fingers_size_and_named(browser, server, app_db, monkeypatch):
    """The toast's x was 14 x 14 px and read "Close" on the Chinese page."""
    from ledger import Table
    from ledger.store import open_store
    from tests.app.test_table_browser import _enter_hand

    monkeypatch.setenv("JXMJ_DB", app_db)  # the table where the app reads it
    code = open_store().create_table(Table("jiujiang", ("张三", "李四", "王五", "赵六"))).table.code
    with phone(browser, server, "zh", f"table?table={code}") as page:
        page.locator('#jx-table[data-hands="0"]').wait_for(timeout=WAIT)
        _enter_hand(page, "123m456p789s234mCC", "李四", "王五", "李四 +3 · 王五 -3")
        page.locator("[class*='st-key-tb_record'] button").first.tap()
        close = page.locator("[data-testid=stToast] button[slot=close]").first
        close.wait_for(timeout=WAIT)
        page.wait_for_timeout(200)
        box = close.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box
        assert close.get_attribute("aria-label") == i18n.t("a11y.close")


def test_the_table_import_says_why_a_file_is_refused(browser, server, app_db, monkeypatch, tmp_path):
    """The 牌局 JSON import takes .json only: another file is refused with its reason (no word
    about a hand: there is none to keep here)."""
    from ledger import Table
    from ledger.store import open_store

    monkeypatch.setenv("JXMJ_DB", app_db)
    code = open_store().create_table(Table("jiujiang", ("张三", "李四", "王五", "赵六"))).table.code
    (tmp_path / "evening.csv").write_text("hand,seat\n")
    with phone(browser, server, "zh", f"table?table={code}") as page:
        page.locator("[class*=st-key-tb_import] input[type=file]").set_input_files(
            str(tmp_path / "evening.csv")
        )
        slot = page.locator(".jx-refused[data-for=tb_import]")
        slot.wait_for(state="visible", timeout=WAIT)
        assert slot.inner_text() == i18n.t("upload.wrong_type", file="evening.csv", kinds="JSON")


def test_the_table_import_shows_only_the_latest_files_message(browser, server, app_db, monkeypatch, tmp_path):
    """A JSON file that is no export, then a photo: the photo's refusal replaces the JSON's
    message (one message under the uploader), and no chip names the refused JSON."""
    from ledger import Table
    from ledger.store import open_store

    monkeypatch.setenv("JXMJ_DB", app_db)
    code = open_store().create_table(Table("jiujiang", ("张三", "李四", "王五", "赵六"))).table.code
    (tmp_path / "bad.json").write_text('{"not": "an export"}')
    (tmp_path / "fake.jpg").write_bytes(b"not a photo")
    with phone(browser, server, "zh", f"table?table={code}") as page:
        page.locator("[class*=st-key-tb_import] input[type=file]").set_input_files(str(tmp_path / "bad.json"))
        slot = page.locator(".jx-refused[data-for=tb_import_1]")
        slot.wait_for(state="visible", timeout=WAIT)
        assert slot.inner_text() == i18n.t("ledger.bad_import")
        assert not page.get_by_text("bad.json").count()  # the uploader is empty again
        page.locator("[class*=st-key-tb_import] input[type=file]").set_input_files(str(tmp_path / "fake.jpg"))
        page.wait_for_function(
            "t => document.querySelector('.jx-refused[data-for=tb_import_1]').textContent === t",
            arg=i18n.t("upload.wrong_type", file="fake.jpg", kinds="JSON"),
            timeout=WAIT,
        )
        shown = [s.inner_text() for s in page.locator(".jx-refused:visible").all()]
        assert shown == [i18n.t("upload.wrong_type", file="fake.jpg", kinds="JSON")]
        assert not page.get_by_text(i18n.t("ledger.bad_import")).count()
