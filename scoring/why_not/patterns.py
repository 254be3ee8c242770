"""Why-not of every pattern key of the rule tables (DECISIONS §1.3 table, §2 table).

Each function names what this hand lacks for its pattern, in English and Chinese, from the tiles
(tile names, never codes), or returns ``None`` when the pattern's own condition holds here.
"""

from __future__ import annotations

from scoring.tiles import SUIT_ZH, SUITS, Tile
from scoring.why_not.base import Facts, Said, because
from scoring.why_not.words import count_en, count_zh, meld_en, meld_zh, tiles_en, tiles_zh

_SUIT_ZH = tuple(SUIT_ZH[s] for s in SUITS)  # 万 筒 条
_SUIT_EN = ("Characters", "Dots", "Bamboo")
C, P = int(Tile.C), int(Tile.P)


def _other_suits(x: Facts) -> list[int]:
    """The kinds outside the suit the winner holds most of."""
    suits = x.suits()
    if len(suits) <= 1:
        return []
    main = max(suits, key=lambda s: sum(x.held[t] for t in suits[s]))
    return [t for s, ts in suits.items() if s != main for t in ts]


def _two_suits(x: Facts) -> Said:
    others = _other_suits(x)
    if others:
        return f"more than one suit: {tiles_en(others)}", f"不止一种花色：{tiles_zh(others)}"
    return None


@because("half_flush", "one suit plus honour tiles", "一种花色加字牌")
def half_flush(x: Facts) -> Said:
    if not x.suits():
        return "no suited tile at all: all honours", "没有一张数牌，全是字牌"
    if not x.honours():
        return "no honour tile (one suit alone is a full flush)", "没有字牌（只一种花色是清一色）"
    return _two_suits(x)


@because("full_flush", "one suit only, no honours", "只有一种花色、没有字牌")
def full_flush(x: Facts) -> Said:
    said = _two_suits(x)
    if said is None and x.honours() and not (x.rules.all_honours_free_shape and not x.suits()):
        return f"honour tiles: {tiles_en(x.honours())}", f"有字牌：{tiles_zh(x.honours())}"
    if said is None and x.rules.all_honours_free_shape and not x.suits() and x.melds:
        return "all honours, but with melds down", "全是字牌，但有碰或杠"
    return said


@because("all_honours", "every tile an honour", "全是字牌")
def all_honours(x: Facts) -> Said:
    suited = [t for t in x.kinds if t < 27]
    return (f"suited tiles: {tiles_en(suited)}", f"有数牌：{tiles_zh(suited)}") if suited else None


def _not_pairs(x: Facts) -> Said:
    if x.melds:
        m = x.melds[0]
        return f"{meld_en(m)} is down: all fourteen tiles must stand", f"有{meld_zh(m)}：十四张要都在手里"
    odd = [t for t, n in enumerate(x.standing) if n % 2]
    if odd:
        return f"{tiles_en(odd)} not paired", f"{tiles_zh(odd)}不成对"
    return None


@because("seven_pairs", "seven pairs, all fourteen tiles in the hand", "十四张都在手里、成七对")
def seven_pairs(x: Facts) -> Said:
    return _not_pairs(x)


@because("luxury_seven_pairs", "seven pairs with four alike among them", "七对里有四张一样的")
def luxury_seven_pairs(x: Facts) -> Said:
    said = _not_pairs(x)
    if said is None and 4 not in x.standing:
        return "seven pairs, but no four alike", "是七对，但没有四张一样的"
    return said


@because(
    "seven_fairies",
    "seven consecutive pairs of one suit (1 to 7, 2 to 8 or 3 to 9)",
    "同一花色连续七对（一到七、二到八或三到九）",
)
def seven_fairies(x: Facts) -> Said:
    said = _not_pairs(x)
    if said is not None:
        return said
    said = _two_suits(x)
    if said is None and x.honours():
        return f"honour tiles: {tiles_en(x.honours())}", f"有字牌：{tiles_zh(x.honours())}"
    if said is None and (4 in x.standing or len(x.kinds) != 7 or x.kinds[-1] - x.kinds[0] != 6):
        return "the pairs are not seven ranks in a row", "对子不是连续七个点数"
    return said


@because("all_pungs", "four pungs or kongs and a pair", "四副刻子或杠加一对")
def all_pungs(x: Facts) -> Said:
    chow = next((m for m in x.melds if m.kind == "chow"), None)
    if chow is not None:
        return f"{meld_en(chow)} is down", f"有{meld_zh(chow)}"
    loose = [t for t, n in enumerate(x.standing) if n in (1, 4)]
    pairs = [t for t, n in enumerate(x.standing) if n == 2]
    if loose or len(pairs) > 1:
        odd = loose or pairs[1:]
        return f"{tiles_en(odd)} not in a pung", f"{tiles_zh(odd)}不成刻子"
    return None


