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


# ---- one-line cases --------------------------------------------------------------------------

VARIANT_OF = {"jj": "jiujiang", "xz": "xingzi", "xy": "xinyu"}
_FLAGS = {"self": ("self_drawn", True), "dealer": ("winner_is_dealer", True)}


def parse_case(spec: str, **kw) -> HandInput:
    """A hand from one line: ``"xz 234p456p777pCCCPP +P self"``.

    Words: the variant (``jj`` / ``xz`` / ``xy``), the standing tiles (winning tile included),
    ``+T`` the winning tile, ``kind:tiles`` a meld (``pung:777p``, ``concealed_kong:3333s``),
    ``self`` (self-drawn), ``dealer`` (the winner deals), ``bonus:N`` (發 set aside), any event
    name (``kong_bloom``, ``last_tile`` …). ``kw`` go to :class:`HandInput` as they are.
    """
    words = spec.split()
    fields: dict = {"variant": VARIANT_OF[words[0]], "concealed": words[1], "self_drawn": False}
    melds, events = [], []
    for w in words[2:]:
        if w.startswith("+"):
            fields["winning_tile"] = w[1:]
        elif w in _FLAGS:
            fields[_FLAGS[w][0]] = _FLAGS[w][1]
        elif w.startswith("bonus:"):
            fields["bonus_tiles"] = int(w[6:])
        elif ":" in w:
            kind, tiles = w.split(":")
            melds.append(Meld.of(kind, tiles))
        else:
            events.append(w)
    return HandInput(**fields, melds=tuple(melds), events=tuple(events), **kw)


def case(id: str, spec: str, **values):
    """One parametrised case: ``case("half_flush", "xz 234p456p777pCCCPP +P self", half_flush=10, …)``.

    ``values``: the exact points (or multipliers) per item key; keys not named score nothing.
    The id names the item key the case is about (``half_flush``, ``half_flush-no`` for a negative).
    """
    import pytest

    return pytest.param(spec, values, id=id)
