"""Export trained checkpoints to ONNX (opset 17) with the `jxmj` metadata property.

python -m datasets.export --cls datasets/out/cls/final.pt --loc datasets/out/loc/final.pt --out models
python -m datasets.export --add-embedding models/classifier.onnx   # 0.6.3: the pooled embedding too
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
    model = add_embedding_output(model)
    meta = {"task": "classify", "input_size": list(hw), "classes": list(classes), "version": version}
    if "none" in classes:  # 0.6.0 on: trained at 0° and 180° (the runtime reads both ways)
        meta["upside_down"] = True
    _save(model, meta, out)
    return out


EMBEDDING_OUTPUT = "embedding"
"""Name of the classifier's second output (0.6.3 on): the pooled features the final linear layer
reads, float32 `[B, D]` (`vision.refs`)."""


def add_embedding_output(model: onnx.ModelProto, name: str = EMBEDDING_OUTPUT) -> onnx.ModelProto:
    """The classifier graph with the input of its final linear layer as a second output `name`.

    No node, weight or metadata changes: the final `Gemm` (or `MatMul`) that produces the first
    output (`logits`) reads a pooled `[B, D]` tensor (GlobalAveragePool / ReduceMean / Flatten);
    that tensor is added to the graph outputs, so `logits` stay bit-identical. A model that has
    `name` already is returned unchanged (a copy).

    Raises:
        ValueError: the first output is not made by a Gemm / MatMul, or its input is not 2-D.
    """
    out = onnx.ModelProto()
    out.CopyFrom(model)
    g = out.graph
    if any(o.name == name for o in g.output):
        return out
    head = next((n for n in g.node if g.output[0].name in n.output), None)
    if head is None or head.op_type not in ("Gemm", "MatMul"):
        kind = head.op_type if head is not None else "no node"
        raise ValueError(f"the classifier's {g.output[0].name!r} comes from {kind}, not a Gemm / MatMul")
    pooled = head.input[0]
    inferred = onnx.shape_inference.infer_shapes(out)
    info = next((v for v in inferred.graph.value_info if v.name == pooled), None)
    dims = info.type.tensor_type.shape.dim if info is not None else []
    if len(dims) != 2:
        raise ValueError(f"the input {pooled!r} of the classifier's final layer is not [B, D]")
    rename = {pooled: name}
    for node in g.node:
        node.input[:] = [rename.get(i, i) for i in node.input]
        node.output[:] = [rename.get(o, o) for o in node.output]
    d = dims[1].dim_value
    g.output.append(
        onnx.helper.make_tensor_value_info(
            name, onnx.TensorProto.FLOAT, [g.output[0].type.tensor_type.shape.dim[0].dim_param or "batch", d]
        )
    )
    onnx.checker.check_model(out)
    return out


def export_embedding(path: Path, out: Path | None = None) -> Path:
    """Rewrite the classifier file `path` (or write `out`) with the embedding output added
    (`add_embedding_output`); its metadata property is kept as it is."""
    model = add_embedding_output(onnx.load(str(path)))
    target = Path(out or path)
    onnx.save(model, str(target))
    return target


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
    ap.add_argument(
        "--add-embedding",
        metavar="CLASSIFIER.onnx",
        help="add the pooled embedding output to this file, in place",
    )
    a = ap.parse_args(argv)
    out = Path(a.out)
    if a.add_embedding:
        print(export_embedding(Path(a.add_embedding)))
    if a.cls:
        print(export_classifier(a.cls, out / "classifier.onnx", tuple(a.crop), a.version))
    if a.loc:
        print(export_localizer(a.loc, out / "localizer.onnx", a.size, a.version, a.refine_size))


if __name__ == "__main__":
    main()
