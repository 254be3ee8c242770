"""Start a fine-tune from shipped ONNX weights: load a `models/*.onnx` file into its PyTorch net.

The exporter folds each BatchNorm into the convolution before it, so the ONNX file holds one
`(weight, bias)` per convolution. They are loaded in execution order; each BatchNorm after a
convolution becomes the identity (mean 0, variance 1) carrying the folded bias, and the net
then reproduces the ONNX outputs (checked by `verify`). Fine-tune it with BatchNorm kept in
eval mode (`freeze_bn`): the statistics stay fixed, the affine parameters still train.

    net = TileClassifier(37, 24); load_onnx(net, "models/classifier.onnx")
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper
from torch import nn


def _onnx_layers(path: str | Path) -> list[tuple[np.ndarray, np.ndarray | None]]:
    """`(weight, bias)` of every Conv and Gemm node, in graph (topological) order."""
    model = onnx.load(str(path))
    init = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    out = []
    for node in model.graph.node:
        if node.op_type in ("Conv", "Gemm"):
            w = init[node.input[1]]
            b = init[node.input[2]] if len(node.input) > 2 else None
            if node.op_type == "Gemm":
                trans_b = next((a.i for a in node.attribute if a.name == "transB"), 0)
                w = w if trans_b else w.T
            out.append((w, b))
    return out


def _torch_layers(net: nn.Module, example: torch.Tensor) -> list[tuple[nn.Module, nn.Module | None]]:
    """Conv2d / Linear modules in execution order, each with the BatchNorm2d that follows it."""
    mods = list(net.modules())
    follow = {id(m): mods[i + 1] for i, m in enumerate(mods[:-1]) if isinstance(mods[i + 1], nn.BatchNorm2d)}
    order: list[nn.Module] = []
    hooks = [
        m.register_forward_hook(lambda m, _i, _o: order.append(m))
        for m in mods
        if isinstance(m, (nn.Conv2d, nn.Linear))
    ]
    net.eval()
    with torch.no_grad():
        net(example)
    for h in hooks:
        h.remove()
    return [(m, follow.get(id(m))) for m in order]


def load_onnx(net: nn.Module, path: str | Path, example: torch.Tensor) -> list[str]:
    """Copy the ONNX file's weights into `net` (same architecture; a Linear layer may have more
    outputs than the file: the extra rows keep their fresh init). Returns notes on partial layers.

    Raises:
        ValueError: the number of layers or a weight shape does not fit.
    """
    src = _onnx_layers(path)
    dst = _torch_layers(net, example)
    if len(src) != len(dst):
        raise ValueError(f"{path}: {len(src)} layers, the net has {len(dst)}")
    notes = []
    with torch.no_grad():
        for k, ((w, b), (mod, bn)) in enumerate(zip(src, dst, strict=True)):
            tw = torch.from_numpy(np.array(w, dtype=np.float32))
            if isinstance(mod, nn.Linear):
                tw = (
                    tw.T if tw.shape[::-1] == tuple(mod.weight.shape) and tw.shape != mod.weight.shape else tw
                )
                n = tw.shape[0]
                if tw.shape[1:] != mod.weight.shape[1:] or n > mod.weight.shape[0]:
                    raise ValueError(f"layer {k}: {tuple(tw.shape)} vs {tuple(mod.weight.shape)}")
                mod.weight[:n] = tw
                mod.bias[:n] = torch.from_numpy(np.array(b, dtype=np.float32))
                if n < mod.weight.shape[0]:
                    notes.append(f"layer {k}: {n} of {mod.weight.shape[0]} outputs loaded")
                continue
            if tw.shape != mod.weight.shape:
                raise ValueError(f"layer {k}: {tuple(tw.shape)} vs {tuple(mod.weight.shape)}")
            mod.weight.copy_(tw)
            bias = (
                torch.from_numpy(np.array(b, dtype=np.float32)) if b is not None else torch.zeros(tw.shape[0])
            )
            if bn is None:
                mod.bias.copy_(bias)
            else:
                bn.running_mean.zero_()
                bn.running_var.fill_(1.0)
                bn.weight.fill_(float(np.sqrt(1.0 + bn.eps)))
                bn.bias.copy_(bias)
    return notes


def freeze_bn(net: nn.Module) -> None:
    """Put every BatchNorm in eval mode (call after each `net.train()`)."""
    for m in net.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


def verify(net_out: np.ndarray, path: str | Path, example: torch.Tensor, name: str) -> float:
    """Largest absolute difference between `net_out` and the ONNX file's output on `example`."""
    import onnxruntime as ort

    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    ref = sess.run(None, {name: example.numpy()})[0]
    return float(np.abs(ref[..., : net_out.shape[-1]] - net_out[..., : ref.shape[-1]]).max())
