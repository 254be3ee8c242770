"""Xinyu multipliers (番) — DECISIONS §2.

One predicate per key of ``[patterns.*]`` in ``xinyu.toml``, plus the ×1 基本分 and the cap
(counting items that return ``[(reason, multiplier)]``); the multipliers live in the table,
never here. Within each ``[exclusions] groups`` entry only the largest holding one counts.
"""

from __future__ import annotations

from scoring.items.base import FAN, Ctx, Reading, register

__all__: list[str] = []


@register(FAN, "basic", kind="basic")
def basic(x: Ctx) -> list[tuple[tuple[str, str], float]]:
    """基本分: 1 point per payer, times every multiplier that holds (§2)."""
    return [(("1 point per payer, times every multiplier that holds", "每家 1 分，乘以成立的每一番"), 1)]


@register(FAN, "cap", kind="cap")
def cap(x: Ctx) -> list[tuple[tuple[str, str], float]]:
    """封顶: the product is capped at the table's ``cap`` (0 = none, §2); the item's multiplier
    (cap / product) keeps the items' product equal to ``own``. ``x.values["own"]`` is the product."""
    limit = x.rules.options.cap
    own = x.values["own"]
    if not limit or own <= limit:
        return []
    return [((f"capped at {limit} (was {own})", f"封顶 {limit}（原为 {own}）"), limit / own)]


@register(FAN, "concealed", ("no pung and no kong of any kind", "没有碰，也没有任何杠"))
def concealed(r: Reading) -> bool:
    """门清: no meld at all (a concealed kong breaks it too); not with the 七对 family unless the
    table's ``concealed_with_seven_pairs`` is true (§2 judgement call)."""
    if r.facts.n_melds:
        return False
    return r.shape != "seven_pairs" or r.facts.rules.options.concealed_with_seven_pairs


def _kong_reason(r: Reading) -> tuple[str, str]:
    """The kongs, and how often their ×2 counts (once however many, unless ``kong_counts_once``
    is false): "2 个杠，×2 只算一次"."""
    n = r.facts.kongs
    if n > 1 and r.facts.rules.options.kong_counts_once:
        return f"{n} kongs among the winner's melds; the x2 counts once", f"{n} 个杠，×2 只算一次"
    if n > 1:
        return f"{n} kongs among the winner's melds; x2 for each", f"{n} 个杠，每个杠 ×2"
    return "a kong among the winner's melds", "有 1 个杠"


@register(FAN, "kong", _kong_reason)
def kong(r: Reading) -> int:
    """开杠: the winner has at least one kong — x2 once however many (§2), or once per kong where
    the table's ``kong_counts_once`` is false."""
    n = r.facts.kongs
    return min(n, 1) if r.facts.rules.options.kong_counts_once else n


@register(FAN, "seven_pairs", ("seven pairs", "七小对"))
def seven_pairs(r: Reading) -> bool:
    """七小对 (§2)."""
    return r.shape == "seven_pairs"


@register(FAN, "luxury_seven_pairs", ("seven pairs with four alike", "七小对里有四张一样"))
def luxury_seven_pairs(r: Reading) -> int:
    """豪华七小对: seven pairs with a quad (§2) — x8 however many quads, or once per quad where
    the table's ``luxury_counts_once`` is false."""
    if r.shape != "seven_pairs":
        return 0
    quads = 7 - len(set(r.pairs))
    return min(quads, 1) if r.facts.rules.options.luxury_counts_once else quads


@register(
    FAN,
    "half_flush",
    lambda r: (f"one suit ({r.facts.suit_name()}) plus honours", f"一门{r.facts.suit_zh()}加字牌"),
)
def half_flush(r: Reading) -> bool:
    """混一色: one suit plus honours (§2)."""
    return len(r.facts.suits) == 1 and bool(r.facts.honours)


@register(
    FAN,
    "full_flush",
    lambda r: (
        ("all honours in a free shape", "全是字牌，不论牌型")
        if r.shape == "free"
        else (f"every tile is {r.facts.suit_name()}", f"全是{r.facts.suit_zh()}")
    ),
)
def full_flush(r: Reading) -> bool:
    """清一色: one suit without honours, or the all-honour free shape (§2)."""
    return (len(r.facts.suits) == 1 and not r.facts.honours) or r.shape == "free"


@register(FAN, "all_pungs", ("four triplets/kongs and a pair", "四副刻子或杠加一对将"))
def all_pungs(r: Reading) -> bool:
    """碰碰胡 (§2)."""
    return r.shape == "standard" and not r.chow_starts()


@register(FAN, "all_melded", ("four melds down, the pair tile self-drawn", "四副落地，自摸将牌"))
def all_melded(r: Reading) -> bool:
    """飞起来: four melds down, won by drawing the pair tile (§2). A concealed kong counts as
    down unless the table's ``all_melded_counts_concealed_kong`` is false."""
    f = r.facts
    if f.n_melds != 4 or not f.self_drawn:
        return False
    if f.rules.options.all_melded_counts_concealed_kong:
        return True
    return all(m.is_exposed for m in f.melds)


@register(FAN, "all_honours", ("every tile is an honour", "全是字牌"))
def all_honours(r: Reading) -> bool:
    """全风向: all honours in a winning shape (§2).

    The all-honour free shape (no winning shape at all) is "scored as 清一色" by §2,
    so it does not also reach 全风向's ×8.
    """
    return not r.facts.suits and r.shape != "free"


@register(
    FAN, "kong_bloom", ("self-drawn on the replacement tile after own kong", "杠后补牌自摸"), event=True
)
def kong_bloom(r: Reading) -> bool:
    """杠上开花 (§2)."""
    return "kong_bloom" in r.facts.events
