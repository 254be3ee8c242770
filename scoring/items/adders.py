"""Wait and condition adders (DECISIONS §1.3): 自摸, 门清, 边, 卡, 单钓.

Each counts once, at the largest value any holding flower pattern gives it (``adders`` of its
``[patterns.*]`` row; ``[basic.adders]`` for 平胡), and not at all when a holding pattern
excludes it for the whole hand (``[adder_rules] <adder>_excluded_by``, §1.3a). Beside each, its
why-not (:func:`~scoring.items.lacks.because`): what a hand lacks for it.
"""

from __future__ import annotations

from scoring.items.base import PAO, Ctx, register
from scoring.items.lacks import Facts, Said, because
from scoring.items.words import meld_en, meld_zh, run_en, run_zh, tile_en, tile_zh, tiles_en, tiles_zh
from scoring.tiles import Tile, format_tiles

__all__ = ["adder_value"]

_EMPTY: frozenset[str] = frozenset()
_WAIT_NAMES = {"edge_wait": ("edge wait", "边张"), "closed_wait": ("closed wait", "卡张")}


def _wait_text(x: Ctx, key: str) -> tuple[str, str]:
    """The wait in the real tiles of the winning block (``卡张：13m听2m``; Chinese text and the app
    write the codes as names, 一三万听二万), the words of the wait line above the items."""
    win = x.reading.facts.win
    w = Tile(win).code
    if key == "single_wait":
        return f"single wait: {w} completes the pair", f"单钓：{w}配成将"
    assert x.reading.win_block is not None  # an edge / closed wait completes a chow
    start = x.reading.win_block[1]
    rest = format_tiles([t for t in (start, start + 1, start + 2) if t != win])
    en, zh = _WAIT_NAMES[key]
    return f"{en}: {rest} waiting on {w}", f"{zh}：{rest}听{w}"


def adder_value(x: Ctx, adder: str) -> int:
    """The adder's value in this reading: 0 when excluded, else the largest a holding pattern
    gives (the 平胡 value when none holds)."""
    rules = x.rules
    if x.holding:
        # DECISIONS §1.3a: an exclusion holds for the WHOLE hand — 天胡 + 混一色 gets no 门清 or
        # 单钓 although 混一色 alone gives them; 七仙女 / 杠上开花 / 海底捞月 shut out 自摸 even
        # under 清一色. So any one excluding pattern zeroes the adder, before the maximum is taken.
        if set(x.holding) & rules.exclusions.get(adder, _EMPTY):
            return 0
        pats = rules.patterns
        return int(max(pats[k].adders.get(adder, 0) for k in x.holding))
    return int(rules.basic.get("adders", {}).get(adder, 0))


def _one(x: Ctx, key: str, reason: tuple[str, str]) -> list[tuple[tuple[str, str], int]]:
    v = adder_value(x, key)
    return [(reason, v)] if v else []


@register(PAO, "self_drawn", kind="adder")
def self_drawn(x: Ctx) -> list[tuple[tuple[str, str], int]]:
    """自摸: won on own draw (§1.3); 杠上开花 / 海底捞月 exclude it (paid as self-draws)."""
    return _one(x, "self_drawn", ("won on own draw", "自摸")) if x.reading.facts.self_drawn else []


@because("self_drawn", "the winning tile drawn by yourself", "胡的牌是自己摸的")
def self_drawn_lacks(x: Facts) -> Said:
    if x.self_drawn:
        return None
    return "won on another player's discard", "胡的是别人打的牌（放炮）"


@register(PAO, "concealed", kind="adder")
def concealed(x: Ctx) -> list[tuple[tuple[str, str], int]]:
    """门清: no exposed meld; concealed kongs keep it (§1.3)."""
    f = x.reading.facts
    if f.exposed:
        return []
    kongs = f.n_melds > 0
    why = (
        "no exposed meld" + (" (concealed kongs keep it)" if kongs else ""),
        "没有明牌" + ("（暗杠不破门清）" if kongs else ""),
    )
    return _one(x, "concealed", why)


