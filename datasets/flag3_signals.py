"""Every signal the runtime reader has on a box, per detection of one photo (flag 3's records,
`datasets.flag3_records`).

`photo_signals(reader, loaded)` reads the photo as `jxmj detect` does but without the text check
(`datasets.flag3_fit` applies its rule to whichever tiles a flag flags) and returns the
detections with, per detection, a dict of signals:

- classifier: `logit_margin`, `p`, `agree` (0°/180° or ±90° views name one class), `proto_sim`
  (flag 2's prototype cosine), `tta` (the smallest margin toward the reading over the shifted,
  scaled and grey views, cut here for every box), `flag2` (flag 2's logistic score over those:
  the first four weights of `flag.npz`) and `old` (the detection's `uncertain` with the flag file
  as it lies, before the text check: flag 2 when the records of flag 3 were made);
- text (`vision.text_reader`, for a face the classifier reads as a character tile or names one as
  runner-up): `text_score` (the best tile word's probability), `text_agree` (1 the text names the
  reading, -1 another tile, 0 not read / not a character tile), `text_best` (the word's tile);
- box: `loc` (the localiser's score), `size_rel` (`|log|` of the box's long side over the median of
  the photo's face-up hand boxes), `aspect_rel` (the same for long / short side), `size_all` /
  `aspect_all` (the same against every face-up box: known before the roles), `off_row`
  (its role is neither `hand` nor `meld`), `role`;
- hand: `fifth` (a fifth copy of a tile among the hand boxes, the lowest margins,
  `vision.flagging.fifth_copies`), `hand_second` (the hand boxes are 14 + kongs, not whole, and this
  box's runner-up alone makes them whole: `datasets.flag3_hand.hand_breakers`).
"""

from __future__ import annotations

import numpy as np

from datasets.flag3_hand import hand_breakers
from vision.flagging import feature_matrix, fifth_copies, margin_toward, tta_boxes
from vision.text_check import face_crop
from vision.text_reader import TEXT_CODES

SIGNALS = (
    "logit_margin",
    "p",
    "agree",
    "proto_sim",
    "tta",
    "flag2",
    "text_score",
    "text_agree",
    "loc",
    "size_rel",
    "aspect_rel",
    "size_all",
    "aspect_all",
    "off_row",
    "fifth",
    "hand_second",
)


def _rel(v: np.ndarray, ref: np.ndarray) -> np.ndarray:
    med = float(np.median(ref)) if len(ref) else float(np.median(v)) if len(v) else 1.0
    return np.abs(np.log(np.maximum(v, 1e-3) / max(med, 1e-3)))


def photo_signals(reader, loaded) -> tuple[list, list[dict]]:
    """`(detections, signals per detection)` of one photo (module docstring)."""
    clf = reader.classifier
    fm = clf.flag_model
    seen: dict = {}
    read = reader._read

    def capture(loaded_, xyxy, scores, class_ids, timing, **kw):
        out = read(loaded_, xyxy, scores, class_ids, timing, **kw)
        seen["xyxy"], seen["scores"], seen["r"], seen["source"] = out[0], out[1], out[3], kw.get("source")
        return out

    reader._read, text = capture, reader.text
    reader.text = None  # the classifier's own readings: the text rule is applied when measuring
    try:
        res = reader.detect(loaded)
    finally:
        reader._read, reader.text = read, text
    dets = res.detections
    if not dets:
        return [], []
    r, xyxy = seen["r"], seen["xyxy"]
    full = xyxy / np.float32(loaded.scale)
    key = {tuple(np.round(b, 2)): k for k, b in enumerate(full)}
    ks = np.array([key[tuple(np.round(np.array(d.xyxy, np.float32), 2))] for d in dets])
    boxes = xyxy[ks]
    timing: dict[str, float] = {}
    source = seen["source"]
    n, t = len(ks), clf.temperature
    cls = r.cls[ks]
    tl, _e, towner = clf.views(loaded, tta_boxes(boxes), timing, source)
    tta = margin_toward(tl, [o % n for o in towner], cls, t)
    gl, _e, gowner = clf.views(loaded, boxes, timing, source, grey=True)
    tta = np.minimum(tta, margin_toward(gl, gowner, cls, t))
    lm = r.logit_margin[ks]
    psim = r.proto_sim[ks] if r.proto_sim is not None else np.ones(n, np.float32)
    base = feature_matrix(lm, r.agree[ks], psim, np.where(lm < fm.tta_band, tta, np.nan)) if fm else None
    f2 = base @ fm.weights[1:5] + fm.weights[0] if fm else lm * 0  # flag 2's part of a flag-3 file too
    # text: every face read as (or with a runner-up that is) a character tile
    text_score, text_agree, text_best = np.zeros(n), np.zeros(n), [None] * n
    todo = [
        i for i, d in enumerate(dets) if not d.face_down and (d.tile in TEXT_CODES or d.second in TEXT_CODES)
    ]
    if text is not None and todo:
        faces = [face_crop(source[0], source[1], dets[i]) for i in todo]
        keep = [i for i, f in zip(todo, faces, strict=True) if min(f.shape[:2]) >= 8]
        for i, tr in zip(keep, text.read([f for f in faces if min(f.shape[:2]) >= 8]), strict=True):
            text_score[i] = tr.score
            text_agree[i] = 1.0 if tr.best == dets[i].tile else -1.0
            text_best[i] = tr.best
    # box geometry against the photo's face-up hand boxes
    wh = np.array([[d.xyxy[2] - d.xyxy[0], d.xyxy[3] - d.xyxy[1]] for d in dets])
    long, short = wh.max(1), np.maximum(wh.min(1), 1e-3)
    hand = [i for i, d in enumerate(dets) if d.role == "hand" and not d.face_down]
    size_rel = _rel(long, long[hand])
    aspect_rel = _rel(long / short, (long / short)[hand])
    up = [i for i, d in enumerate(dets) if not d.face_down]  # before roles: what the flag can use
    size_all, aspect_all = _rel(long, long[up]), _rel(long / short, (long / short)[up])
    hand_tiles = [i for i, d in enumerate(dets) if d.role == "hand"]
    fifth = dict(
        zip(hand_tiles, fifth_copies([dets[i].tile for i in hand_tiles], lm[hand_tiles]), strict=True)
    )
    breakers = hand_breakers([dets[i].tile for i in hand_tiles], [dets[i].second for i in hand_tiles])
    hand2 = {i: b for i, b in zip(hand_tiles, breakers, strict=True)}
    scores = seen["scores"][ks]
    out = []
    for i, d in enumerate(dets):
        out.append(
            {
                "logit_margin": float(lm[i]),
                "p": float(r.p[ks[i]]),
                "agree": bool(r.agree[ks[i]]),
                "proto_sim": float(psim[i]),
                "tta": float(tta[i]),
                "flag2": float(f2[i]),
                "old": bool(d.uncertain),
                "text_score": float(text_score[i]),
                "text_agree": float(text_agree[i]),
                "text_best": text_best[i],
                "loc": float(scores[i]),
                "size_rel": float(size_rel[i]),
                "aspect_rel": float(aspect_rel[i]),
                "size_all": float(size_all[i]),
                "aspect_all": float(aspect_all[i]),
                "off_row": bool(d.off_row),
                "role": d.role,
                "fifth": bool(fifth.get(i, False)),
                "hand_second": bool(hand2.get(i, False)),
                "read": d.tile,
                "second": d.second,
            }
        )
    return dets, out
