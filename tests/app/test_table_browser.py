"""The 牌局 page in a real browser (Debian's Chromium via playwright): two browser contexts on
one table code — one records a hand, the other sees it after a reload — and a reload in the
middle of a hand keeps the hand in progress (the draft lives in the database)."""

from __future__ import annotations

import pytest

from ledger import Table
from ledger.store import open_store
from tests.app.test_browser import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, server  # noqa: F401 (fixture)
from tests.ledger.util import json_hand

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="needs /usr/bin/chromium (Debian chromium: make test installs it when run as root)",
    ),
]
SEATS = ("张三", "李四", "王五", "赵六")
WAIT = 30_000


def _enter_hand(page, tiles: str, winner: str, discarder: str, preview: str) -> None:
    opener = page.get_by_text("输入牌串", exact=True).first
    opener.wait_for(timeout=WAIT)
    field = page.locator("[class*='st-key-typed'] input")
    if not field.is_visible():  # the expander may still be open from the hand before (a told phone)
        opener.click()
    field.fill(tiles)
    page.locator("[class*='st-key-btn_typed'] button:visible").first.click()
    page.locator("[class*='st-key-tw_winner'] button", has_text=winner).first.click(timeout=WAIT)
    page.wait_for_timeout(800)
    page.locator("[class*='st-key-tw_how'] button", has_text=discarder).first.click(timeout=WAIT)
    page.get_by_text(preview).first.wait_for(timeout=WAIT)  # the money of this hand, from the seats


def test_two_phones_one_table_and_a_reload_keeps_the_draft(server):  # noqa: F811
    from playwright.sync_api import sync_playwright

    code = open_store().create_table(Table("jiujiang", SEATS)).table.code
    url = f"{server}/table?table={code}"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            one = browser.new_context(viewport={"width": 1280, "height": 1800}, locale="zh-CN").new_page()
            two = browser.new_context(viewport={"width": 1280, "height": 1800}, locale="zh-CN").new_page()
            one.goto(url, wait_until="domcontentloaded")
            two.goto(url, wait_until="domcontentloaded")
            two.locator('#jx-table[data-hands="0"]').wait_for(timeout=WAIT)
            # phone one: 李四 wins on 王五's discard with 123m 456p 789s 234m 中中 (3 炮)
            _enter_hand(one, "123m456p789s234mCC", "李四", "王五", "李四 +3 · 王五 -3")
            one.locator("[class*='st-key-tb_record'] button").first.click()
            one.locator('#jx-table[data-hands="1"]').wait_for(timeout=WAIT)
            # phone two sees it after a reload
            two.reload(wait_until="domcontentloaded")
            two.locator('#jx-table[data-hands="1"]').wait_for(timeout=WAIT)
            assert 'data-dealer="1"' in two.locator("#jx-next").first.evaluate("e => e.outerHTML")
            # phone two starts hand 2, then the page reloads (a locked phone, a lost tab): nothing lost
            _enter_hand(two, "123m456p789s234mCC", "赵六", "张三", "张三 -3 · 赵六 +3")
            two.wait_for_timeout(1500)  # the draft is written at the end of the run
            two.reload(wait_until="domcontentloaded")
            two.get_by_text("张三 -3 · 赵六 +3").first.wait_for(timeout=WAIT)  # hand, winner, discarder kept
            two.screenshot(path=str(ARTIFACTS / "browser-table.png"), full_page=True)
        finally:
            browser.close()
    assert [h.kind for h in open_store().get(code).hands] == ["win"]


def test_every_tap_target_of_a_table_on_a_phone_is_44_px(server):  # noqa: F811
    """A table with a hand on a 390 x 844 touch screen: every button, choice, expander, the
    chart's toolbar and the edit form's drop-downs are at least 44 x 44 CSS px."""
    from playwright.sync_api import sync_playwright

    from tests.app.test_browser import SMALL_TARGETS

    store = open_store()
    code = store.create_table(Table("jiujiang", SEATS)).table.code
    hand = {"concealed": "123m456p789s234mCC", "winning_tile": "C"}
    store.append(code, json_hand(store, code, {"seat": 1, "discarder": 2, "hand": hand}))
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            phone = {"width": 390, "height": 844}
            page = browser.new_context(viewport=phone, has_touch=True, locale="zh-CN").new_page()
            page.goto(f"{server}/table?table={code}", wait_until="domcontentloaded")
            page.locator('#jx-table[data-hands="1"]').wait_for(timeout=WAIT)
            page.locator("[data-testid=stElementToolbar]").first.wait_for(state="attached", timeout=WAIT)
            page.wait_for_timeout(1000)
            small = [s for s in page.evaluate(SMALL_TARGETS) if not s.startswith("Help for")]
            assert small == []
        finally:
            browser.close()


