"""Helpers of the reader's tests: the localiser's input shapes of a `detect`, and the yardstick's
edit distance between two rows of tile codes."""

from __future__ import annotations

import vision.reader as reader_module


def localizer_shapes(monkeypatch, reader) -> list[tuple[int, ...]]:
    """A list that fills with the input shape of every localiser pass `reader` runs from now on."""
    shapes: list[tuple[int, ...]] = []
    run = reader_module.run_model

    def spy(spec, batch):
        if spec is reader.localizer:
            shapes.append(tuple(batch.shape))
        return run(spec, batch)

    monkeypatch.setattr(reader_module, "run_model", spy)
    return shapes


def edits(a: list[str], b: list[str]) -> int:
    """Edit distance of two rows (the yardstick's, `../shared/tools/eval_rows.py`).

    >>> edits(["1m", "2m", "3m"], ["1m", "3m"])
    1
    """
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]
