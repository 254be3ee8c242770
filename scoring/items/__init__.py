"""Every scored key is one registered function (rule → function → test in one hop).

Look a key up where its table section is: ``[patterns.*]`` → the module of its kind, both
families side by side, each predicate beside its why-not (:mod:`scoring.items.lacks`):
:mod:`.suits`, :mod:`.pairs`, :mod:`.sets`, :mod:`.events`; 平胡 → :mod:`.patterns` (基本分 and
the cap: :mod:`.fan`), ``[extras]`` → :mod:`.extras`, adders → :mod:`.adders`,
``[bonus]`` / ``[eaten]`` → :mod:`.bonus`. :data:`PAO` and :data:`FAN` map each key to its
:class:`~scoring.items.base.ItemDef`; the engine asks them in registration order (patterns,
平胡, extras, adders, bonus), so the items of a score come out in that order. A new item: a
TOML row, a function and its why-not here, a one-line case in ``tests/scoring/``.
"""

from __future__ import annotations

from scoring.items import adders, bonus, events, extras, fan, pairs, patterns, sets, suits  # noqa: F401  (they register)
from scoring.items.base import FAN, PAO, Ctx, HandFacts, ItemDef, Reading, register

__all__ = ["EATEN_KEYS", "FAN", "PAO", "Ctx", "HandFacts", "ItemDef", "Reading", "register", "registry"]

#: The items a winner eats from each payer (吃炮, DECISIONS §1.5), scored by the same functions
#: on the payer's melds and 發, with the values of the table's ``[eaten]`` section.
EATEN_KEYS = ("bonus_tile", "four_bonus_tiles", "dragon_set", "kong", "red_flag", "ready_declared")


def registry(family: str) -> dict[str, ItemDef]:
    """The items of a rule family: ``"pao"`` (jiujiang, xingzi) or ``"fan"`` (xinyu)."""
    return PAO if family == "pao" else FAN
