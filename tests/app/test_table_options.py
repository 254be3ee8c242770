"""House rules as a form, the scoring side: every option of the variant's rule table is a widget
with its default, its name in the page language and its DECISIONS section; a changed option is
the table's scoring house rule and changes the money of the hands recorded later; the advanced
JSON box still wins, and a bad key there is named."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from app.ui import i18n
from app.ui.table.option_rules import event_choices, scoring_options
from ledger.store import open_store
from scoring.model import VARIANTS
from tests.app.conftest import APP
from tests.ledger.util import json_hand

ZH = i18n.catalog("zh")
WIN = {"concealed": "123m456p789s234mCC", "winning_tile": "C"}  # 3 炮 on a discard


def _start(variant: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.segmented_control(key="page").set_value("table")
    at.run()
    at.segmented_control(key="tn_variant").set_value(variant)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _create(at) -> None:
    next(b for b in at.button if b.label == ZH["table.create"]).click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def _widget(at, variant: str, name: str, default):
    key = f"tro_{variant}_{name}"
    if isinstance(default, bool):
        return at.checkbox(key=key)
    if isinstance(default, int):
        return at.number_input(key=key)
    return at.multiselect(key=key)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_option_of_the_variant_is_a_widget_with_its_default(variant):
    at = _start(variant)
    options = scoring_options(variant)
    assert len(options) >= 7  # jiujiang 7, xingzi 8, xinyu 8
    for name, default, ref in options:
        w = _widget(at, variant, name, default)
        assert ZH[f"rule.opt.{name}"] in w.label and ref.startswith("§")
        assert w.help == ZH["rule.ref"].format(ref=ref)
        if isinstance(default, tuple):
            assert tuple(w.value) == default and ZH["event.robbing_kong"] in w.options
        else:
            assert w.value == default
    others = {n for v in VARIANTS if v != variant for n, _, _ in scoring_options(v)}
    mine = {n for n, _, _ in options}
    for name in others - mine:  # another variant's options are not shown
        assert not [e for e in at.checkbox if e.key == f"tro_{variant}_{name}"]
    _create(at)  # untouched: no house rules
    assert open_store().get(at.query_params["table"]).table.house_rules == {}


def test_a_changed_option_lands_in_the_tables_rules_and_changes_a_later_hands_money():
    plain = _start("xingzi")
    _create(plain)
    doubled = open_store().append(
        plain.query_params["table"],
        json_hand(open_store(), plain.query_params["table"], {"seat": 0, "discarder": 2, "hand": WIN}),
    )[1]
    at = _start("xingzi")
    assert at.checkbox(key="tro_xingzi_dealer_doubles").value is True  # 星子: the dealer pays / gets x2
    at.checkbox(key="tro_xingzi_dealer_doubles").uncheck()
    at.number_input(key="tro_xingzi_min_win").set_value(1)
    _create(at)
    code = at.query_params["table"]
    rec = open_store().get(code)
    assert rec.table.house_rules == {"scoring": {"options.dealer_doubles": False, "options.min_win": 1}}
    assert any(ZH["rule.opt.dealer_doubles"] in c.value for c in at.caption)  # the header says so
    single = open_store().append(
        code, json_hand(open_store(), code, {"seat": 0, "discarder": 2, "hand": WIN})
    )[1]
    assert [int(x) for x in doubled.outcomes[0].deltas] == [6, 0, -6, 0]
    assert [int(x) for x in single.outcomes[0].deltas] == [3, 0, -3, 0]  # the dealer no longer doubles


def test_a_list_option_keeps_the_events_chosen():
    at = _start("jiujiang")
    assert "last_tile_discard" in event_choices("jiujiang")
    at.multiselect(key="tro_jiujiang_min_win_exceptions").set_value(["robbing_kong"])
    _create(at)
    rules = open_store().get(at.query_params["table"]).table.house_rules
    assert rules == {"scoring": {"options.min_win_exceptions": ["robbing_kong"]}}


def test_the_json_box_wins_over_the_form_and_a_bad_key_is_named():
    at = _start("xinyu")
    at.number_input(key="tro_xinyu_cap").set_value(16)
    at.text_area(key="tn_rules").input('{"scoring": {"cpa": 32}}')
    _create(at)
    [said] = [e.value for e in at.error]
    assert "cpa" in said and "table" not in at.query_params
    at.text_area(key="tn_rules").input('{"scoring": {"cap": "x"}}')
    _create(at)
    [said] = [e.value for e in at.error]
    assert "cap" in said and "table" not in at.query_params
    at.text_area(key="tn_rules").input('{"scoring": {"cap": 32}}')
    _create(at)
    rules = open_store().get(at.query_params["table"]).table.house_rules
    assert rules == {"scoring": {"cap": 32}}  # the box's cap, not the form's as well


def test_the_options_are_named_in_english_on_an_english_page():
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["lang"] = "en"
    at.run()
    at.segmented_control(key="page").set_value("table")
    at.run()
    at.segmented_control(key="tn_variant").set_value("xinyu")
    at.run()
    en = i18n.catalog("en")
    cap = at.number_input(key="tro_xinyu_cap")
    assert cap.label == en["rule.label"].format(name=en["rule.opt.cap"], default=0)
    assert at.checkbox(key="tro_xinyu_kong_counts_once").help == en["rule.ref"].format(ref="§2")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_bad_scoring_rule_is_said_in_the_pages_language_by_the_engines_code(lang):
    """The engine's `unknown_rule_key` / `bad_rule_value` are worded by the catalog, with the key
    and what may be written there (its `HandError.detail`): no English engine sentence on the zh
    page ("计分桌规 cpa 不行：名字或值不对" named nothing it may be, the en page said "scoring
    house rules: rules: unknown key 'cpa'" before)."""
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["lang"] = lang
    at.run()
    at.segmented_control(key="page").set_value("table")
    at.run()
    at.segmented_control(key="tn_variant").set_value("xinyu")
    at.run()
    cat = i18n.catalog(lang)
    names = ", ".join(sorted(n for n, _, _ in scoring_options("xinyu")))
    for typed, want in [
        ('{"scoring": {"cpa": 32}}', cat["rule.scoring.unknown_rule_key"].format(key="cpa", keys=names)),
        (
            '{"scoring": {"cap": true}}',
            cat["rule.scoring.bad_rule_value"].format(
                key="options.cap", value="true", want=cat["rule.want_int"].format(lo=0, hi=1000000)
            ),
        ),
        (
            '{"scoring": {"full_flush.multiplier": -3}}',
            cat["rule.scoring.bad_rule_value"].format(
                key="patterns.full_flush.multiplier",
                value="-3",
                want=cat["rule.want_int"].format(lo=0, hi=1000000),
            ),
        ),
    ]:
        at.text_area(key="tn_rules").input(typed)
        next(b for b in at.button if b.label == cat["table.create"]).click()
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        assert [e.value for e in at.error] == [want]
        assert "table" not in at.query_params and at.text_area(key="tn_rules").value == typed  # kept
    assert "rules:" not in want and "must be" not in want  # never the engine's own sentence
