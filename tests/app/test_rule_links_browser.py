"""A rule link in a real browser (Chromium, playwright): tapping "Rule 2" (DECISIONS §1.3) under a scored item
opens the Learn page in the same tab, on the item's variant, in the page's language, scrolled to
that rule section. Skipped without /usr/bin/chromium, like tests/app/test_browser.py."""

from __future__ import annotations

import re

from app.ui import i18n
from tests.app.test_browser import CHROMIUM, CHROMIUM_ARGS, pytestmark, server  # noqa: F401

TAB_LABEL = {v: i18n.catalog("en")[f"variant.{v}"] for v in ("jiujiang", "xingzi", "xinyu")}


def test_a_rule_link_opens_its_section_on_the_learn_page(server):  # noqa: F811
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="zh-CN")
            page.goto(f"{server}/?lang=en", wait_until="domcontentloaded")  # English on a Chinese browser
            link = page.locator("table.jx-items .jx-ref a", has_text="Rule 2").first
            link.wait_for(timeout=30_000)
            variant = re.search(r"variant=([a-z]+)", link.get_attribute("href")).group(1)
            pages_before = len(browser.contexts[0].pages)
            link.click()
            page.wait_for_url(
                re.compile(rf"/learn\?variant={variant}&lang=en#rule-{variant}-1-3$"), timeout=30_000
            )
            heading = page.locator(f"#rule-{variant}-1-3")
            heading.wait_for(timeout=30_000)
            assert len(browser.contexts[0].pages) == pages_before  # the same tab
            selected = page.locator("[role=tab][aria-selected=true]").first.inner_text()
            assert selected.strip() == TAB_LABEL[variant]
            assert heading.inner_text().startswith("2 What a hand is worth")
            page.wait_for_function(  # Streamlit scrolls to the anchor once the header is drawn
                "id => { const r = document.getElementById(id).getBoundingClientRect();"
                " return r.top >= 0 && r.bottom <= window.innerHeight; }",
                arg=f"rule-{variant}-1-3",
                timeout=10_000,
            )
        finally:
            browser.close()


def test_back_from_a_rule_link_finds_the_hand_as_it_was(server):  # noqa: F811
    """The link loads the Learn page afresh; the score page's hand lives under its token (a cookie),
    so going back shows the player's hand and choices as they left them."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-US")
            page.goto(server, wait_until="domcontentloaded")
            page.locator("table.jx-items .jx-ref a").first.wait_for(timeout=30_000)
            page.locator("[class*='st-key-w_variant'] button", has_text="Xinyu").first.click()
            link = page.locator("table.jx-items .jx-ref a[href*='variant=xinyu']").first
            link.wait_for(timeout=30_000)  # the hand is now scored as 新余
            link.click()
            page.wait_for_url(re.compile(r"/learn\?variant=xinyu"), timeout=30_000)
            page.locator("#rule-xinyu-2").wait_for(timeout=30_000)
            page.go_back()
            page.locator("table.jx-items .jx-ref a").first.wait_for(timeout=30_000)
            assert "variant=xinyu" in page.locator("table.jx-items .jx-ref a").first.get_attribute("href")
        finally:
            browser.close()
