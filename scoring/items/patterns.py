"""Jiujiang / xingzi flower patterns (花) — DECISIONS §1.3 table — and 平胡.

One predicate per key of ``[patterns.*]`` in ``jiujiang.toml`` / ``xingzi.toml``; the values
(base 炮, adders, what a pattern replaces) are in the tables, never here. ``red_flag`` and
``ready_declared`` are also what the winner eats from a payer (吃炮, §1.5): then the reading is
the payer's melds (shape ``"payer"``).
"""

from __future__ import annotations

from scoring.items.base import PAO, Ctx, Reading, register
from scoring.tiles import SUIT_ZH, Tile, format_tiles

__all__ = ["DRAGONS"]

C, P = int(Tile.C), int(Tile.P)
DRAGONS = (C, P)  # 中 and 白: the sets that earn bonus / red flags (發 is a bonus tile)


def _one_suit(r: Reading) -> bool:
    return len(r.facts.suits) == 1


@register(PAO, "basic", kind="basic")
def basic(x: Ctx) -> list[tuple[str, int]]:
    """平胡: 1 when no flower pattern holds (§1.3); the value is ``[basic] points``."""
    if x.holding:
        return []
    return [(("no flower pattern (平胡)", "无花（平胡）"), int(x.rules.basic.get("points", 1)))]


@register(
    PAO,
    "half_flush",
    lambda r: (f"one suit ({r.facts.suit_name()}) plus the dragons 中/白", f"一门{r.facts.suit_zh()}加中/白"),
)
def half_flush(r: Reading) -> bool:
    """混一色: one suit plus 中/白, at least one of them (§1.3)."""
    return _one_suit(r) and bool(r.facts.honours)


@register(
    PAO,
    "full_flush",
    lambda r: (f"every tile is {r.facts.suit_name()}, no honours", f"全是{r.facts.suit_zh()}，无字牌"),
)
def full_flush(r: Reading) -> bool:
    """清一色: one suit, no honours (§1.3); also in seven pairs (seed: 平胡或7对牌型)."""
    return _one_suit(r) and not r.facts.honours


@register(PAO, "all_pungs", ("four triplets/kongs and a pair", "四副刻子或杠加一对将"))
def all_pungs(r: Reading) -> bool:
    """碰碰胡: a standard reading without any sequence (§1.3); kongs count as triplets."""
    return r.shape == "standard" and not r.chow_starts()


def _straight_suit(r: Reading) -> int | None:
    starts = set(r.chow_starts())
    for s in range(3):
        if {9 * s, 9 * s + 3, 9 * s + 6} <= starts:
            return s
    return None


def _straight_reason(r: Reading) -> tuple[str, str]:
    s = "mps"[_straight_suit(r) or 0]
    return f"123 456 789 of {s} as sequences", f"{SUIT_ZH[s]}子 123 456 789 三副顺子"


@register(PAO, "pure_straight", _straight_reason)
def pure_straight(r: Reading) -> bool:
    """一条龙: 123 456 789 of one suit as sequences of this reading (§1.3)."""
    return r.shape == "standard" and _straight_suit(r) is not None


@register(PAO, "seven_pairs", ("seven pairs (a quad counts as two)", "七个对子（四张一样算两对）"))
def seven_pairs(r: Reading) -> bool:
    """七对 (§1.2, §1.3)."""
    return r.shape == "seven_pairs"


@register(
    PAO,
    "seven_fairies",
    lambda r: (
        f"seven consecutive pairs {format_tiles(sorted(set(r.pairs)))}, "
        + ("self-drawn" if r.facts.self_drawn else "on a discard"),
        f"七个连对 {format_tiles(sorted(set(r.pairs)))}，" + ("自摸" if r.facts.self_drawn else "点炮"),
    ),
)
def seven_fairies(r: Reading) -> bool:
    """七仙女: seven consecutive pairs of one suit, 1-7 / 2-8 / 3-9 (§1.3 extras)."""
    if r.shape != "seven_pairs":
        return False
    ps = sorted(set(r.pairs))
    return len(ps) == 7 and ps[0] < 27 and ps[6] - ps[0] == 6 and ps[0] // 9 == ps[6] // 9


@register(
    PAO, "all_melded", ("four exposed melds; the last tile paired by a discard", "四副明牌，单钓别人打出的牌")
)
def all_melded(r: Reading) -> bool:
    """全求人: four exposed melds (a concealed kong is not), won on a discard (§1.3)."""
    f = r.facts
    return f.n_melds == 4 and all(m.is_exposed for m in f.melds) and not f.self_drawn


def _red_flag_reason(r: Reading) -> tuple[str, str]:
    if r.shape == "payer":
        return "exposed Red dragon 中 and White dragon 白 sets (红旗飘飘)", "明的中、白两副（红旗飘飘）"
    return "triplets or kongs of both the Red dragon 中 and the White dragon 白", "中、白各一副刻子或杠"


@register(PAO, "red_flag", _red_flag_reason)
def red_flag(r: Reading) -> bool:
    """红旗飘飘: sets of both 中 and 白, exposed, concealed or standing (§1.3); in 七对 only
    where the table's ``red_flag_in_seven_pairs`` says so (XZ yes, JJ no). A payer's (吃炮,
    §1.5, §1.3a) needs both sets among their melds, a concealed kong only where
    ``payer_red_flag_counts_concealed_kong`` is true."""
    rules = r.facts.rules
    if r.shape == "seven_pairs":
        c = r.facts.all_counts
        return rules.options.red_flag_in_seven_pairs and c[C] == 4 and c[P] == 4
    if r.shape == "payer" and not rules.options.payer_red_flag_counts_concealed_kong:
        trips = [m.tile for m in r.facts.melds if m.kind != "chow" and m.is_exposed]
    else:
        trips = r.triplet_tiles()
    return C in trips and P in trips


def _event(key: str, text: tuple[str, str], payer_text: tuple[str, str] = ("", "")) -> None:
    def holds(r: Reading) -> bool:
        return key in r.facts.events

    holds.__name__ = key
    holds.__doc__ = f"{text[0]} ({text[1]}) — an event of the input (§1.3)."
    register(PAO, key, lambda r: payer_text if r.shape == "payer" else text, event=True)(holds)


_event("kong_bloom", ("self-drawn on the replacement tile after own kong", "杠后补牌自摸"))
_event("robbing_kong", ("won on the tile another player added to a pung", "抢别人补杠的那张牌"))
_event("kong_discard", ("won on the discard made right after a kong", "别人杠后打出的牌点炮"))
_event("last_tile_draw", ("self-drawn the last tile of the wall", "自摸海底最后一张"))
_event("last_tile_discard", ("won on the forced discard of the last tile", "海底最后一张点炮"))
_event("heavenly", ("dealer won on the first 14 tiles", "庄家起手十四张就胡"))
_event("earthly", ("won on the dealer's first discard", "胡庄家打出的第一张"))
_event(
    "ready_declared",
    ("won after declaring ready (报听)", "报听后胡"),
    ("declaration of ready (报听)", "报听"),
)
