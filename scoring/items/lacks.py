"""The other half of an item: what a hand lacks for it (why not, issue 25), registered beside the
item's predicate in the item's own module (issue 38: one rule, one place).

:func:`because` registers, for an item key, its own condition in both languages and a function
``lacks(facts) -> (en, zh) | None`` over the whole hand (:class:`Facts`): what this hand lacks, or
``None`` when the condition holds here (the item is then missing for a rule reason
:func:`scoring.why_not.explain` finds: an exclusion, a replacing pattern, a larger reading). For a
pattern, ``lacks`` says ``None`` exactly when the predicate holds in some reading of the hand,
before exclusions (``tests/scoring/test_lacks_agrees.py`` checks it on random hands).

A leaf: it imports no rule code, so the item modules can register both halves side by side.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from scoring.model import Meld
from scoring.result import ScoreResult

__all__ = ["REASONS", "Facts", "Reason", "Said", "because", "reason_of"]

Said = tuple[str, str] | None  # (en, zh): what this hand lacks; None: the condition holds


@dataclass(frozen=True)
class Reason:
    """``key``'s condition (``cond_en``, ``cond_zh``) and its test ``missing``; ``family`` is
    ``"pao"``, ``"fan"`` or ``""`` (both), for keys the two families define differently."""

    key: str
    cond_en: str
    cond_zh: str
    missing: Callable[[Facts], Said]
    family: str = ""


REASONS: dict[tuple[str, str], Reason] = {}  # (family or "", key) → its reason


def because(
    key: str, en: str, zh: str, family: str = ""
) -> Callable[[Callable[[Facts], Said]], Callable[[Facts], Said]]:
    """Register the why-not of item ``key``: its condition in English and Chinese (one phrase
    each, language-pure) and the decorated ``missing(facts) -> (en, zh) | None``."""

    def deco(fn: Callable[[Facts], Said]) -> Callable[[Facts], Said]:
        if (family, key) in REASONS:
            raise ValueError(f"why-not {key!r} registered twice")
        REASONS[(family, key)] = Reason(key, en, zh, fn, family)
        return fn

    return deco


def reason_of(rules: Any, key: str) -> Reason | None:
    """The reason registered for ``key`` in the table's family (a family's own first)."""
    return REASONS.get((rules.family, key)) or REASONS.get(("", key))


@dataclass
class Facts:
    """What the reasons read: the checked hand (:class:`scoring.validate.CheckedHand`, see
    :meth:`of`) and, when it scored, its result and the item keys it holds."""

    rules: Any  # the hand's RuleTable
    melds: tuple[Meld, ...]
    held: list[int]  # the winner's count of each kind, hand and melds
    standing: list[int]  # the count of each kind standing in the hand (winning tile included)
    self_drawn: bool
    bonus_tiles: int
    events: frozenset[str]  # the event patterns marked (last_tile as last_tile_draw / _discard)
    result: ScoreResult | None = None
    have: frozenset[str] = field(default_factory=frozenset)  # item keys the result holds

    @classmethod
    def of(cls, checked: Any, result: ScoreResult | None = None, have: frozenset[str] = frozenset()) -> Facts:
        """The facts of a checked hand."""
        return cls(
            checked.rules,
            checked.melds,
            checked.held,
            checked.counts,
            checked.self_drawn,
            checked.bonus_tiles,
            checked.events,
            result,
            have,
        )

    @property
    def kinds(self) -> list[int]:
        return [t for t, n in enumerate(self.held) if n]

    def suits(self) -> dict[int, list[int]]:
        """Suit index (0 m, 1 p, 2 s) → the kinds of it the winner holds."""
        out: dict[int, list[int]] = {}
        for t in self.kinds:
            if t < 27:
                out.setdefault(t // 9, []).append(t)
        return out

    def honours(self) -> list[int]:
        return [t for t in self.kinds if t >= 27]
