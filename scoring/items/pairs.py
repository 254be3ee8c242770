"""The seven-pairs patterns — 七对 seven_pairs, 豪华七小对 luxury_seven_pairs, 七仙女 seven_fairies —
each with its predicate (:data:`PAO` jiujiang / xingzi, DECISIONS §1.2-§1.3; :data:`FAN` xinyu,
§2) and, beside it, its why-not (:func:`~scoring.items.lacks.because`). Values live in the tables.
"""

from __future__ import annotations

from scoring.items.base import FAN, PAO, Reading, register
from scoring.items.lacks import Facts, Said, because
from scoring.items.suits import two_suits
from scoring.items.words import meld_en, meld_zh, tiles_en, tiles_zh
from scoring.tiles import format_tiles

__all__: list[str] = []


def _not_pairs(x: Facts) -> Said:
    if x.melds:
        m = x.melds[0]
        return f"{meld_en(m)} is down: all fourteen tiles must stand", f"有{meld_zh(m)}：十四张要都在手里"
    odd = [t for t, n in enumerate(x.standing) if n % 2]
    if odd:
        return f"{tiles_en(odd)} not paired", f"{tiles_zh(odd)}不成对"
    return None


# ---- 七对 seven_pairs ----
@register(PAO, "seven_pairs", ("seven pairs (a quad counts as two)", "七个对子（四张一样算两对）"))
def seven_pairs(r: Reading) -> bool:
    """七对 (§1.2, §1.3)."""
    return r.shape == "seven_pairs"


@register(FAN, "seven_pairs", ("seven pairs", "七小对"))
def seven_pairs_fan(r: Reading) -> bool:
    """七小对 (§2)."""
    return r.shape == "seven_pairs"


@because("seven_pairs", "seven pairs, all fourteen tiles in the hand", "十四张都在手里、成七对")
def seven_pairs_lacks(x: Facts) -> Said:
    return _not_pairs(x)


# ---- 豪华七小对 luxury_seven_pairs (xinyu) ----
@register(FAN, "luxury_seven_pairs", ("seven pairs with four alike", "七小对里有四张一样"))
def luxury_seven_pairs(r: Reading) -> int:
    """豪华七小对: seven pairs with a quad (§2) — x8 however many quads, or once per quad where
    the table's ``luxury_counts_once`` is false."""
    if r.shape != "seven_pairs":
        return 0
    quads = 7 - len(set(r.pairs))
    return min(quads, 1) if r.facts.rules.options.luxury_counts_once else quads


@because("luxury_seven_pairs", "seven pairs with four alike among them", "七对里有四张一样的")
def luxury_seven_pairs_lacks(x: Facts) -> Said:
    said = _not_pairs(x)
    if said is None and 4 not in x.standing:
        return "seven pairs, but no four alike", "是七对，但没有四张一样的"
    return said


# ---- 七仙女 seven_fairies ----
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


@because(
    "seven_fairies",
    "seven consecutive pairs of one suit (1 to 7, 2 to 8 or 3 to 9)",
    "同一花色连续七对（一到七、二到八或三到九）",
)
def seven_fairies_lacks(x: Facts) -> Said:
    said = _not_pairs(x)
    if said is not None:
        return said
    said = two_suits(x)
    if said is None and x.honours():
        return f"honour tiles: {tiles_en(x.honours())}", f"有字牌：{tiles_zh(x.honours())}"
    if said is None and (4 in x.standing or len(x.kinds) != 7 or x.kinds[-1] - x.kinds[0] != 6):
        return "the pairs are not seven ranks in a row", "对子不是连续七个点数"
    return said
