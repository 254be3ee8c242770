"""The why-not registry and the facts each reason reads (issue 25 items 4-5).

One registered reason per item key (:func:`because`): the item's own condition in both languages
(``cond``) and a function of :class:`Facts` that says what this hand lacks, ``(en, zh)``, or
``None`` when the condition holds here (the item is then missing for a rule reason the caller
finds: an exclusion, a replacing pattern, a larger reading).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from scoring.model import Meld
from scoring.result import ScoreResult
from scoring.rules import RuleTable
from scoring.validate import CheckedHand

__all__ = ["REASONS", "Facts", "Reason", "because"]

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


def because(key: str, en: str, zh: str, family: str = "") -> Callable:
    """Register the why-not of item ``key``: its condition in English and Chinese (one phrase
    each, language-pure) and the decorated ``missing(facts) -> (en, zh) | None``."""

    def deco(fn: Callable[[Facts], Said]) -> Callable[[Facts], Said]:
        if (family, key) in REASONS:
            raise ValueError(f"why-not {key!r} registered twice")
        REASONS[(family, key)] = Reason(key, en, zh, fn, family)
        return fn

    return deco


def reason_of(rules: RuleTable, key: str) -> Reason | None:
    """The reason registered for ``key`` in the table's family (a family's own first)."""
    return REASONS.get((rules.family, key)) or REASONS.get(("", key))


@dataclass
class Facts:
    """What the reasons read: the checked hand and (when it scored) its result."""

    checked: CheckedHand
    result: ScoreResult | None
    events: frozenset[str]  # the event patterns marked (last_tile as last_tile_draw / _discard)
    have: frozenset[str] = field(default_factory=frozenset)  # item keys the result holds

    @property
    def rules(self) -> RuleTable:
        return self.checked.rules

    @property
    def melds(self) -> tuple[Meld, ...]:
        return self.checked.melds

    @property
    def held(self) -> list[int]:
        """The winner's count of each kind, hand and melds."""
        return self.checked.held

    @property
    def standing(self) -> list[int]:
        """The count of each kind standing in the hand (winning tile included)."""
        return self.checked.counts

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
