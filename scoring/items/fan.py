"""Xinyu (番, DECISIONS §2): the ×1 基本分 and the cap (counting items that return
``[(reason, multiplier)]``). Its patterns' predicates (one per key of ``[patterns.*]`` in
``xinyu.toml``) stand beside their why-nots in :mod:`.suits`, :mod:`.pairs`, :mod:`.sets` and
:mod:`.events`, with the jiujiang / xingzi ones of the same key; the multipliers live in the
table, never here. Within each ``[exclusions] groups`` entry only the largest holding one counts.
"""

from __future__ import annotations

from scoring.items.base import FAN, Ctx, register

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
