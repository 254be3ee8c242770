"""A parlour end to end (issue 37): `jxmj parlour` — nginx in front of two `jxmj app` processes on
one throw-away PostgreSQL (`JXMJ_TEST_PG`, as `.ci/run` starts it) — driven by two real browsers.

They land on different processes (nginx names the one behind every answer: `X-Jxmj-Upstream`),
and every request of a browser — page, scripts, uploads — stays on its process (sticky on the
`jxmj_route` cookie). A table made through one process is opened and recorded through the other;
both phones race on one hand (recorded once, the other told); a reload on each loses nothing and
stays on its process; the QR names the proxy's address, not a process's.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time

import pytest

from app import cmd_parlour, parlour
from app.ui import i18n
from tests.app.test_browser import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS
from tests.app.test_table_browser import SEATS, WAIT, _enter_hand
from tests.test_parlour import parlour_command

PG = os.environ.get("JXMJ_TEST_PG", "")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="needs /usr/bin/chromium (Debian chromium: make test installs it when run as root)",
    ),
    pytest.mark.skipif(cmd_parlour.find_nginx() is None, reason="needs nginx (.ci/run installs it as root)"),
    pytest.mark.skipif(not PG, reason="needs PostgreSQL in JXMJ_TEST_PG (.ci/run starts a throw-away one)"),
]
HEADER = parlour.UPSTREAM_HEADER.lower()


@pytest.fixture
def proxy():
    """`jxmj parlour --workers 2` on a free port against `JXMJ_TEST_PG`; yields its address."""
    port = cmd_parlour.free_ports(1)[0]
    env = {**os.environ, "JXMJ_DB": PG}
    env.pop("JXMJ_JOIN_URL", None)  # the parlour names its own address
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / "parlour-server.log"
    log = path.open("w")
    cmd = parlour_command(port)
    out = {"stdout": log, "stderr": subprocess.STDOUT}
    proc = subprocess.Popen(cmd, env=env, start_new_session=True, **out)
    try:
        deadline = time.monotonic() + 90
        while "other phones at the table open" not in path.read_text():
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the parlour did not start: {path.read_text()[-2000:]}")
            time.sleep(0.5)
        yield f"http://127.0.0.1:{port}"
    finally:
        os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()


class Phone:
    """A browser context and its page, with the process behind each answer it got."""

    def __init__(self, browser, url: str) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 1800}, locale="zh-CN")
        self.page = self.context.new_page()
        self.served: set[str] = set()
        self.page.on("response", self._seen)
        answer = self.page.goto(url, wait_until="domcontentloaded")
        self.process = answer.headers[HEADER]

    def _seen(self, response) -> None:
        process = response.headers.get(HEADER)
        if process:
            self.served.add(process)


def _two_phones_on_two_processes(browser, url: str) -> tuple[Phone, Phone]:
    """Two phones whose first answers came from different processes (a new browser's route is
    random: a second phone is opened again until it lands elsewhere; 1 in 2 each time)."""
    one = Phone(browser, url)
    for _ in range(16):
        two = Phone(browser, url)
        if two.process != one.process:
            return one, two
        two.context.close()
    pytest.fail(f"16 new browsers all reached {one.process}: the proxy is not balancing")


def test_two_browsers_on_two_processes_one_table_through_nginx(proxy):
    from playwright.sync_api import sync_playwright

    from ledger.store import open_store

    zh = i18n.catalog("zh")
    changed = zh["table.changed"].split("{")[0]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            one, two = _two_phones_on_two_processes(browser, f"{proxy}/table")
            # phone one makes the table (through its process)
            for i, name in enumerate(SEATS):
                one.page.locator(f"[class*='st-key-tn_seat{i}'] input").fill(name)
            one.page.get_by_role("button", name=zh["table.create"]).first.click()
            one.page.locator('#jx-table[data-hands="0"]').wait_for(timeout=WAIT)
            code = one.page.evaluate("() => new URLSearchParams(location.search).get('table')")
            assert code and len(code) == 11
            # phone two opens it through the other process; both enter the same win and race
            two.page.goto(f"{proxy}/table?table={code}", wait_until="domcontentloaded")
            two.page.locator('#jx-table[data-hands="0"]').wait_for(timeout=WAIT)
            phones = [one.page, two.page]
            for p in phones:
                _enter_hand(p, "123m456p789s234mCC", "李四", "王五", "李四 +3 · 王五 -3")
            buttons = [p.locator("[class*='st-key-tb_record'] button").first for p in phones]
            for b in buttons:
                b.wait_for(timeout=WAIT)
            buttons[0].click(no_wait_after=True)
            buttons[1].click(no_wait_after=True)
            for p in phones:
                p.locator('#jx-table[data-hands="1"]').wait_for(timeout=WAIT)
            told = [p for p in phones if p.get_by_text(changed).count()]
            if not told:  # the message is drawn on the run after the refused write
                deadline = time.monotonic() + 30
                while not told and time.monotonic() < deadline:
                    told = [p for p in phones if p.get_by_text(changed).count()]
                    time.sleep(0.3)
            assert len(told) == 1  # recorded once, the other phone told
            told[0].get_by_text("李四 +3 · 王五 -3").first.wait_for(timeout=WAIT)  # and its hand kept
            # a hand in progress on each phone, then a reload: nothing lost
            _enter_hand(one.page, "123m456p789s234mCC", "王五", "张三", "张三 -3 · 王五 +3")
            _enter_hand(two.page, "123m456p789s234mCC", "赵六", "张三", "张三 -3 · 赵六 +3")
            for p in phones:
                p.wait_for_timeout(1500)  # the draft is written at the end of the run
                p.reload(wait_until="domcontentloaded")
            one.page.get_by_text("张三 -3 · 王五 +3").first.wait_for(timeout=WAIT)
            two.page.get_by_text("张三 -3 · 赵六 +3").first.wait_for(timeout=WAIT)
            # phone two records its hand through its process, on the table phone one's process made
            two.page.locator("[class*='st-key-tb_record'] button").first.click()
            two.page.locator('#jx-table[data-hands="2"]').wait_for(timeout=WAIT)
            # the QR names the proxy's address
            one.page.locator("[data-testid=stPopover] button").first.click()
            one.page.get_by_text(f"{proxy}/table?table={code}").first.wait_for(timeout=WAIT)
            one.page.screenshot(path=str(ARTIFACTS / "browser-parlour.png"), full_page=True)
            # every answer each phone got came from its own process, reloads included
            assert one.served == {one.process} and two.served == {two.process}
            assert one.process != two.process
        except Exception:
            for k, p in enumerate(phones if "phones" in locals() else []):
                p.screenshot(path=str(ARTIFACTS / f"browser-parlour-failed-{k}.png"), full_page=True)
            raise
        finally:
            browser.close()
    hands = open_store(PG).get(code).hands
    assert [(h.kind, [w.seat for w in h.winners]) for h in hands] == [("win", [1]), ("win", [3])]
