"""The app in a real browser: Debian's Chromium driven by playwright (sync API).

Starts `jxmj app` on a free port, uploads the bundled sample photo through the file input,
reads the total from the page and keeps a screenshot in `test-artifacts/`. Skipped when
/usr/bin/chromium is missing (`scripts/ensure-chromium.sh` installs it for `make test`).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.app.conftest import ROOT, SAMPLE_JPG

CHROMIUM = Path("/usr/bin/chromium")
TRUE_TILES = "234m567p678s777p99s"  # the sample photo's hand (app/assets/sample_hand.json)
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="needs /usr/bin/chromium (Debian chromium: make test installs it when run as root)",
    ),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_app(env: dict[str, str] | None = None):
    """`jxmj app` on a free port for the block; yields its address."""
    port = _free_port()
    cmd = [sys.executable, "-m", "app", "app", "--server.port", str(port), "--server.headless", "true"]
    cmd += ["--server.fileWatcherType", "none"]
    ARTIFACTS.mkdir(exist_ok=True)
    log = (ARTIFACTS / "browser-server.log").open("w")
    # its own process group: `jxmj app` runs streamlit as a child, and both must stop afterwards
    env = env or os.environ.copy()
    out = {"stdout": log, "stderr": subprocess.STDOUT}
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, start_new_session=True, **out)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the app did not start: see {log.name}")
            time.sleep(0.3)
        yield url
    finally:
        _stop_group(proc)
        log.close()


@pytest.fixture
def server():
    with running_app() as url:
        yield url


def _stop_group(proc: subprocess.Popen) -> None:
    """SIGTERM the server's process group (jxmj and its streamlit child), SIGKILL what is left."""
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                os.killpg(proc.pid, 0)  # anyone left in the group?
            except ProcessLookupError:
                proc.poll()
                return
            proc.poll()
            time.sleep(0.1)


def _total(page) -> float:
    text = page.locator("#jx-total").first.inner_text(timeout=30_000)
    return float(re.sub(r"[^0-9.]", "", text))


def test_upload_sample_photo_and_read_total(server):
    from playwright.sync_api import sync_playwright

    assert SAMPLE_JPG.exists(), "the bundled sample photo is missing"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1700}, locale="zh-CN")
            page.goto(server, wait_until="domcontentloaded")
            first = _total(page)  # the app opens on the sample, already scored
            assert first > 0
            t0 = time.perf_counter()
            page.locator("input[type=file]").first.set_input_files(str(SAMPLE_JPG))
            # the app writes "photo -> result: x s" once it has read the upload and scored it
            page.locator(".jx-timing").first.wait_for(timeout=30_000)
            seconds = time.perf_counter() - t0
            for _ in range(3):  # a misread hand: take the app's suggested fix, as a user would
                if page.locator("#jx-total").count() or not page.locator("[class*='st-key-sug_0']").count():
                    break
                page.locator("[class*='st-key-sug_0'] button:visible").first.click(timeout=10_000)
                page.wait_for_timeout(1500)
            if not page.locator("#jx-total").count():  # no single fix helps: type the tiles instead
                page.get_by_text("输入牌串").first.click()
                page.locator("[class*='st-key-typed'] input").fill(TRUE_TILES)
                page.locator("[class*='st-key-btn_typed'] button:visible").first.click()
                page.locator("#jx-total").first.wait_for(timeout=30_000)
            total = _total(page)
            assert total > 0
            page.screenshot(path=str(ARTIFACTS / "browser-sample.png"), full_page=True)
            print(f"total {total:g}; upload -> scored result on the page in {seconds:.2f} s")
        finally:
            browser.close()


SMALL_TARGETS = """() => [...document.querySelector('[data-testid=stMain]')
  .querySelectorAll('button, summary, [role=tab]')]
  .map(e => [e.innerText.trim().slice(0, 20) || e.getAttribute('aria-label'), e.getBoundingClientRect()])
  .filter(([, r]) => r.width > 0 && (r.width < 44 || r.height < 44))
  .map(([name, r]) => `${name} ${Math.round(r.width)}x${Math.round(r.height)}`)"""


# The empty space above a heading: from the top of its text to the bottom of the nearest thing
# drawn above it (text, a picture, a control, a border), fixed bars and hidden parts left out.
GAP_ABOVE = """(mark) => {
  const main = document.querySelector('[data-testid=stMain]');
  const h = [...main.querySelectorAll('h1, h2, h3')].find(e => e.innerText.includes(mark));
  const range = document.createRange(); range.selectNodeContents(h);
  const top = range.getBoundingClientRect().top;
  const drawn = e => ['IMG', 'svg', 'INPUT', 'BUTTON', 'CANVAS', 'TEXTAREA', 'TABLE'].includes(e.tagName)
    || [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())
    || (parseFloat(getComputedStyle(e).borderBottomWidth) > 0
        && getComputedStyle(e).borderBottomStyle !== 'none');
  const shown = e => {
    const seen = {opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true};
    if (!e.checkVisibility(seen)) return false;
    for (let a = e; a && a !== main; a = a.parentElement) {
      const s = getComputedStyle(a), r = a.getBoundingClientRect();
      if (s.position === 'fixed' || s.position === 'sticky') return false;
      if (a !== e && s.overflow !== 'visible' && (r.height < 1 || r.width < 1)) return false;
    }
    return true;
  };
  let above = -Infinity;
  for (const e of main.querySelectorAll('*')) {
    if (e.contains(h) || h.contains(e) || !drawn(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && r.bottom <= top + 1 && r.bottom > above && shown(e)) above = r.bottom;
  }
  return Math.round(top - above);
}"""
GAPS_SMALL = f"(marks) => marks.every(m => {{ const g = ({GAP_ABOVE})(m); return g >= 0 && g < 24; }})"
HEADER_ROWS = """() => [...document.querySelectorAll('[class*=st-key-topbar] button')]
  .map(b => b.getBoundingClientRect()).filter(r => r.width > 0).map(r => Math.round(r.top))"""
