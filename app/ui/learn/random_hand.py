"""Random winning hands for practice (pure: a `random.Random` in, a hand and conditions out)."""

from __future__ import annotations

import random

from app.ui.state import Conditions, EditHand, sort_key, tile_kinds
from scoring.rules import load_rules
from scoring.tiles import SUITS, parse_tile


def random_hand(variant: str, rng: random.Random) -> tuple[EditHand, Conditions]:
    """A hand that is usually complete (the caller scores it and retries when not): four sets
    and a pair, now and then seven pairs, one suit a third of the time, some sets laid apart
    as melds, and a random way of winning."""
    kinds = list(tile_kinds(variant))
    pool = kinds
    if rng.random() < 0.35:  # one suit (with honours now and then): the flush family
        suit = rng.choice(SUITS)
        honours = [k for k in kinds if parse_tile(k).is_honour]
        pool = [k for k in kinds if parse_tile(k).suit == suit] + (honours if rng.random() < 0.6 else [])
    rules = load_rules(variant)
    melds: list[tuple[str, list[str]]] = []
    if rng.random() < 0.12 and len(pool) >= 7:
        concealed = [c for p in rng.sample(pool, 7) for c in (p, p)]
    else:
        concealed = _sets_and_pair(pool, rng, melds)
    win = rng.choice(concealed)
    concealed.remove(win)
    concealed.sort(key=sort_key)
    bonus = rng.choice([0, 0, 0, 1, 1, 2]) if rules.bonus_tile is not None else 0
    hand = EditHand.typed([*concealed, win], melds, bonus=bonus)
    cond = Conditions(variant=variant, self_drawn=rules.self_draw_only or rng.random() < 0.5)
    return hand, cond


def _sets_and_pair(pool: list[str], rng: random.Random, melds: list[tuple[str, list[str]]]) -> list[str]:
    counts: dict[str, int] = {}
    sets: list[list[str]] = []
    for _ in range(4):
        for _attempt in range(20):
            code = rng.choice(pool)
            tile = parse_tile(code)
            run = not tile.is_honour and tile.rank <= 7 and rng.random() < 0.55
            s = [f"{tile.rank + k}{tile.suit}" for k in range(3)] if run else [code] * 3
            if all(counts.get(c, 0) + s.count(c) <= 4 for c in set(s)):
                for c in s:
                    counts[c] = counts.get(c, 0) + 1
                sets.append(s)
                break
    pair = next((c for c in rng.sample(pool, len(pool)) if counts.get(c, 0) <= 2), pool[0])
    n_melds = rng.choice([0, 0, 1, 1, 2, 3])
    concealed: list[str] = []
    for s in sets:
        if len(melds) < n_melds and len(set(s)) == 1:
            kind = rng.choice(["pung", "pung", "kong", "concealed_kong"])
            if kind != "pung" and counts[s[0]] == 3:
                counts[s[0]] += 1
                melds.append((kind, [*s, s[0]]))
            else:
                melds.append(("pung", s))
        else:
            concealed += s
    return [*concealed, pair, pair]