# The players' totals on the page: how many rows they take and from the top of the first to the
# bottom of the last (st.metric: name, total, the last hand's money).
TOTALS = """() => {
  const rs = [...document.querySelectorAll('[data-testid=stMain] [data-testid=stMetric]')]
    .map(m => m.getBoundingClientRect());
  return {n: rs.length, rows: new Set(rs.map(r => Math.round(r.top))).size,
          height: Math.round(Math.max(...rs.map(r => r.bottom)) - Math.min(...rs.map(r => r.top))),
          width: Math.round(Math.min(...rs.map(r => r.width)))};
}"""
HEADINGS = "() => [...document.querySelectorAll('[data-testid=stMain] h3')].map(h => h.innerText)"


@pytest.mark.parametrize("locale", ["zh-CN", "en-US"])
def test_a_table_on_a_phone_shows_the_totals_two_a_row_and_no_gap_above_a_section(server, locale):  # noqa: F811
    """390 x 844: the four totals are a 2 x 2 grid (they stacked in four rows: 328 px on a new
    table, 382 px with a hand's money under each; now 134 and 188 px), and no section heading
    has more than 24 px of empty space above it (导出与导入 on a new table had 40: the empty
    columns of the buttons not offered took 8 px each)."""
    from playwright.sync_api import sync_playwright

    from tests.app.test_browser import GAP_ABOVE

    store = open_store()
    new = store.create_table(Table("jiujiang", SEATS)).table.code
    played = store.create_table(Table("jiujiang", SEATS)).table.code
    store.append(
        played,
        json_hand(
            store,
            played,
            {"seat": 1, "discarder": 2, "hand": {"concealed": "123m456p789s234mCC", "winning_tile": "C"}},
        ),
    )
    export = "导出与导入" if locale == "zh-CN" else "Export and import"
    measured = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            phone = {"width": 390, "height": 844}
            for code, n in ((new, 0), (played, 1)):
                page = browser.new_context(viewport=phone, has_touch=True, locale=locale).new_page()
                page.goto(f"{server}/table?table={code}", wait_until="domcontentloaded")
                page.locator(f'#jx-table[data-hands="{n}"]').wait_for(timeout=WAIT)
                page.locator("h3", has_text=export).first.wait_for(timeout=WAIT)
                page.wait_for_timeout(1000)
                totals = page.evaluate(TOTALS)
                gaps = {h: page.evaluate(GAP_ABOVE, h) for h in page.evaluate(HEADINGS)}
                measured[n] = totals, gaps
                assert totals["n"] == 4 and totals["rows"] == 2 and 160 <= totals["width"] <= 190, totals
                assert totals["height"] <= (150 if n == 0 else 205), totals
                assert export in gaps and all(0 <= g <= 24 for g in gaps.values()), gaps
            page.screenshot(path=str(ARTIFACTS / f"browser-table-phone-{locale}.png"), full_page=True)
        finally:
            browser.close()
    print(measured)


@pytest.mark.parametrize("first", [0, 1])
def test_two_phones_tapping_record_on_the_same_hand_record_it_once(server, first):  # noqa: F811
    """Both phones enter the same win and tap 记这一手 within a few milliseconds, in both orders:
    one hand is recorded, the other phone is told the table changed and keeps its hand."""
    from playwright.sync_api import sync_playwright

    from app.ui import i18n

    code = open_store().create_table(Table("jiujiang", SEATS)).table.code
    url = f"{server}/table?table={code}"
    changed = i18n.catalog("zh")["table.changed"].split("{")[0]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            phones = [
                browser.new_context(viewport={"width": 1280, "height": 1800}, locale="zh-CN").new_page()
                for _ in range(2)
            ]
            for p in phones:
                p.goto(url, wait_until="domcontentloaded")
                _enter_hand(p, "123m456p789s234mCC", "李四", "王五", "李四 +3 · 王五 -3")
            buttons = [p.locator("[class*='st-key-tb_record'] button").first for p in phones]
            for b in buttons:
                b.wait_for(timeout=WAIT)
            order = [buttons[first], buttons[1 - first]]
            order[0].click(no_wait_after=True)  # back to back, a few milliseconds apart
            order[1].click(no_wait_after=True)
            for p in phones:
                p.locator('#jx-table[data-hands="1"]').wait_for(timeout=WAIT)
            told = [p for p in phones if p.get_by_text(changed).count()]
            if not told:  # the message is drawn on the run after the refused write
                phones[1 - first].get_by_text(changed).first.wait_for(timeout=WAIT)
                told = [phones[1 - first]]
            assert len(told) == 1
            told[0].get_by_text("李四 +3 · 王五 -3").first.wait_for(timeout=WAIT)  # its hand is kept
        finally:
            browser.close()
    assert [h.kind for h in open_store().get(code).hands] == ["win"]