@because(
    "concealed",
    "no pung, exposed kong, added kong or chow (a concealed kong is fine)",
    "没有碰、明杠、补杠或吃（暗杠不影响）",
    family="pao",
)
def concealed_lacks(x: Facts) -> Said:
    shown = next((m for m in x.melds if m.is_exposed), None)
    if shown is None:
        return None
    return f"{meld_en(shown)} is down", f"有{meld_zh(shown)}"


def _wait(x: Ctx, key: str) -> list[tuple[tuple[str, str], int]]:
    """边/卡/单钓 (§1.3): the winning block's wait, only when the hand waited on one tile kind
    (独听) unless ``wait_bonus_needs_single_wait`` is false."""
    if x.reading.wait != key.removesuffix("_wait"):
        return []
    if not x.rules.options.wait_bonus_needs_single_wait:
        return _one(x, key, _wait_text(x, key))
    if x.n_waits != 1:
        return []
    en, zh = _wait_text(x, key)
    return _one(x, key, (en + ", the only tile waited on", zh + "，只听这一张"))


@register(PAO, "edge_wait", kind="adder")
def edge_wait(x: Ctx) -> list[tuple[tuple[str, str], int]]:
    """边张: 12 + 3 or 89 + 7 (§1.3)."""
    return _wait(x, "edge_wait")


@register(PAO, "closed_wait", kind="adder")
def closed_wait(x: Ctx) -> list[tuple[tuple[str, str], int]]:
    """卡张: 13 + 2 (§1.3)."""
    return _wait(x, "closed_wait")


@register(PAO, "single_wait", kind="adder")
def single_wait(x: Ctx) -> list[tuple[tuple[str, str], int]]:
    """单钓: the winning tile completes the pair (§1.3); 全求人 excludes it."""
    return _wait(x, "single_wait")


def _wait_lacks(x: Facts, kind: str) -> Said:
    """The one-tile waits (边 卡 单钓): waiting on several kinds, or the winning tile completes
    another block (§1.3 definitions, option ``wait_bonus_needs_single_wait``)."""
    r = x.result
    if r is None or r.winning_tile is None:
        return "no winning tile", "没有胡的那张牌"
    waits = r.waits
    if x.rules.options.wait_bonus_needs_single_wait and len(waits) > 1:
        return (
            f"waiting on {len(waits)} kinds: {tiles_en(waits, 4)}",
            f"听{len(waits)}种牌：{tiles_zh(waits, 4)}",
        )
    win = int(r.winning_tile)
    block = next((b for b in r.decomposition if b.winning), None)
    w_en, w_zh = tile_en(win), tile_zh(win)
    if block is None or r.shape == "seven_pairs":
        return "seven pairs have no such wait", "七对没有这种听法"
    tiles = [int(t) for t in block.tiles]
    if block.kind == "pair":
        got, said = "single", (f"{w_en} completes the pair", f"{w_zh}配成将")
    elif block.kind != "chow":
        got, said = "pung", (f"{w_en} completes a pung", f"{w_zh}配成刻子")
    elif win == tiles[1]:
        got, said = (
            "closed",
            (f"{w_en} is the middle of {run_en(tiles)}", f"{w_zh}是{run_zh(tiles)}的中间一张"),
        )
    elif (tiles[0] % 9 == 0 and win == tiles[2]) or (tiles[2] % 9 == 8 and win == tiles[0]):
        got, said = "edge", (f"{w_en} is the edge of {run_en(tiles)}", f"{w_zh}是{run_zh(tiles)}的边张")
    else:
        got, said = "open", (f"{w_en} ends the open run {run_en(tiles)}", f"{w_zh}是两头听的{run_zh(tiles)}")
    return None if got == kind else said


@because(
    "edge_wait",
    "one tile waited on, 1-2 waiting on 3 or 8-9 waiting on 7",
    "只听一张，一二听三或八九听七",
)
def edge_wait_lacks(x: Facts) -> Said:
    return _wait_lacks(x, "edge")


@because("closed_wait", "one tile waited on, the middle of a run", "只听一张，顺子中间那张")
def closed_wait_lacks(x: Facts) -> Said:
    return _wait_lacks(x, "closed")


@because("single_wait", "one tile waited on, the one that pairs", "只听一张，胡的牌配成将")
def single_wait_lacks(x: Facts) -> Said:
    return _wait_lacks(x, "single")
