"""Tile pictures and names in the page language (pure: strings in, HTML out).

Codes follow `scoring.tiles` (`1m`..`9m`, `1p`..`9p`, `1s`..`9s`, `E S W N`, `C` 中, `F` 發,
`P` 白); `?` (`app.photo_hand.UNKNOWN`) is a tile the photo could not name, `back` a
face-down tile.

>>> from app.ui.i18n import set_lang
>>> set_lang("zh"); name("5p"), name("C")
('五筒', '红中')
>>> spoken("3m", unsure=True, win=True)
'三万（没把握、和牌张）'
"""

from __future__ import annotations

import base64
import html
from functools import cache
from pathlib import Path

from app.ui.i18n import t
from scoring.tiles import ALL_TILES, HONOURS, RANK_ZH, tile_of
from vision.detection import BACK, FLOWER

ASSETS = Path(__file__).resolve().parents[2] / "assets"
CODES = tuple(tile.code for tile in ALL_TILES)


def name(code: str) -> str:
    """`五筒` / `5 Dots`, `红中` / `Red dragon`, `back` a face-down tile; another code is "unknown tile"."""
    return name_later(code).text()


def name_later(code: str):
    """`name` of `code` as a `app.ui.flash.Flash` field: worded when the message is shown, in that
    run's language (a message made in a callback runs before the page's language is set)."""
    from app.ui.flash import Flash

    tile = tile_of(code)
    if tile is not None and not tile.is_honour:
        return Flash("info", f"tile.suit.{tile.suit}", {"rank": tile.rank, "zh_rank": RANK_ZH[tile.rank - 1]})
    return Flash("info", f"tile.{code}" if code in HONOURS or code == BACK else "tile.unknown")


def spoken(code: str, *, unsure=False, win=False, selected=False, out=False) -> str:
    """What a screen reader says for a tile picture: its name and its marks, in the page
    language ("三万（没把握）", "9 Dots (winning tile)")."""
    on = {"unsure": unsure, "win": win, "selected": selected, "out": out}
    marks = [key for key, v in on.items() if v]
    if not marks:
        return name(code)
    return t("tile.spoken", name=name(code), marks=t("punct.list").join(t(f"tile.mark.{m}") for m in marks))


def short(code: str) -> str:
    """A compact ASCII label for boxes on the photo (no font needed): 5p, E, Rd, Gn, Wh."""
    return {"C": "Rd", "F": "Gn", "P": "Wh", BACK: "bk", FLOWER: "fl"}.get(code, code)


@cache
def data_uri(code: str) -> str:
    """The tile's picture as a `data:` URI (PNG from `app/assets/`)."""
    fname = f"tile-{code}.png" if code in CODES else ("tile-back.png" if code == BACK else "tile-unknown.png")
    data = (ASSETS / fname).read_bytes()
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


def label(code: str, alt: str | None = None) -> str:
    """A Markdown image usable as a button label (the CSS makes it tile-sized); its alt text,
    the button's accessible name, is `alt` (`spoken`), else the tile's name."""
    text = (alt if alt is not None else name(code)).translate(_MD_ALT)
    return f"![{text}]({data_uri(code)})"


_MD_ALT = str.maketrans({"[": "(", "]": ")", "\\": "/"})  # nothing that ends a Markdown alt text


def tile_flags(unsure: bool, *, win: bool = False, selected: bool = False) -> str:
    """The marks of a tile button, carried in its key for the CSS (`app.ui.style`): `_WIN` the
    winning tile (gold), `_LOW` unsure (red dashed), `_SEL` selected (blue); a winning or
    selected tile that is unsure shows both marks (the red dashed border inside the ring).

    >>> tile_flags(True, win=True)
    '_WIN_LOW'
    """
    return ("_WIN" if win else "") + ("_LOW" if unsure else "") + ("_SEL" if selected else "")


def row_html(codes: list[str], *, win: int | None = None, size: str = "md", grey: bool = False) -> str:
    """A row of tile pictures; `win` marks the winning tile (index into `codes`)."""
    parts = []
    for i, c in enumerate(codes):
        cls = "jx-tile" + (" jx-win" if i == win else "")
        said = html.escape(spoken(c, win=i == win))
        parts.append(f'<img class="{cls}" src="{data_uri(c)}" alt="{said}" title="{said}">')
    grey_cls = " jx-grey" if grey else ""
    return f'<span class="jx-row jx-{size}{grey_cls}">{"".join(parts)}</span>'


def groups_html(
    groups: list[tuple[str, list[str]]], *, win_tile: str | None = None, size: str = "md", wrap: bool = True
) -> str:
    """Several groups side by side with a caption under each (the decomposition, examples);
    the first copy of `win_tile` is framed."""
    out = []
    marked = False
    for caption, codes in groups:
        win = None
        if win_tile is not None and not marked and win_tile in codes:
            win, marked = codes.index(win_tile), True
        out.append(
            f'<span class="jx-group">{row_html(codes, win=win, size=size)}'
            f'<span class="jx-cap">{html.escape(caption)}</span></span>'
        )
    return f'<div class="jx-groups">{"".join(out)}</div>' if wrap else "".join(out)


__all__ = [
    "ASSETS",
    "CODES",
    "data_uri",
    "groups_html",
    "label",
    "name",
    "row_html",
    "short",
    "spoken",
    "tile_flags",
]