def test_an_edit_refused_because_another_phone_wrote_is_said_and_kept_open(server):  # noqa: F811
    """Phone one opens 修改某一把, chooses hand 1 and 改成黄庄; phone two records a 黄庄; phone one
    saves: hand 1 is unchanged, and phone one's panel stays open with the conflict said in it
    and 改成黄庄 still chosen, to save again."""
    from playwright.sync_api import sync_playwright

    from app.ui import i18n

    zh = i18n.catalog("zh")
    store = open_store()
    code = store.create_table(Table("jiujiang", SEATS)).table.code
    for _ in range(2):
        store.append(
            code,
            json_hand(
                store,
                code,
                {"seat": 1, "discarder": 2, "hand": {"concealed": "123m456p789s234mCC", "winning_tile": "C"}},
            ),
        )
    url = f"{server}/table?table={code}"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            one, two = (
                browser.new_context(viewport={"width": 1280, "height": 1800}, locale="zh-CN").new_page()
                for _ in range(2)
            )
            for page in (one, two):
                page.goto(url, wait_until="domcontentloaded")
                page.locator('#jx-table[data-hands="2"]').wait_for(timeout=WAIT)
            one.get_by_text(zh["table.edit"], exact=True).first.click()
            number = one.locator("[class*='st-key-tw_edit_n'] input")
            number.fill("1")
            number.press("Enter")
            kind = one.locator("[class*='st-key-ed_kind_1'] button", has_text=zh["table.edit_drawn"])
            kind.first.wait_for(timeout=WAIT)
            kind.first.click()
            two.locator("[class*='st-key-tb_drawn'] button").first.click()
            two.locator('#jx-table[data-hands="3"]').wait_for(timeout=WAIT)
            one.get_by_role("button", name=zh["table.edit_save"]).first.click()
            one.locator('#jx-table[data-hands="3"]').wait_for(timeout=WAIT)  # one shows two's hand
            said = one.get_by_text(zh["table.changed"].split("：")[0]).first
            said.wait_for(state="visible", timeout=WAIT)  # in the panel, which stayed open
            assert kind.first.is_visible()
            assert kind.first.get_attribute("aria-checked") == "true"  # 改成黄庄 still chosen
            one.screenshot(path=str(ARTIFACTS / "browser-table-edit-conflict.png"), full_page=True)
            one.get_by_role("button", name=zh["table.edit_drop"]).first.click()  # dropped: closed, as new
            one.get_by_role("button", name=zh["table.edit_drop"]).first.wait_for(state="hidden", timeout=WAIT)
            one.get_by_text(zh["table.edit"], exact=True).first.click()
            one.locator("[class*='st-key-ed_kind_3']").first.wait_for(timeout=WAIT)
            assert number.input_value() == "3"  # the last hand again, nothing of the dropped edit
        finally:
            browser.close()
    assert [h.kind for h in open_store().get(code).hands] == ["win", "win", "drawn"]


