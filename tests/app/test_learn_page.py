"""The Learn page (学习) as a new player meets it: every example is scored (none says the engine
is unavailable), its payments name who pays, the chosen tab outlives a language switch, and a
practice answer is judged on the guess that was revealed."""

from __future__ import annotations

import pytest

from app.ui import i18n, services
from app.ui.learn.examples import EXAMPLES
from app.ui.learn.page import pays_line
from app.ui.learn.practice import answer
from scoring import ScoreResult

ZH, EN = i18n.catalog("zh"), i18n.catalog("en")
CASES = [(v, k) for v, examples in EXAMPLES.items() for k, _ in examples]
HANDS = {(v, k): hand for v, examples in EXAMPLES.items() for k, hand in examples}


@pytest.mark.parametrize(("variant", "key"), CASES, ids=[f"{v}-{k}" for v, k in CASES])
def test_every_example_is_scored_by_the_engine(variant, key):
    """An example the engine refuses would show '计分引擎暂时不可用' (星子 混一色 did: a 星子 self-draw
    names its dealer)."""
    r = services.score(HANDS[variant, key])
    assert isinstance(r, ScoreResult), r
    assert r.can_win == (key != "ex.below_minimum")  # the one example that shows a hand below 二炮起胡


PAYS = [  # (example, zh, en): a discard names its one payer, a self-draw's equal shares say "each"
    (("jiujiang", "ex.concealed_closed"), "付钱：放炮者 3", "Paid by: discarder 3"),
    (("jiujiang", "ex.basic_self_drawn"), "3 家各付 2", "Each of the 3 payers pays 2"),
    (("xingzi", "ex.dealer_pays_double"), "付钱：下家 4 · 对家 2 · 上家 2",
     "Paid by: Right 下家 4 · Across 对家 2 · Left 上家 2"),
    (("xingzi", "ex.robbing_kong"), "付钱：上家 11", "Paid by: Left 上家 11"),
]  # fmt: skip


@pytest.mark.parametrize(("case", "zh", "en"), PAYS, ids=[c[0][1] for c in PAYS])
def test_the_payments_line_names_who_pays(case, zh, en):
    r = services.score(HANDS[case])
    before = i18n.lang()
    try:
        for lang, want in (("zh", zh), ("en", en)):
            i18n.set_lang(lang)
            assert pays_line(r) == want
    finally:
        i18n.set_lang(before)  # the thread's language: the next test's AppTest runs in it


def _learn(at):
    at.segmented_control(key="page").set_value("learn")
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def _tab_shown(at) -> str:
    [tabs] = [b for b in at._tree if getattr(b, "type", "") == "tab_container"]
    return at.tabs[tabs.proto.tab_container.default_tab_index].label


def _lang(at, lang: str) -> None:
    at.segmented_control(key="lang").set_value(lang)
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def test_no_example_says_the_engine_is_unavailable(at):
    _learn(at)
    captions = [c.value for c in at.caption]
    assert ZH["learn.engine_unavailable"] not in captions
    assert "3 家各付 27" in captions  # 九江 混一色, self-drawn: 27 炮 from each


@pytest.mark.parametrize(("tab", "key"), [("practice", "learn.practice"), ("xinyu", "variant.xinyu")])
def test_the_chosen_tab_stays_chosen_across_a_language_switch(at, tab, key):
    _learn(at)
    assert _tab_shown(at) == ZH["variant.jiujiang"]
    at.session_state["learn_tab"] = ZH[key]  # the player taps the tab
    at.run()
    assert _tab_shown(at) == ZH[key]
    _lang(at, "en")  # main: the English tabs opened on Jiujiang
    assert _tab_shown(at) == EN[key]
    _lang(at, "zh")
    assert _tab_shown(at) == ZH[key]


def test_a_rule_link_opens_its_variant_and_then_the_players_tab_holds(at):
    _learn(at)
    at.query_params["variant"] = "xingzi"
    at.run()
    assert _tab_shown(at) == ZH["variant.xingzi"]
    at.session_state["learn_tab"] = ZH["learn.practice"]  # the player moves on; the link stays in the URL
    at.run()
    assert _tab_shown(at) == ZH["learn.practice"]


def test_a_practice_answer_is_judged_on_the_guess_revealed(at):
    """Revealed with a wrong guess, then the right number typed: still 'it is N (you said M)',
    never '答对了', and the streak stays 0."""
    _learn(at)
    p = at.session_state.practice
    want = answer(p.result, p.level)
    at.number_input(key="practice_guess").set_value(float(want + 1))
    at.button(key="btn_reveal").click()
    at.run()
    wrong = ZH["learn.wrong"].format(own=int(want), guess=int(want + 1))
    assert [i.value for i in at.info] == [wrong] and not at.success
    at.number_input(key="practice_guess").set_value(float(want))  # main: '答对了' shown now
    at.run()
    assert [i.value for i in at.info] == [wrong] and not at.success
    assert at.session_state.practice.streak == 0
