"""Two phones edit the same recorded hand: the phone whose save loses is told the money of that
hand as the other phone left it (main quoted the table's last hand, another hand's figures), or,
when the other phone took the hand back, that it is gone; in zh and en."""

from __future__ import annotations

import html

import pytest

from app.ui import i18n
from ledger.store import open_store
from tests.app.test_table_page import _open as _phone
from tests.app.test_table_page import _table
from tests.app.test_table_stale import HAND1, _begin_edit, _save, _two_hands

ZH, EN = i18n.catalog("zh"), i18n.catalog("en")


pytestmark = pytest.mark.usefixtures("fresh_store")


def _said(at) -> str:
    return " ".join(html.unescape(w.value) for w in [*at.warning, *at.error])


def _phones(code: str, lang: str):
    a, b = _phone(code), _phone(code)
    a.segmented_control(key="lang").set_value(lang)
    a.run()
    return a, b


@pytest.mark.parametrize(("lang", "words"), [("zh", ZH), ("en", EN)])
def test_the_losing_edit_names_the_edited_hand_as_the_other_phone_left_it(lang, words):
    code = _table()
    _two_hands(code)  # hands 1 and 2: 李四 +3 · 王五 -3 each
    a, b = _phones(code, lang)
    _begin_edit(a, 1, "drawn")
    _begin_edit(b, 2, "drawn")  # B makes hand 2 a 黄庄 (money 0) ...
    _save(b, 2)
    _save(a, 1)  # ... A's edit of hand 1 loses: hand 1 is still 李四 +3 · 王五 -3
    assert [h.kind for h in open_store().get(code).hands] == ["win", "drawn"]
    assert _said(a) == words["table.changed_edit"].format(hand=1, n=2, money=HAND1)  # main: money 0


@pytest.mark.parametrize(("lang", "words"), [("zh", ZH), ("en", EN)])
def test_the_same_hand_edited_on_two_phones_names_its_money_now(lang, words):
    code = _table()
    _two_hands(code)
    a, b = _phones(code, lang)
    _begin_edit(a, 1, "drawn")
    _begin_edit(b, 1, "drawn")  # B makes hand 1 a 黄庄: hand 2 is raised x2 by it
    _save(b, 1)
    _save(a, 1)
    assert [h.kind for h in open_store().get(code).hands] == ["drawn", "win"]
    said = _said(a)
    assert said == words["table.changed_edit"].format(hand=1, n=2, money="0")  # hand 1: no money now
    assert "+6" not in said  # main: the last hand's 李四 +6 · 王五 -6


@pytest.mark.parametrize(("lang", "words"), [("zh", ZH), ("en", EN)])
def test_an_edit_of_a_hand_no_longer_recorded_says_it_is_gone(lang, words):
    """The page itself keeps a save of a hand another phone undid from running (its number is out
    of the edit's range then); the sentence for it says so, never another hand's money."""
    from app.ui.table.db import table_changed as _changed

    code = _table()
    _two_hands(code)
    open_store().undo(code)
    i18n.set_lang(lang)
    flash = _changed(code, "edit", "table.changed_edit", 2)
    assert flash.text() == words["table.changed_edit_gone"].format(hand=2, n=1)
    same = html.unescape(_changed(code, "edit", "table.changed_edit", 1).text())  # inert Markdown
    assert same == words["table.changed_edit"].format(hand=1, n=1, money=HAND1)


def test_the_edit_conflict_words_name_the_hand_in_both_languages():
    for cat in (ZH, EN):
        edit, gone = cat["table.changed_edit"], cat["table.changed_edit_gone"]
        assert edit.count("{hand}") == 2 and "{money}" in edit and "{n}" in edit
        assert "{hand}" in gone and "{n}" in gone and cat["table.edit_drop"] in gone
    assert "最后一把" not in ZH["table.changed_edit"] and "the last one" not in EN["table.changed_edit"]
