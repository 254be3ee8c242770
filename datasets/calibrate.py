"""Calibrate the classifier's uncertainty flag on the real validation part, and store it in the model.

    python -m datasets.calibrate --models datasets/out/0.6.0/models --real datasets/out/0.6.0/real

Each crop is read at 0° and at 180° (the runtime's two views; a sideways box's two views are
±90°, the same pair); the view with the likelier reading wins. On the validation crops of
`real_photos_rf` (photos never trained on):
1. the temperature `T` that minimises the negative log-likelihood of the labels (grid 0.5..4);
2. the flag threshold and `disagree_factor`: a tile is flagged `uncertain` when its score, times
   `disagree_factor` where the two views name different classes, is below the threshold; for
   each factor (0, 0.25 .. 1) the largest threshold that flags at most `--target-right` of the
   right readings, and of those the pair that flags most wrong ones. The score (`--score`) is
   `logit_margin`, `log(p1 / p2)` of the winning view (stored as `flag_logit_margin`), or, as
   before 0.6.2, `margin`, the top-1 minus top-2 probability (`flag_margin`).
Both go into the classifier's `jxmj` metadata as `calibration`; `vision.reading` applies them.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort

from datasets.flag_data import as_reading, beyond_flags, collect


def logits_both(path: Path, x: np.ndarray, bs: int = 512) -> tuple[np.ndarray, np.ndarray]:
    """Classifier logits of uint8 `[n, H, W, 3]` crops, upright and turned 180°."""
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    out = ([], [])
    for i in range(0, len(x), bs):
        b = x[i : i + bs].transpose(0, 3, 1, 2).astype(np.float32) / 255.0
        out[0].append(sess.run(None, {"crops": b})[0])
        out[1].append(sess.run(None, {"crops": np.ascontiguousarray(b[:, :, ::-1, ::-1])})[0])
    return np.concatenate(out[0]), np.concatenate(out[1])


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(1, keepdims=True)


def reading(z0: np.ndarray, z1: np.ndarray, temperature: float) -> dict[str, np.ndarray]:
    """The runtime's reading of two views: probabilities of the winning view, its class, the margin
    (top-1 minus top-2), and whether both views name the same class."""
    p0, p1 = _softmax(z0 / temperature), _softmax(z1 / temperature)
    win = p0.max(1) >= p1.max(1)
    p = np.where(win[:, None], p0, p1)
    top2 = np.sort(p, 1)[:, -2:]
    z2 = np.sort(np.where(win[:, None], z0, z1) / temperature, 1)[:, -2:]
    return {
        "p": p,
        "cls": p.argmax(1),
        "margin": top2[:, 1] - top2[:, 0],
        "logit_margin": z2[:, 1] - z2[:, 0],
        "agree": p0.argmax(1) == p1.argmax(1),
    }


SCORES = {"margin": ("flag_margin", 0.005, 1.0), "logit_margin": ("flag_logit_margin", 0.01, 12.0)}
"""Flag scores: the metadata key of the threshold, and the grid it is searched on (step, end)."""


def effective_margin(r: dict, factor: float, score: str = "margin") -> np.ndarray:
    """The score the flag compares with its threshold: scaled by `factor` where the views disagree."""
    return r[score] * np.where(r["agree"], 1.0, factor)


def fit(z0, z1, y, none_index: int, target_right: float, score: str = "margin") -> dict:
    """Temperature and flag margin (see the module docstring), with the figures on these crops."""
    temps = np.round(np.arange(0.5, 4.01, 0.05), 2)
    nll = [float(-np.log(reading(z0, z1, t)["p"][np.arange(len(y)), y] + 1e-9).mean()) for t in temps]
    t = float(temps[int(np.argmin(nll))])
    r = reading(z0, z1, t)
    tiles = (y != none_index) & (r["cls"] != none_index)  # read as a tile, truly a tile
    flag = fit_flag(r, y, none_index, target_right, score=score)
    key = SCORES[score][0]
    return {
        "temperature": t,
        key: flag[key],
        "disagree_factor": flag["disagree_factor"],
        "nll_t1": nll[int(np.argmin(np.abs(temps - 1.0)))],
        "nll": min(nll),
        "crops": len(y),
        "tiles_read": int(tiles.sum()),
        "wrong": flag["wrong"],
        "wrong_flagged": flag["wrong_flagged"],
        "right_flagged": flag["right_flagged"],
        "accuracy": float((tiles & (r["cls"] == y)).sum() / max(tiles.sum(), 1)),
    }


def _write(model, meta: dict, path: Path, calibration: dict) -> None:
    """Save `model` at `path` with `calibration` in its `jxmj` metadata."""
    meta["calibration"] = calibration
    for p in model.metadata_props:
        if p.key == "jxmj":
            p.value = json.dumps(meta)
    onnx.save(model, str(path))


def reader_readings(models: Path, real: Path) -> tuple[dict, np.ndarray, np.ndarray]:
    """The reader's own readings of the validation photos' boxes that match a label (IoU >= 0.5):
    `(reading dict as `reading` gives, labels, is-a-tile mask)` — what the flag sees at run time."""
    from datasets.eval_real import val_items
    from datasets.real import iou_matrix
    from vision.reader import TileReader

    reader = TileReader(models)
    classes = list(reader.classifier.classes)
    rows = {"cls": [], "margin": [], "logit_margin": [], "agree": []}
    labels = []
    for img, gt, codes in val_items(real):
        xyxy, _scores, _ids = reader._localize(img)
        if not len(xyxy) or not len(gt):
            continue
        from vision.image import LoadedImage

        r = reader.classifier.classify(LoadedImage.from_array(img), xyxy, {"decode": 0.0})
        iou = iou_matrix(xyxy, gt)
        for i in range(len(xyxy)):
            j = int(np.argmax(iou[i]))
            if iou[i, j] >= 0.5:
                rows["cls"].append(int(r.cls[i]))
                rows["margin"].append(float(r.margin[i]))
                rows["logit_margin"].append(float(r.logit_margin[i]))
                rows["agree"].append(bool(r.agree[i]))
                labels.append(classes.index(codes[j]))
    return {k: np.array(v) for k, v in rows.items()}, np.array(labels), np.array(rows["cls"])


def fit_flag(
    r: dict,
    y: np.ndarray,
    none_index: int,
    target_right: float,
    always: np.ndarray | None = None,
    score: str = "margin",
) -> dict:
    """The flag threshold (`flag_margin` or `flag_logit_margin`, by `score`: `SCORES`) and
    `disagree_factor` (see the module docstring) for readings `r` of labels `y`.

    `always` (bool per reading, optional): readings the runtime flags whatever their score
    (`vision.reading.beyond_the_set`); they count against `target_right` too, so the threshold is
    the largest that keeps all flags together within it.

    >>> r = {"logit_margin": np.array([0.5, 4.0, 5.0, 6.0]), "agree": np.ones(4, bool),
    ...      "cls": np.zeros(4, int)}
    >>> f = fit_flag(r, np.array([1, 0, 0, 0]), -1, 0.0, score="logit_margin")
    >>> f["flag_logit_margin"], f["wrong_flagged"], f["right_flagged"]
    (4.0, 1.0, 0.0)
    """
    key, step, end = SCORES[score]
    tiles = (y != none_index) & (r["cls"] != none_index)
    right, wrong = tiles & (r["cls"] == y), tiles & (r["cls"] != y)
    always = np.zeros(len(y), bool) if always is None else np.asarray(always, bool)
    best = (-1.0, 0.0, 0.0)
    for factor in (0.0, 0.25, 0.5, 0.75, 1.0):
        eff = effective_margin(r, factor, score)
        margin = 0.0
        for m in np.round(np.arange(0.0, end, step), 3):
            if ((eff < m) | always)[right].mean() > target_right:
                break
            margin = float(m)
        caught = float(((eff < margin) | always)[wrong].mean()) if wrong.any() else 0.0
        if caught > best[0]:
            best = (caught, margin, factor)
    caught, margin, factor = best
    flagged = (effective_margin(r, factor, score) < margin) | always
    return {
        key: margin,
        "disagree_factor": factor,
        "boxes": int(tiles.sum()),
        "wrong": int(wrong.sum()),
        "wrong_flagged": caught,
        "right_flagged": float(flagged[right].mean()) if right.any() else 0.0,
    }


def fit_with_set_rule(models: Path, real: Path, target_right: float, score: str = "margin") -> dict:
    """`fit_flag` on the reader's own detections matched to a label (`datasets.flag_data.collect`),
    with the readings `vision.reading.beyond_the_set` flags anyway counted against `target_right`."""
    recs = [x for x in collect(str(models), real, crops=False) if x["kind"] == "reader"]
    r = {**as_reading(recs), "cls": np.zeros(len(recs), int)}
    y = np.array([int(x["label"] != x["read"]) for x in recs])  # 0 = right (class 0 = the label)
    always = beyond_flags(recs)
    flag = fit_flag(r, y, -1, target_right, always, score)
    return {**flag, "set_rule": True, "set_rule_flagged": int(always.sum())}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--models", required=True)
    ap.add_argument("--real", required=True)
    ap.add_argument("--target-right", type=float, default=0.05)
    ap.add_argument("--through-reader", action="store_true", help="fit the flag on the reader's own boxes")
    ap.add_argument(
        "--set-rule",
        action="store_true",
        help="fit on the reader's matched detections with `beyond_the_set` flags counted in (0.6.1 on)",
    )
    ap.add_argument(
        "--score",
        choices=sorted(SCORES),
        default="margin",
        help="the flag's score: logit_margin = log(p1 / p2) (0.6.2 on), margin = p1 - p2",
    )
    a = ap.parse_args(argv)
    path = Path(a.models) / "classifier.onnx"
    model = onnx.load(str(path))
    meta = json.loads(next(p.value for p in model.metadata_props if p.key == "jxmj"))
    z = np.load(Path(a.real) / "cls" / "val.npz")
    none_index = meta["classes"].index("none") if "none" in meta["classes"] else -1
    z0, z1 = logits_both(path, z["x"])
    res = fit(z0, z1, z["y"], none_index, a.target_right, a.score)
    key = SCORES[a.score][0]
    print(json.dumps(res), flush=True)
    if a.through_reader or a.set_rule:  # fit the flag on the reader's own boxes, fitted temperature
        _write(model, meta, path, {"temperature": res["temperature"]})
        if a.set_rule:
            flag = fit_with_set_rule(Path(a.models), Path(a.real), a.target_right, a.score)
            where = "the reader's matched detections, with the set rule's flags counted"
        else:
            r, y, _ = reader_readings(Path(a.models), Path(a.real))
            flag = fit_flag(r, y, none_index, a.target_right, score=a.score)
            where = "the reader's matched boxes"
        print(f"through {where}:", json.dumps(flag), flush=True)
        keys = (key, "disagree_factor", "wrong_flagged", "right_flagged")
        res.update({f"crops_{k}": res[k] for k in keys})
        res.update(flag)
    else:
        where = f"{res['crops']} crops"
    _write(
        model,
        meta,
        path,
        {
            "temperature": res["temperature"],
            key: res[key],
            "disagree_factor": res["disagree_factor"],
            "fitted_on": f"real_photos_rf validation part, {where}",
        },
    )
    (Path(a.models) / "calibration.json").write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
