"""Choose `vision.dice`'s limits without looking at `real_sets_dev` (issue 35): synthetic dice
beside synthetic hand rows against true tiles (the val split of `real_photos_rf`, and training
renders), all read by the real reader with the dice rule off.

    python -m datasets.dice_cut --json datasets/reports/dice-cut.json

What is read (`datasets.dice_render`): `--scenes` synthetic photos of a hand row, two of every
three with dice put beside it (behind, in front, at an end), the third with loose true tiles (dots,
白, flowers: small, slanted, lying flat); the row's own tiles are true tiles too. And the val split
(`datasets.real.split_by_source`, seed 1, 0.2; never trained on): every labelled tile the reader
finds (IoU >= 0.5).

"Flagged" below is the flag the rule reads: the classifier's own doubt before flag 5's clears
(`rule_off`; "Dice, 4" in the model history), not the `uncertain` the reader returns.

How the limits follow, fixed before the first run:

1. **Size** (`DIE_HEIGHT`, `DIE_AREA`): the 99th percentile of the synthetic dice's box height and
   area over the hand row's medians (the dice the rule could take: off the hand, read as a dot or
   白, flagged), rounded up to 0.05. `DIE_NEAR` is the rule's reach, not fitted: one row height.
2. **Confidence** (`DIE_CONF`): `lo`, the smallest cut (steps of 0.01) that takes >= 90 % of those
   dice within the size limits; `hi`, the largest that takes < 0.5 % of the true dot and 白 tiles
   (val, and renders, each) read as a dot or 白 and flagged, whatever their place and size (a
   stricter count than the rule's: a real tile could be given a wrong role or a wrong size). The
   cut is the middle of `lo`..`hi`; where `lo` > `hi`, `hi` (the tiles come first).
3. With the chosen limits, the whole rule's takings: synthetic dice, loose tiles, the val split's
   tiles (any kind).
4. **The low tier** (`DIE_LOW`, `DIE_LOW_CONF`; added after the tells were compared on these
   records, "Dice, 3" in the model history): for each size `s` (0.50-1.00 of the row's median
   height, steps of 0.05) and cut `c` (steps of 0.01), the true dot / 白 tiles at risk are those
   read so, flagged, under `c` and no taller than `s` (a hand tile counts as the row's height,
   1.0); of the pairs taking under 0.5 % of them (each source), the one whose whole rule (step 3's,
   `c` for boxes no taller than `s`) takes the most dice, ties to the smaller `s`, then `c`; none
   (`low` 0) when no pair takes more dice than steps 1-2 alone.

Result (datasets/reports/dice-cut.json, "Dice, 4": the flags before flag 5's clears): the two
overlap (`lo` 0.37 > `hi` 0.18), so the cut is 0.18; sizes 2.45 / 4.65; the low tier 0.95 / 0.34;
the whole rule takes 26 of the 45 candidate dice, 7 of 1,542 render tiles, 5 of 138 loose tiles
and none of the val split's 1,047.

Nothing is trained; needs `../shared` (`JXMJ_SHARED`) for the val split and the CC0 art (without
it the val part is skipped and the faces are drawn from fonts).
"""

from __future__ import annotations

import argparse
import json
import math
import tomllib
from pathlib import Path

import numpy as np

from datasets import render_options
from datasets.dice_render import dice_scene
from datasets.eval_refs import matches
from datasets.real import class_map, load, photos, split_by_source
from datasets.tiles import SHARED
from vision.detection import HAND_ROLES
from vision.dice import DIE_NEAR, DIE_TILES, measures

RECIPE = Path(__file__).parent / "recipes" / "0.7.0.toml"
"""The renderer's switches of the shipped models' recipe."""

DICE_SHARE, TILE_SHARE = 0.90, 0.005
"""The cut takes at least `DICE_SHARE` of the dice and under `TILE_SHARE` of the true tiles."""

QUANTILES = (0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99)


