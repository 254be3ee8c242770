"""The 牌局 page's 谁付多少: every payer named by the table's seat names, 庄 as its own mark (the
score page, with no table, names them by seat relative to the winner: tests/app/test_render.py)."""

from __future__ import annotations

import html
import re

import pytest

from app.ui import i18n
from tests.app.test_table_page import HAND_A, _enter, _open, _table


def _payers(at, lang: str) -> list[list[str]]:
    """The payer cells of the 谁付多少 table (its first column, the sum row left out), tags off."""
    head = f"<th>{i18n.catalog(lang)['res.col_payer']}</th>"
    table = next(m.value for m in at.markdown if head in m.value)
    cells = re.findall(r"<tr><td>(.*?)</td><td class='jx-why'>", table)
    return [html.unescape(re.sub(r"<[^>]+>", " ", c)).split() for c in cells]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_payer_on_the_table_page_is_named_by_its_seat_name(lang):
    code = _table()
    at = _open(code)
    if lang == "en":
        at.segmented_control(key="lang").set_value("en")
        at.run()
    _enter(at, HAND_A, winner=1, discarder=None)  # 李四 draws it: the three others pay, 张三 deals
    dealer = i18n.catalog(lang)["res.dealer"]
    assert _payers(at, lang) == [["王五"], ["赵六"], ["张三", dealer]]
