"""Flag 5's rule over the records (`datasets.flag5_records`), as the player would see it, and its
parameters chosen with whole sets held out.

The rule (`Rule`), per face up tile, before the runtime's text check (`vision.text_check`):

- **agreement clears doubt**: a tile flag 2's score puts above the threshold is *not* flagged where
  an independent reader confirms the classifier: the text reader names the tile read at
  `text_ok` or more (a character tile), the pip counter counts its number, of its suit, at
  `pip_ok` or more (a dot or bamboo tile), or the suit shape reads its suit at `shape_ok` or more;
- **disagreement flags**: a tile below the threshold is flagged where a reader names another tile:
  the text reader another character tile at `text_no` (tiles read as or with a runner-up that is a
  character tile), the pip counter another number of the suit at `pip_no`;
- the hand: a fifth copy and a tile off the rows are flagged as today; `hand` adds a tile whose
  runner-up alone makes the hand whole (`datasets.flag3_hand`);
- then the runtime's text check on the flagged tiles (`player`), as `jxmj detect` runs it.

`threshold` on flag 2's score is chosen **after** the readers' words: the lowest that flags at
most the target share of right tiles of each group of the fitting sets (the familiar sets, the
unseen ones), so a reader that clears right tiles lets the threshold go down and catch more.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace

import numpy as np

TEXT_MIN, CROSS_MIN, RUNNER_UP_MIN = 0.1, 0.5, 0.02
"""`vision.text_check`'s thresholds (the runtime's text check)."""
TEXT_CODES = frozenset("1m 2m 3m 4m 5m 6m 7m 8m 9m E S W N C F".split())
GROUPS = (("val",), ("cn", "riichi"))


@dataclass(frozen=True)
class Rule:
    threshold: float = 0.0
    text_ok: float | None = None
    pip_ok: float | None = None
    shape_ok: float | None = None
    text_no: float | None = None
    pip_no: float | None = None
    hand: bool = False
    text_keep: float | None = None


def _rank_suit(code):
    return (
        (int(code[0]), code[1]) if code and len(code) == 2 and code[0].isdigit() and code[1] in "ps" else None
    )


def readers(recs: list[dict], rule: Rule) -> tuple[np.ndarray, np.ndarray]:
    """`(cleared, forced)` per record: an independent reader confirms / contradicts the reading."""
    n = len(recs)
    cleared, forced = np.zeros(n, bool), np.zeros(n, bool)
    for k, r in enumerate(recs):
        read, best, ts = r["read"], r.get("t5_best"), r.get("t5_score", 0.0)
        rs = _rank_suit(read)
        if rule.text_ok is not None and read in TEXT_CODES and best == read and ts >= rule.text_ok:
            cleared[k] = True
        if rule.pip_ok is not None and rs and r.get("pip_suit") == rs[1] and r.get("pip_count") == rs[0]:
            cleared[k] |= r.get("pip_conf", 0.0) >= rule.pip_ok
        if rule.shape_ok is not None and rs and r.get("shape_suit") == rs[1]:
            cleared[k] |= r.get("shape_conf", 0.0) >= rule.shape_ok
        family = read in TEXT_CODES or r.get("second") in TEXT_CODES
        if rule.text_no is not None and family and best not in (None, read) and ts >= rule.text_no:
            forced[k] = True
        if rule.pip_no is not None and rs and r.get("pip_suit") == rs[1] and r.get("pip_count") is not None:
            forced[k] |= r["pip_count"] != rs[0] and r.get("pip_conf", 0.0) >= rule.pip_no
        if rule.hand and r.get("hand_second"):
            forced[k] = True
    return cleared, forced


def _text_check(r: dict) -> tuple[str, bool]:
    """What `vision.text_check.decide` makes of a flagged record: `(reading, still flagged)`."""
    read, best, ts = r["read"], r.get("t5_best"), r.get("t5_score", 0.0)
    if best is None or read == "back":
        return read, True
    family = read in TEXT_CODES or r.get("second") in TEXT_CODES
    if ts < (TEXT_MIN if family else CROSS_MIN):
        second = r.get("second")
        one_view = read in TEXT_CODES and second in TEXT_CODES and read.endswith("m") == second.endswith("m")
        if one_view and best == second and ts >= RUNNER_UP_MIN:  # `vision.text_check.same_view`
            return best, True
        return read, True
    return best, False


def outcomes(recs: list[dict], thr2: float, geom: bool = False) -> dict:
    """Per record what it becomes unflagged (`op0`) and flagged then text-checked (`op1`, `flag1`);
    the always-flags (`always`: off the rows, a fifth copy; with `geom`, flag 6's geometry, the
    records' `geom`) and backs (never counted); `runner`: flagged, renamed by the text reader's
    runner-up rule (flag 6 keeps it flagged with `text_keep`)."""
    op0 = np.array([r["op"] != "ok" for r in recs], bool)
    op1, flag1 = op0.copy(), np.ones(len(recs), bool)
    for k, r in enumerate(recs):
        tile, flag1[k] = _text_check(r)
        if r["op"] != "extra" and tile != r["read"]:
            op1[k] = tile != r["label"]
    return {
        "wrong0": op0,
        "wrong1": op1,
        "flag1": flag1,
        "always": np.array(
            [bool(r["off_row"] or r["fifth"] or (geom and r.get("geom"))) for r in recs], bool
        ),
        "runner": np.array(
            [f and _text_check(r)[0] != r["read"] for r, f in zip(recs, flag1, strict=True)], bool
        ),
        "back": np.array([r["read"] == "back" for r in recs], bool),
        "score": np.array([r["flag2"] for r in recs], np.float64),
        "sub": np.array([r["op"] == "sub" for r in recs], bool),
        "renamed": np.array(
            [not f and _text_check(r)[0] != r["read"] for r, f in zip(recs, flag1, strict=True)], bool
        ),
        "tscore": np.array([r.get("t5_score", 0.0) for r in recs], np.float64),
        "old": np.array([r["flag2"] > thr2 for r in recs], bool),  # = the records' `old` (2,371 of 2,371)
        "thr2": thr2,
    }


def player(o: dict, reached: np.ndarray, keep: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """`(wrong, flagged)` as the player sees them: the tiles `reached` (flagged before the text
    check) text-checked (a tile the text renames below `keep` stays flagged), the always-flags
    added, backs never flagged."""
    wrong = np.where(reached, o["wrong1"], o["wrong0"])
    still = o["flag1"] | (o["renamed"] & (o["tscore"] < keep)) if keep is not None else o["flag1"]
    flagged = (reached & still) | o["always"]
    return wrong, flagged & ~o["back"]


def flags(o: dict, cleared, forced, thr: float, keep: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The player's `(wrong, flagged)`. The text reader reads what flag 2 flags (`old`) as today, so
    every tile reads as today; of those it does not decide, a tile is shown flagged when its score
    is above `thr` (>= flag 2's threshold) and no reader `cleared` it; a tile it renames below
    `keep` stays flagged (flag 6: and one its runner-up rule renames); the `forced` ones and the
    always-flags are added."""
    wrong = np.where(o["old"], o["wrong1"], o["wrong0"])
    decided = o["old"] & ~o["flag1"]
    kept = decided & o["renamed"] & (o["tscore"] < keep) if keep is not None else np.zeros_like(decided)
    if keep is not None:
        kept = kept | (o["old"] & o["runner"])
    fl = (~decided & (o["score"] > thr) & ~cleared) | kept | o["always"] | forced
    return wrong, fl & ~o["back"]


def threshold(o: dict, cleared, forced, rows, groups: list[np.ndarray], target: float, keep=None) -> float:
    """The lowest threshold on flag 2's score, flag 2's own or above, that flags at most `target`
    of the right tiles of `rows` in each of `groups` (as the player sees them)."""
    cands = np.unique(np.concatenate([[o["thr2"]], o["score"][rows & (o["score"] > o["thr2"])]]))
    lo, hi = 0, len(cands)  # flagged-right falls as the threshold rises: bisect on the candidates

    def ok(thr: float) -> bool:
        wrong, fl = flags(o, cleared, forced, thr, keep)
        for g in groups:
            m = rows & g & ~o["back"]
            right = m & ~wrong
            if right.any() and (fl & right).sum() > target * right.sum():
                return False
        return True

    while lo < hi:
        mid = (lo + hi) // 2
        if ok(float(cands[mid])):
            hi = mid
        else:
            lo = mid + 1
    return float(cands[lo]) if lo < len(cands) else float(cands[-1]) + 1.0


GRID = {
    "text_ok": (None, 0.01, 0.03, 0.1),
    "pip_ok": (None, 0.5),
    "shape_ok": (None, 0.8, 0.9),
    "text_no": (None, 0.1, 0.3),
    "pip_no": (None, 0.7),
    "hand": (False, True),
    "text_keep": (None, 0.3, 0.5),
}


def rules(grid=GRID):
    keys = list(grid)
    for vals in itertools.product(*(grid[k] for k in keys)):
        yield Rule(**dict(zip(keys, vals, strict=True)))


def choose(recs, o, rows: np.ndarray, target: float, grid=GRID, cache=None) -> Rule:
    """The rule catching most wrong tiles of `rows` (ties: fewer right flagged, then fewer readers)
    at the threshold `threshold` gives each."""
    groups = [np.array([r["group"] in g for r in recs], bool) for g in GROUPS]
    best, key = None, None
    for rule in rules(grid):
        key_r = replace(rule, threshold=0.0)
        cf = cache[key_r] if cache is not None and key_r in cache else readers(recs, rule)
        if cache is not None:
            cache[key_r] = cf
        thr = threshold(o, *cf, rows, groups, target, rule.text_keep)
        wrong, fl = flags(o, *cf, thr, rule.text_keep)
        m = rows & ~o["back"]
        used = sum(v not in (None, False) for v in (rule.text_ok, rule.pip_ok, rule.shape_ok, rule.text_no))
        k = (-int((fl & wrong & m).sum()), int((fl & ~wrong & m).sum()), used)
        if key is None or k < key:
            best, key = replace(rule, threshold=thr), k
    return best


def held_out(
    recs, target: float, thr2: float, grid=GRID, geom: bool = False
) -> tuple[np.ndarray, np.ndarray, dict]:
    """`(wrong, flagged)` per record with each set chosen on the others, and the rules chosen."""
    o = outcomes(recs, thr2, geom)
    unit = np.array([r["set"] for r in recs])
    wrong, fl = o["wrong0"].copy(), np.zeros(len(recs), bool)
    chosen: dict = {}
    cache: dict = {}
    for u in sorted(set(unit)):
        rule = choose(recs, o, unit != u, target, grid, cache)
        w, f = flags(o, *cache[replace(rule, threshold=0.0)], rule.threshold, rule.text_keep)
        wrong[unit == u], fl[unit == u] = w[unit == u], f[unit == u]
        name = repr(replace(rule, threshold=0.0))
        chosen[name] = chosen.get(name, 0) + 1
    return wrong, fl, chosen
