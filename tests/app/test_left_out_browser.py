"""The photo's left-out tiles on a phone, in a real browser (Debian's Chromium via playwright,
390 x 844, touch): a greyed tile tapped back into the hand leaves the page where the player
tapped, also when that tap changes the hand from scored to over-full (the total bar goes).
Skipped without /usr/bin/chromium."""

from __future__ import annotations

import pytest

from tests.app import phone_app
from tests.app.phone_app import WAIT, phone
from tests.app.test_browser import ARTIFACTS, CHROMIUM

app_db, browser, server = phone_app.app_db, phone_app.browser, phone_app.server  # fixtures
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium (tests/app/test_browser.py)"),
]

LIVE = " >> visible=true"  # a run still drawing leaves the last run's copy, drawn 0 px wide
PHOTO_BOTTOM = "() => Math.round([...document.querySelectorAll('[data-testid=stImage]')]" + (
    ".find(e => e.getBoundingClientRect().width > 0).getBoundingClientRect().bottom)"
)
HAND_SIZE = """() => [...document.querySelectorAll('[class*=st-key-tile_c] button')]
  .filter(b => !b.closest('[data-stale=true]') && b.getBoundingClientRect().width > 0).length"""


def _tap(page, key: str) -> None:
    page.locator(f"[class*=st-key-{key}] button{LIVE}").first.tap()


def _settled(page, n: int) -> None:
    """The hand row holds `n` tiles and the page has stopped moving (three reads 300 ms apart)."""
    page.wait_for_function(f"() => ({HAND_SIZE})() === {n}", timeout=WAIT)
    last, same = None, 0
    while same < 3:
        page.wait_for_timeout(300)
        now = page.evaluate(PHOTO_BOTTOM)
        same = same + 1 if now == last else 0
        last = now


def test_a_greyed_tile_tapped_back_leaves_the_page_where_it_was(browser, server):
    """Tapping a greyed tile scrolled the page 750-1,150 px down when the tap changed the hand from
    scored to over-full: the total bar above the columns went, so every column was drawn anew
    below the old ones for a moment. Now the photo stays where the finger was (within 40 px)."""
    with phone(browser, server, "zh") as page:
        _settled(page, 14)  # the sample photo's hand, scored
        _tap(page, "tile_c0")  # 2m: taken out, it is greyed on the photo and listed under it
        _tap(page, "btn_del")
        _settled(page, 13)
        _tap(page, "btn_add")  # typed back in by hand: the hand is whole again and scored
        _tap(page, "pick_add_2m")
        _settled(page, 14)
        _tap(page, "btn_add_done")
        page.locator(".jx-mini").first.wait_for(timeout=WAIT)
        greyed = page.locator(f"[class*=st-key-tile_out] button{LIVE}").first
        greyed.evaluate(
            "b => b.closest('[data-testid=stMain]').scrollBy(0, b.getBoundingClientRect().top - 160)"
        )
        page.wait_for_timeout(500)
        before = page.evaluate(PHOTO_BOTTOM)
        greyed.tap()  # back in: 15 tiles, over-full, no total
        _settled(page, 15)
        page.screenshot(path=str(ARTIFACTS / "phone-left-out-put-back.png"))
        assert page.locator(".jx-mini").count() == 0  # the tap did change the total bar
        assert abs(page.evaluate(PHOTO_BOTTOM) - before) <= 40, (before, page.evaluate(PHOTO_BOTTOM))
