"""A phone at the table for the real-browser tests: one app and one Chromium per test module,
and a 390 x 844 touch screen in either language (`phone`). Debian's Chromium via playwright."""

from __future__ import annotations

import contextlib
import os

import pytest

from app.ui import i18n
from tests.app.test_browser import CHROMIUM, CHROMIUM_ARGS, running_app

PHONE = {"width": 390, "height": 844}
WAIT = 30_000
SETTLED = "() => !!document.querySelector('[data-testid=stSkipToContent][aria-label]')"
"""The page's own script has named Streamlit's controls (`app.ui.builtin`, drawn last)."""
CAMERA_ARGS = ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"]


@pytest.fixture(scope="module")
def app_db(tmp_path_factory) -> str:
    """The module's ledger (the app's and the tests' own)."""
    return f"sqlite:///{tmp_path_factory.mktemp('ledger') / 'ledger.sqlite3'}"


@pytest.fixture(scope="module")
def server(app_db):
    """One app for the module."""
    with running_app(os.environ | {"JXMJ_DB": app_db}) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS + CAMERA_ARGS)
        try:
            yield b
        finally:
            b.close()


@contextlib.contextmanager
def phone(browser, server: str, lang: str, path: str = ""):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    """A new phone session on the page at `path`, opened (and scored), its first run drawn to the
    end (the page's own script, drawn last, has named Streamlit's controls: `SETTLED`)."""
    locale = {"zh": "zh-CN", "en": "en-US"}[lang]
    ctx = browser.new_context(viewport=PHONE, has_touch=True, locale=locale, permissions=["camera"])
    try:
        page = ctx.new_page()
        page.goto(f"{server}/{path}", wait_until="domcontentloaded")
        if not path:
            page.locator("#jx-total").first.wait_for(timeout=WAIT)
        with contextlib.suppress(PlaywrightTimeout):  # a test that measures it says so
            page.wait_for_function(SETTLED, timeout=WAIT)
        i18n.set_lang(lang)
        yield page
    finally:
        ctx.close()


def panel(page):
    """The 吃炮 panel (an expander), found by its title."""
    return page.locator("details", has_text=i18n.t("cond.payers")).first
