"""Export trained checkpoints to ONNX (opset 17) with the `jxmj` metadata property.

python -m datasets.export --cls datasets/out/cls/final.pt --loc datasets/out/loc/final.pt --out models
"""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import onnx
import torch

from datasets.nets import Localizer, LocalizerExport, TileClassifier
from datasets.tiles import CLASSES

OPSET = 17
LOC_CLASSES = ["tile", "back"]


def _to_onnx(module, example, input_name, output_name, dynamic_axes) -> onnx.ModelProto:
    buf = io.BytesIO()
    # The legacy exporter: the dynamo one would need onnxscript; torch is pinned in the `train` extra.
    torch.onnx.export(
        module,
        (example,),
        buf,
        input_names=[input_name],
        output_names=[output_name],
        opset_version=OPSET,
        dynamic_axes=dynamic_axes,
        do_constant_folding=True,
        dynamo=False,
    )
    return onnx.load_from_string(buf.getvalue())


def _save(model: onnx.ModelProto, meta: dict, path: Path):
    del model.metadata_props[:]
    p = model.metadata_props.add()
    p.key = "jxmj"
    p.value = json.dumps(meta)
    onnx.checker.check_model(model)
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))


def export_classifier(ckpt, out: Path, hw=(64, 48), version="dev"):
    s = torch.load(ckpt, map_location="cpu")
    classes = s.get("classes", CLASSES)
    m = TileClassifier(len(classes), s.get("width", 24))
    m.load_state_dict(s["model"])
    m.eval()
    x = torch.rand(2, 3, *hw)
    model = _to_onnx(m, x, "crops", "logits", {"crops": {0: "batch"}, "logits": {0: "batch"}})
    meta = {"task": "classify", "input_size": list(hw), "classes": list(classes), "version": version}
    if "none" in classes:  # 0.6.0 on: trained at 0° and 180° (the runtime reads both ways)
        meta["upside_down"] = True
    _save(model, meta, out)
    return out


def export_localizer(ckpt, out: Path, size=384, version="dev", refine_size: int | None = None):
    """The localiser as ONNX at input `size` x `size`. With `refine_size` (0.6.2 on) the graph's
    height and width are free (`dynamic_axes`) and the metadata's `refine_input_size` tells the
    runtime to run its second, coarse-to-fine pass at `refine_size` x `refine_size`."""
    s = torch.load(ckpt, map_location="cpu")
    m = Localizer(len(LOC_CLASSES), s.get("width", 16))
    m.load_state_dict(s["model"])
    m.eval()
    x = torch.rand(1, 3, size, size)
    free = {"images": {2: "height", 3: "width"}, "output0": {2: "cells"}} if refine_size else None
    model = _to_onnx(LocalizerExport(m), x, "images", "output0", free)
    meta = {
        "task": "localize",
        "input_size": [size, size],
        "classes": LOC_CLASSES,
        "version": version,
        "stride": Localizer.stride,
        "letterbox": "centre, pad 114/255",
        "scores": "sigmoid, non-peaks (3x3) zeroed",
    }
    if refine_size:
        meta["refine_input_size"] = [refine_size, refine_size]
    _save(model, meta, out)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cls")
    ap.add_argument("--loc")
    ap.add_argument("--out", default="models")
    ap.add_argument("--size", type=int, default=384)
    ap.add_argument(
        "--refine-size", type=int, help="free input size; the second (coarse-to-fine) pass at this size"
    )
    ap.add_argument("--crop", type=int, nargs=2, default=(64, 48), metavar=("H", "W"))
    ap.add_argument("--version", default="dev")
    a = ap.parse_args(argv)
    out = Path(a.out)
    if a.cls:
        print(export_classifier(a.cls, out / "classifier.onnx", tuple(a.crop), a.version))
    if a.loc:
        print(export_localizer(a.loc, out / "localizer.onnx", a.size, a.version, a.refine_size))


if __name__ == "__main__":
    main()
