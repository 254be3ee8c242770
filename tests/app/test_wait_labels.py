"""The score page's wait labels: 对倒 has its label, a two-kind wait
is not called 单钓 (the engine gives no 单钓 item for it), and the item reasons are the engine's."""

from __future__ import annotations

import pytest

from app.ui import i18n
from app.ui.render.html import wait_label
from scoring import HandInput, Meld, score


def _score(variant: str, concealed: str, win: str, melds: str = "", **kw):
    ms = tuple(Meld.of(*m.split()) for m in melds.split(",") if m.strip())
    return score(HandInput(variant=variant, concealed=concealed, winning_tile=win, melds=ms, **kw))


@pytest.mark.parametrize(
    ("lang", "several", "pung"),
    [
        ("zh", "单钓的样子，但听 2 种牌，不算单钓", "对倒"),
        ("en", "single wait shape, but waiting on 2 kinds", "two-pair wait"),
    ],
)
def test_wait_labels(lang, several, pung):
    i18n.set_lang(lang)
    try:
        r = _score("xingzi", "234m567p789p11122s", "2s", self_drawn=True, winner_is_dealer=True)
        assert r.wait == "single" and len(r.waits) == 2
        assert wait_label(r).startswith(several)
        assert wait_label(_score("jiujiang", "234m567p999sCC", "9s", "pung 777p", self_drawn=False)) == pung
    finally:
        i18n.set_lang(i18n.DEFAULT)


def test_items_table_shows_the_engines_reasons_with_tile_names():
    """Issue 25 item 7: one home for the item reasons, the engine; on the Chinese page its tiles
    are tile names (八八八八万), never codes (8888m)."""
    from app.ui.render.html import items_table

    r = _score("jiujiang", "234m567p99s", "9s", "pung CCC, kong 8888m", self_drawn=False)
    i18n.set_lang("zh")
    table = items_table(r)
    assert "自己的 八八八八万 明杠" in table and "8888m" not in table
    i18n.set_lang("en")
    assert "own exposed kong of 8888m" in items_table(r)
    i18n.set_lang(i18n.DEFAULT)
