"""Pattern predicates: one small function per table key (rule → predicate → test in one hop).

``PAO`` holds the jiujiang/xingzi predicates (DECISIONS §1.3), ``FAN`` the xinyu ones (§2).
Each entry is a :class:`PatternDef` with ``holds(reading) -> bool`` and a one-line
``reason(reading) -> str``. The engine asks every pattern of a variant's table and sums
(or multiplies) what holds; the values live in ``scoring/rules/*.toml``.
"""

from __future__ import annotations

from scoring.patterns.base import PatternDef, Reading
from scoring.patterns.fan import FAN
from scoring.patterns.pao import PAO

__all__ = ["FAN", "PAO", "PatternDef", "Reading", "registry"]


def registry(family: str) -> dict[str, PatternDef]:
    """The predicates of a rule family: ``"pao"`` (jiujiang, xingzi) or ``"fan"`` (xinyu)."""
    return PAO if family == "pao" else FAN
