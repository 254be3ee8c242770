"""Why-not of every adder, bonus and extra item (DECISIONS §1.3 definitions, bonus adders, extras).

Each function names what this hand lacks for its item, in English and Chinese, or returns
``None`` when the item's own condition holds here; the exclusions (杠上开花 removes 自摸, 报听
removes 门清, …) and the holding patterns' zero values are found by :func:`scoring.why_not.explain`.
"""

from __future__ import annotations

from scoring.items.words import (
    count_en,
    count_zh,
    meld_en,
    meld_zh,
    run_en,
    run_zh,
    tile_en,
    tile_zh,
    tiles_en,
    tiles_zh,
)
from scoring.tiles import Tile
from scoring.why_not.base import Facts, Said, because

C, P = int(Tile.C), int(Tile.P)


@because("self_drawn", "the winning tile drawn by yourself", "胡的牌是自己摸的")
def self_drawn(x: Facts) -> Said:
    if x.self_drawn:
        return None
    return "won on another player's discard", "胡的是别人打的牌（放炮）"


@because(
    "concealed",
    "no pung, exposed kong, added kong or chow (a concealed kong is fine)",
    "没有碰、明杠、补杠或吃（暗杠不影响）",
    family="pao",
)
def concealed(x: Facts) -> Said:
    shown = next((m for m in x.melds if m.is_exposed), None)
    if shown is None:
        return None
    return f"{meld_en(shown)} is down", f"有{meld_zh(shown)}"


def _wait(x: Facts, kind: str) -> Said:
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
def edge_wait(x: Facts) -> Said:
    return _wait(x, "edge")


@because("closed_wait", "one tile waited on, the middle of a run", "只听一张，顺子中间那张")
def closed_wait(x: Facts) -> Said:
    return _wait(x, "closed")


@because("single_wait", "one tile waited on, the one that pairs", "只听一张，胡的牌配成将")
def single_wait(x: Facts) -> Said:
    return _wait(x, "single")


@because("bonus_tile", "a Green dragon set aside", "摸到發放在面前")
def bonus_tile(x: Facts) -> Said:
    return None if x.bonus_tiles else ("none set aside", "面前没有發")


@because("four_bonus_tiles", "all four Green dragons set aside", "四张發都放在面前")
def four_bonus_tiles(x: Facts) -> Said:
    n = x.bonus_tiles
    return None if n == 4 else (f"{n} set aside", f"面前只有{n}张發" if n else "面前没有發")


@because("dragon_set", "a pung or kong of Red or White dragons", "红中或白板成刻子或杠")
def dragon_set(x: Facts) -> Said:
    if x.held[C] >= 3 or x.held[P] >= 3:
        return None
    return (
        f"{count_en(x.held[C], C)} and {count_en(x.held[P], P)}",
        f"{count_zh(x.held[C], C)}、{count_zh(x.held[P], P)}",
    )


@because("kong", "a kong of tiles other than Red or White dragons", "红中、白板以外的杠", family="pao")
def kong(x: Facts) -> Said:
    if any(m.is_kong and m.tile not in (C, P) for m in x.melds):
        return None
    quads = [t for t, n in enumerate(x.standing) if n == 4]
    if quads:
        return (
            f"four {tiles_en(quads)} stand, not declared as a kong",
            f"四张{tiles_zh(quads)}立在手里，没有开杠",
        )
    return "no kong", "没有杠"


def _pairs(x: Facts) -> Said:
    if x.melds or any(n % 2 for n in x.standing):
        return "not seven pairs", "不是七对"
    return None


def _runs(x: Facts) -> list[list[int]]:
    """Runs of consecutive same-suit ranks held as pairs (or quads)."""
    runs: list[list[int]] = []
    for t in range(27):
        if x.standing[t] >= 2:
            if runs and runs[-1][-1] == t - 1 and t % 9:
                runs[-1].append(t)
            else:
                runs.append([t])
    return runs


@because("pair_run", "three or more consecutive pairs of one suit in seven pairs", "七对里同花色连续三对以上")
def pair_run(x: Facts) -> Said:
    said = _pairs(x)
    if said is None and max((len(r) for r in _runs(x)), default=0) < 3:
        return "no three pairs in a row", "没有连续三对"
    return said


@because("pair_run_extra", "more than three consecutive pairs in such a run", "连续的对子超过三对")
def pair_run_extra(x: Facts) -> Said:
    said = _pairs(x)
    longest = max((len(r) for r in _runs(x)), default=0)
    if said is None and longest < 4:
        return f"the longest run has {longest} pair(s)", f"最长只连{longest}对"
    return said


@because("luxury", "four alike used as two pairs in seven pairs", "七对里四张一样的当两对")
def luxury(x: Facts) -> Said:
    said = _pairs(x)
    if said is None and 4 not in x.standing:
        return "no four alike", "没有四张一样的"
    return said


@because(
    "pung_run", "three or more consecutive pungs of one suit in all pungs", "碰碰胡里同花色连续三副刻子以上"
)
def pung_run(x: Facts) -> Said:
    if "all_pungs" not in x.have:
        return "not all pungs", "不是碰碰胡"
    sets = sorted(
        {m.tile for m in x.melds if m.kind != "chow"} | {t for t, n in enumerate(x.standing) if n >= 3}
    )
    longest = run = 0
    for i, t in enumerate(sets):
        run = run + 1 if i and t == sets[i - 1] + 1 and t < 27 and t % 9 else 1
        longest = max(longest, run)
    if longest < 3:
        return "no three pungs in a row", "没有连续三副刻子"
    return None
