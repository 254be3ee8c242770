"""`datasets.export.add_embedding_output`: the shipped classifier's pooled embedding as a second
output, its logits bit-identical (datasets/reports/model-history.md "0.6.3")."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("torch")
onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from datasets.export import EMBEDDING_OUTPUT, add_embedding_output  # noqa: E402
from vision import models_dir, open_image  # noqa: E402
from vision.boxes import cut_crops  # noqa: E402
from vision.modelfiles import session_options  # noqa: E402

SAMPLE = "app/assets/sample_hand.jpg"


def without_embedding(model):
    """The shipped graph as it was before 0.6.3: only the first output (`logits`)."""
    old = onnx.ModelProto()
    old.CopyFrom(model)
    del old.graph.output[1:]
    return old


def session(model):
    return ort.InferenceSession(
        model.SerializeToString(), session_options(), providers=["CPUExecutionProvider"]
    )


def crops() -> np.ndarray:
    """Real crops: boxes over the sample photo's hand row, both ways (as the reader cuts them)."""
    img = open_image(SAMPLE).pixels
    h, w = img.shape[:2]
    xs = np.linspace(0.05, 0.85, 6) * w
    boxes = np.array([[x, 0.4 * h, x + 0.08 * w, 0.4 * h + 0.1 * w] for x in xs], np.float32)
    return cut_crops(img, boxes, (64, 48), both_ways=True)[0]


def test_shipped_classifier_has_the_embedding_and_the_same_logits():
    shipped = onnx.load(str(models_dir() / "classifier.onnx"))
    assert [o.name for o in shipped.graph.output] == ["logits", EMBEDDING_OUTPUT]
    meta = json.loads({p.key: p.value for p in shipped.metadata_props}["jxmj"])
    assert meta["version"] == "0.6.1" and meta["calibration"]["flag_logit_margin"] == 3.13
    x = crops()
    old = session(without_embedding(shipped)).run(None, {"crops": x})
    new = session(shipped).run(None, {"crops": x})
    assert len(old) == 1 and np.array_equal(old[0], new[0])  # bit-identical logits
    assert new[1].shape == (len(x), 168) and new[1].min() >= 0  # pooled after a ReLU
    # the embedding is what the final layer reads: logits = embedding @ W.T + b
    w = next(i for i in shipped.graph.initializer if i.name == "fc.weight")
    b = next(i for i in shipped.graph.initializer if i.name == "fc.bias")
    wt, bt = onnx.numpy_helper.to_array(w), onnx.numpy_helper.to_array(b)
    assert np.allclose(new[1] @ wt.T + bt, new[0], atol=1e-4)


def test_add_embedding_output_is_reproducible_and_idempotent():
    shipped = onnx.load(str(models_dir() / "classifier.onnx"))
    again = add_embedding_output(without_embedding(shipped))
    assert [o.name for o in again.graph.output] == ["logits", EMBEDDING_OUTPUT]
    assert again.SerializeToString() == shipped.SerializeToString()
    assert add_embedding_output(shipped).SerializeToString() == shipped.SerializeToString()


def test_a_graph_whose_logits_are_not_a_linear_layer_is_refused(tmp_path):
    from vision import testing

    path = testing.build_classifier(tmp_path / "classifier.onnx")
    with pytest.raises(ValueError, match="not a Gemm"):
        add_embedding_output(onnx.load(str(path)))
