"""Read what a character tile says: a Chinese text recogniser scored against the tile words.

萬 tiles carry a Chinese numeral over 萬 (or 万); winds and 中 / 發 are one character. A generalist
text recogniser reads them in any font or colour, whatever set it is. The model is PaddleOCR's
PP-OCRv4 recogniser (`models/text_rec.onnx`, Apache-2.0: `models/MODEL.md`, "The text reader"),
run with our onnxruntime: input float32 `[B, 3, 48, W]` (BGR, as PaddleOCR feeds it,
scaled to [-1, 1]; a view narrower than `MIN_WIDTH` padded with 0 on the right), output
`[B, T, 1 + K + 1]` per-frame probabilities of CTC blank, the K characters of the metadata
property `character` (one a line), then a space. Views are batched by width (`WIDTHS`), so a
narrow view does not pay for a wide one.

Not decoded freely: every tile word of `LEXICON` is scored by its CTC probability (the forward
algorithm over the word's frames, `ctc_log_prob`) on two views of the face — the whole face (a
wind, 中, 發) and its two parts, above and below the gap between the numeral and 萬, side by side
(the numeral and 萬 as one line: `vision.text_views.face_views`; a face printed light on dark
read inverted too) — and, with `upside_down`, on the face turned 180° (a box wider than tall, which
a slanted shot makes of an upright tile too, also turned 90° both ways: `sideways`).
(The numeral alone, and the numeral alone times 萬 alone, were measured and dropped: they add
nothing on real_sets_dev and misread 一萬 as 二萬 on real_rows_public; `models/MODEL.md`.)
`TextReading.scores` holds, per tile code, the best probability found (0..1).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from vision.modelfiles import CodedModelError, models_dir, session_options
from vision.text_views import face_views, polarities

TEXT_MODEL_FILE = "text_rec.onnx"
HEIGHT = 48
"""The recogniser's input height in pixels."""
WIDTHS = (96, 160, 320)
"""Width classes of the batches: a view is padded to the first that holds it (wider: squeezed
to the last)."""
MIN_WIDTH = 96
"""Views narrower than this (at height 48) are padded to it: room for the CTC frames of two
characters (the model outputs one frame per 8 px)."""

NUMERALS = (("一",), ("二",), ("三",), ("四",), ("五", "伍"), ("六",), ("七",), ("八",), ("九",))
WAN = ("萬", "万")
HONOURS = {"E": ("東", "东"), "S": ("南",), "W": ("西",), "N": ("北",), "C": ("中",), "F": ("發", "发")}

TEXT_CODES = (*(f"{n}m" for n in range(1, 10)), *HONOURS)
"""The tile codes the text reader knows (13): 1m..9m, E S W N C F."""

ERROR_CODES = ("text_model_missing", "text_model_unreadable", "text_model_contract")
"""`TextModelError.code`: the model file is not there; it is there but onnxruntime cannot load
it (damaged, truncated); it loads but has no `character` list, lacks a tile character or its
output does not match the list."""


class TextModelError(CodedModelError):
    """The text recogniser cannot be used: `error.code` one of `ERROR_CODES`, `error.fields`
    the values the sentence names (`path`)."""


def lexicon() -> dict[str, tuple[tuple[str, ...], ...]]:
    """Per view, per tile code, the words that name it: `{view: ((word, ...) per TEXT_CODES)}`.

    Views: `whole` (an honour character), `side` (numeral + 萬 on one line)."""
    side = [
        tuple(n + w for n in NUMERALS[int(c[0]) - 1] for w in WAN) if c[1:] == "m" else () for c in TEXT_CODES
    ]
    whole = [HONOURS.get(c, ()) for c in TEXT_CODES]
    return {"whole": tuple(whole), "side": tuple(side)}


LEXICON = lexicon()
VIEWS = tuple(LEXICON)


