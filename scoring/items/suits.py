"""The suit patterns — 混一色 half_flush, 清一色 full_flush, 全风向 all_honours — each with its
predicate (per family: :data:`PAO` jiujiang / xingzi, DECISIONS §1.3; :data:`FAN` xinyu, §2) and,
beside it, its why-not (:func:`~scoring.items.lacks.because`, what a hand lacks for it). Values
live in the tables, never here.
"""

from __future__ import annotations

from scoring.items.base import FAN, PAO, Reading, register
from scoring.items.lacks import Facts, Said, because
from scoring.items.words import tiles_en, tiles_zh

__all__ = ["two_suits"]


def _one_suit(r: Reading) -> bool:
    return len(r.facts.suits) == 1


def _other_suits(x: Facts) -> list[int]:
    """The kinds outside the suit the winner holds most of."""
    suits = x.suits()
    if len(suits) <= 1:
        return []
    main = max(suits, key=lambda s: sum(x.held[t] for t in suits[s]))
    return [t for s, ts in suits.items() if s != main for t in ts]


def two_suits(x: Facts) -> Said:
    """What a hand lacks for one suit: the kinds of the other suits (all three named when held)."""
    suits = x.suits()
    if len(suits) == 3:  # the three suits by name: tiles of two of them would hide the third
        return (
            "more than one suit: Characters, Dots and Bamboo all held",
            "不止一种花色：万、筒、条三种都有",
        )
    others = _other_suits(x)
    if others:
        return f"more than one suit: {tiles_en(others)}", f"不止一种花色：{tiles_zh(others)}"
    return None


# ---- 混一色 half_flush ----
@register(
    PAO,
    "half_flush",
    lambda r: (f"one suit ({r.facts.suit_name()}) plus the dragons 中/白", f"一门{r.facts.suit_zh()}加中/白"),
)
def half_flush(r: Reading) -> bool:
    """混一色: one suit plus 中/白, at least one of them (§1.3)."""
    return _one_suit(r) and bool(r.facts.honours)


@register(
    FAN,
    "half_flush",
    lambda r: (f"one suit ({r.facts.suit_name()}) plus honours", f"一门{r.facts.suit_zh()}加字牌"),
)
def half_flush_fan(r: Reading) -> bool:
    """混一色: one suit plus honours (§2)."""
    return len(r.facts.suits) == 1 and bool(r.facts.honours)


@because("half_flush", "one suit plus honour tiles", "一种花色加字牌")
def half_flush_lacks(x: Facts) -> Said:
    if not x.suits():
        return "no suited tile at all: all honours", "没有一张数牌，全是字牌"
    if not x.honours():
        return "no honour tile (one suit alone is a full flush)", "没有字牌（只一种花色是清一色）"
    return two_suits(x)


# ---- 清一色 full_flush ----
@register(
    PAO,
    "full_flush",
    lambda r: (f"every tile is {r.facts.suit_name()}, no honours", f"全是{r.facts.suit_zh()}，无字牌"),
)
def full_flush(r: Reading) -> bool:
    """清一色: one suit, no honours (§1.3); also in seven pairs (seed: 平胡或7对牌型)."""
    return _one_suit(r) and not r.facts.honours


@register(
    FAN,
    "full_flush",
    lambda r: (
        ("all honours in a free shape", "全是字牌，不论牌型")
        if r.shape == "free"
        else (f"every tile is {r.facts.suit_name()}", f"全是{r.facts.suit_zh()}")
    ),
)
def full_flush_fan(r: Reading) -> bool:
    """清一色: one suit without honours, or the all-honour free shape (§2)."""
    return (len(r.facts.suits) == 1 and not r.facts.honours) or r.shape == "free"


@because("full_flush", "one suit only, no honours", "只有一种花色、没有字牌")
def full_flush_lacks(x: Facts) -> Said:
    said = two_suits(x)
    if said is None and x.honours() and not (x.rules.all_honours_free_shape and not x.suits()):
        return f"honour tiles: {tiles_en(x.honours())}", f"有字牌：{tiles_zh(x.honours())}"
    if said is None and x.rules.all_honours_free_shape and not x.suits() and x.melds:
        return "all honours, but with melds down", "全是字牌，但有碰或杠"
    return said


# ---- 全风向 all_honours (xinyu) ----
@register(FAN, "all_honours", ("every tile is an honour", "全是字牌"))
def all_honours(r: Reading) -> bool:
    """全风向: all honours in a winning shape (§2).

    The all-honour free shape (no winning shape at all) is "scored as 清一色" by §2,
    so it does not also reach 全风向's ×8.
    """
    return not r.facts.suits and r.shape != "free"


@because("all_honours", "every tile an honour", "全是字牌")
def all_honours_lacks(x: Facts) -> Said:
    suited = [t for t in x.kinds if t < 27]
    return (f"suited tiles: {tiles_en(suited)}", f"有数牌：{tiles_zh(suited)}") if suited else None
