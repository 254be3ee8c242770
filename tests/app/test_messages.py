"""Engine messages reach the page by code: every code has zh and en words, and a Chinese page
shows no English sentence of the engine, whatever is wrong with the hand."""

from __future__ import annotations

import re

import pytest

from app.ui import i18n
from app.ui.messages import code_text
from scoring import REASON_CODES, HandError
from scoring.errors import CODES

ENGLISH_SENTENCE = re.compile(r"[A-Za-z]{3,}(?: [A-Za-z]{2,}){2,}")  # three English words in a row


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_engine_code_has_words(lang):
    catalog = i18n.catalog(lang)
    assert [c for c in CODES if f"code.{c}" not in catalog] == []
    assert [c for c in REASON_CODES if f"why.{c}" not in catalog] == []


def test_chinese_code_text_hides_the_engine_sentence_english_shows_it():
    exc = HandError("fifth_copy", "five or more copies of 7p")
    i18n.set_lang("zh")
    assert code_text(exc.code, str(exc)) == i18n.t("code.fifth_copy")
    i18n.set_lang("en")
    assert code_text(exc.code, str(exc)) == "five or more copies of 7p"
    i18n.set_lang("zh")


BAD_HANDS = [
    "123m456p789s11s",  # 11 tiles: wrong count
    "123m456p789s123s5p",  # not complete
    "11111m456p789s55p",  # a fifth copy
    "123m456p789sEE55p",  # winds in jiujiang
    "123m5z",  # riichi honours
    "123m456p789sxyz",  # no tiles at all
]


@pytest.mark.parametrize("typed", BAD_HANDS)
def test_a_chinese_page_shows_no_english_engine_sentence(at, typed):
    at.text_input(key="typed").input(typed)
    at.button(key="btn_typed").click()
    at.run()
    assert not at.exception
    shown = [e.value for e in (*at.error, *at.warning, *at.info, *at.caption)]
    shown += [m.value for m in at.markdown if not m.value.startswith("<")]
    english = [s for s in shown if ENGLISH_SENTENCE.search(re.sub(r"\([^)]*\)|[0-9]+[mps]", "", s))]
    assert english == [], english


# Counts that are never 1: the kong hint needs 15+ tiles, the typed limit is 18.
PLURAL_SAFE = {"hand.kong_hint", "msg.typed_too_long"}


def test_english_never_says_one_tiles():
    """A count field right before a plural noun reads "1 tiles are uncertain" when the count is
    1 (the bundled sample shows exactly that); such texts put the number after a colon instead."""
    plural = re.compile(r"\{\w+\} (?:\w+ )?(?:tiles|melds|hands|kongs)\b")
    bad = {k: v for k, v in i18n.catalog("en").items() if plural.search(v) and k not in PLURAL_SAFE}
    assert bad == {}
    i18n.set_lang("en")
    try:
        assert i18n.t("msg.low_check", n=1) == "Check the tiles framed in red (1 uncertain)."
    finally:
        i18n.set_lang("zh")
