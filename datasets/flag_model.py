"""A tiny logistic model of "this reading is wrong", over what the reader knows about a box.

Features (`FEATURES`, per box): the top-1 minus top-2 probability of the winning view, whether
the 0° and 180° (or ±90°) views disagree, the localizer score, and how far the box's long side
is from its row's median (`|log(size / median)|`). Fitted with L2-regularised Newton steps
(numpy only); the flag is `score > threshold`, the threshold flagging at most a target share of
the fitting boxes' right reads.
"""

from __future__ import annotations

import numpy as np

FEATURES = ("margin", "disagree", "loc_score", "size_off")


def features(recs: list[dict]) -> np.ndarray:
    """`(n, 4)` float64 features of records with `margin`, `agree`, `score`, `size_rel`."""
    return np.array(
        [
            [r["margin"], 0.0 if r["agree"] else 1.0, r["score"], abs(np.log(max(r["size_rel"], 1e-3)))]
            for r in recs
        ],
        np.float64,
    ).reshape(-1, len(FEATURES))


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1.0, steps: int = 50) -> np.ndarray:
    """Weights `(1 + d,)` (bias first) of a logistic regression of `y` (0/1) on `x` `(n, d)`.

    >>> x = np.array([[0.0], [0.1], [0.9], [1.0]]); y = np.array([1.0, 1.0, 0.0, 0.0])
    >>> bool(fit_logistic(x, y)[1] < 0)
    True
    """
    a = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(a.shape[1])
    reg = np.full(a.shape[1], l2)
    reg[0] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(a @ w)))
        g = a.T @ (p - y) + reg * w
        h = (a * (p * (1 - p))[:, None]).T @ a + np.diag(reg) + 1e-9 * np.eye(len(w))
        w = w - np.linalg.solve(h, g)
    return w


def threshold_for(s: np.ndarray, wrong: np.ndarray, target: float) -> float:
    """The lowest threshold on scores `s` that flags (`s > t`) at most `target` of the right ones."""
    right = np.sort(s[~wrong])
    if not len(right):
        return float(s.min()) - 1.0
    k = int(np.floor(target * len(right)))
    return float(right[len(right) - k - 1]) if k < len(right) else float(right[0]) - 1.0
