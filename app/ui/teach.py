"""Teaching "why not": each pattern of the variant for a scored hand — holds (its value), or why
not, and the one-tile change that would make it hold. Pure: no Streamlit.

The status comes from the engine (a pattern holds when the result lists its key); the one-tile
change is found by asking the engine about every single-tile change of the standing tiles. The
reason is the scoring package's (`scoring.why_not.explain`: what this hand lacks and the item's
own condition, for every pattern and adder).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.ui.i18n import lang
from app.ui.state import Conditions, EditHand, hand_input
from scoring import HandError, ScoreResult
from scoring.items import registry
from scoring.rules import load_rules
from scoring.rules.overrides import ADDER_KEYS as ADDERS
from scoring.why_not import Change, explain, one_tile_changes


@dataclass(frozen=True, slots=True)
class PatternStatus:
    key: str
    name: str
    holds: bool
    value: str
    why_not: str = ""
    change: Change | None = None


def shape_patterns(variant: str) -> list[str]:
    """The variant's patterns set by its tiles: not those set by how the hand was won (③, the
    items registered with `event`: 天胡, 杠上开花, 海底 …), which are not taught here."""
    rules = load_rules(variant)
    items = registry(rules.family)
    return [k for k in rules.patterns if not (k in items and items[k].event)]


def taught_keys(variant: str) -> list[str]:
    """The shape patterns, then the wait/condition adders (自摸 门清 边 卡 单钓) of the variant."""
    rules = load_rules(variant)
    return [*shape_patterns(variant), *(k for k in ADDERS if k in rules.names and k not in rules.patterns)]


def statuses(hand: EditHand, cond: Conditions, result: ScoreResult) -> list[PatternStatus]:
    """Every shape pattern of the variant with its status; for one that does not hold, why not and
    the one-tile change that makes it hold (`scoring.why_not.one_tile_changes`: each standing tile
    tried as each tile kind)."""
    rules = load_rules(cond.variant)
    items = {i.key: i for i in result.items}
    keys = taught_keys(cond.variant)
    best = _changes(hand, cond) if any(k not in items for k in keys) else {}
    reasons = _reasons(hand, cond, result)
    out = []
    for key in keys:
        name_zh, name_en, _ = rules.name(key)
        label = name_zh if lang() == "zh" else name_en  # one language a line
        if key in items:
            it = items[key]
            value = f"×{it.multiplier:g}" if it.multiplier is not None else f"+{it.points}"
            out.append(PatternStatus(key, label, True, value))
        else:
            out.append(PatternStatus(key, label, False, "", reasons.get(key, ""), best.get(key)))
    return out


def _reasons(hand: EditHand, cond: Conditions, result: ScoreResult) -> dict[str, str]:
    """key → why not, in the page language, from the rules (`scoring.why_not`)."""
    try:
        missing = explain(hand_input(hand, cond), result)
    except HandError:
        return {}
    zh = lang() == "zh"
    return {
        w.key: f"{w.lacks_zh}——要{w.cond_zh}" if zh else f"{w.lacks_en}; it needs {w.cond_en}"
        for w in missing
    }


def _changes(hand: EditHand, cond: Conditions) -> dict[str, Change]:
    """key → the single change of a standing tile that makes it hold with the largest total."""
    try:
        return one_tile_changes(hand_input(hand, cond))
    except HandError:
        return {}
