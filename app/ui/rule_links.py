"""Rule references as links to the Learn page (pure functions, no Streamlit).

Every scored item cites the rule it implements as text, `Item.rule` (from the variant's rule
table, e.g. ``"DECISIONS §1.3 definitions, §1.3a"``). The Learn page (`app.ui.learn.rules`)
shows each variant's rules in numbered sections, one per DECISIONS section a player meets
(`SECTIONS`, by the variant's family: 炮 that add up, §1; 番 that multiply, §2), each a header
with the stable anchor :func:`anchor`. The item table (`app.ui.render.html.items_table`) shows
each section an item cites as a link in player words ("规则 2" / "Rule 2") to that anchor on
the Learn page, in the same tab, with the variant and the language in the address
(``learn?variant=xingzi&lang=en#rule-xingzi-1-3a``) so the page opens on that variant's tab.

>>> cited("DECISIONS §1.3 definitions, §1.3a")
['1.3', '1.3a']
>>> anchor("xingzi", "1.3a")
'rule-xingzi-1-3a'
>>> number("jiujiang", "1.3"), number("xinyu", "2")
('2', '1')
>>> href("xinyu", "2", "en")
'learn?variant=xinyu&lang=en#rule-xinyu-2'
"""

from __future__ import annotations

from html import escape
from urllib.parse import urlencode

from scoring.result import rule_sections
from scoring.rules import load_rules

#: rule family (`RuleTable.family`) -> the DECISIONS sections its Learn tab shows, in order.
SECTIONS: dict[str, tuple[str, ...]] = {
    "pao": ("1.1", "1.3", "1.3a", "1.4", "1.5", "1.6"),
    "fan": ("2",),
}

LEARN_PATH = "learn"  # the Learn page's url_path (app/streamlit_app.py PAGES); relative: any base path works


def sections(variant: str) -> tuple[str, ...]:
    """The sections the Learn page shows for `variant` (a key of `scoring.rules.VARIANTS`)."""
    return SECTIONS[load_rules(variant).family]


def number(variant: str, section: str) -> str:
    """The number a player sees for a section: its place on the variant's Learn tab, 1, 2, 3 …
    with no gaps (the DECISIONS numbers 1.1, 1.3, 1.3a stay in anchors and rule tables)."""
    return str(sections(variant).index(section) + 1)


def cited(ref: str) -> list[str]:
    """The DECISIONS sections a rule reference names, in order, each once ([] for none)."""
    return rule_sections(ref)


def anchor(variant: str, section: str) -> str:
    """The header anchor of one rule section on the Learn page (`st.subheader(anchor=...)`)."""
    return f"rule-{variant}-{section.replace('.', '-')}"


def href(variant: str, section: str, lang: str) -> str:
    """The Learn page address of a rule section: variant and language kept, anchor as fragment."""
    return f"{LEARN_PATH}?{urlencode({'variant': variant, 'lang': lang})}#{anchor(variant, section)}"


def links_html(ref: str, variant: str, lang: str, word: str) -> str:
    """The rule reference of an item as HTML: one link per cited section the Learn page shows,
    its text `word` with ``{n}`` the section's number (`number`: "规则 {n}"); a section it does not
    show keeps its DECISIONS number, as text.
    "" when the reference names no section."""
    shown = sections(variant)
    out = []
    for s in cited(ref):
        if s in shown:
            text = escape(word.format(n=number(variant, s)))
            out.append(f'<a href="{escape(href(variant, s, lang))}" target="_self">{text}</a>')
        else:
            out.append(escape(word.format(n=s)))
    return " · ".join(out)


__all__ = ["SECTIONS", "anchor", "cited", "href", "links_html", "number", "sections"]
