"""The event patterns — the way a hand was won, marked in the input (杠上开花 kong_bloom, 抢杠, 杠上流泪,
海底, 天胡, 地胡, 报听): each pattern holds when its event is among the input's, and its why-not
says so when it is not; one row per key below, predicate and why-not together (DECISIONS §1.3,
§2). ``ready_declared`` is also what the winner eats from a payer (吃炮, §1.5).
"""

from __future__ import annotations

from scoring.items.base import FAN, PAO, Reading, register
from scoring.items.lacks import Facts, Said, because

__all__: list[str] = []

_NOT_MARKED = ("the way the hand was won (its events) does not say so", "胡牌方式里没有选它")


def _event(
    key: str,
    reason: tuple[str, str],
    cond: tuple[str, str],
    payer_reason: tuple[str, str] = ("", ""),
) -> None:
    """Register event ``key`` for 炮 (``reason``: the item's words, ``payer_reason``: eaten from a
    payer) and its why-not (``cond``: the item's condition)."""

    def holds(r: Reading) -> bool:
        return key in r.facts.events

    holds.__name__ = key
    holds.__doc__ = f"{reason[0]} ({reason[1]}) — an event of the input (§1.3)."
    register(PAO, key, lambda r: payer_reason if r.shape == "payer" else reason, event=True)(holds)

    def lacks(x: Facts) -> Said:
        return None if key in x.events else _NOT_MARKED

    lacks.__name__ = f"{key}_lacks"
    because(key, *cond)(lacks)


_event(
    "kong_bloom",
    ("self-drawn on the replacement tile after own kong", "杠后补牌自摸"),
    ("self-drawn on the replacement tile after your own kong", "自己开杠后摸补牌自摸胡"),
)
_event(
    "robbing_kong",
    ("won on the tile another player added to a pung", "抢别人补杠的那张牌"),
    ("won on the tile another player adds to a pung", "胡别人补杠的那张牌"),
)
_event(
    "kong_discard",
    ("won on the discard made right after a kong", "别人杠后打出的牌点炮"),
    ("won on the discard right after another player's kong", "胡别人开杠后打出的牌"),
)
_event(
    "last_tile_draw",
    ("self-drawn the last tile of the wall", "自摸海底最后一张"),
    ("self-drawn the last tile of the wall", "自摸墙上最后一张牌"),
)
_event(
    "last_tile_discard",
    ("won on the forced discard of the last tile", "海底最后一张点炮"),
    ("won on the forced discard of the last tile", "胡最后一张牌被打出的那张"),
)
_event(
    "heavenly",
    ("dealer won on the first 14 tiles", "庄家起手十四张就胡"),
    ("the dealer wins on the first fourteen tiles", "庄家起手十四张就胡"),
)
_event(
    "earthly",
    ("won on the dealer's first discard", "胡庄家打出的第一张"),
    ("a non-dealer wins on the dealer's first discard", "闲家胡庄家打的第一张牌"),
)
_event(
    "ready_declared",
    ("won after declaring ready (报听)", "报听后胡"),
    ("won after declaring ready at the start", "开局报听后胡"),
    ("declaration of ready (报听)", "报听"),
)


@register(
    FAN, "kong_bloom", ("self-drawn on the replacement tile after own kong", "杠后补牌自摸"), event=True
)
def kong_bloom_fan(r: Reading) -> bool:
    """杠上开花 (§2)."""
    return "kong_bloom" in r.facts.events