def ctc_log_prob(log_probs: np.ndarray, words: np.ndarray, blank: int = 0) -> np.ndarray:
    """log P(word | frames) under CTC for N words of one length L: the sum over every alignment
    (the forward algorithm, all words at once).

    Args:
        log_probs: `(T, C)` per-frame log-probabilities.
        words: `(N, L)` int class indices (no blanks), L >= 1.
    Returns:
        `(N,)` float64 log-probabilities (-inf where the word needs more frames than T).
    """
    words = np.asarray(words, np.int64).reshape(len(words), -1)
    n, length = words.shape
    s = 2 * length + 1
    ext = np.full((n, s), blank, np.int64)
    ext[:, 1::2] = words
    lp = log_probs[:, ext]  # (T, N, S)
    skip = np.zeros((n, s), bool)
    skip[:, 3::2] = ext[:, 3::2] != ext[:, 1:-2:2]
    alpha = np.full((n, s), -np.inf)
    alpha[:, :2] = lp[0, :, :2]
    pad1, pad2 = np.full((n, 1), -np.inf), np.full((n, 2), -np.inf)
    for t in range(1, len(lp)):
        a1 = np.concatenate([pad1, alpha[:, :-1]], axis=1)
        a2 = np.where(skip, np.concatenate([pad2, alpha[:, :-2]], axis=1), -np.inf)
        alpha = np.logaddexp(np.logaddexp(alpha, a1), a2) + lp[t]
    return np.logaddexp(alpha[:, -1], alpha[:, -2]) if s > 1 else alpha[:, -1]


@dataclass(frozen=True, slots=True)
class TextReading:
    """What the text reader read on one face.

    `scores`: float32 `(len(TEXT_CODES),)`, per code the best CTC probability of its words over
    the views and turns (0..1); `best`: the code with the highest score; `score`: that score."""

    scores: np.ndarray

    @property
    def best(self) -> str:
        return TEXT_CODES[int(np.argmax(self.scores))]

    @property
    def score(self) -> float:
        return float(np.max(self.scores))

    def of(self, code: str) -> float:
        """The score of `code` (0.0 for a code the text reader does not know)."""
        return float(self.scores[TEXT_CODES.index(code)]) if code in TEXT_CODES else 0.0


def to_input(views: Sequence[np.ndarray], cap: int | None = None) -> np.ndarray:
    """Views `(h, w, 3)` uint8 -> one float32 batch `(B, 3, 48, W)`: each resized to height 48
    keeping its aspect (at most `cap` wide), scaled to [-1, 1], padded with 0 to the widest (at
    least `MIN_WIDTH`)."""
    widths = [max(1, math.ceil(HEIGHT * v.shape[1] / max(v.shape[0], 1))) for v in views]
    widths = [min(w, cap) for w in widths] if cap else widths
    width = max(MIN_WIDTH, *widths)
    batch = np.zeros((len(views), 3, HEIGHT, width), np.float32)
    for i, (v, w) in enumerate(zip(views, widths, strict=True)):
        img = cv2.resize(
            v, (w, HEIGHT), interpolation=cv2.INTER_AREA if v.shape[0] > HEIGHT else cv2.INTER_LINEAR
        )
        batch[i, :, :, :w] = img.transpose(2, 0, 1).astype(np.float32) / 127.5 - 1.0
    return batch


def _by_length(per_code: tuple) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """`{L: (codes (N,), words (N, L))}`: a view's words grouped by length, with their code index."""
    groups: dict[int, tuple[list[int], list[tuple[int, ...]]]] = {}
    for c, words in enumerate(per_code):
        for w in words:
            g = groups.setdefault(len(w), ([], []))
            g[0].append(c)
            g[1].append(w)
    return {n: (np.array(c), np.array(w, np.int64)) for n, (c, w) in groups.items()}


