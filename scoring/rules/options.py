"""A variant's switches (``[options]`` of its table) as one typed, frozen value: :class:`Options`.

Each field is one option, with its DECISIONS reference and the value a table that leaves it out
gets; the built-in tables set every option their variant reads, so the defaults matter only for
a house table. ``<pattern>_is_addon`` is a switch of a pattern row, read into
:attr:`scoring.rules.PatternRule.addon`, not a field here. :func:`kong_money` is 新余's kong
money, for the engine (the winner's) and the ledger (the other players').

>>> Options.of({"cap": 16, "min_win_exceptions": ["robbing_kong"]}).min_win_exceptions
('robbing_kong',)
>>> kong_money(Options(), exposed=1, concealed=1, point_value=2)
3
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

__all__ = ["Options", "kong_money"]


def _option(default: Any, ref: str) -> Any:
    """A field with its default and its DECISIONS section (``Options.ref``)."""
    return dataclasses.field(default=default, metadata={"ref": ref})


@dataclasses.dataclass(frozen=True)
class Options:
    """The options of one rule table (the riichi ``mahjong`` package's ``OptionalRules``)."""

    # 炮 family (九江, 星子; DECISIONS §1)
    #: 边 / 卡 / 单钓 only when waiting on one tile kind (独听; §1.3 judgement call)
    wait_bonus_needs_single_wait: bool = _option(True, "§1.3")
    #: 二炮起胡: on a discard the winner's own 炮 (without 吃炮) must reach this (§1.4)
    min_win: int = _option(0, "§1.4")
    #: events that are always winnable, whatever the minimum (§1.4)
    min_win_exceptions: tuple[str, ...] = _option((), "§1.4")
    #: the dealer's win and the dealer's discard pay double (星子, §1.5)
    dealer_doubles: bool = _option(False, "§1.5")
    #: with ``dealer_doubles``: the dealer pays double on another player's self-draw too (§1.5)
    dealer_doubles_on_self_draw: bool = _option(True, "§1.5")
    #: four 中 + four 白 in 七对 is 红旗飘飘 (星子 yes, 九江 no; §1.3 extras)
    red_flag_in_seven_pairs: bool = _option(False, "§1.3")
    #: a payer's concealed 中 / 白 kong counts for their 红旗飘飘 (both tables: no, "明的"; §1.3a)
    payer_red_flag_counts_concealed_kong: bool = _option(False, "§1.3a")
    # 番 family (新余; DECISIONS §2)
    #: cap on the multiplier; 0 = none (§2)
    cap: int = _option(0, "§2")
    #: kong money every exposed kong collects from each other player (§2)
    kong_money_exposed: int = _option(1, "§2")
    #: kong money every concealed kong collects from each other player (§2)
    kong_money_concealed: int = _option(2, "§2")
    #: kong money scaled by the point value too (§2 says it is not)
    kong_money_times_point_value: bool = _option(False, "§2")
    #: 飞起来 "four melds down" counts a concealed kong as laid down (§2, the engine's reading)
    all_melded_counts_concealed_kong: bool = _option(True, "§2")
    #: 开杠 x2 once however many kongs (§2 judgement call)
    kong_counts_once: bool = _option(True, "§2")
    #: 豪华七小对 x8 once however many quads (§2 judgement call)
    luxury_counts_once: bool = _option(True, "§2")
    #: 门清 x2 with the 七对 family too (§2 judgement call)
    concealed_with_seven_pairs: bool = _option(False, "§2")

    @classmethod
    def ref(cls, name: str) -> str:
        """The DECISIONS section of option ``name`` (``"§1.4"``); ``""`` for a name that is no
        field (a pattern's ``<pattern>_is_addon``: its row's own ``rule``).

        >>> Options.ref("min_win"), Options.ref("cap")
        ('§1.4', '§2')
        """
        found: dict[str, str] = {f.name: f.metadata.get("ref", "") for f in dataclasses.fields(cls)}
        return found.get(name, "")

    @classmethod
    def of(cls, table: Mapping[str, Any]) -> Options:
        """The options of a table's ``[options]``; a list becomes a tuple. Raises ``ValueError``
        for a key that is no option (a new option needs its field here)."""
        names = {f.name for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for key, value in table.items():
            if key.endswith("_is_addon"):
                continue
            if key not in names:
                raise ValueError(f"[options] has no option {key[:80]!r}")
            values[key] = tuple(value) if isinstance(value, list) else value
        return cls(**values)


def kong_money(options: Options, exposed: int, concealed: int, point_value: Any = 1) -> Any:
    """新余 kong money (杠钱, DECISIONS §2) one player's kongs collect from each other player:
    ``exposed`` and ``concealed`` kongs at the table's values, times ``point_value`` where the
    table says so (an int otherwise, whatever the point value's type)."""
    each = exposed * int(options.kong_money_exposed) + concealed * int(options.kong_money_concealed)
    return each * point_value if options.kong_money_times_point_value else each
