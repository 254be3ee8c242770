"""Extras on top of the patterns (DECISIONS §1.3 "Extras"): 潇洒, 滚, 豪华, 潇洒碰碰胡.

One counting function per key of ``[extras]`` names; each returns ``[(reason, 炮), …]`` — one
entry per run, per extra pair, per quad. The values (and the caps ``*_max``) are the table's.
A pattern's ``replaces`` (七仙女 replaces 潇洒 and 滚) removes an extra for that reading. Beside
each, its why-not (:func:`~scoring.items.lacks.because`).
"""

from __future__ import annotations

from scoring.items.base import PAO, Counted, Ctx, Reading, register
from scoring.items.lacks import Facts, Said, because
from scoring.tiles import Tile, format_tiles

__all__ = ["luxury_count", "pair_runs", "pung_run_length"]


def pair_runs(r: Reading) -> list[tuple[int, int]]:
    """潇洒 runs of a seven-pairs reading: ``(first tile, length)`` for every run of at least
    three consecutive same-suit ranks that hold a pair (a quad is one rank: DECISIONS §1.3,
    seed ``11 33 4444 55 77 99`` = one 潇洒 + one 豪华)."""
    ranks = set(r.pairs)
    runs = []
    for s in range(3):
        n = 0
        for t in range(9 * s, 9 * s + 10):
            if t < 9 * s + 9 and t in ranks:
                n += 1
                continue
            if n >= 3:
                runs.append((t - n, n))
            n = 0
    return runs


def luxury_count(r: Reading) -> list[int]:
    """豪华: the quads used as two pairs in a seven-pairs reading, lowest first."""
    return [t for t in sorted(set(r.pairs)) if r.pairs.count(t) == 2]


def pung_run_length(r: Reading) -> tuple[int, int]:
    """Longest run of consecutive same-suit triplets/kongs: (first tile, length)."""
    trips = {t for t in r.triplet_tiles() if t < 27}
    best = (0, 0)
    for t in sorted(trips):
        if t - 1 in trips and (t - 1) // 9 == t // 9:
            continue
        n = 1
        while t + n in trips and (t + n) // 9 == t // 9:
            n += 1
        if n > best[1]:
            best = (t, n)
    return best


@register(PAO, "pair_run", kind="extra")
def pair_run(x: Ctx) -> Counted:
    """潇洒: +``pair_run`` for each run of ≥ ``pair_run_min`` consecutive same-suit ranks held as
    pairs in 七对 (§1.3 extras)."""
    r = x.reading
    if r.shape != "seven_pairs":
        return []
    value = x.rules.extras.get("pair_run", 0)
    out = []
    for s, n in pair_runs(r):
        run = format_tiles(range(s, s + n))
        out.append(((f"pairs {run} in a run", f"连对 {run}"), value))
    return out


def _pairs_lacks(x: Facts) -> Said:
    if x.melds or any(n % 2 for n in x.standing):
        return "not seven pairs", "不是七对"
    return None


def _pair_runs_held(x: Facts) -> list[list[int]]:
    """Runs of consecutive same-suit ranks held as pairs (or quads)."""
    runs: list[list[int]] = []
    for t in range(27):
        if x.standing[t] >= 2:
            if runs and runs[-1][-1] == t - 1 and t % 9:
                runs[-1].append(t)
            else:
                runs.append([t])
    return runs


@because("pair_run", "three or more consecutive pairs of one suit in seven pairs", "七对里同花色连续三对以上")
def pair_run_lacks(x: Facts) -> Said:
    said = _pairs_lacks(x)
    if said is None and max((len(r) for r in _pair_runs_held(x)), default=0) < 3:
        return "no three pairs in a row", "没有连续三对"
    return said


@register(PAO, "pair_run_extra", kind="extra")
def pair_run_extra(x: Ctx) -> Counted:
    """滚: +``pair_run_extra`` for each rank beyond ``pair_run_min`` in a 潇洒 run, at most
    ``pair_run_extra_max`` in a hand (§1.3 extras); not where 潇洒 itself is replaced."""
    r = x.reading
    if r.shape != "seven_pairs" or "pair_run" in x.removed:
        return []
    ex = x.rules.extras
    out = []
    for start, n in pair_runs(r):
        for j in range(ex.get("pair_run_min", 3), n):
            t = Tile(start + j)
            pair = format_tiles([t, t])
            why = (f"pair {pair} beyond three in the run", f"三连对之外的 {pair}")
            out.append((why, ex.get("pair_run_extra", 0)))
    return out[: ex.get("pair_run_extra_max", 3)]


@because("pair_run_extra", "more than three consecutive pairs in such a run", "连续的对子超过三对")
def pair_run_extra_lacks(x: Facts) -> Said:
    said = _pairs_lacks(x)
    longest = max((len(r) for r in _pair_runs_held(x)), default=0)
    if said is None and longest < 4:
        return f"the longest run has {longest} pair(s)", f"最长只连{longest}对"
    return said


@register(PAO, "luxury", kind="extra")
def luxury(x: Ctx) -> Counted:
    """豪华: +``luxury`` for each quad used as two pairs in 七对, at most ``luxury_max`` (§1.3)."""
    r = x.reading
    if r.shape != "seven_pairs":
        return []
    ex = x.rules.extras
    quads = luxury_count(r)[: ex.get("luxury_max", 3)]
    out = []
    for t in quads:
        quad = format_tiles([t] * 4)
        out.append(((f"{quad} used as two pairs", f"{quad} 当两对"), ex.get("luxury", 0)))
    return out


@because("luxury", "four alike used as two pairs in seven pairs", "七对里四张一样的当两对")
def luxury_lacks(x: Facts) -> Said:
    said = _pairs_lacks(x)
    if said is None and 4 not in x.standing:
        return "no four alike", "没有四张一样的"
    return said


@register(PAO, "pung_run", kind="extra")
def pung_run(x: Ctx) -> Counted:
    """潇洒碰碰胡: in 碰碰胡, +``pung_run_three`` for three consecutive same-suit triplets,
    +``pung_run_four`` for four (潇洒带滚, §1.3 extras)."""
    if "all_pungs" not in x.holding:
        return []
    start, n = pung_run_length(x.reading)
    if n < 3:
        return []
    run = " ".join(format_tiles([t] * 3) for t in range(start, start + n))
    if n >= 4:
        why = (f"four consecutive triplets {run} (潇洒带滚)", f"四副连刻 {run}（潇洒带滚）")
        return [(why, x.rules.extras.get("pung_run_four", 0))]
    return [
        ((f"three consecutive triplets {run}", f"三副连刻 {run}"), x.rules.extras.get("pung_run_three", 0))
    ]


@because(
    "pung_run", "three or more consecutive pungs of one suit in all pungs", "碰碰胡里同花色连续三副刻子以上"
)
def pung_run_lacks(x: Facts) -> Said:
    if "all_pungs" not in x.have:
        return "not all pungs", "不是碰碰胡"
    sets = sorted(
        {m.tile for m in x.melds if m.kind != "chow"} | {t for t, n in enumerate(x.standing) if n >= 3}
    )
    longest = run = 0
    for i, t in enumerate(sets):
        run = run + 1 if i and t == sets[i - 1] + 1 and t < 27 and t % 9 else 1
        longest = max(longest, run)
    if longest < 3:
        return "no three pungs in a row", "没有连续三副刻子"
    return None
