"""The whole score page on a phone (issue 27), in a real browser: through every state a player
reaches, nothing under 44 x 44 px can be tapped, in both languages, and the Chinese page shows
or reads out no English word; a language switch renames Streamlit's controls at once.
Skipped without /usr/bin/chromium."""

from __future__ import annotations

import re

import pytest

from app.ui import i18n
from tests.app import phone_app
from tests.app.phone_app import WAIT, panel, phone
from tests.app.test_browser import ARTIFACTS, CHROMIUM

app_db, browser, server = phone_app.app_db, phone_app.browser, phone_app.server  # fixtures
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium (tests/app/test_browser.py)"),
]

SMALL = """() => {
  const sel = 'a[href], button, summary, input:not([type=hidden]), select, textarea, [role=button], '
    + '[role=tab], [role=radio], [role=checkbox], [role=switch], [role=option], '
    + '[tabindex]:not([tabindex="-1"])';
  const out = new Set();
  for (const e of document.querySelectorAll(sel)) {
    const target = (e.tagName === 'INPUT' && e.closest('label')) || e;
    if (!target.checkVisibility({visibilityProperty: true})) continue;
    const r = target.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) continue;  // visually hidden (the skip link until focused)
    if (r.width < 44 || r.height < 44) {
      const name = e.getAttribute('aria-label') || e.innerText.trim().slice(0, 16) || e.tagName;
      out.add(`${name} ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return [...out];
}"""

# What a sighted player sees and what a screen reader says: each text drawn or read (not inside
# aria-hidden, not hidden, not inside a control named by its aria-label) and each name given in
# an attribute; a text drawn at font-size 0 is not seen but still read.
SAID = """() => {
  const out = [];
  const labelled = 'button[aria-label], a[aria-label], [role=button][aria-label], input[aria-label]';
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n; (n = w.nextNode()); ) {
    const p = n.parentElement;
    if (!p || !n.textContent.trim() || p.closest('style, script, noscript, [aria-hidden=true]')) continue;
    if (p.closest(labelled) || !p.checkVisibility({visibilityProperty: true})) continue;
    out.push(n.textContent.trim());
  }
  const attrs = ['aria-label', 'alt', 'title', 'placeholder', 'aria-description', 'aria-valuetext'];
  for (const e of document.body.querySelectorAll('*')) {
    if (e.closest('[aria-hidden=true]') || !e.checkVisibility({visibilityProperty: true})) continue;
    for (const a of attrs) if (e.getAttribute(a)) out.push(e.getAttribute(a));
  }
  return out;
}"""
NOT_ENGLISH = {"EN", "JPEG", "JPG", "PNG", "WebP", "WEBP", "HEIC", "HEIF", "AVIF", "MB"}
"""Words the Chinese page means to show: the switch to English, photo formats, megabytes."""


TILE_CODE = re.compile(r"[1-9][mps]|[ESWNCFP]")  # a tile read out by its code, "2m"


def _english(page) -> set[str]:
    said = page.evaluate(SAID)
    words = {w for text in said for w in re.findall(r"[A-Za-z]{2,}", text)} - NOT_ENGLISH
    return words | {text for text in said if TILE_CODE.fullmatch(text)}


def _states(page):
    """The score page as a player goes through it; yields the name of each state reached."""
    yield "opened"
    panel(page).locator("summary").tap()
    panel(page).locator("[role=tab]").first.wait_for(timeout=WAIT)
    yield "吃炮 panel"
    page.locator("[class*=st-key-whynot_score] label").first.tap()
    page.locator(".jx-teach").first.wait_for(timeout=WAIT)
    yield "why not"
    page.locator("[class*=st-key-tile_c0] button:visible").first.tap()
    page.locator("[class*=st-key-mk_pung]").first.wait_for(timeout=WAIT)
    yield "a tile's panel"
    page.locator("[class*=st-key-btn_add] button").first.tap()
    page.locator("[class*=st-key-picker_add]").first.wait_for(timeout=WAIT)
    yield "the tile picker"
    page.locator("[class*=st-key-camera_on] label").first.tap()
    page.locator("[data-testid=stCameraInputButton]").first.wait_for(timeout=WAIT)
    yield "the camera"
    page.get_by_text(i18n.t("hand.type_title"), exact=True).first.tap()
    page.locator("[class*=st-key-typed] input").fill("123m")  # typed, not applied yet
    page.locator("[class*=st-key-typed] [data-testid=InputInstructions]").wait_for(
        state="attached", timeout=WAIT
    )
    yield "typing a hand"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_whole_page_on_a_phone(browser, server, lang):
    """Through the whole score page on a 390 x 844 touch screen, nothing under 44 x 44 px can be
    tapped (before: the heading links 16 px, the upload help 16 px), and on the Chinese page no
    English word is shown or read out (before: "Link to heading", "Help for …", "Decrement",
    "Increment", "Fullscreen", "file upload", "Upload", "per file", "Take Photo", "Press Enter to
    apply", "2m" …; 18 words on the opened page)."""
    with phone(browser, server, lang) as page:
        small, english = {}, {}
        for state in _states(page):
            page.wait_for_timeout(800)
            small[state] = page.evaluate(SMALL)
            english[state] = sorted(_english(page)) if lang == "zh" else []
        page.screenshot(path=str(ARTIFACTS / f"phone-whole-{lang}.png"), full_page=True)
    assert all(v == [] for v in small.values()), small
    assert all(v == [] for v in english.values()), english


def test_a_language_switch_renames_streamlits_controls(browser, server):
    """Streamlit's controls take the new language's names at once (the page's script is drawn
    again with the new words): the steppers, the upload button."""
    stepper = "[data-testid=stNumberInputStepUp]"
    upload = "[class*=st-key-uploader] [data-testid=stFileUploaderDropzone] button"
    with phone(browser, server, "zh") as page:
        page.wait_for_function(
            f"() => document.querySelector('{stepper}')?.ariaLabel === '加一'", timeout=WAIT
        )
        page.locator("[class*=st-key-topbar] [role=radio]", has_text="EN").first.tap()
        i18n.set_lang("en")
        words = [i18n.t("a11y.increment"), i18n.t("photo.upload_button")]
        page.wait_for_function(
            f"""w => document.querySelector('{stepper}')?.ariaLabel === w[0]
              && document.querySelector('{upload}')?.ariaLabel === w[1]""",
            arg=words,
            timeout=WAIT,
        )
