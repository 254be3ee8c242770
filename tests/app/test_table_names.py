"""Seat names on the 牌局 page are inert Markdown and HTML (`app.safe_text.md`):
a name is shown as its characters in every label, paragraph and HTML block, never as syntax."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from app.safe_text import md
from ledger import Table
from ledger.store import open_store
from tests.app.conftest import APP
from tests.app.test_browser import CHROMIUM, CHROMIUM_ARGS, server  # noqa: F401 (fixture)
from tests.ledger.util import json_hand

HOSTILE = ("<svg onload=alert(1)>", "**bold**", "[c](http://h.x/)", ":red[d]")


def _texts(node, out: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(element type, text) of every markdown body and label under `node` (AppTest's tree)."""
    for attr in ("value", "label", "body"):
        v = getattr(node, attr, None)
        if isinstance(v, str):
            out.append((getattr(node, "type", type(node).__name__), v))
    for child in (getattr(node, "children", None) or {}).values():
        _texts(child, out)
    return out


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_hostile_seat_names_are_shown_as_text_everywhere_on_the_table_page(lang):
    store = open_store()
    code = store.create_table(Table("xingzi", HOSTILE)).table.code
    store.append(
        code, json_hand(store, code, {"kind": "false_win", "declarer": 0})
    )  # history, metrics, settlement
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["table"] = code
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    texts = _texts(at._tree, [])
    for name in HOSTILE:
        raw = [(kind, text[:120]) for kind, text in texts if name in text]
        assert raw == [], f"{name!r} shown as Markdown/HTML"
        assert any(md(name) in text for _, text in texts)  # ... and shown
    transfers = next(text for _, text in texts if 'id="jx-transfers"' in text)
    assert transfers.count(md(HOSTILE[0])) == 3  # 炸糊: the declarer pays each of the three


def test_the_title_and_the_next_dealer_in_the_header_are_inert():
    """The header's HTML blocks (#jx-table, #jx-next) show the title and the dealer's name through
    `md()` too: Streamlit's Markdown makes links and emphasis inside an HTML block as well."""
    store = open_store()
    seats = ("**bold**", "www.h.x", "[c](http://h.x/)", ":red[d]")
    code = store.create_table(Table("jiujiang", seats, title="**t** www.t.x")).table.code
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["table"] = code
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    head = next(text for _, text in _texts(at._tree, []) if 'id="jx-table"' in text)
    nxt = next(text for _, text in _texts(at._tree, []) if 'id="jx-next"' in text)
    assert "**t**" not in head and md("**t** www.t.x") in head
    assert "**bold**" not in nxt and md("**bold**") in nxt  # seat 0 deals the first hand


@pytest.mark.browser
@pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="needs /usr/bin/chromium (Debian chromium: make test installs it when run as root)",
)
def test_hostile_seat_names_read_as_typed_in_a_real_browser(server):  # noqa: F811
    from playwright.sync_api import sync_playwright

    seats = ("A.B-c", HOSTILE[0], "www.h.x", HOSTILE[2])
    store = open_store()
    code = store.create_table(Table("xingzi", seats)).table.code
    store.append(
        code, json_hand(store, code, {"kind": "false_win", "declarer": 3})
    )  # [c](http://h.x/) pays each other seat
    dialogs: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_context(viewport={"width": 1280, "height": 1800}, locale="zh-CN").new_page()
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            page.goto(f"{server}/table?table={code}", wait_until="domcontentloaded")
            page.locator('#jx-table[data-hands="1"]').wait_for(timeout=30_000)
            page.locator("#jx-transfers").wait_for(timeout=30_000)
            # the four totals (a rerun that puts the phone's ?d= token in the address draws them again)
            page.locator("[data-testid='stMetricLabel']").nth(3).wait_for(timeout=30_000)
            labels = page.locator("[data-testid='stMetricLabel']").all_inner_texts()
            labels = [label.replace("\u2060", "") for label in labels]  # the invisible WORD JOINER
            transfers = page.locator("#jx-transfers").inner_text().replace("\u2060", "")
            # Streamlit's Markdown links http:// and www. even in character references (app.safe_text)
            links = page.locator("#jx-transfers a, [data-testid='stMarkdownContainer'] a:not([aria-label])")
            links = links.count()
            svgs = page.locator("#jx-transfers svg").count()
        finally:
            browser.close()
    assert [label.split(" · ")[0].strip() for label in labels] == list(seats)  # the characters, no &#46;
    assert sorted(transfers.splitlines()) == sorted(f"{seats[3]} → {s} 10" for s in seats[:3])
    assert (links, svgs, dialogs) == (0, 0, [])
