"""Finding, checking and opening the two ONNX models (see docs/ARCHITECTURE.md, "models").

The models live in the `models` package directory (`models/localizer.onnx`,
`models/classifier.onnx`); the environment variable `JXMJ_MODELS_DIR` points elsewhere.
Each file carries a metadata property `jxmj` (JSON) with `task`, `input_size` `[H, W]`,
`classes` and `version`; sizes and classes are read from it, never hard-coded.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import onnxruntime as ort

from vision.detection import BACK, FLOWER

LOCALIZER_FILE = "localizer.onnx"
CLASSIFIER_FILE = "classifier.onnx"
ENV_MODELS_DIR = "JXMJ_MODELS_DIR"

CLASS_CODES = (
    *(f"{n}{s}" for s in "mps" for n in range(1, 10)),
    *"ESWNCFP",
    BACK,
    FLOWER,
)
"""Every code a detection may carry: the classifier's 36 classes, in order (the 34 tiles of
`scoring.tiles.TILE_CODES`, then `back` and `flower`)."""

NONE_CLASS = "none"
"""The classifier's "not a tile" class (models from 0.6.0): a box it wins goes to `rejected`."""

CLASSIFIER_CLASSES = (*CLASS_CODES, NONE_CLASS)
"""The 0.6.0 classifier's classes, in order: `CLASS_CODES`, then `none`."""

EMBEDDING_OUTPUT = "embedding"
"""Name of the classifier's optional second output (0.6.3 on): float32 `[B, D]` pooled features."""


class ModelError(RuntimeError):
    """The ONNX models are missing, unreadable or do not follow the I/O contract."""


class ModelContractError(ModelError):
    """A model that loads but does not follow the contract: no or invalid `jxmj` metadata,
    another task, unknown classes, a fixed input where the metadata wants a free one."""


class CodedModelError(ModelError):
    """A `ModelError` of an optional model (the text reader, the grey reader) with a coded cause:
    `error.code` (the module's `ERROR_CODES`), `error.fields` the values the sentence names (`path`)."""

    def __init__(self, message: str, code: str, **fields: object) -> None:
        super().__init__(message)
        self.code = code
        self.fields = fields


@dataclass(frozen=True, slots=True)
class ModelSpec:
    """One opened model.

    Attributes:
        path: the `.onnx` file.
        task: `"localize"` or `"classify"`.
        input_size: `(H, W)` in pixels of the model input.
        classes: class names in output order (tile codes for the classifier,
            `["tile", "back"]` for the localizer).
        version: free-form version string from the metadata.
        session: the onnxruntime session (thread-safe for `run`).
        input_name: name of the single input.
        output_name: name of the first output.
        meta: the whole `jxmj` metadata object. Classifiers from 0.6.0 add `upside_down` (trained
            at 0° and 180°: read each crop both ways) and `calibration` (`vision.reading`);
            localizers from 0.6.2 add `refine_input_size` `[H, W]` (a graph with free height
            and width: the second, coarse-to-fine pass runs at that size; `ModelError` when
            the graph's input is fixed).
        embedding_name: the classifier's second output `embedding` (`EMBEDDING_OUTPUT`, models
            0.6.3 on: float32 `[B, D]`, the pooled features its final layer reads;
            `vision.refs`), or None when the model has only its logits.
    """

    path: Path
    task: str
    input_size: tuple[int, int]
    classes: tuple[str, ...]
    version: str
    session: ort.InferenceSession
    input_name: str
    output_name: str
    meta: dict = field(default_factory=dict)
    embedding_name: str | None = None


def models_dir() -> Path:
    """The directory holding the models: `$JXMJ_MODELS_DIR`, else the `models` package dir."""
    env = os.environ.get(ENV_MODELS_DIR)
    if env:
        return Path(env).expanduser().resolve()
    import models

    return Path(models.__file__).resolve().parent


