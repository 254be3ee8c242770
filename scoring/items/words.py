"""Words of the why-not lines: tile and meld names in Chinese and in English, never tile codes
(``三万``, ``3 Characters``; issue 25 item 6: no ``234m`` in a sentence for players)."""

from __future__ import annotations

from collections.abc import Iterable

from scoring.model import Meld
from scoring.tiles import Tile

__all__ = [
    "count_en",
    "count_zh",
    "meld_en",
    "meld_zh",
    "run_en",
    "run_zh",
    "tile_en",
    "tile_zh",
    "tiles_en",
    "tiles_zh",
]

_SUIT_EN = {"m": "Characters", "p": "Dots", "s": "Bamboo"}
_HONOUR_EN = {
    "E": "East wind", "S": "South wind", "W": "West wind", "N": "North wind",
    "C": "Red dragon", "F": "Green dragon", "P": "White dragon",
}  # fmt: skip
_HONOUR_ZH = {"C": "红中", "F": "發", "P": "白板"}
_KIND_ZH = {"pung": "碰", "kong": "明杠", "added_kong": "补杠", "concealed_kong": "暗杠", "chow": "吃"}
_KIND_EN = {
    "pung": "pung", "kong": "exposed kong", "added_kong": "added kong",
    "concealed_kong": "concealed kong", "chow": "chow",
}  # fmt: skip


def tile_zh(t: int) -> str:
    """``三万``, ``九筒``, ``红中``, ``东``."""
    tile = Tile(t)
    return _HONOUR_ZH.get(tile.code, tile.zh)


def tile_en(t: int) -> str:
    """``3 Characters``, ``9 Dots``, ``Red dragon``."""
    tile = Tile(t)
    if tile.is_honour:
        return _HONOUR_EN[tile.code]
    return f"{tile.rank} {_SUIT_EN[tile.suit]}"


def _distinct(tiles: Iterable[int]) -> list[int]:
    return list(dict.fromkeys(int(t) for t in tiles))


def tiles_zh(tiles: Iterable[int], most: int = 3) -> str:
    """Distinct tiles, at most ``most`` named: ``三万、五筒…``."""
    seen = _distinct(tiles)
    return "、".join(tile_zh(t) for t in seen[:most]) + ("…" if len(seen) > most else "")


def tiles_en(tiles: Iterable[int], most: int = 3) -> str:
    """Distinct tiles, at most ``most`` named: ``3 Characters, 5 Dots…``."""
    seen = _distinct(tiles)
    return ", ".join(tile_en(t) for t in seen[:most]) + ("…" if len(seen) > most else "")


def run_zh(tiles: Iterable[int]) -> str:
    """A run of one suit: ``一二三万``."""
    ts = [Tile(t) for t in tiles]
    return "".join(t.zh[:-1] for t in ts) + ts[0].zh[-1]


def run_en(tiles: Iterable[int]) -> str:
    """A run of one suit: ``1-2-3 Characters``."""
    ts = [Tile(t) for t in tiles]
    return f"{'-'.join(str(t.rank) for t in ts)} {_SUIT_EN[ts[0].suit]}"


def count_zh(n: int, t: int) -> str:
    """How many of a tile: ``没有红中``, ``白板只有2张``."""
    return f"没有{tile_zh(t)}" if n == 0 else f"{tile_zh(t)}只有{n}张"


def count_en(n: int, t: int) -> str:
    """How many of a tile: ``no Red dragon``, ``only 2 White dragons``."""
    return f"no {tile_en(t)}" if n == 0 else f"only {n} {tile_en(t)}{'s' if n > 1 else ''}"


def meld_zh(m: Meld) -> str:
    """``碰三万``, ``吃六条七条八条``, ``暗杠红中``."""
    shown = run_zh(m.tiles) if m.kind == "chow" else tile_zh(m.tile)
    return f"{_KIND_ZH[m.kind]}{shown}"


def meld_en(m: Meld) -> str:
    """``a pung of 3 Characters``, ``a chow of 6-7-8 Bamboo``."""
    if m.kind == "chow":
        return f"a chow of {run_en(m.tiles)}"
    article = "an" if _KIND_EN[m.kind][0] in "aeiou" else "a"
    return f"{article} {_KIND_EN[m.kind]} of {tile_en(m.tile)}"