@because(
    "pure_straight", "1-2-3, 4-5-6 and 7-8-9 of one suit as runs", "同一花色一二三、四五六、七八九三副顺子"
)
def pure_straight(x: Facts) -> Said:
    best = None
    for s in range(3):
        lacking = [s * 9 + r for r in range(9) if not x.held[s * 9 + r]]
        if best is None or len(lacking) < len(best[1]):
            best = (s, lacking)
    assert best is not None
    s, lacking = best
    if lacking:
        return (
            f"even in {_SUIT_EN[s]} it lacks {tiles_en(lacking)}",
            f"就连{_SUIT_ZH[s]}子也缺{tiles_zh(lacking)}",
        )
    return None


@because(
    "all_melded",
    "four exposed melds, the last tile paired on a discard",
    "四副副露，胡别人打的牌配成将",
    family="pao",
)
def all_melded(x: Facts) -> Said:
    exposed = [m for m in x.melds if m.is_exposed]
    if len(exposed) < 4:
        hidden = len(x.melds) - len(exposed)
        extra = (", a concealed kong is no exposed meld", "，暗杠不算") if hidden else ("", "")
        return (
            f"{len(exposed)} exposed meld(s){extra[0]}",
            (f"只有 {len(exposed)} 副副露" if exposed else "没有副露") + extra[1],
        )
    if x.checked.self_drawn:
        return "self-drawn: the last tile must come from a discard", "是自摸，要胡别人打的牌"
    return None


@because(
    "all_melded",
    "four melds down, the pair tile self-drawn",
    "四副落地，自摸配成将",
    family="fan",
)
def all_melded_fan(x: Facts) -> Said:
    counted = [m for m in x.melds if m.is_exposed or x.rules.options.all_melded_counts_concealed_kong]
    if len(counted) < 4:
        return f"{len(counted)} meld(s) down", f"只有 {len(counted)} 副落地" if counted else "没有落地的副"
    return None


@because("red_flag", "pungs or kongs of both Red and White dragons", "红中和白板都成刻子或杠")
def red_flag(x: Facts) -> Said:
    lacking = [t for t in (C, P) if x.held[t] < 3]
    if not lacking:
        if not x.melds and x.standing[C] == 4 and x.standing[P] == 4:
            if not x.rules.options.red_flag_in_seven_pairs:
                return (
                    "four of each held as pairs: in seven pairs that is not red flags here",
                    "四张红中四张白板当对子：本玩法七对不算红旗飘飘",
                )
        return None
    return " and ".join(count_en(x.held[t], t) for t in lacking), "、".join(
        count_zh(x.held[t], t) for t in lacking
    )


# ---- xinyu multipliers that are rows of its pattern table (DECISIONS §2) ----
@because(
    "concealed",
    "no pung and no kong of any kind (a concealed kong too)",
    "没有碰、没有任何杠（暗杠也算）",
    "fan",
)
def concealed_fan(x: Facts) -> Said:
    if x.melds:
        m = x.melds[0]
        return f"{meld_en(m)}", f"有{meld_zh(m)}"
    if (
        x.result is not None
        and x.result.shape == "seven_pairs"
        and not x.rules.options.concealed_with_seven_pairs
    ):
        return "seven pairs never count as concealed here", "七对不算门清"
    return None


@because("kong", "at least one kong", "至少一副杠", "fan")
def kong_fan(x: Facts) -> Said:
    return None if any(m.is_kong for m in x.melds) else ("no kong", "没有杠")


# ---- event patterns: the way the hand was won (the input's events) ----
def _event(key: str, en: str, zh: str) -> None:
    def missing(x: Facts) -> Said:
        if key in x.events:
            return None
        return "the way the hand was won (its events) does not say so", "胡牌方式里没有选它"

    missing.__name__ = key
    because(key, en, zh)(missing)


for _key, _en, _zh in (
    ("kong_bloom", "self-drawn on the replacement tile after your own kong", "自己开杠后摸补牌自摸胡"),
    ("robbing_kong", "won on the tile another player adds to a pung", "胡别人补杠的那张牌"),
    ("kong_discard", "won on the discard right after another player's kong", "胡别人开杠后打出的牌"),
    ("last_tile_draw", "self-drawn the last tile of the wall", "自摸墙上最后一张牌"),
    ("last_tile_discard", "won on the forced discard of the last tile", "胡最后一张牌被打出的那张"),
    ("heavenly", "the dealer wins on the first fourteen tiles", "庄家起手十四张就胡"),
    ("earthly", "a non-dealer wins on the dealer's first discard", "闲家胡庄家打的第一张牌"),
    ("ready_declared", "won after declaring ready at the start", "开局报听后胡"),
):
    _event(_key, _en, _zh)
