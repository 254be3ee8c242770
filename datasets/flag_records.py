"""The records flag 2 is fitted on (`datasets.flag_sets`): one per labelled box the runtime reader
finds in a validation photo, with every feature of `vision.flagging` (the TTA and grey views cut
for every box, not only below the band) and the views' embeddings.

Each record: `set` (its physical set, `"swapped"` for the red/blue copy), `stem`, `box` (the
label's index among the photo's non-empty label lines: the key of `datasets.audit`), `tag`
(`plain`, `swapped`, `report`), `label`, `label_id`, `read`, `cls`, `logit_margin`, `agree`,
`tta`, `tta_views`, `p`, `grey`, `conf`, `back`, `old` (the flag before flag 2), `fifth`, `emb`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.flagging import fifth_copies, margin_toward, tta_boxes


def collect(reader, root: Path, tag: str, grouping: dict) -> list[dict]:
    """One record per matched box of every validation photo under `root`."""
    from datasets.eval_refs import matches
    from datasets.real import class_map, load, photos, split_by_source
    from vision.image import open_image

    classes = list(reader.classifier.classes)
    t = float((reader.classifier.meta.get("calibration") or {}).get("temperature", 1.0))
    cmap = class_map(root)
    stems = photos(root)
    split = split_by_source(stems, 1, 0.2)
    seen: dict = {}
    read = reader._read

    def capture(loaded, xyxy, scores, class_ids, timing, **kw):
        out = read(loaded, xyxy, scores, class_ids, timing, **kw)
        seen["xyxy"], seen["r"] = out[0], out[3]
        return out

    reader._read = capture
    out = []
    try:
        for stem in (s for s in stems if split[s] == "val"):
            _img, gt, codes = load(root, stem, cmap)
            loaded = open_image(
                root / "images" / f"{stem}.jpg", min_side=reader.config.decode_min_side or None
            )
            seen.clear()
            res = reader.detect(loaded)
            dets = res.detections
            if not dets or not len(gt):
                continue
            full = seen["xyxy"] / np.float32(loaded.scale)
            key = {tuple(np.round(b, 2)): k for k, b in enumerate(full)}
            ks = [key[tuple(np.round(np.array(d.xyxy, np.float32), 2))] for d in dets]
            r = seen["r"]
            hand = [i for i, d in enumerate(dets) if d.role == "hand"]
            fifth = dict(
                zip(
                    hand,
                    fifth_copies([dets[i].tile for i in hand], [r.logit_margin[ks[i]] for i in hand]),
                    strict=True,
                )
            )
            pairs = matches(dets, gt)
            if not pairs:
                continue
            idx = np.array([ks[i] for i, _ in pairs])
            boxes = seen["xyxy"][idx]
            timing = {"decode": 0.0, "detect": 0.0, "classify": 0.0}
            _lg, emb, owner = reader.classifier.views(loaded, boxes, timing, embed=True)
            tl, _e, towner = reader.classifier.views(loaded, tta_boxes(boxes), timing)
            n = len(idx)
            tta = margin_toward(tl, [o % n for o in towner], r.cls[idx], t)
            gl, _e, gowner = reader.classifier.views(loaded, boxes, timing, grey=True)
            grey = margin_toward(gl, gowner, r.cls[idx], t)
            tview = [
                margin_toward(tl[b : b + 1], [0], r.cls[idx[o % n] : idx[o % n] + 1], t)[0]
                for b, o in enumerate(towner)
            ]
            for m, (i, j) in enumerate(pairs):
                d = dets[i]
                out.append(
                    {
                        "set": "swapped" if tag == "swapped" else grouping.get(stem, f"alone_{stem}"),
                        "stem": stem,
                        "box": int(j),
                        "tag": tag,
                        "label": codes[j],
                        "label_id": classes.index(codes[j]) if codes[j] in classes else -1,
                        "read": d.tile,
                        "cls": int(r.cls[idx[m]]),
                        "logit_margin": float(r.logit_margin[idx[m]]),
                        "agree": bool(r.agree[idx[m]]),
                        "tta": float(tta[m]),
                        "tta_views": [float(v) for v, o in zip(tview, towner, strict=True) if o % n == m],
                        "p": float(r.p[idx[m]]),
                        "grey": float(grey[m]),
                        "conf": float(d.conf),
                        "back": d.tile == "back",
                        "old": bool(d.uncertain),
                        "fifth": bool(fifth.get(i, False)),
                        "emb": [emb[b] for b, o in enumerate(owner) if o == m],
                    }
                )
    finally:
        reader._read = read
    return out