def _iou(a, b) -> float:
    iw = min(a[2], b[2]) - max(a[0], b[0])
    ih = min(a[3], b[3]) - max(a[1], b[1])
    inter = max(iw, 0) * max(ih, 0)
    return inter / max((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter, 1e-6)


def row_aspect(dets) -> float | None:
    """The hand row's median box aspect (width / height), None without a hand."""
    hand = [d.width / d.height for d in dets if d.role in HAND_ROLES]
    return float(np.median(hand)) if hand else None


def rule_off(read, *args) -> tuple:
    """`read(*args)` (a reader's `detect` or `read`) with the dice rule off, and per detection the
    flag the rule reads (`vision.arrange.arrange` hands `dice` the flags before flag 5's clears):
    `(result, flags)`, the flags in the order of `result.detections`."""
    import vision.arrange

    seen: list[bool] = []

    def off(dets):
        seen[:] = [bool(d.uncertain) for d in dets]
        return [False] * len(dets)

    was, vision.arrange.dice = vision.arrange.dice, off
    try:
        res = read(*args)
    finally:
        vision.arrange.dice = was
    if len(seen) != len(res.detections):  # no box: the rule was not asked
        raise ValueError(f"{len(seen)} flags for {len(res.detections)} detections")
    return res, seen


def record(det, m, ra: float | None = None, flag: bool | None = None) -> dict:
    """What the rule reads of one detection (`m`: its `vision.dice.measures`; `ra`: the hand row's
    median aspect, `row_aspect`; `flag`: its flag before flag 5's clears, `rule_off`). `uncertain`
    is that flag (what the rule reads), `shown` the flag the reader returns."""
    return {
        "second": det.second,
        "row_aspect": None if ra is None else round(ra, 3),
        "tile": det.tile,
        "conf": round(float(det.conf), 4),
        "uncertain": bool(det.uncertain if flag is None else flag),
        "shown": bool(det.uncertain),
        "role": det.role,
        "height": None if m is None else round(m[0], 3),
        "area": None if m is None else round(m[1], 3),
        "gap": None if m is None else round(m[2], 3),
        "aspect": round(det.width / det.height, 3),
    }


def synthetic(reader, n: int) -> list[dict]:
    """Records of the dice and true tiles of `n` synthetic photos (module docstring); a thing the
    reader finds no box for (IoU >= 0.3) is `"found": False`."""
    out = []
    for seed in range(n):
        rng = np.random.default_rng(10_000 + seed)
        img, rows, things = dice_scene(rng, dice=seed % 3 != 2, count=2)
        res, flags = rule_off(reader.detect, img)
        dets = res.detections
        ms = measures(dets)
        ra = row_aspect(dets)
        want = [(t.xyxy, t.kind, t.where) for t in things] + [(b, code, "row") for b, code in rows]
        for box, kind, where in want:
            best = max(range(len(dets)), key=lambda i: _iou(dets[i].xyxy, box), default=None)
            thresh = 0.3 if where != "row" else 0.5
            found = best is not None and _iou(dets[best].xyxy, box) >= thresh
            rec = {"scene": seed, "kind": kind, "where": where, "found": found}
            if found:
                rec |= record(dets[best], ms[best], ra, flags[best])
            out.append(rec)
    return out


def val_split(reader, root: Path) -> list[dict]:
    """Records of every labelled tile of the val split the reader finds (`kind`: its true code)."""
    cmap = class_map(root)
    stems = photos(root)
    split = split_by_source(stems, 1, 0.2)
    out = []
    for stem in (s for s in stems if split[s] == "val"):
        _img, gt, codes = load(root, stem, cmap)
        res, flags = rule_off(reader.read, root / "images" / f"{stem}.jpg")
        ms = measures(res.detections)
        ra = row_aspect(res.detections)
        for i, j in matches(res.detections, gt):
            rec = record(res.detections[i], ms[i], ra, flags[i])
            out.append({"photo": stem, "kind": codes[j], "where": "val"} | rec)
    return out


def at_risk(r: dict, cut: float) -> bool:
    """The conf part of the rule alone: read as a dot or 白, flagged, under `cut`."""
    return r["tile"] in DIE_TILES and r["uncertain"] and r["conf"] < cut


def takes(
    r: dict,
    cut: float,
    height: float,
    area: float,
    near: float = DIE_NEAR,
    low: float = 0.0,
    low_cut: float = 0.0,
) -> bool:
    """The whole rule (`vision.dice.dice`) on one record (`low`, `low_cut`: the low tier)."""
    return (
        r["height"] is not None
        and at_risk(r, max(cut, low_cut) if r["height"] <= low else cut)
        and r["height"] <= height
        and r["area"] <= area
        and r["gap"] <= near
    )


def _ceil(x: float, step: float = 0.05) -> float:
    return round(math.ceil(round(x / step, 6)) * step, 2)


def _quantiles(xs: list[float]) -> dict:
    if not xs:
        return {"n": 0}
    q = np.quantile(np.array(xs, float), QUANTILES)
    qs = {f"q{round(p * 100)}": round(float(v), 3) for p, v in zip(QUANTILES, q, strict=True)}
    return {"n": len(xs)} | qs


def _share(rs: list[dict], keep) -> dict:
    k = sum(map(keep, rs))
    return {"taken": k, "of": len(rs), "share": round(k / len(rs), 4) if rs else None}


def choose(dice: list[dict], tiles: dict[str, list[dict]]) -> dict:
    """The limits of the module docstring from the dice records (found, synthetic) and the true dot
    / 白 tiles per source (`{"val": [...], "renders": [...]}`)."""
    cand = [r for r in dice if r["height"] is not None and r["tile"] in DIE_TILES and r["uncertain"]]
    height = _ceil(float(np.quantile([r["height"] for r in cand], 0.99)))
    area = _ceil(float(np.quantile([r["area"] for r in cand], 0.99)))
    sized = [r for r in cand if r["height"] <= height and r["area"] <= area and r["gap"] <= DIE_NEAR]
    grid = [round(0.01 * k, 2) for k in range(1, 101)]
    lo = next((c for c in grid if sum(r["conf"] < c for r in sized) >= DICE_SHARE * len(sized)), 1.0)
    safe = lambda c: all(sum(at_risk(r, c) for r in rs) < TILE_SHARE * len(rs) for rs in tiles.values())  # noqa: E731
    ok = [c for c in grid if safe(c)]
    hi = max(ok, default=0.0)
    cut = round((lo + hi) / 2, 2) if lo <= hi else hi
    lim = {"conf": cut, "lo": lo, "hi": hi, "height": height, "area": area, "near": DIE_NEAR}
    return lim | low_tier(cand, tiles, lim)


def low_tier(cand: list[dict], tiles: dict[str, list[dict]], lim: dict) -> dict:
    """Step 4 of the module docstring: `{"low": s, "low_conf": c}` (0, 0 when none helps)."""
    grid = [round(0.01 * k, 2) for k in range(1, 101)]
    sizes = [round(0.5 + 0.05 * k, 2) for k in range(11)]
    short = lambda r, s: (1.0 if r["height"] is None else r["height"]) <= s  # noqa: E731
    base = sum(takes(r, lim["conf"], lim["height"], lim["area"]) for r in cand)
    best = (base, 0.0, 0.0)
    for s in sizes:
        for c in grid:
            risky = lambda r, s=s, c=c: at_risk(r, c) and short(r, s)  # noqa: E731
            if not all(sum(map(risky, rs)) < TILE_SHARE * len(rs) for rs in tiles.values()):
                break  # a higher cut takes at least as many
            n = sum(takes(r, lim["conf"], lim["height"], lim["area"], low=s, low_cut=c) for r in cand)
            if n > best[0]:
                best = (n, s, c)
    return {"low": best[1], "low_conf": best[2]}


def report(dice: list[dict], loose: list[dict], tiles: dict[str, list[dict]], val_all: list[dict]) -> dict:
    """Distributions, the chosen limits and what the whole rule takes with them."""
    found = [r for r in dice if r["found"]]
    lim = choose(found, tiles)
    c, h, a = lim["conf"], lim["height"], lim["area"]
    lo_ = {"low": lim["low"], "low_cut": lim["low_conf"]}
    cand = [r for r in found if r["height"] is not None and r["tile"] in DIE_TILES and r["uncertain"]]
    return {
        "limits": lim,
        "dice": {
            "put": len(dice),
            "found": len(found),
            "read_as": dict(sorted(_counts(r["tile"] for r in found).items(), key=lambda kv: -kv[1])),
            "roles": _counts(r["role"] for r in found),
            "flagged": sum(r["uncertain"] for r in found),
            "conf_candidates": _quantiles([r["conf"] for r in cand]),
            "height": _quantiles([r["height"] for r in cand]),
            "area": _quantiles([r["area"] for r in cand]),
            "aspect": _quantiles([r["aspect"] for r in cand]),
            "taken_of_found": _share(found, lambda r: takes(r, c, h, a, **lo_)),
            "taken_of_candidates": _share(cand, lambda r: takes(r, c, h, a, **lo_)),
        },
        "true_dot_white": {
            src: {
                "read_weak_dot_white_conf": _quantiles(
                    [r["conf"] for r in rs if r["tile"] in DIE_TILES and r["uncertain"]]
                ),
                "conf_all": _quantiles([r["conf"] for r in rs]),
                "at_risk_at_cut": _share(rs, lambda r: at_risk(r, c)),
                "taken_by_rule": _share(rs, lambda r: takes(r, c, h, a, **lo_)),
                "lowest_at_risk": sorted(r["conf"] for r in rs if at_risk(r, 2.0))[:5],
            }
            for src, rs in tiles.items()
        },
        "tells": tells(cand, tiles),
        "loose_tiles_taken": _share([r for r in loose if r["found"]], lambda r: takes(r, c, h, a, **lo_)),
        "val_any_tile_taken": _share(val_all, lambda r: takes(r, c, h, a, **lo_)),
        "val_taken": [
            {k: r[k] for k in ("photo", "kind", "tile", "conf", "role", "height", "area", "gap")}
            for r in val_all
            if takes(r, c, h, a, **lo_)
        ],
    }


def tells(cand: list[dict], tiles: dict[str, list[dict]]) -> dict:
    """A die's tells, quantiles over the candidate dice and over the true dot / 白 tiles read so and
    flagged (per source): confidence, height, area and gap over the row's, aspect, aspect over the
    row's median aspect (off the hand only: a hand tile has no size against its own row)."""
    feats = {
        "conf": lambda r: r["conf"],
        "height": lambda r: r["height"],
        "area": lambda r: r["area"],
        "gap": lambda r: r["gap"],
        "aspect": lambda r: r["aspect"],
        "aspect_over_row": lambda r: r["aspect"] / r["row_aspect"] if r.get("row_aspect") else None,
    }
    weak = {
        k: [r for r in rs if r["tile"] in DIE_TILES and r["uncertain"] and r["height"] is not None]
        for k, rs in tiles.items()
    }
    out = {}
    for name, f in feats.items():

        def q(rs, f=f):
            return _quantiles([v for v in map(f, rs) if v is not None])

        out[name] = {"dice": q(cand)} | {k: q(rs) for k, rs in weak.items()}
    return out


def _counts(xs) -> dict:
    out: dict = {}
    for x in xs:
        out[x] = out.get(x, 0) + 1
    return out


def main(argv=None) -> int:
    from vision.reader import TileReader

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="models")
    ap.add_argument("--scenes", type=int, default=300)
    ap.add_argument("--json", help="write the report here")
    ap.add_argument("--records", help="write every record here (JSON)")
    ap.add_argument("--from-records", help="read nothing: the records a --records run wrote")
    a = ap.parse_args(argv)
    if a.from_records:
        recs = json.loads(Path(a.from_records).read_text())
        syn, val = recs["synthetic"], recs["val"]
    else:
        render_options.set_render_options(**tomllib.loads(RECIPE.read_text())["data"]["render"])
        reader = TileReader(a.models)
        syn = synthetic(reader, a.scenes)
        root = SHARED / "data" / "real_photos_rf"
        val = val_split(reader, root) if (root / "classes.txt").exists() else []
    dot_white = set(DIE_TILES)
    tiles = {"renders": [r for r in syn if r["found"] and r["kind"] in dot_white]}
    if val:
        tiles["val"] = [r for r in val if r["kind"] in dot_white]
    dice = [r for r in syn if r["kind"] == "die"]
    loose = [r for r in syn if r["kind"] != "die" and r["where"] != "row"]
    scenes = len({r["scene"] for r in syn}) if syn else a.scenes
    out = {"scenes": scenes, "recipe": RECIPE.name, "val_photos": len({r["photo"] for r in val})}
    out |= report(dice, loose, tiles, val)
    print(json.dumps(out, indent=1, ensure_ascii=False))
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    if a.records:
        Path(a.records).write_text(json.dumps({"synthetic": syn, "val": val}) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
