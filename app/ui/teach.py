"""Teaching "why not": each pattern of the variant for a scored hand — holds (its value), or why
not, and the one-tile change that would make it hold (issue 14 item 7). Pure: no Streamlit.

The status comes from the engine (a pattern holds when the result lists its key); the one-tile
change is found by asking the engine about every single-tile change of the standing tiles. The
short reason is read from the tiles for the shape patterns (flushes, pungs, pairs, straights).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from app.ui.i18n import lang, t
from app.ui.render.tiles import name
from app.ui.state import Conditions, EditHand, Selection, tile_kinds
from scoring import ScoreResult
from scoring.model import EVENTS
from scoring.rules import load_rules
from scoring.tiles import SUITS, format_tiles

EVENT_PATTERNS = frozenset(EVENTS) | {"last_tile_draw", "last_tile_discard"}
"""Patterns set by how the hand was won (③), not by its tiles: not taught here."""


@dataclass(frozen=True, slots=True)
class Change:
    """Tile `index` of the standing tiles becomes `code`: then the pattern holds, total `total`."""

    index: int
    old: str
    code: str
    total: float


@dataclass(frozen=True, slots=True)
class PatternStatus:
    key: str
    name: str
    holds: bool
    value: str
    why_not: str = ""
    change: Change | None = None


def shape_patterns(variant: str) -> list[str]:
    return [k for k in load_rules(variant).patterns if k not in EVENT_PATTERNS]


def statuses(hand: EditHand, cond: Conditions, result: ScoreResult, score) -> list[PatternStatus]:
    """Every shape pattern of the variant with its status. `score(hand, cond)` scores a trial
    hand (`services.score_hand`); the search tries each standing tile as each tile kind."""
    rules = load_rules(cond.variant)
    items = {i.key: i for i in result.items}
    best = (
        _one_tile_changes(hand, cond, score)
        if any(k not in items for k in shape_patterns(cond.variant))
        else {}
    )
    out = []
    for key in shape_patterns(cond.variant):
        p = rules.patterns[key]
        label = p.name_zh if lang() == "zh" else f"{p.name_en} {p.name_zh}"
        if key in items:
            it = items[key]
            value = f"×{it.multiplier:g}" if it.multiplier is not None else f"+{it.points}"
            out.append(PatternStatus(key, label, True, value))
        else:
            out.append(PatternStatus(key, label, False, "", why_not(key, hand, result), best.get(key)))
    return out


def _one_tile_changes(hand: EditHand, cond: Conditions, score) -> dict[str, Change]:
    kinds = tile_kinds(cond.variant)
    best: dict[str, Change] = {}
    for i, tile in enumerate(hand.concealed):
        for code in kinds:
            if code == tile.code:
                continue
            trial = score(hand.with_tile(Selection(i), code), cond)
            if not isinstance(trial, ScoreResult) or not trial.can_win:
                continue
            for it in trial.items:
                old = best.get(it.key)
                if old is None or trial.total > old.total:
                    best[it.key] = Change(i, tile.code, code, trial.total)
    return best


def why_not(key: str, hand: EditHand, result: ScoreResult) -> str:
    """A short reason, in the page language, that pattern `key` does not hold here ("" if none)."""
    codes = [x.code for x in hand.tiles]
    suits = [c for c in codes if len(c) == 2 and c[1] in SUITS]
    honours = [c for c in codes if len(c) == 1]
    by_suit = Counter(c[1] for c in suits)
    main = by_suit.most_common(1)[0][0] if by_suit else None
    others = [c for c in suits if c[1] != main]
    if key == "full_flush":
        return t("teach.has", tiles=_names(others + honours))
    if key == "half_flush":
        return t("teach.two_suits", tiles=_names(others)) if others else t("teach.no_honours")
    if key == "all_pungs":
        chows = [b for b in result.decomposition if b.kind == "chow"]
        if chows:
            return t("teach.is_chow", tiles=format_tiles(chows[0].tiles))
        return t("teach.not_four_sets")
    if key in ("seven_pairs", "luxury_seven_pairs", "seven_fairies", "red_flag"):
        if hand.melds:
            return t("teach.has_melds")
        odd = [c for c, n in Counter(codes).items() if n % 2]
        return t("teach.not_pair", tiles=_names(odd)) if odd else ""
    if key == "all_honours":
        return t("teach.has", tiles=_names(suits))
    if key == "all_melded":
        return t("teach.not_all_melded", n=len(hand.melds))
    if key == "pure_straight":
        return t("teach.no_straight")
    return ""


def _names(codes: list[str]) -> str:
    seen = list(dict.fromkeys(codes))
    return t("punct.list").join(name(c) for c in seen[:3]) + ("…" if len(seen) > 3 else "")
