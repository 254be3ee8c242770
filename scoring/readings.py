"""The readings of a checked hand: every decomposition and the block the winning tile completes.

:func:`readings` enumerates them (DECISIONS §1.2, §1.3 计大不计小: the engine scores each and keeps
the largest), :func:`wait_set` is the hand's waits before the win (独听, §1.3), :func:`blocks` the
decomposition of a reading as output :class:`~scoring.result.Block` objects.
"""

from __future__ import annotations

from scoring.decompose import is_all_honours, seven_pairs_of, standard_readings, waits_of
from scoring.items import HandFacts, Reading
from scoring.result import Block
from scoring.tiles import ALL_TILES
from scoring.validate import CheckedHand

__all__ = ["blocks", "readings", "wait_set"]


def readings(h: CheckedHand, facts: HandFacts) -> list[Reading]:
    out: list[Reading] = []
    win = h.win
    for pair, sets in standard_readings(h.counts):
        seen = set()
        if pair == win:
            out.append(Reading(facts, "standard", sets, pair, (), ("pair", win), "single"))
        for blk in sets:
            if blk in seen:
                continue
            kind, t = blk
            if kind == "pung":
                if t != win:
                    continue
                wait = "pung"
            else:
                if not t <= win <= t + 2:
                    continue
                if win == t + 1:
                    wait = "closed"
                elif (win == t + 2 and t % 9 == 0) or (win == t and t % 9 == 6):
                    wait = "edge"
                else:
                    wait = "open"
            seen.add(blk)
            out.append(Reading(facts, "standard", sets, pair, (), blk, wait))
    if not h.melds:
        pairs = seven_pairs_of(h.counts)
        if pairs is not None:
            out.append(Reading(facts, "seven_pairs", pairs=tuple(pairs), win_block=("pair", win)))
        if h.rules.all_honours_free_shape and is_all_honours(h.counts):
            out.append(Reading(facts, "free", win_block=("free", win)))
    return out


def wait_set(h: CheckedHand) -> list[int]:
    before = list(h.counts)
    before[h.win] -= 1
    held = list(h.held)
    held[h.win] -= 1
    return waits_of(
        before,
        len(h.melds),
        h.rules.allowed_kinds,
        held,
        free_honours=h.rules.all_honours_free_shape,
    )


def blocks(r: Reading, h: CheckedHand) -> tuple[Block, ...]:
    out: list[Block] = []
    T = ALL_TILES
    if r.shape == "standard":
        for kind, t in r.sets:
            tiles = (T[t], T[t + 1], T[t + 2]) if kind == "chow" else (T[t],) * 3
            out.append(Block(kind, tiles, "hand", False))
        out.append(Block("pair", (T[r.pair],) * 2, "hand", False))
        assert r.win_block is not None  # a standard reading's block the winning tile completes
        wk, wt = r.win_block
        for i, (kind, t) in enumerate(r.sets):
            if kind == wk and t == wt:
                out[i].winning = True
                break
        else:
            out[-1].winning = True
    elif r.shape == "seven_pairs":
        out.extend(Block("pair", (T[t],) * 2, "hand", False) for t in r.pairs)
        for b in out:
            if b.tiles[0] == h.win:
                b.winning = True
                break
    else:
        names = {1: "single", 2: "pair", 3: "pung", 4: "quad"}
        for t in range(27, 34):
            n = h.counts[t]
            if n:
                out.append(Block(names[n], (T[t],) * n, "hand", t == h.win))
    out.extend(Block(m.kind, m.tiles, "meld") for m in h.melds)
    return tuple(out)