def session_options(threads: int | None = None) -> ort.SessionOptions:
    """CPU session options: full graph optimisation, `threads` intra-op threads (None: ORT default),
    no memory arena."""
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    if threads:
        so.intra_op_num_threads = threads
    # no busy-waiting between runs: spinning worker threads would take the CPU from the next
    # photo's JPEG decode (measured: decode twice as slow on 2 cores with spinning on)
    so.add_session_config_entry("session.intra_op.allow_spinning", "0")
    # no CPU memory arena: ONNX Runtime's arena keeps the peak of the runs made at once for the
    # life of the session (measured: +42 MB after 4 photos read at once, never returned); without
    # it each tensor is malloc'd and freed (the same CPU per photo, 0.056 s either way)
    so.enable_cpu_mem_arena = False
    so.log_severity_level = 3
    return so


def open_model(path: Path, task: str, threads: int | None = None) -> ModelSpec:
    """Open one `.onnx` file on the CPU and check its metadata against `task`.

    Raises:
        ModelError: missing file, unreadable model; `ModelContractError` (a `ModelError`):
            missing/invalid `jxmj` metadata, wrong task, unknown classes.
    """
    if not path.is_file():
        raise ModelError(
            f"model file not found: {path} (the trained models go in models/; "
            f"set {ENV_MODELS_DIR} to use another directory)"
        )
    try:
        session = ort.InferenceSession(
            str(path), sess_options=session_options(threads), providers=["CPUExecutionProvider"]
        )
    except Exception as exc:
        raise ModelError(f"cannot load {path.name}: {exc}") from None
    meta_raw = session.get_modelmeta().custom_metadata_map.get("jxmj")
    if not meta_raw:
        raise ModelContractError(f"{path.name} has no 'jxmj' metadata property (task, input_size, classes)")
    try:
        meta = json.loads(meta_raw)
        h, w = (int(v) for v in meta["input_size"])
        classes = tuple(str(c) for c in meta["classes"])
        got_task = str(meta["task"])
    except (ValueError, KeyError, TypeError) as exc:
        raise ModelContractError(f"{path.name}: invalid 'jxmj' metadata ({exc})") from None
    if got_task != task:
        raise ModelContractError(f"{path.name}: metadata task is {got_task!r}, expected {task!r}")
    if task == "classify":
        unknown = [c for c in classes if c not in CLASSIFIER_CLASSES]
        if unknown:
            raise ModelContractError(f"{path.name}: unknown classifier classes {unknown}")
    inputs, outputs = session.get_inputs(), session.get_outputs()
    if "refine_input_size" in meta and any(isinstance(d, int) for d in inputs[0].shape[2:]):
        raise ModelContractError(
            f"{path.name}: metadata has refine_input_size {meta['refine_input_size']} but the "
            f"graph's input is fixed at {inputs[0].shape}"
        )
    return ModelSpec(
        path=path,
        task=got_task,
        input_size=(h, w),
        classes=classes,
        version=str(meta.get("version", "")),
        session=session,
        input_name=inputs[0].name,
        output_name=outputs[0].name,
        meta=meta,
        embedding_name=EMBEDDING_OUTPUT
        if task == "classify" and any(o.name == EMBEDDING_OUTPUT for o in outputs[1:])
        else None,
    )


def run_classifier(
    spec: ModelSpec, batch: np.ndarray, embed: bool = False
) -> tuple[np.ndarray, np.ndarray | None]:
    """`(logits (B, C), embedding (B, D) or None)` of one float32 NCHW batch; the embedding
    only when `embed` and the model has one (one session run either way)."""
    names = [spec.output_name]
    if embed and spec.embedding_name:
        names.append(spec.embedding_name)
    out = spec.session.run(names, {spec.input_name: batch})
    return out[0], (out[1] if len(out) > 1 else None)


def run(spec: ModelSpec, batch: np.ndarray) -> np.ndarray:
    """Run `spec` on one float32 NCHW batch and return its first output."""
    return spec.session.run([spec.output_name], {spec.input_name: batch})[0]
