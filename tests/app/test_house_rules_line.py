"""The table page's header names the house rules in words (`app.ui.table.page.rules_text`), not JSON."""

from __future__ import annotations

import pytest

from app.ui import i18n
from app.ui.table.page import rules_text


@pytest.fixture
def lang():
    def use(code: str) -> None:
        i18n.set_lang(code)

    yield use
    i18n.set_lang("zh")


@pytest.mark.parametrize(
    ("code", "rules", "want"),
    [
        ("en", {"ledger": {"drawn.window": 3}}, "Hands a drawn-hand raise lasts: 3"),
        ("zh", {"ledger": {"drawn.window": 3}}, f"{i18n.catalog('zh')['rule.drawn.window']}: 3"),
        (
            "en",
            {"ledger": {"drawn.window": 3, "raises.combine": "multiply"}},
            f"Hands a drawn-hand raise lasts: 3 · {i18n.catalog('en')['rule.raises.combine']}: they multiply",
        ),
        ("en", {"ledger": {"false_win.dealer_doubles": False}}, "A dealer's false win is doubled: no"),
        ("en", {"scoring": {"full_flush.base": 15}}, "full&#95;flush&#46;base: 15"),  # Markdown-safe key
        ("en", {}, ""),
    ],
)
def test_rules_text(lang, code, rules, want):
    lang(code)
    assert rules_text(rules) == want
