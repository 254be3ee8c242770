"""A meld row on the score page (a kong made from the tiles in hand), in a real browser: its
kind list and its take-out button speak the page's language — no Streamlit English ("Choose an
option", "Open", the icon's name "remove_circle") on the Chinese page. Skipped without
/usr/bin/chromium."""

from __future__ import annotations

import re

import pytest

from tests.app import phone_app
from tests.app.phone_app import WAIT, phone
from tests.app.test_browser import CHROMIUM
from tests.app.test_phone_whole_browser import NOT_ENGLISH, SAID

app_db, browser, server = phone_app.app_db, phone_app.browser, phone_app.server  # fixtures
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium (tests/app/test_browser.py)"),
]


def _tap(page, key: str) -> None:
    page.locator(f"[class*=st-key-{key}] button:visible").first.tap()


def _make_kong(page) -> None:
    """The sample (234m 567p 678s 777p 99s): one more 7p, the chow's 7p made 4p, then 明杠 of 7p."""
    _tap(page, "btn_add")
    _tap(page, "pick_add_7p")
    _tap(page, "tile_c5")
    _tap(page, "pick_change_4p")
    _tap(page, "tile_c9")
    _tap(page, "mk_kong")
    page.locator("[class*=st-key-meldkind_0_]").first.wait_for(timeout=WAIT)
    page.locator("[class*=st-key-meldout_0] button[aria-label]:visible").first.wait_for(timeout=WAIT)
    page.wait_for_function(  # the list is drawn and the page's script has named it (a frame later)
        """() => {
          const sel = '[data-testid=stSelectbox] button[aria-haspopup=listbox]';
          const all = [...document.querySelectorAll(sel)];
          const row = all.filter(b => b.closest('[class*=st-key-meldkind_0_]') && b.checkVisibility());
          return row.length > 0 && all.every(b => b.getAttribute('aria-label') !== 'Open');
        }""",
        timeout=WAIT,
    )


def _english(page) -> set[str]:
    said = page.evaluate(SAID)
    return {w for text in said for w in re.findall(r"[A-Za-z]{2,}", text)} - NOT_ENGLISH


def test_meld_row_says_nothing_in_english_on_the_chinese_page(browser, server):
    with phone(browser, server, "zh") as page:
        _make_kong(page)
        assert _english(page) == set()
        out = page.locator("[class*=st-key-meldout_0] button:visible").first
        assert out.get_attribute("aria-label") == "拆开这个副露，牌放回手牌"
        box = page.locator("[class*=st-key-meldkind_0_] input:visible").first
        assert box.get_attribute("placeholder") == "选一项"
        assert box.input_value() == "明杠"
        opener = page.locator("[class*=st-key-meldkind_0_] button[aria-haspopup=listbox]:visible").first
        assert opener.get_attribute("aria-label") == "展开选项"


def test_meld_row_in_english(browser, server):
    with phone(browser, server, "en") as page:
        _make_kong(page)
        out = page.locator("[class*=st-key-meldout_0] button:visible").first
        assert out.get_attribute("aria-label") == "Break this meld up: its tiles back into the hand"
        opener = page.locator("[class*=st-key-meldkind_0_] button[aria-haspopup=listbox]:visible").first
        assert opener.get_attribute("aria-label") == "Show the choices"
