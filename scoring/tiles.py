"""Tiles, tile notation and count vectors (DECISIONS §0).

Notation: suits `m` 万 characters, `p` 筒/饼 dots, `s` 条/索 bamboo, ranks 1-9 written before
their suit letter (`123m456p789s`); honours are single upper-case letters `E S W N` (东南西北)
and `C F P` (中 發 白). Chinese is accepted on input: 一万 / 1万 / 萬, 筒 / 饼, 条 / 索,
东 南 西 北, 中 / 红中, 发 / 發 / 发财, 白 / 白板. `5z`-style honours are rejected because
riichi tools read 5z as 白 while Chinese (Guobiao) tools read it as 中.

A tile is a :class:`Tile` (an ``IntEnum``, 0-33): it indexes count vectors of length 34
directly (0-8 m, 9-17 p, 18-26 s, 27-33 E S W N C F P).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from enum import IntEnum

from scoring.errors import AMBIGUOUS_HONOUR, BAD_FIELD, UNKNOWN_TILE, HandError

__all__ = [
    "ALL_TILES",
    "HONOURS",
    "NUM_KINDS",
    "RANK_ZH",
    "SUITS",
    "SUIT_EN",
    "SUIT_ZH",
    "TILE_CODES",
    "Tile",
    "counts_of",
    "format_tiles",
    "parse_tile",
    "parse_tiles",
    "tile_of",
    "tiles_of",
]

NUM_KINDS = 34
SUITS = "mps"
HONOURS = "ESWNCFP"
#: Chinese name of each suit letter (``z`` = 字, the honours).
SUIT_ZH = {"m": "万", "p": "筒", "s": "条", "z": "字"}
_HONOUR_ZH = {"E": "东", "S": "南", "W": "西", "N": "北", "C": "中", "F": "發", "P": "白"}
_HONOUR_EN = {
    "E": "East wind",
    "S": "South wind",
    "W": "West wind",
    "N": "North wind",
    "C": "Red dragon",
    "F": "Green dragon",
    "P": "White dragon",
}
#: English name of each suit letter, as a tile's name says it (``5 Dots``).
SUIT_EN = {"m": "Characters", "p": "Dots", "s": "Bamboo"}
#: Chinese numerals of the ranks 1-9 (五 of 五万).
RANK_ZH = "一二三四五六七八九"
#: The characters a tile name writes otherwise in traditional script (萬 條 東; 發 is both).
_TRADITIONAL = str.maketrans("万条东", "萬條東")


class Tile(IntEnum):
    """One tile kind. ``Tile.M1`` = 1m 一万 … ``Tile.P`` = 白 (white dragon)."""

    M1 = 0
    M2 = 1
    M3 = 2
    M4 = 3
    M5 = 4
    M6 = 5
    M7 = 6
    M8 = 7
    M9 = 8
    P1 = 9
    P2 = 10
    P3 = 11
    P4 = 12
    P5 = 13
    P6 = 14
    P7 = 15
    P8 = 16
    P9 = 17
    S1 = 18
    S2 = 19
    S3 = 20
    S4 = 21
    S5 = 22
    S6 = 23
    S7 = 24
    S8 = 25
    S9 = 26
    E = 27
    S = 28
    W = 29
    N = 30
    C = 31
    F = 32
    P = 33

    @property
    def is_honour(self) -> bool:
        """Winds and dragons."""
        return self >= 27

    @property
    def suit(self) -> str:
        """`m`, `p`, `s`, or `z` for an honour (internal only; never accepted on input)."""
        return "z" if self >= 27 else SUITS[self // 9]

    @property
    def rank(self) -> int:
        """1-9 for suited tiles, 0 for honours."""
        return 0 if self >= 27 else self % 9 + 1

    @property
    def code(self) -> str:
        """The tile in project notation: `5m`, `E`, `C`."""
        return HONOURS[self - 27] if self >= 27 else f"{self % 9 + 1}{SUITS[self // 9]}"

    @property
    def zh(self) -> str:
        """The Chinese name: 五万, 东, 中."""
        if self >= 27:
            return _HONOUR_ZH[HONOURS[self - 27]]
        return RANK_ZH[self % 9] + SUIT_ZH[SUITS[self // 9]]

    @property
    def en(self) -> str:
        """The English name: ``5 Dots``, ``East wind``, ``Green dragon`` (the English page writes
        an honour's Chinese beside it: ``Green dragon 發``)."""
        if self >= 27:
            return _HONOUR_EN[HONOURS[self - 27]]
        return f"{self % 9 + 1} {SUIT_EN[SUITS[self // 9]]}"

    @property
    def zh_traditional(self) -> str:
        """:attr:`zh` in traditional characters (五萬, 東, 中), as printed on the tiles."""
        return self.zh.translate(_TRADITIONAL)

    def __str__(self) -> str:
        return self.code


ALL_TILES: tuple[Tile, ...] = tuple(Tile)
#: The 34 tile codes in tile order (``1m`` … ``P``).
TILE_CODES: tuple[str, ...] = tuple(t.code for t in ALL_TILES)
_BY_CODE: dict[str, Tile] = {t.code: t for t in ALL_TILES}

_SUIT_CHARS = {
    "m": "m",
    "万": "m",
    "萬": "m",
    "p": "p",
    "筒": "p",
    "饼": "p",
    "餅": "p",
    "s": "s",
    "条": "s",
    "條": "s",
    "索": "s",
}
_HONOUR_CHARS = {
    "E": Tile.E,
    "S": Tile.S,
    "W": Tile.W,
    "N": Tile.N,
    "C": Tile.C,
    "F": Tile.F,
    "P": Tile.P,
    "东": Tile.E,
    "東": Tile.E,
    "南": Tile.S,
    "西": Tile.W,
    "北": Tile.N,
    "中": Tile.C,
    "发": Tile.F,
    "發": Tile.F,
    "白": Tile.P,
}
# Multi-character Chinese names, folded before parsing.
_ALIASES = (
    ("红中", "中"),
    ("紅中", "中"),
    ("发财", "发"),
    ("發財", "发"),
    ("发財", "发"),
    ("白板", "白"),
    ("东风", "东"),
    ("東風", "东"),
    ("南风", "南"),
    ("南風", "南"),
    ("西风", "西"),
    ("西風", "西"),
    ("北风", "北"),
    ("北風", "北"),
)
_DIGITS = {str(d): d for d in range(10)} | {c: i + 1 for i, c in enumerate(RANK_ZH)}
_SEPARATORS = set(" \t\n,，、;；|/")
_Z_MESSAGE = (
    "honours in 'z' notation ({text}) are ambiguous: riichi tools read 5z/6z/7z as 白/發/中, "
    "Chinese (Guobiao) tools as 中/發/白; write honours as the letters E S W N (the winds "
    "东南西北) and C F P (the dragons 中發白), or in Chinese"
)


_CLIP = 60


def _clip(text: str, *, quote: bool = True) -> str:
    """``text`` for an error message: quoted, and cut short when it is long (a 100k paste)."""
    if len(text) > _CLIP:
        text = f"{text[:_CLIP]}… ({len(text)} characters)"
    return repr(text) if quote else text


def _ranks(pending: list[int]) -> str:
    return _clip("".join(map(str, pending)), quote=False)


_FAST = re.compile(r"(?:[1-9]+[mps]|[ESWNCFP])*")
_GROUP = re.compile(r"[1-9]+[mps]|[ESWNCFP]")
_GROUP_CACHE: dict[str, tuple[Tile, ...]] = {}


def parse_tiles(text: str | Tile | Iterable[str | Tile]) -> list[Tile]:
    """Parse a tile string such as ``"123m456p789sCC"`` or ``"一万二万三万 东东"``.

    A list of tile strings/tiles is accepted too. Order is kept. Raises :class:`HandError`
    naming the offending characters (DECISIONS §0: `5z` is rejected as ambiguous).

    >>> [t.code for t in parse_tiles("123m 中中")]
    ['1m', '2m', '3m', 'C', 'C']
    >>> parse_tiles("5z")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scoring.errors.HandError: honours in 'z' notation ('5z') are ambiguous: ...
    """
    if isinstance(text, Tile):
        return [text]
    if not isinstance(text, str):
        out: list[Tile] = []
        for part in text:
            out.extend(parse_tiles(part))
        return out
    if text.isascii() and _FAST.fullmatch(text):
        out = []
        for group in _GROUP.findall(text):
            got = _GROUP_CACHE.get(group)
            if got is None:
                if group in _HONOUR_CHARS:
                    got = (_HONOUR_CHARS[group],)
                else:
                    base = SUITS.index(group[-1]) * 9
                    got = tuple(ALL_TILES[base + int(d) - 1] for d in group[:-1])
                if len(_GROUP_CACHE) < 4096:
                    _GROUP_CACHE[group] = got
            out.extend(got)
        return out
    src = text
    if not text.isascii():
        # Full-width letters and digits (１２３ｍ, typed with a Chinese IME) are plain ASCII tiles.
        src = unicodedata.normalize("NFKC", src)
        for alias, short in _ALIASES:
            src = src.replace(alias, short)
    tiles: list[Tile] = []
    pending: list[int] = []
    for ch in src:
        if ch in _DIGITS:
            rank = _DIGITS[ch]
            if rank == 0:
                raise HandError(
                    UNKNOWN_TILE,
                    f"tile rank 0 in {_clip(text)}: ranks run 1-9 (0 is the riichi red five, not used here)",
                )
            pending.append(rank)
        elif ch in _SUIT_CHARS:
            if not pending:
                raise HandError(
                    UNKNOWN_TILE,
                    f"suit {ch!r} without ranks in {_clip(text)}: write e.g. 123m, or in Chinese 一万",
                )
            base = SUITS.index(_SUIT_CHARS[ch]) * 9
            tiles.extend(ALL_TILES[base + r - 1] for r in pending)
            pending = []
        elif ch in _HONOUR_CHARS:
            if pending:
                raise HandError(
                    UNKNOWN_TILE,
                    f"ranks {_ranks(pending)} before honour {ch!r} in {_clip(text)} have no suit",
                )
            tiles.append(_HONOUR_CHARS[ch])
        elif ch in "zZ":
            raise HandError(AMBIGUOUS_HONOUR, _Z_MESSAGE.format(text=_clip(text)))
        elif ch in _SEPARATORS:
            if pending:
                raise HandError(UNKNOWN_TILE, f"ranks {_ranks(pending)} in {_clip(text)} have no suit letter")
        elif ch in "eswncf":
            raise HandError(
                UNKNOWN_TILE,
                f"unknown tile letter {ch!r} in {_clip(text)}: honours are upper-case E S W N C F P "
                "(lower-case m p s are suits)",
            )
        else:
            raise HandError(UNKNOWN_TILE, f"unknown tile character {ch!r} in {_clip(text)}")
    if pending:
        raise HandError(
            UNKNOWN_TILE, f"ranks {_ranks(pending)} in {_clip(text)} have no suit letter (m, p or s)"
        )
    return tiles


def tile_of(code: str) -> Tile | None:
    """The tile of a project code (``"5m"``, ``"C"``), ``None`` for any other text (``"?"``,
    ``"back"``): the non-raising lookup for a code that may be no tile.

    >>> tile_of("5p").rank, tile_of("5p").suit, tile_of("back")
    (5, 'p', None)
    """
    return _BY_CODE.get(code)


def parse_tile(text: str | Tile) -> Tile:
    """Parse exactly one tile (``"5m"``, ``"五万"``, ``"C"``).

    >>> parse_tile("五万"), parse_tile("红中").zh
    (<Tile.M5: 4>, '中')
    """
    if isinstance(text, Tile):
        return text
    got = _BY_CODE.get(text) if isinstance(text, str) else None
    if got is not None:
        return got
    if not isinstance(text, str):
        raise HandError(BAD_FIELD, f"a tile must be a string such as '5m' or 'C', not {type(text).__name__}")
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise HandError(UNKNOWN_TILE, f"expected exactly one tile, got {len(tiles)} in {_clip(text)}")
    return tiles[0]


def format_tiles(tiles: Iterable[int], *, sort: bool = False, sep: str = "") -> str:
    """Format tiles in project notation, grouping runs of one suit: ``123m45p CC`` → ``"123m45pCC"``.

    With ``sort=True`` the tiles are sorted first (suits m p s, then E S W N C F P).

    >>> format_tiles(parse_tiles("C5m4m"), sort=True)
    '45mC'
    """
    seq = sorted(tiles) if sort else list(tiles)
    parts: list[str] = []
    run: list[str] = []
    run_suit = ""
    for t in seq:
        t = int(t)
        if t >= 27:
            if run:
                parts.append("".join(run) + run_suit)
                run = []
            parts.append(HONOURS[t - 27])
            continue
        suit = SUITS[t // 9]
        if run and suit != run_suit:
            parts.append("".join(run) + run_suit)
            run = []
        run_suit = suit
        run.append(str(t % 9 + 1))
    if run:
        parts.append("".join(run) + run_suit)
    return sep.join(parts)


def counts_of(tiles: Iterable[int]) -> list[int]:
    """Count vector (length 34) of a tile sequence.

    >>> counts_of(parse_tiles("11m C"))[:2], counts_of(parse_tiles("C"))[Tile.C]
    ([2, 0], 1)
    """
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    return counts


def tiles_of(counts: Iterable[int]) -> list[Tile]:
    """Sorted tiles of a count vector."""
    out: list[Tile] = []
    for i, n in enumerate(counts):
        out.extend([ALL_TILES[i]] * n)
    return out
