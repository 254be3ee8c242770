"""Tiles named for a screen reader: every tile button's picture says the tile's name and its marks
(unsure, winning tile, left out) in the page's language, never its code."""

from __future__ import annotations

import re

import pytest

from app.ui import i18n
from app.ui.render.tiles import label, row_html, spoken
from tests.app.conftest import button_by_prefix
from tests.app.test_at_the_table import type_hand


def _lang(at, lang: str) -> None:
    at.segmented_control(key="lang").set_value(lang)
    at.run()
    i18n.set_lang(lang)


ALT = re.compile(r"^!\[([^\]]*)\]\(data:image/png;base64,")


@pytest.mark.parametrize(
    ("lang", "first", "win"),
    [("zh", "二万", "九条（和牌张）"), ("en", "2 Characters", "9 Bamboo (winning tile)")],
)
def test_every_tile_button_is_named_in_the_pages_language(at, lang, first, win):
    """The hand row's buttons were pictures with the code as alt text ("2m"): a screen reader
    read nothing useful. Each button's picture now says the tile's name and its marks."""
    _lang(at, lang)
    type_hand(at, "234m567p678s777p99s")
    alts = [ALT.match(b.label).group(1) for b in at.button if b.key and b.key.startswith("tile_c")]
    assert alts[0] == first and alts[-1] == win, alts
    assert not any(re.fullmatch(r"[1-9][mps]|[ESWNCFP]", a) for a in alts)
    button_by_prefix(at, "tile_c0").click()
    at.run()
    chosen = next(b for b in at.button if b.key and b.key.startswith("tile_c0"))
    assert ALT.match(chosen.label).group(1) == spoken("2m", selected=True)


def test_unsure_and_left_out_tiles_say_so():
    i18n.set_lang("en")
    assert spoken("9p", unsure=True) == "9 Dots (unsure)"
    assert spoken("C", unsure=True, win=True) == "Red dragon 中 (unsure, winning tile)"
    assert spoken("5s", out=True) == "5 Bamboo (left out of the hand)"
    i18n.set_lang("zh")
    assert spoken("C") == "红中" and spoken("back") == "扣着的牌"
    assert label("9p", spoken("9p", unsure=True)).startswith("![九筒（没把握）](data:")
    assert 'alt="九筒（和牌张）"' in row_html(["1p", "9p"], win=1) and 'alt="一筒"' in row_html(["1p"])
