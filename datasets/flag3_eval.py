"""What flag 3's fitting measures with (`datasets.flag3_fit`): the signals oriented as suspicion,
their AUC, the flags a player sees after the text rule, shares of wrong and right tiles flagged,
and thresholds chosen with the set held out. Records: `datasets.flag3_records`."""

from __future__ import annotations

import numpy as np

from datasets.flag_model import threshold_for

CLIP = 12.0
BAND = 4.0
"""Flag 2's `tta_band`: the extra views are cut only below this logit margin at run time."""
TEXT_MIN = 0.1
"""`vision.text_check.TEXT_MIN_SCORE`."""
SUSPICION = {
    "logit_margin": lambda r: -min(r["logit_margin"], CLIP),
    "p": lambda r: -r["p"],
    "disagree": lambda r: float(not r["agree"]),
    "proto_sim": lambda r: -r["proto_sim"],
    "tta": lambda r: -min(r["tta"] if r["logit_margin"] < BAND else CLIP, r["logit_margin"], CLIP),
    "flag2": lambda r: r["flag2"],
    "text": lambda r: -r["text_agree"] * r["text_score"],
    "loc": lambda r: -r["loc"],
    "size_rel": lambda r: r["size_rel"],
    "aspect_rel": lambda r: r["aspect_rel"],
    "size_all": lambda r: r["size_all"],
    "aspect_all": lambda r: r["aspect_all"],
    "off_row": lambda r: float(r["off_row"]),
    "fifth": lambda r: float(r["fifth"]),
    "hand_second": lambda r: float(r["hand_second"]),
}
FEATURES = ("logit_margin", "disagree", "proto_sim", "tta", "loc", "size_all", "aspect_all")
TARGETS = (0.03, 0.05, 0.07, 0.1)


def auc(s: np.ndarray, wrong: np.ndarray) -> float | None:
    """Area under the ROC curve (ties count a half)."""
    pos, neg = s[wrong], s[~wrong]
    if not len(pos) or not len(neg):
        return None
    gt = (pos[:, None] > neg[None, :]).mean()
    eq = (pos[:, None] == neg[None, :]).mean()
    return round(float(gt + eq / 2), 3)


def matrix(recs: list[dict], names=FEATURES) -> np.ndarray:
    return np.array([[SUSPICION[n](r) for n in names] for r in recs], np.float64).reshape(-1, len(names))


def wrong_of(recs: list[dict]) -> np.ndarray:
    return np.array([r["op"] != "ok" for r in recs], bool)


def always(recs: list[dict], hand: bool) -> np.ndarray:
    a = np.array([r["off_row"] or r["fifth"] for r in recs], bool)
    return a | np.array([r["hand_second"] for r in recs], bool) if hand else a


def with_text(recs: list[dict], model_flags: np.ndarray, hand: bool = False) -> tuple[list[dict], np.ndarray]:
    """The records and what the player sees flagged after the text check (`vision.text_check`, run
    on the model's flags only): a flagged face the text reader reads at >= `TEXT_MIN` is decided by
    it (its flag cleared, its reading the text's: right where the label is), then the always-flags
    (`always`) are added."""
    out = []
    flags = np.array(model_flags, bool).copy()
    for k, r in enumerate(recs):
        if flags[k] and r["text_score"] >= TEXT_MIN and r["read"] != "back":
            flags[k] = False
            if r["op"] != "extra" and r["text_best"] != r["read"]:
                r = {**r, "read": r["text_best"], "op": "ok" if r["label"] == r["text_best"] else "sub"}
        out.append(r)
    return out, flags | always(recs, hand)


def shares(recs: list[dict], flags: np.ndarray) -> dict:
    wrong = wrong_of(recs)
    flags = flags & ~np.array([r["read"] == "back" for r in recs], bool)
    sub = np.array([r["op"] == "sub" for r in recs], bool)
    return {
        "wrong": f"{int(flags[wrong].sum())}/{int(wrong.sum())}",
        "wrong_names": f"{int(flags[sub].sum())}/{int(sub.sum())}",
        "right": f"{int(flags[~wrong].sum())}/{int((~wrong).sum())}",
        "wrong_flagged": round(float(flags[wrong].mean()), 3) if wrong.any() else None,
        "right_flagged": round(float(flags[~wrong].mean()), 4) if (~wrong).any() else None,
    }


def held_out(recs: list[dict], score_of, target: float, hand: bool) -> np.ndarray:
    """Per record the model's flag with its set held out: the threshold from the other sets
    (module docstring; the always-flags counted in it, not returned: `with_text` adds them);
    `score_of(unit) -> scores of all recs` (the model for that unit held out)."""
    units = sorted({r["set"] for r in recs})
    unit = np.array([r["set"] for r in recs])
    wrong, alw = wrong_of(recs), always(recs, hand)
    out = np.zeros(len(recs), bool)
    for u in units:
        s = score_of(u)
        other = unit != u
        tgt = max(target - alw[other & ~wrong].mean(), 0.0)
        thr = threshold_for(np.where(alw, -np.inf, s)[other], wrong[other], tgt)
        out[~other] = s[~other] > thr
    return out


def signal_aucs(recs: list[dict]) -> dict:
    out = {}
    parts = {
        "sets_dev_wrong": [r for r in recs if r["group"] in ("cn", "riichi")],
        "sets_dev_names": [r for r in recs if r["group"] in ("cn", "riichi") and r["op"] != "extra"],
        "val_names": [r for r in recs if r["group"] == "val"],
    }
    for part, rs in parts.items():
        w = wrong_of(rs)
        out[part] = {n: auc(matrix(rs, [n])[:, 0], w) for n in SUSPICION}
        chars = [r for r in rs if r["text_score"] > 0]
        out[part]["text_on_character_tiles"] = auc(matrix(chars, ["text"])[:, 0], wrong_of(chars))
        out[part]["tiles"] = f"{int(w.sum())} wrong of {len(rs)}"
    return out


def box_errors(recs: list[dict], misses: list[dict]) -> dict:
    out = {}
    for g in ("cn", "riichi", "public"):
        rs = [r for r in recs if r["group"] == g]
        out[g] = {
            "right": sum(r["op"] == "ok" for r in rs),
            "wrong_name": sum(r["op"] == "sub" for r in rs),
            "phantom": sum(r["op"] == "extra" for r in rs),
            "missed": sum(m["group"] == g for m in misses),
        }
    return out
