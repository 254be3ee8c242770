"""The phone token in a real browser (issue 39 item 6): kept in a cookie, never in the address; a
reload finds the hand; another browser opening the same address gets a hand of its own."""

from __future__ import annotations

import os

import pytest

from tests.app.test_browser import CHROMIUM, CHROMIUM_ARGS, running_app

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium"),
]


def _cookie(context) -> str | None:
    return {c["name"]: c["value"] for c in context.cookies()}.get("jxmj_d")


def _settled(context, page, unlike: str | None = None) -> str | None:
    """The phone's cookie once the page's cookie script has set one other than `unlike` (polled up
    to 30 s: a loaded machine runs the script late), else what it holds then."""
    for _ in range(120):
        got = _cookie(context)
        if got is not None and got != unlike:
            return got
        page.wait_for_timeout(250)
    return _cookie(context)


def test_the_token_lives_in_a_cookie_not_the_address(tmp_path):
    from playwright.sync_api import sync_playwright

    env = {**os.environ, "JXMJ_DB": f"sqlite:///{tmp_path / 'ledger.sqlite3'}"}
    with running_app(env) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            phone = browser.new_context(viewport={"width": 1280, "height": 1700}, locale="en-US")
            page = phone.new_page()
            page.goto(url, wait_until="domcontentloaded")
            page.locator("#jx-total").first.wait_for(timeout=60_000)
            token = _settled(phone, page) or ""  # the cookie script run
            assert len(token) == 11 and "d=" not in page.url
            page.reload(wait_until="domcontentloaded")  # the same phone keeps its token
            page.locator("#jx-total").first.wait_for(timeout=60_000)
            page.wait_for_timeout(1500)  # a script that replaced the token would have run by now
            assert _settled(phone, page) == token and "d=" not in page.url
            other = browser.new_context(viewport={"width": 1280, "height": 1700}, locale="en-US")
            theirs = other.new_page()  # the first phone's address, token and all, as an older release made it
            theirs.goto(f"{url}/?d={token}", wait_until="domcontentloaded")
            theirs.locator("#jx-total").first.wait_for(timeout=60_000)
            assert _settled(other, theirs, unlike=token) not in (None, token) and "d=" not in theirs.url
        finally:
            browser.close()
