"""The Learn page's practice (练习) as one typed object: the hand asked, its result, the
player's guess once revealed and the streak of right answers (`app.ui.learn.practice` draws it;
the session keeps one under `keys.PRACTICE`).

Pure: no Streamlit. A new hand is a fresh `Practice` that keeps only `KEPT` (the streak).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from scoring import HandInput, ScoreResult

__all__ = ["KEPT", "LEVELS", "Practice", "answer"]

LEVELS = ("one", "several", "table")
"""One pattern (花) / several patterns / with 吃炮 and the dealer (the guess is then the total)."""
KEPT = ("streak",)
"""The fields a new practice hand carries over from the last one (`Practice.next`)."""


def answer(result: ScoreResult, level: str) -> float | Decimal | None:
    """What the player is asked for: the hand's own value, or at the `table` level the total."""
    return result.total if level == "table" else result.own


@dataclass(slots=True)
class Practice:
    """One practice hand: `variant` and `level` it was dealt for, the `hand` and its `result`
    (None, None: the engine found none), `guess`: the number revealed (judged once: a guess
    changed afterwards is not), `streak`: right answers in a row, across hands."""

    variant: str
    level: str
    hand: HandInput | None = None
    result: ScoreResult | None = None
    revealed: bool = False
    guess: float | Decimal | None = None
    streak: int = 0

    def next(self, variant: str, level: str, got: tuple[HandInput, ScoreResult] | None) -> Practice:
        """A fresh practice of `got` (None: none found) that keeps `KEPT` of this one."""
        hand, result = got if got is not None else (None, None)
        kept = {name: getattr(self, name) for name in KEPT}
        return Practice(variant, level, hand, result, **kept)

    def matches(self, variant: str, level: str) -> bool:
        """Dealt for the `variant` and `level` chosen now (else a new hand is dealt)."""
        return (self.variant, self.level) == (variant, level)

    @property
    def answer(self) -> float | Decimal | None:
        return None if self.result is None else answer(self.result, self.level)

    @property
    def right(self) -> bool:
        """Revealed, and the guess was the answer."""
        return self.revealed and self.guess == self.answer

    def reveal(self, guess: float | Decimal | None) -> None:
        """Judge `guess` (once: revealed already, or no number entered, changes nothing): the
        streak grows by one on a right answer, else starts again from 0."""
        if self.revealed or guess is None or self.result is None:
            return
        self.revealed, self.guess = True, guess
        self.streak = self.streak + 1 if self.right else 0
