"""Scoring benchmark (not a timed test): prints figures (CPU time of this process, one core).

1. Decomposition rate: every reading (four sets + pair, seven pairs) of the same random
   complete 14-tile hands, ours (``scoring.decompose.decompose_all``) against the PyPI
   ``mahjong`` package's ``HandDivider.divide_hand``, in one run. Target: >= 2x.
2. Full scoring rate: ``scoring.score`` (validation, every reading, waits, patterns,
   payments) on random complete hands of the three variants, one core. Target: >= 10,000/s.
3. µs per hand on a fixed table: the golden cases (``tests/data/scoring_cases.jsonl``, the
   ones that score), ``--repeats`` passes, the median pass printed (and min / max), so two
   versions of the engine compare on the same hands.

Usage: python bench/bench_scoring.py [--hands N] [--seed S] [--repeats R] [--only golden|random]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring import HandError, HandInput, Meld, Payer, score
from scoring.decompose import _FLAG_CACHE, _SUIT_CACHE, decompose_all
from scoring.tiles import format_tiles

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "data" / "scoring_cases.jsonl"
XZ_PAYERS = (Payer("a", is_dealer=True), Payer("b"), Payer("c"))
IDLE_MS = 9.0  # sum(range(10**6)) on an idle modern core with CPython 3.11
JJ_KINDS = [*range(27), 31, 33]  # no winds, no 發 standing (DECISIONS §0)
ALL_KINDS = list(range(34))


def random_hand(rng: random.Random, kinds: list[int], n_melds: int = 0, seven_pairs: float = 0.05):
    """A random complete hand: (standing counts, melds as (kind, tile) list, winning tile)."""
    while True:
        counts = [0] * 34
        if n_melds == 0 and rng.random() < seven_pairs:
            for t in rng.sample(kinds, 7):
                counts[t] += 2
            win = rng.choice([t for t in range(34) if counts[t]])
            return counts, [], win
        melds = []
        ok = True
        sets = []
        for _ in range(4):
            t = rng.choice(kinds)
            if t < 27 and t % 9 <= 6 and rng.random() < 0.6:
                sets.append(("chow", t))
                for u in (t, t + 1, t + 2):
                    counts[u] += 1
            else:
                sets.append(("pung", t))
                counts[t] += 3
        p = rng.choice(kinds)
        counts[p] += 2
        if any(c > 4 for c in counts):
            continue
        for kind, t in sets[:n_melds]:
            mk = kind if kind == "chow" else rng.choice(["pung", "pung", "kong", "concealed_kong"])
            if mk in ("kong", "concealed_kong"):
                if counts[t] >= 4:
                    ok = False
                    break
            melds.append((mk, t))
            for u in range(t, t + 3) if kind == "chow" else (t, t, t):
                counts[u] -= 1
        if not ok:
            continue
        win = rng.choice([t for t in range(34) if counts[t]])
        return counts, melds, win


def bench_decompose(n: int, seed: int) -> None:
    try:
        from mahjong.hand_calculating.divider import HandDivider
    except ImportError:
        print("decomposition: the PyPI 'mahjong' package is not installed (pip install -e '.[dev]'); skipped")
        return

    rng = random.Random(seed)
    hands = [random_hand(rng, ALL_KINDS)[0] for _ in range(n)]
    for c in _SUIT_CACHE:
        c.clear()
    _FLAG_CACHE.clear()

    t0 = time.process_time()
    ours = [decompose_all(h) for h in hands]
    t_ours_cold = time.process_time() - t0
    t0 = time.process_time()
    ours = [decompose_all(h) for h in hands]
    t_ours = time.process_time() - t0

    divider = HandDivider()
    t0 = time.process_time()
    theirs = [divider.divide_hand(h) for h in hands]
    t_theirs = time.process_time() - t0

    agree = sum(len(a) == len(b) for a, b in zip(ours, theirs, strict=True))
    print(f"decomposition: {n} random complete hands (seed {seed}), all readings incl. seven pairs")
    print(f"  ours, cold caches : {n / t_ours_cold:12,.0f} hands/s")
    print(f"  ours, warm caches : {n / t_ours:12,.0f} hands/s")
    print(f"  mahjong HandDivider: {n / t_theirs:11,.0f} hands/s")
    print(f"  speed-up          : {t_theirs / t_ours_cold:.1f}x cold, {t_theirs / t_ours:.1f}x warm")
    print(f"  same reading count on {agree}/{n} hands")


def bench_score(n: int, seed: int, calib_ms: float = IDLE_MS) -> None:
    rng = random.Random(seed + 1)
    inputs = []
    for i in range(n):
        variant = ("jiujiang", "xingzi", "xinyu")[i % 3]
        kinds = ALL_KINDS if variant == "xinyu" else JJ_KINDS
        n_melds = rng.choice([0, 0, 1, 2])
        counts, melds, win = random_hand(rng, kinds, n_melds)
        tiles = [t for t in range(34) for _ in range(counts[t])]
        self_drawn = variant == "xinyu" or rng.random() < 0.5
        ms = []
        for kind, t in melds:
            if kind == "chow":  # chow only as the fourth meld in JJ/XZ, never in xinyu
                kind = "pung"
            size = 4 if "kong" in kind else 3
            ms.append(Meld.of(kind, format_tiles([t] * size)))
        inputs.append(
            HandInput(
                variant=variant,
                concealed=format_tiles(tiles),
                winning_tile=format_tiles([win]),
                self_drawn=self_drawn,
                melds=ms,
                bonus_tiles=rng.choice([0, 0, 0, 1, 2]) if variant != "xinyu" else 0,
                # a xingzi self-draw names the dealer among its payers (DECISIONS §1.5)
                payers=XZ_PAYERS if variant == "xingzi" and self_drawn else None,
            )
        )
    valid = []
    for h in inputs:  # drop the few random hands that are invalid (a chow turned pung overflowing)
        try:
            score(h)
            valid.append(h)
        except Exception:
            pass
    rates = []
    for _ in range(3):
        t0 = time.process_time()
        for h in valid:
            score(h)
        rates.append(len(valid) / (time.process_time() - t0))
    print(f"full scoring: {len(valid)} random complete hands, 3 variants, from tile strings, 0-2 melds")
    print(
        f"  {max(rates):12,.0f} hands/s best of 3  ({1e6 / max(rates):.1f} µs per hand;"
        f" median {1e6 / statistics.median(rates):.1f})"
    )
    del calib_ms  # printed above: compare runs on a shared machine by it, not by wall time


def bench_golden(repeats: int) -> None:
    """µs per hand over the golden cases that score (the error cases left out), median of passes."""
    hands = []
    for line in GOLDEN.read_text("utf-8").splitlines():
        if line.strip():
            try:
                h = HandInput.from_json(json.loads(line)["input"])
                score(h)
            except HandError:
                continue
            hands.append(h)
    per_pass = 20  # the table is small: each timed pass scores it 20 times
    us = []
    for _ in range(repeats):
        t0 = time.process_time()
        for _ in range(per_pass):
            for h in hands:
                score(h)
        us.append((time.process_time() - t0) / (per_pass * len(hands)) * 1e6)
    print(f"golden cases: {len(hands)} scoring hands x {per_pass}, {repeats} passes")
    print(f"  {statistics.median(us):8.1f} µs per hand median  (min {min(us):.1f}, max {max(us):.1f})")


def calibrate() -> float:
    """How fast this core is right now (shared machines vary a lot): ms for sum(range(10**6))."""
    best = 1e9
    for _ in range(5):
        t0 = time.process_time()
        sum(range(1_000_000))
        best = min(best, time.process_time() - t0)
    print(f"calibration: sum(range(10**6)) takes {best * 1e3:.1f} ms of CPU here ({IDLE_MS:.0f} ms idle)")
    return best * 1e3


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--repeats", type=int, default=15, help="passes over the golden cases")
    ap.add_argument("--only", choices=["golden", "random"], help="one measure only")
    a = ap.parse_args()
    calib = calibrate()
    if a.only != "golden":
        bench_decompose(a.hands, a.seed)
        bench_score(a.hands, a.seed, calib)
    if a.only != "random":
        bench_golden(a.repeats)


if __name__ == "__main__":
    main()
