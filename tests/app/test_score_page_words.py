"""The score page's words, in AppTest: each language its own punctuation, the 九江 / 新余 dealer
selector replaced by a line saying it changes nothing, Streamlit's controls named from the catalog,
the pointer to a suggestion below an incomplete hand."""

from __future__ import annotations

import re

import pytest

from app.ui import i18n
from tests.app.test_at_the_table import type_hand

ZH_PUNCT = re.compile(r"[、：，；（）]")


def _lang(at, lang: str) -> None:
    at.segmented_control(key="lang").set_value(lang)
    at.run()
    i18n.set_lang(lang)


def _why_not_table(at) -> str:
    at.toggle(key="whynot_score").set_value(True)
    at.run()
    return next(m.value for m in at.markdown if "jx-teach" in m.value)


def test_why_not_lines_use_each_languages_punctuation(at):
    """EN read "not Seven pairs 七小对：2 Characters、3 Characters…"; now ": " and ", "."""
    type_hand(at, "123m456m678m111p99p")
    _lang(at, "en")
    table = _why_not_table(at)
    why = re.findall(r"jx-why'>([^<]*)", table)
    assert any(w.startswith("not Full flush") for w in why), why
    assert ZH_PUNCT.findall(table) == []
    _lang(at, "zh")
    table = next(m.value for m in at.markdown if "jx-teach" in m.value)
    why = re.findall(r"jx-why'>([^<]*)", table)
    assert any("清一色" in w for w in why) and not any(re.search(r"[,:;] ", w) for w in why), why


def _eaten_list(at) -> str:
    """The names of the items a payer's entries add, under "+2 吃炮" in the payments table."""
    found = (EATEN.search(m.value) for m in at.markdown)
    return next(m.group(1) for m in found if m)


EATEN = re.compile(r"<td class='jx-why'>[^<]+<br><span class='jx-ref'>([^<]+)</span>")


def test_the_eaten_items_of_a_payer_are_listed_in_the_pages_punctuation(at):
    """A payer's two 發 listed "Bonus tile (發)、Bonus tile (發)" in English."""
    _lang(at, "en")
    payer = at.session_state.hip.cond.payers[0]
    at.session_state["payers_open"] = True  # a closed 吃炮 panel draws no field
    at.run()
    at.number_input(key=f"w_{payer}_bonus_tiles").set_value(2)
    at.run()
    assert _eaten_list(at) == "Bonus tile (Green dragon 發), Bonus tile (Green dragon 發)"
    _lang(at, "zh")
    assert _eaten_list(at).count("、") == 1


def _has_widget(at, key: str) -> bool:
    return any(w.key == key for w in at.segmented_control)


@pytest.mark.parametrize("variant", ["jiujiang", "xinyu"])
def test_where_the_dealer_changes_nothing_the_page_says_so_instead_of_asking(at, variant):
    """九江's dealer selector changed nothing and the page did not say so: now one line says why,
    where the selector was, and the engine agrees (the same money whoever deals)."""
    from dataclasses import replace

    from app.ui import services
    from app.ui.state import ME, OTHER_SEATS

    type_hand(at, "234m567p678s777p99s")
    at.segmented_control(key="w_variant").set_value(variant)
    at.run()
    i18n.set_lang("zh")
    assert not _has_widget(at, "w_dealer")
    line = i18n.t("cond.dealer_same", variant=i18n.t(f"variant.{variant}"))
    assert line in [c.value for c in at.caption]
    hand, cond = at.session_state.hip.hand, at.session_state.hip.cond
    money = {
        d: [p.amount for p in services.score_hand(hand, replace(cond, dealer=d)).payments]
        for d in (None, ME, *OTHER_SEATS)
    }
    assert len({tuple(m) for m in money.values()}) == 1, money
    at.segmented_control(key="w_variant").set_value("xingzi")  # 星子 doubles: the page asks again
    at.run()
    assert _has_widget(at, "w_dealer") and line not in [c.value for c in at.caption]


def test_the_page_script_names_streamlits_controls_from_the_catalog_by_place():
    """Streamlit's English-only controls are found by their place (`data-testid`), never by their
    English words, and named from the catalog in the run's language."""
    import json

    from app.ui.builtin import LABELS, words_script

    i18n.set_lang("zh")
    cfg = json.loads(re.search(r"const cfg = (.*);\n", words_script(40)).group(1))
    assert ['[data-testid="stNumberInputStepUp"]', "加一"] in cfg["labels"]
    assert cfg["too_big"] == "“{file}”没有读入：文件有 {size} MB，最多 {limit} MB。" and cfg["limit_mb"] == 40
    english = ("aria-label", "Decrement", "Increment", "Close", "Take Photo", "Clear photo", "Skip to")
    assert not any(word in sel for sel, _ in LABELS for word in english)
    i18n.set_lang("en")
    assert ['[data-testid="stNumberInputStepUp"]', "One more"] in json.loads(
        re.search(r"const cfg = (.*);\n", words_script(40)).group(1)
    )["labels"]


@pytest.mark.parametrize(
    ("tiles", "key"),
    [("123m456p789s234m9p1s", "res.not_complete"), ("19m19p19s258m36p47sC", "res.not_complete_fix")],
)
def test_an_incomplete_hand_points_below_only_when_a_suggestion_is_there(at, tiles, key):
    type_hand(at, tiles)
    i18n.set_lang("zh")  # the page's language (another test may have left the module on en)
    warned = [w.value for w in at.warning]
    assert i18n.t(key) in warned, warned
    assert (i18n.t("sug.title") in "".join(m.value for m in at.markdown)) is (key == "res.not_complete")
