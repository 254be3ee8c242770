"""Helpers: build hands from strings, summarise items."""

from __future__ import annotations

from collections import Counter

from scoring import HandInput, Meld, Payer, ScoreResult, score


def melds_of(text: str) -> tuple[Meld, ...]:
    """``"pung 777p, kong CCCC"`` → melds."""
    out = []
    for part in text.split(","):
        part = part.strip()
        if part:
            kind, tiles = part.split()
            out.append(Meld.of(kind, tiles))
    return tuple(out)


def payer(name: str, melds: str = "", **kw) -> Payer:
    return Payer(name=name, melds=melds_of(melds), **kw)


def hand(
    variant: str,
    concealed: str,
    win: str,
    melds: str = "",
    *,
    self_drawn: bool = False,
    events: tuple[str, ...] = (),
    **kw,
) -> HandInput:
    return HandInput(
        variant=variant,
        concealed=concealed,
        winning_tile=win,
        self_drawn=self_drawn,
        melds=melds_of(melds),
        events=events,
        **kw,
    )


def sc(*args, rules=None, **kw) -> ScoreResult:
    return score(hand(*args, **kw), rules)


def points(result: ScoreResult) -> dict[str, int]:
    """Item points summed per key (items may repeat a key)."""
    c: Counter[str] = Counter()
    for i in result.items:
        c[i.key] += i.points or 0
    return dict(c)


def mults(result: ScoreResult) -> dict[str, float]:
    """Multiplier per key, the ×1 'basic' item left out."""
    return {i.key: i.multiplier for i in result.items if i.key != "basic"}


def amounts(result: ScoreResult) -> list[float]:
    return [p.amount for p in result.payments]
