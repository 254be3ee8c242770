"""The why-not registry and the facts each reason reads: they live in the leaf
:mod:`scoring.items.lacks`, so that each item's why-not is registered beside its predicate in the
item's own module (issue 38); this module names them for the why-not package."""

from __future__ import annotations

from scoring.items.lacks import REASONS, Facts, Reason, Said, because, reason_of

__all__ = ["REASONS", "Facts", "Reason", "Said", "because", "reason_of"]
