"""Reference two-stage predictor over the exported ONNX models (what the runtime in vision/ does).

    python -m datasets.predict IMAGE [--models models] [--annotate OUT.png]

Prints the `jxmj detect` JSON subset that `eval_rows.py` reads.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort
from PIL import Image, ImageOps

from vision.boxes import SIDEWAYS_RATIO


class Predictor:
    def __init__(self, models="models", conf=0.3, iou=0.45, threads=2):
        so = ort.SessionOptions()
        so.intra_op_num_threads = threads
        self.loc = ort.InferenceSession(
            str(Path(models) / "localizer.onnx"), so, providers=["CPUExecutionProvider"]
        )
        self.cls = ort.InferenceSession(
            str(Path(models) / "classifier.onnx"), so, providers=["CPUExecutionProvider"]
        )
        self.loc_meta = json.loads(self.loc.get_modelmeta().custom_metadata_map["jxmj"])
        self.cls_meta = json.loads(self.cls.get_modelmeta().custom_metadata_map["jxmj"])
        self.size = self.loc_meta["input_size"][0]
        self.crop_hw = tuple(self.cls_meta["input_size"])
        self.classes = self.cls_meta["classes"]
        self.conf, self.iou = conf, iou

    def localize(self, img):
        h, w = img.shape[:2]
        S = self.size
        f = S / max(h, w)
        nw, nh = round(w * f), round(h * f)
        small = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA)
        canvas = np.full((S, S, 3), 114, np.uint8)
        ox, oy = (S - nw) // 2, (S - nh) // 2
        canvas[oy : oy + nh, ox : ox + nw] = small
        x = canvas.transpose(2, 0, 1)[None].astype(np.float32) / 255
        out = self.loc.run(None, {"images": x})[0][0]  # [4+nc, N]
        scores = out[4:].max(0)
        kind = out[4:].argmax(0)
        keep = scores > self.conf
        b, scores, kind = out[:4, keep].T, scores[keep], kind[keep]
        xywh = np.stack([b[:, 0] - b[:, 2] / 2, b[:, 1] - b[:, 3] / 2, b[:, 2], b[:, 3]], 1)
        idx = cv2.dnn.NMSBoxes(xywh.tolist(), scores.tolist(), self.conf, self.iou)
        idx = np.array(idx).reshape(-1)
        boxes = []
        for i in idx:
            x0, y0, bw, bh = xywh[i]
            x0, y0 = (x0 - ox) / f, (y0 - oy) / f
            x1, y1 = x0 + bw / f, y0 + bh / f
            boxes.append(
                (
                    max(0.0, x0),
                    max(0.0, y0),
                    min(float(w), x1),
                    min(float(h), y1),
                    float(scores[i]),
                    int(kind[i]),
                )
            )
        return boxes

    def classify(self, img, boxes):
        if not boxes:
            return []
        H, W = self.crop_hw
        crops = []
        for x0, y0, x1, y1, *_ in boxes:
            c = img[int(y0) : int(np.ceil(y1)), int(x0) : int(np.ceil(x1))]
            if c.shape[1] > c.shape[0] * SIDEWAYS_RATIO:
                c = np.rot90(c)
            if c.size == 0:
                c = np.zeros((H, W, 3), np.uint8)
            crops.append(cv2.resize(np.ascontiguousarray(c), (W, H), interpolation=cv2.INTER_AREA))
        x = np.stack(crops).transpose(0, 3, 1, 2).astype(np.float32) / 255
        logits = self.cls.run(None, {"crops": x})[0]
        e = np.exp(logits - logits.max(1, keepdims=True))
        p = e / e.sum(1, keepdims=True)
        return [(self.classes[int(k)], float(p[i, k])) for i, k in enumerate(p.argmax(1))]

    def detect(self, img):
        t0 = time.perf_counter()
        boxes = self.localize(img)
        t1 = time.perf_counter()
        names = self.classify(img, boxes)
        t2 = time.perf_counter()
        dets = []
        for (x0, y0, x1, y1, s, k), (name, pc) in zip(boxes, names, strict=True):
            tile = "back" if k == 1 and name != "flower" else name
            dets.append(
                {
                    "xyxy": [round(float(v), 1) for v in (x0, y0, x1, y1)],
                    "tile": tile,
                    "conf": round(float(s * pc), 4),
                    "face_down": tile == "back",
                    "rotated": bool((x1 - x0) > (y1 - y0) * SIDEWAYS_RATIO),
                }
            )
        return {"detections": dets, "timing_ms": {"detect": (t1 - t0) * 1000, "classify": (t2 - t1) * 1000}}


def load_rgb(path, reduce: int = 1):
    """RGB array, EXIF orientation applied; ``reduce`` = 2 or 4 decodes a JPEG at 1/2 or 1/4 size."""
    im = Image.open(path)
    if reduce > 1 and im.format == "JPEG":
        im.draft("RGB", (im.width // reduce, im.height // reduce))
    im = ImageOps.exif_transpose(im)
    return np.asarray(im.convert("RGB"))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("image")
    ap.add_argument("--models", default=str(Path(__file__).resolve().parent.parent / "models"))
    ap.add_argument("--conf", type=float, default=0.3)
    ap.add_argument("--annotate")
    ap.add_argument("--reduce", type=int, default=1, help="decode JPEGs at 1/N size (N = 2, 4)")
    a = ap.parse_args(argv)
    p = Predictor(a.models, a.conf)
    t = time.perf_counter()
    img = load_rgb(a.image, a.reduce)
    td = time.perf_counter() - t
    res = p.detect(img)
    if a.reduce > 1:  # boxes back to full-size pixels
        full = ImageOps.exif_transpose(Image.open(a.image)).size
        k = full[0] / img.shape[1]
        for d in res["detections"]:
            d["xyxy"] = [round(v * k, 1) for v in d["xyxy"]]
        img = np.zeros((full[1], full[0], 0), np.uint8)
    res["timing_ms"]["decode"] = td * 1000
    res["image"] = {"width": img.shape[1], "height": img.shape[0]}
    if a.annotate:
        vis = img[:, :, ::-1].copy()
        for d in res["detections"]:
            x0, y0, x1, y1 = map(int, d["xyxy"])
            cv2.rectangle(vis, (x0, y0), (x1, y1), (0, 0, 255), max(1, img.shape[1] // 500))
            cv2.putText(vis, d["tile"], (x0, y0 - 4), 0, max(0.5, img.shape[1] / 1500), (255, 0, 255), 2)
        cv2.imwrite(a.annotate, vis)
    json.dump(res, sys.stdout)
    print()


if __name__ == "__main__":
    main()