PICKER_TILES = """() => [...document.querySelectorAll('[class*=st-key-picker_] [class*=st-key-pick_] button')]
  .map(b => b.getBoundingClientRect()).filter(r => r.width > 0)
  .map(r => [Math.round(r.width), Math.round(r.height), Math.round(r.right)])"""


@pytest.mark.parametrize("locale", ["zh-CN", "en-US"])
def test_every_tap_target_on_a_phone_is_44_px(server, locale):
    """On a 390 x 844 touch screen every button, choice, tab and expander is at least 44 x 44
    CSS px (the size a finger needs), in both languages; the page's small help icon aside.
    The header (pages, QR, language) is one row; no empty band above ①, ② and ④ (the stacked
    columns' gap once was 64 px; above ① the style blocks and the fixed total bar took 2 x 16
    px: 38 px); every tile of the tile picker is 44 x 44 too; so are the uploaded file's
    remove and add buttons (14 and 20 px wide) and 碰 / 吃 (40 px)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            phone = {"width": 390, "height": 844}
            page = browser.new_context(viewport=phone, has_touch=True, locale=locale).new_page()
            page.goto(server, wait_until="domcontentloaded")
            page.locator("#jx-total").first.wait_for(timeout=30_000)
            small = [s for s in page.evaluate(SMALL_TARGETS) if not s.startswith("Help for")]
            assert small == []
            page.evaluate("() => document.fonts.ready.then(() => true)")  # the icon font drawn
            page.wait_for_timeout(500)
            rows = page.evaluate(HEADER_ROWS)
            assert len(rows) == 6 and max(rows) - min(rows) <= 2, rows  # 3 pages, QR, 2 languages
            marks = ["①", "②", "④"]
            with contextlib.suppress(PlaywrightTimeout):  # a busy machine: the last run still drawing
                page.wait_for_function(GAPS_SMALL, arg=marks, timeout=10_000)
            gaps = {mark: page.evaluate(GAP_ABOVE, mark) for mark in marks}
            assert all(0 <= g < 24 for g in gaps.values()), gaps
            page.locator("[class*='st-key-btn_add'] button").first.click()
            page.locator("[class*='st-key-picker_add']").first.wait_for(timeout=30_000)
            page.wait_for_timeout(500)
            tiles = page.evaluate(PICKER_TILES)
            assert len(tiles) >= 29  # 九江: 27 suited + 中 白
            assert min(w for w, _, _ in tiles) >= 44 and min(h for _, h, _ in tiles) >= 44, tiles
            assert max(right for _, _, right in tiles) <= phone["width"]  # nothing off the screen
            # after an upload (its file chip: remove ×, add +) with a tile's panel open (碰 吃 …)
            page.locator("input[type=file]").first.set_input_files(str(SAMPLE_JPG))
            page.locator(".jx-timing").first.wait_for(timeout=30_000)
            page.locator("[class*='st-key-tile_c0'] button:visible").first.tap()
            page.locator("[class*='st-key-mk_pung']").first.wait_for(timeout=30_000)
            page.wait_for_timeout(500)
            small = [s for s in page.evaluate(SMALL_TARGETS) if not s.startswith("Help for")]
            assert small == []
            page.screenshot(path=str(ARTIFACTS / f"browser-phone-{locale}.png"), full_page=True)
        finally:
            browser.close()


PANEL_AND_TILE = """() => [document.querySelector('[class*=st-key-selpanel]'),
  document.querySelector('[class*=st-key-tile_][class*=_SEL]')]
  .map(e => e ? Math.round(e.getBoundingClientRect().top) : null)"""


def test_a_tapped_tile_brings_its_panel_on_a_phone_screen(server):
    """A tile tapped low on a 390 x 844 screen: its panel (rename, win, delete, melds) opened
    under the screen's bottom and the tap seemed to do nothing; now the panel's head scrolls
    into view while the tapped tile stays on screen."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            phone = {"width": 390, "height": 844}
            page = browser.new_context(viewport=phone, has_touch=True, locale="zh-CN").new_page()
            page.goto(server, wait_until="domcontentloaded")
            page.locator("#jx-total").first.wait_for(timeout=30_000)
            tile = page.locator("[class*='st-key-tile_c0'] button:visible").first
            # the hand's first row just above the fixed total bar at the screen's bottom
            low = "b => { b.scrollIntoView(false); b.closest('[data-testid=stMain]').scrollBy(0, 90); }"
            tile.evaluate(low)
            page.wait_for_timeout(300)
            top = tile.evaluate("b => b.getBoundingClientRect().top")
            assert phone["height"] - 250 < top < phone["height"] - 60, top
            tile.tap()
            page.locator("[class*='st-key-selpanel']").first.wait_for(timeout=30_000)
            page.wait_for_timeout(1000)
            panel_top, tile_top = page.evaluate(PANEL_AND_TILE)
            assert panel_top < phone["height"] - 300 and tile_top >= 0, (panel_top, tile_top)
        finally:
            browser.close()
