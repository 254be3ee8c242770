"""The Learn page's values come from the rule tables (issue 38: one rule, one place): the value
tables are built from ``load_rules``, and the catalog's rule prose restates none of them."""

from __future__ import annotations

import re

import pytest

from app.ui import i18n
from app.ui.learn.values import value_tables
from scoring import VARIANTS, load_rules


@pytest.fixture(params=["zh", "en"])
def lang(request):
    i18n.set_lang(request.param)
    yield request.param
    i18n.set_lang("zh")


def rows(variant: str, section: str) -> dict[str, tuple[str, ...]]:
    return {row[0]: row[1:] for table in value_tables(variant, section) for row in table.rows}


def test_the_pattern_values_are_the_tables(lang):
    zh = lang == "zh"
    xz = rows("xingzi", "1.3")
    assert xz["清一色" if zh else "Full flush"] == ("15", "5", "1", "1", "1", "1")
    assert xz["杠上开花" if zh else "Win on a kong replacement"] == ("15", "0", "1", "1", "1", "1")
    assert xz["七对" if zh else "Seven pairs"] == ("10", "5", "—", "—", "—", "—")
    jj = rows("jiujiang", "1.3")
    assert jj["平胡" if zh else "Basic hand"] == ("1", "1", "1", "1", "1", "1")
    assert jj["七仙女" if zh else "Seven fairies"][0] == (
        "点炮 50，自摸 100" if zh else "50 on a discard, 100 self-drawn"
    )
    assert jj["红旗飘飘" if zh else "Red flags"][0] == ("另加 10" if zh else "10 on top")
    assert jj["中/白 暗杠" if zh else "Red 中 / White 白 dragon concealed kong"] == ("+4",)
    assert jj[
        "滚：三对以外每多一对连号（最多 3 个）"
        if zh
        else "Extra pair 滚: each consecutive pair beyond three (at most 3)"
    ] == ("+5",)
    assert rows("jiujiang", "1.5")["报听" if zh else "Declared ready 报听"] == ("+10",)
    assert "报听" not in rows("xingzi", "1.5")  # xingzi eats no 报听
    xy = rows("xinyu", "2")
    assert xy["豪华七小对" if zh else "Luxury seven pairs"] == ("×8",)
    assert xy["封顶" if zh else "Cap 封顶"] == ("不封顶" if zh else "no cap",)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_pattern_has_its_row(variant, lang):
    rules = load_rules(variant)
    section = "2" if rules.family == "fan" else "1.3"
    names = {rules.name(k)[0 if lang == "zh" else 1] for k in rules.patterns}
    assert names <= set(rows(variant, section))
    for table in value_tables(variant, section):
        assert all(len(row) == len(table.header) for row in table.rows)


#: numbers the rule prose may say: tile ranks of the waits (边张 12 听 3 …) and xinyu's "1 ×"
ALLOWED = {"rules.jiujiang.1.3": {"12", "3", "89", "7", "13", "2"}, "rules.xinyu.2": {"1"}}
VALUE_SECTIONS = ("1.3", "1.3a", "1.5", "2")


@pytest.mark.parametrize("lang_code", ["zh", "en"])
def test_the_rule_prose_restates_no_value(lang_code):
    catalog = i18n.catalog(lang_code)
    keys = [f"rules.{v}.{s}" for v in VARIANTS for s in VALUE_SECTIONS if f"rules.{v}.{s}" in catalog]
    assert len(keys) == 7
    said = {k: set(re.findall(r"\d+", catalog[k])) - ALLOWED.get(k, set()) for k in keys}
    assert {k: v for k, v in said.items() if v} == {}
