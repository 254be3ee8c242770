"""Every scored item's rule reference is a link, in player words, to a section of the Learn page
that exists for the item's variant (`app.ui.rule_links`)."""

from __future__ import annotations

import functools
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from app.ui import i18n
from app.ui.rule_links import anchor, cited, href, links_html, number, sections
from scoring.rules import VARIANTS, load_rules
from tests.app.conftest import APP

CASES = [(v, key) for v in VARIANTS for key in sorted(load_rules(v).item_names)]
LINK = re.compile(r'<a href="([^"]+)" target="_self">([^<]+)</a>')


def _tab_container(node):
    """The proto of the first tab container under `node` (AppTest's element tree)."""
    if getattr(node, "type", None) == "tab_container":
        return node.proto.tab_container
    children = getattr(node, "children", None)
    for child in (children or {}).values() if isinstance(children, dict) else ():
        found = _tab_container(child)
        if found is not None:
            return found
    return None


@functools.cache
def learn_page(variant: str) -> tuple[str, frozenset[str]]:
    """Open the Learn page as a rule link does (``?variant=``): the label of the tab it selects
    and the header anchors rendered inside that tab."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.segmented_control(key="page").set_value("learn")
    at.run()
    at.query_params["variant"] = variant
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    chosen = at.tabs[_tab_container(at._tree).default_tab_index]
    return chosen.label, frozenset(h.proto.anchor for h in chosen.subheader)


@pytest.mark.parametrize(("variant", "key"), CASES, ids=[f"{v}-{k}" for v, k in CASES])
def test_every_item_links_to_a_rule_section_shown_for_its_variant(variant, key):
    ref = load_rules(variant).name(key)[2]
    assert cited(ref), f"{variant}.{key}: {ref!r} names no section"
    label, anchors = learn_page(variant)
    i18n.set_lang("zh")
    assert label == i18n.t(f"variant.{variant}")  # the link opens the item's variant
    for lang, word in (("zh", "规则 {n}"), ("en", "Rule {n}")):
        links = LINK.findall(links_html(ref, variant, lang, word))
        assert [text for _, text in links] == [word.format(n=number(variant, s)) for s in cited(ref)]
        for url, _ in links:
            parts = urlsplit(url.replace("&amp;", "&"))
            assert parts.path == "learn"
            assert parse_qs(parts.query) == {"variant": [variant], "lang": [lang]}
            assert parts.fragment in anchors, f"{variant}.{key}: #{parts.fragment} is not on the page"


def test_the_words_of_a_rule_link_come_from_the_catalog():
    for lang, word in (("zh", "规则 1.3"), ("en", "Rule 1.3")):
        i18n.set_lang(lang)
        assert i18n.t("res.rule", n="1.3") == word


@pytest.mark.parametrize(
    ("ref", "variant", "want"),
    [
        ("DECISIONS §1.3 definitions, §1.3a", "jiujiang", ["1.3", "1.3a"]),
        ("DECISIONS §1.3 bonus adders, §1.5", "xingzi", ["1.3", "1.5"]),
        ("DECISIONS §1.3 (extras)", "jiujiang", ["1.3"]),
        ("DECISIONS §2", "xinyu", ["2"]),
    ],
)
def test_a_reference_links_each_section_it_names(ref, variant, want):
    out = links_html(ref, variant, "zh", "规则 {n}")
    assert [u for u, _ in LINK.findall(out)] == [href(variant, s, "zh").replace("&", "&amp;") for s in want]


def test_a_section_the_page_does_not_show_stays_text_and_no_section_is_nothing():
    assert links_html("DECISIONS §9.9", "xinyu", "en", "Rule {n}") == "Rule 9.9"
    assert links_html("house rule", "xinyu", "en", "Rule {n}") == ""
    assert anchor("jiujiang", "1.3a") == "rule-jiujiang-1-3a"
    assert sections("xinyu") == ("2",) and "1.3a" in sections("xingzi")


def test_the_score_page_shows_rule_links_not_decisions(at):
    table = next(m.value for m in at.markdown if m.value.startswith("<table class='jx-items'>"))
    assert "DECISIONS" not in table
    variant = at.session_state.hip.cond.variant
    i18n.set_lang(at.session_state.lang)
    assert f'href="learn?variant={variant}&amp;lang={at.session_state.lang}#rule-{variant}-1-3"' in table
    assert i18n.t("res.rule", n="2") in table  # §1.3 is the tab's second section
    assert i18n.t("res.rule", n="1.3") not in table


def test_the_learn_page_numbers_its_sections_without_gaps(at):
    """The rule sections were headed with their DECISIONS numbers: 1.1 then 1.3 (no 1.2), and
    新余's only section 2 (no 1); each tab now counts 1, 2, 3 …, and an item's link says the same."""
    at.segmented_control(key="page").set_value("learn")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    i18n.set_lang(at.session_state.lang)
    for tab, variant in zip(at.tabs, VARIANTS, strict=False):
        numbers = [h.value.split(" ", 1)[0] for h in tab.subheader if h.proto.anchor.startswith("rule-")]
        assert numbers == [str(k) for k in range(1, len(sections(variant)) + 1)], variant
    heads = [h.value for h in at.tabs[0].subheader]
    first = (("1", "1.1"), ("2", "1.3"), ("3", "1.3a"))
    assert heads[:3] == [f"{n} {i18n.t(f'rules.sec.{s}')}" for n, s in first]
    assert ">规则 2<" in links_html("DECISIONS §1.3", "jiujiang", "zh", "规则 {n}")
    assert ">规则 3<" in links_html("DECISIONS §1.3 definitions, §1.3a", "jiujiang", "zh", "规则 {n}")
    assert ">Rule 1<" in links_html("DECISIONS §2", "xinyu", "en", "Rule {n}")


def test_a_link_opened_in_a_new_session_keeps_the_language():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["lang"] = "en"
    at.run()
    assert not at.exception
    assert at.session_state.lang == "en"
    assert at.segmented_control(key="lang").value == "en"
