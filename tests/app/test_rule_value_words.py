"""A refused house-rule value is echoed as the player typed it, in JSON's words, never Python's
(``[true, null]``, not ``[True, None]``; ``{'a': null}``, not ``{'a': None}``), on the 牌局 page's
house rules box and by `jxmj table new --rules`; a number too large to read (``1e400``) is said so,
not ``inf``."""

from __future__ import annotations

import pytest

from app.ui import i18n
from app.ui.table.house_rules import RuleProblem, typed_rules
from ledger import LedgerError
from ledger.rules import load_ledger_rules

ZH, EN = i18n.catalog("zh"), i18n.catalog("en")
WHOLE = {"zh": ZH["rule.want_int"].format(lo=0, hi=1000), "en": EN["rule.want_int"].format(lo=0, hi=1000)}


@pytest.fixture(autouse=True)
def _zh_after():
    yield
    i18n.set_lang("zh")


@pytest.mark.parametrize(
    ("typed", "echo"),
    [
        ("[true, null]", "[true, null]"),
        ('{"a": null}', "{'a': null}"),
        ("true", "true"),
        ("null", "null"),
        ("2.5", "2.5"),
        ('"x"', "x"),
    ],
)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_house_rules_box_echoes_a_refused_value_in_json_words(lang, typed, echo):
    i18n.set_lang(lang)
    with pytest.raises(RuleProblem) as e:
        typed_rules("jiujiang", f'{{"ledger": {{"drawn.window": {typed}}}}}', {})
    words = i18n.catalog(lang)["rule.bad_value"]
    assert str(e.value) == words.format(key="drawn.window", value=echo, want=WHOLE[lang])
    assert not {"True", "None", "inf"} & set(str(e.value).replace("[", " ").replace("]", " ").split())


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_number_too_large_to_read_is_said_so_not_inf(lang):
    i18n.set_lang(lang)
    with pytest.raises(RuleProblem) as e:
        typed_rules("jiujiang", '{"ledger": {"drawn.window": 1e400}}', {})
    words = i18n.catalog(lang)
    value = words["rule.value_too_large"]
    assert str(e.value) == words["rule.bad_value"].format(key="drawn.window", value=value, want=WHOLE[lang])


@pytest.mark.parametrize(
    ("value", "echo"), [(float("inf"), "a number too large"), ([float("-inf")], "[a number too large]")]
)
def test_the_ledger_says_a_number_too_large_in_json_type_words(value, echo):
    with pytest.raises(LedgerError) as e:
        load_ledger_rules("jiujiang", {"drawn.window": value})
    want = "use a whole number from 0 to 1000"
    assert str(e.value) == f"house rule drawn.window = {echo} is not allowed: {want}"