class TextReader:
    """The recogniser of one `.onnx` file and the lexicon as its class indices.

    Raises (constructor):
        TextModelError: `text_model_missing`, `text_model_unreadable`, `text_model_contract`.
    """

    def __init__(self, path: str | Path | None = None, threads: int | None = None) -> None:
        self.path = Path(path) if path is not None else models_dir() / TEXT_MODEL_FILE
        if not self.path.is_file():
            raise TextModelError(
                f"text model not found: {self.path}", "text_model_missing", path=str(self.path)
            )
        try:
            self.session = ort.InferenceSession(
                str(self.path), sess_options=session_options(threads), providers=["CPUExecutionProvider"]
            )
        except Exception as exc:
            raise TextModelError(
                f"cannot load {self.path.name}: {exc}", "text_model_unreadable", path=str(self.path)
            ) from None
        chars = self.session.get_modelmeta().custom_metadata_map.get("character", "").splitlines()
        index = {c: i + 1 for i, c in enumerate(chars)}  # 0 is the CTC blank
        missing = sorted(
            {c for view in LEXICON.values() for words in view for w in words for c in w} - set(index)
        )
        n_out = self.session.get_outputs()[0].shape[-1]
        if not chars or missing or (isinstance(n_out, int) and n_out != len(chars) + 2):
            raise TextModelError(
                f"{self.path.name} does not follow the recogniser's contract "
                f"(characters: {len(chars)}, output: {n_out}, missing: {''.join(missing)})",
                "text_model_contract",
                path=str(self.path),
            )
        self.input_name = self.session.get_inputs()[0].name
        self.words = {
            view: tuple(tuple(tuple(index[c] for c in w) for w in words) for words in per_code)
            for view, per_code in LEXICON.items()
        }
        self._groups = {view: _by_length(words) for view, words in self.words.items()}
        self.digits: np.ndarray | None = (
            np.array([[index[str(n)]] for n in range(1, 10)], np.int64)
            if all(str(n) in index for n in range(1, 10))
            else None
        )
        """The one-character words 1..9 as class indices `(9, 1)`, for a corner index
        (`vision.corner_index`); None where the model has no digit."""

    def log_probs(self, views: Sequence[np.ndarray]) -> list[np.ndarray]:
        """Per view its `(T, C)` per-frame log-probabilities (`views`: uint8 BGR crops; T grows
        with the view's width). One model run per width class of `WIDTHS`."""
        out: list[np.ndarray] = [np.empty(0)] * len(views)
        classes: dict[int, list[int]] = {}
        for i, v in enumerate(views):
            w = HEIGHT * v.shape[1] / max(v.shape[0], 1)
            classes.setdefault(next((c for c in WIDTHS if w <= c), WIDTHS[-1]), []).append(i)
        for cap, idx in classes.items():
            probs = self.session.run(None, {self.input_name: to_input([views[i] for i in idx], cap)})[0]
            for i, p in zip(idx, np.log(np.clip(probs, 1e-12, 1.0)), strict=True):
                out[i] = p
        return out

    def read(
        self, faces: Sequence[np.ndarray], upside_down: bool = True, sideways: Sequence[bool] | None = None
    ) -> list[TextReading]:
        """Read upright face crops `(h, w, 3)` uint8 BGR (each also turned 180° with `upside_down`;
        a face whose `sideways` is True also turned 90° and 270°: a box wider than tall may be a
        tile lying sideways or an upright one foreshortened by a slanted shot).

        Returns one `TextReading` per face (all of them run through the model in one batch)."""
        if not faces:
            return []
        half = (0, 2) if upside_down else (0,)
        quarter = (0, 1, 2, 3) if upside_down else (0, 1, 3)
        turns = [quarter if sideways is not None and sideways[f] else half for f in range(len(faces))]
        batch: list[np.ndarray] = []
        reads = []
        for face, ks in zip(faces, turns, strict=True):
            pol = polarities(face)
            reads.append(len(ks) * len(pol))
            for k in ks:
                turned = np.ascontiguousarray(np.rot90(face, k)) if k else face
                for inv in pol:
                    batch += face_views(turned, invert=inv).values()
        lp = self.log_probs(batch)
        out, base = [], 0
        for n in reads:
            best = np.zeros(len(TEXT_CODES), np.float64)
            for _ in range(n):
                p = {view: self._view_scores(lp[base + j], view) for j, view in enumerate(VIEWS)}
                best = np.maximum(best, np.maximum(p["side"], p["whole"]))
                base += len(VIEWS)
            out.append(TextReading(best.astype(np.float32)))
        return out

    def _view_scores(self, lp: np.ndarray, view: str) -> np.ndarray:
        """Per code the probability of its likeliest word in one view's frames `(T, C)` (0: none)."""
        scores = np.zeros(len(TEXT_CODES))
        for _length, (codes, words) in self._groups[view].items():
            np.maximum.at(scores, codes, np.exp(ctc_log_prob(lp, words)))
        return scores


__all__ = ["ERROR_CODES", "TEXT_CODES", "TEXT_MODEL_FILE", "TextModelError", "TextReader", "TextReading"]
