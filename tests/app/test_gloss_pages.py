"""Every page state the app's AppTests reach, in zh and in en, read whole: the Chinese page
shows no English word and the English page no unglossed Chinese (the rules and the walk:
`tests.app.gloss_rules`). The players are named in the page's language (a name is the user's,
not the page's). ``JXMJ_PAGE_WALK=1`` walks every run of every other AppTest too
(`tests.app.conftest.page_walk`).
"""

from __future__ import annotations

import pytest

from app.ui import i18n
from tests.app.gloss_rules import RUN, page_problems, page_texts


def _typed(at, tiles: str):
    at.text_input(key="typed").input(tiles)
    at.button(key="btn_typed").click()
    at.run()


def _set(at, key: str, value):
    at.segmented_control(key=key).set_value(value)
    at.run()


def _conditions(at):
    _typed(at, "123m456p789s345s55p")
    _set(at, "w_variant", "xingzi")
    _set(at, "w_self_drawn", False)
    _set(at, "w_dealer", "me")
    at.pills(key="w_events").set_value(["last_tile"])
    at.run()
    at.session_state["payers_open"] = True
    at.run()
    at.number_input(key=f"w_{at.session_state.hip.cond.payers[0]}_bonus_tiles").set_value(2)
    at.run()


def _why_not(at):
    _typed(at, "234m567p678s777p99s")
    next(t for t in at.toggle if t.key and t.key.startswith("whynot_")).set_value(True)
    at.run()


def _xinyu(at):
    _typed(at, "123m456p789s345sEE")
    _set(at, "w_variant", "xinyu")


def _learn(at):
    _set(at, "page", "learn")


def _practice(at):
    _set(at, "page", "learn")
    at.number_input(key="practice_guess").set_value(1)
    at.button(key="btn_reveal").click()
    at.run()


def _table(at):
    _set(at, "page", "table")


def _practice_table(at):
    """Practice at the level with 吃炮 and the dealer, revealed."""
    _set(at, "page", "learn")
    _set(at, "practice_level", "table")
    _practice(at)


def _table_open(at, variant: str = "jiujiang"):
    _set(at, "page", "table")
    _set(at, "tn_variant", variant)
    names = ("张三", "李四", "王五", "赵六") if i18n.lang() == "zh" else ("Ann", "Bo", "Cy", "Di")
    for i, name in enumerate(names):
        at.text_input(key=f"tn_seat{i}").input(name)
    create = {i18n.catalog(lang)["table.create"] for lang in i18n.LANGS}
    next(b for b in at.button if b.label in create).click()
    at.run()


def _table_hands(at):
    """A drawn hand after a follow (the raise lines), then a win on a discard (history, totals)."""
    _table_open(at)
    at.checkbox(key="tw_followed").check()
    at.run()
    at.button(key="tb_drawn").click()
    at.run()
    _typed(at, "234m567p678s777p99s")
    _set(at, "tw_winner", 1)
    _set(at, "tw_how", 2)
    at.button(key="tb_record").click()
    at.run()


def _false_win(at):
    """A Xingzi table (dealer doubling, no follow raise): a win by self-draw, then a false win."""
    _table_open(at, "xingzi")
    _typed(at, "234m567p678s777p99s")
    _set(at, "tw_winner", 0)
    at.button(key="tb_record").click()
    at.run()
    at.selectbox(key="tw_fw").set_value(2)
    at.run()  # 炸糊 is offered once its seat is chosen
    at.button(key="tb_false_win").click()
    at.run()


STATES = {
    "sample": lambda at: None,
    "typed": lambda at: _typed(at, "234m567p678s777p99s"),
    "conditions": _conditions,
    "incomplete": lambda at: _typed(at, "123m456p789s123s5p"),
    "bad_hand": lambda at: _typed(at, "123m456p789sEE55p"),
    "riichi_honours": lambda at: _typed(at, "123m5z"),
    "fifth_copy": lambda at: _typed(at, "11111m456p789s55p"),
    "not_tiles": lambda at: _typed(at, "123m456p789sxyz"),
    "no_ranks": lambda at: _typed(at, "m456p789s123s55p"),
    "below_minimum": lambda at: (_typed(at, "234m567p678s99s11p"), _set(at, "w_self_drawn", False)),
    "why_not": _why_not,
    "xinyu": _xinyu,
    "learn": _learn,
    "practice": _practice,
    "practice_table": _practice_table,
    "table": _table,
    "table_open": _table_open,
    "table_hands": _table_hands,
    "false_win": _false_win,
}


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("state", STATES)
def test_a_page_speaks_its_language(at, state, lang):
    if lang == "en":
        _set(at, "lang", "en")
    i18n.set_lang(lang)  # AppTest formats a select box's value here, with the page's format_func
    try:
        STATES[state](at)
    finally:
        i18n.set_lang("zh")
    assert not at.exception, [e.value for e in at.exception]
    assert page_problems(at, lang) == []


UNIT = "炮 (pào, points"


@pytest.mark.parametrize("state", ["sample", "conditions", "learn", "table", "table_open", "table_hands"])
def test_the_first_unit_on_an_english_page_says_pao_points(at, state):
    """The scoring unit is glossed one way: the first bare 炮 a page shows reads 炮 (pào, points)."""
    _set(at, "lang", "en")
    i18n.set_lang("en")
    try:
        STATES[state](at)
    finally:
        i18n.set_lang("zh")
    text = " ".join(page_texts(at))
    first = next(m for m in RUN.finditer(text) if m.group() == "炮")
    assert text[first.start() :].startswith(UNIT), text[first.start() - 40 : first.end() + 40]
