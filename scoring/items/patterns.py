"""Jiujiang / xingzi 平胡 (``[basic]``, DECISIONS §1.3) with its why-not; and where the flower
patterns (花) are: each pattern's predicate stands beside its why-not in the module of its kind —
:mod:`.suits` (混一色 清一色 全风向), :mod:`.pairs` (七对 豪华七小对 七仙女), :mod:`.sets` (碰碰胡 一条龙
全求人 红旗飘飘, xinyu's 门清 开杠), :mod:`.events` (杠上开花 抢杠 … 报听). One predicate per key of
``[patterns.*]``; the values (base 炮, adders, what a pattern replaces) are in the tables, never here.
"""

from __future__ import annotations

from scoring.items.base import PAO, Counted, Ctx, register
from scoring.items.lacks import Facts, Said, because

__all__: list[str] = []


@register(PAO, "basic", kind="basic")
def basic(x: Ctx) -> Counted:
    """平胡: 1 when no flower pattern holds (§1.3); the value is ``[basic] points``."""
    if x.holding:
        return []
    return [(("no flower pattern (平胡)", "无花（平胡）"), int(x.rules.basic.get("points", 1)))]


@because("basic", "no flower pattern holds", "没有任何花牌牌型")
def basic_lacks(x: Facts) -> Said:
    return None  # a holding pattern displaces it: explain() names it