def test_a_reload_keeps_the_edit_panels_choices_on_a_phone(server):  # noqa: F811
    """On a 390 x 844 phone: 修改某一把, hand 1, 改成黄庄 and 跟庄 ticked, then a reload (the
    choices were never saved): the panel is open again on hand 1 with both choices and says they
    were brought back; 保存修改 saves them and leaves no draft."""
    from playwright.sync_api import sync_playwright

    from app.drafts import open_drafts
    from app.ui import i18n

    zh = i18n.catalog("zh")
    store = open_store()
    code = store.create_table(Table("jiujiang", SEATS)).table.code
    for _ in range(2):
        store.append(
            code,
            json_hand(
                store,
                code,
                {"seat": 1, "discarder": 2, "hand": {"concealed": "123m456p789s234mCC", "winning_tile": "C"}},
            ),
        )
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, locale="zh-CN")
            page = ctx.new_page()
            page.goto(f"{server}/table?table={code}", wait_until="domcontentloaded")
            page.locator('#jx-table[data-hands="2"]').wait_for(timeout=WAIT)
            page.get_by_text(zh["table.edit"], exact=True).first.click()
            number = page.locator("[class*='st-key-tw_edit_n'] input")
            number.fill("1")
            number.press("Enter")
            kind = page.locator("[class*='st-key-ed_kind_1'] button", has_text=zh["table.edit_drawn"])
            kind.first.click(timeout=WAIT)
            page.wait_for_timeout(800)
            page.locator("[class*='st-key-ed_f_1'] label").first.click(timeout=WAIT)
            followed = page.locator("[class*='st-key-ed_f_1'] input[type=checkbox]").first
            page.wait_for_function("e => e.checked", arg=followed.element_handle(), timeout=WAIT)
            page.wait_for_timeout(1500)  # the draft is written at the end of the run
            token = page.evaluate("() => new URLSearchParams(location.search).get('d')")
            page.reload(wait_until="domcontentloaded")
            said = page.get_by_text(zh["table.edit_restored"].format(n=1))
            said.first.wait_for(timeout=WAIT)  # the panel is open again and says so
            shows_1 = "() => document.querySelector(\"[class*='st-key-tw_edit_n'] input\")?.value === '1'"
            page.wait_for_function(shows_1, timeout=WAIT)  # on hand 1 (the field fills a moment later)
            assert kind.first.get_attribute("aria-checked") == "true"  # 改成黄庄 still chosen
            assert page.locator("[class*='st-key-ed_f_1'] input[type=checkbox]").first.is_checked()
            said.first.scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / "browser-table-edit-reload.png"))
            page.locator("[class*='st-key-tb_edit_1'] button").first.click()
            page.get_by_text(zh["table.edit_restored"].format(n=1)).first.wait_for(
                state="detached", timeout=WAIT
            )
        finally:
            browser.close()
    hand = open_store().get(code).hands[0]
    assert (hand.kind, hand.follow.followed) == ("drawn", True)
    assert open_drafts().load(f"edit:{code}:{token}") is None


def test_a_follow_ticked_for_a_drawn_hand_is_not_recorded_with_the_next_win(server):  # noqa: F811
    """Issue 36 item 1 in a real browser: tick 跟庄, tap 黄庄, then 张三 (the dealer) self-draws and
    the hand is recorded. Main kept the box ticked on the phone (the server only dropped its key)
    and stored hand 2 with ``follow.followed = true``; now the box is empty for hand 2."""
    from playwright.sync_api import sync_playwright

    from app.ui import i18n

    zh = i18n.catalog("zh")
    code = open_store().create_table(Table("jiujiang", SEATS)).table.code
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_context(viewport={"width": 1280, "height": 1800}, locale="zh-CN").new_page()
            page.goto(f"{server}/table?table={code}", wait_until="domcontentloaded")
            page.locator('#jx-table[data-hands="0"]').wait_for(timeout=WAIT)
            followed = page.locator("[class*='st-key-tw_followed'] input[type=checkbox]").first
            page.locator("[class*='st-key-tw_followed'] label").first.click(timeout=WAIT)
            page.wait_for_function("e => e.checked", arg=followed.element_handle(), timeout=WAIT)
            page.wait_for_timeout(800)  # the tick reached the server
            page.locator("[class*='st-key-tb_drawn'] button").first.click()
            page.locator('#jx-table[data-hands="1"]').wait_for(timeout=WAIT)
            page.wait_for_function("e => !e.checked", arg=followed.element_handle(), timeout=WAIT)
            # hand 2: the dealer self-draws at x2 (黄庄 + 跟庄 of hand 1)
            _enter_hand(page, "123m456p789s234mCC", "张三", zh["cond.self_drawn"], "张三 +24")
            assert not followed.is_checked()
            page.locator("[class*='st-key-tb_record'] button").first.click()
            page.locator('#jx-table[data-hands="2"]').wait_for(timeout=WAIT)
            next_hand = page.locator("#jx-next").first.inner_text()
            page.screenshot(path=str(ARTIFACTS / "browser-table-follow-fresh.png"), full_page=True)
        finally:
            browser.close()
    hands = open_store().get(code).hands
    assert [(h.kind, h.follow.followed) for h in hands] == [("drawn", True), ("win", False)]
    assert "第 2 把跟庄" not in next_hand  # main: "升级 ×2（第 1 把黄庄、第 2 把跟庄）"
