"""Tile kinds, their names in the current language, and their pictures.

Codes follow the project notation (`1m`..`9m`, `1p`..`9p`, `1s`..`9s`, `E S W N`, `C` 中,
`F` 發, `P` 白); `?` is a tile the photo could not name, `back` a face-down tile.
"""

from __future__ import annotations

import base64
import html
from functools import cache
from pathlib import Path

from app.ui.i18n import t
from scoring import parse_tiles

ASSETS = Path(__file__).resolve().parent.parent / "assets"
SUITS = ("m", "p", "s")
SUITED = tuple(f"{r}{s}" for s in SUITS for r in range(1, 10))
WINDS = ("E", "S", "W", "N")
DRAGONS = ("C", "F", "P")
ALL = SUITED + WINDS + DRAGONS
UNKNOWN = "?"
_ZH_RANK = "一二三四五六七八九"


def kinds_for(variant: str) -> tuple[str, ...]:
    """Tiles that may stand in a hand of this variant (JJ/XZ: no winds; 發 is set aside)."""
    if variant == "xinyu":
        return ALL
    return (*SUITED, "C", "P")


def name(code: str) -> str:
    """`五筒` / `5 Dots`, `中` / `Red dragon`."""
    if code in SUITED:
        rank, suit = int(code[0]), code[1]
        return t(f"tile.suit.{suit}", rank=rank, zh_rank=_ZH_RANK[rank - 1])
    return t(f"tile.{code}" if code in WINDS + DRAGONS else "tile.unknown")


def short(code: str) -> str:
    """A compact label for boxes on the photo (ASCII, no font needed): 5p, E, Rd, Gn, Wh."""
    return {"C": "Rd", "F": "Gn", "P": "Wh", "back": "bk", "flower": "fl"}.get(code, code)


@cache
def data_uri(code: str) -> str:
    fname = f"tile-{code}.png" if code in ALL else ("tile-back.png" if code == "back" else "tile-unknown.png")
    data = (ASSETS / fname).read_bytes()
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


def label(code: str) -> str:
    """A Markdown image usable as a button label (the CSS makes it tile-sized)."""
    return f"![{code}]({data_uri(code)})"


def row_html(
    codes: list[str], *, win: int | None = None, size: str = "md", sideways: int | None = None
) -> str:
    """A row of tile pictures as HTML; `win` marks the winning tile."""
    parts = []
    for i, c in enumerate(codes):
        cls = "jx-tile" + (" jx-win" if i == win else "") + (" jx-side" if i == sideways else "")
        parts.append(
            f'<img class="{cls}" src="{data_uri(c)}" alt="{html.escape(c)}" title="{html.escape(name(c))}">'
        )
    return f'<span class="jx-row jx-{size}">{"".join(parts)}</span>'


def groups_html(
    groups: list[tuple[str, list[str]]], *, win_tile: str | None = None, size: str = "md", wrap: bool = True
) -> str:
    """Several groups side by side with a caption under each (the decomposition, examples)."""
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


def parse(text: str) -> list[str]:
    """`123m45p77sCCP` -> ['1m','2m','3m','4p','5p','7s','7s','C','C','P'].

    The engine's parser does the reading, so Chinese names (一万, 东, 發) and full-width
    digits are accepted and `5z` gets its explanation. Raises ValueError naming the problem.
    """
    return [str(tile) for tile in parse_tiles(text)]


def to_string(codes: list[str]) -> str:
    """['1m','2m','5p','C'] -> '12m5pC' (the score-JSON tile string)."""
    out = []
    run_suit, run = "", ""
    for c in codes:
        if c in SUITED:
            if c[1] != run_suit and run:
                out.append(run + run_suit)
                run = ""
            run_suit = c[1]
            run += c[0]
        else:
            if run:
                out.append(run + run_suit)
                run, run_suit = "", ""
            out.append(c)
    if run:
        out.append(run + run_suit)
    return "".join(out)


def sort_key(code: str) -> tuple[int, int]:
    return (ALL.index(code), 0) if code in ALL else (len(ALL), 0)
