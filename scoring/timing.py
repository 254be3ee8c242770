"""Events and conditions that the seeds' timing rules out together (DECISIONS §1.3a).

:mod:`scoring.validate` checks each event against the rest of the input (``kong_bloom`` needs a
self-draw and a kong, …); this module checks the *pairs* that cannot happen in one hand because of
when each happens in the play, and refuses them with ``inconsistent_event`` instead of scoring them.
:data:`IMPOSSIBLE` is the list (docs/score-json.md "Events that cannot happen together" copies it);
each row is ``(first, second, why_en, why_zh)``, where an entry is an event name or one of the
conditions ``payer_melds`` (a payer shows a meld), ``payer_exposed_melds`` (a payer shows a meld
other than a concealed kong) and ``payer_ready_declared`` (a payer declared 报听).

>>> [(a, b) for a, b, *_ in IMPOSSIBLE][:2]
[('heavenly', 'ready_declared'), ('robbing_kong', 'last_tile')]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scoring import errors as E
from scoring.errors import HandError
from scoring.model import Meld, Payer

__all__ = ["DISCARD_EVENTS", "IMPOSSIBLE", "SELF_DRAWN_EVENTS", "check_events", "check_timing", "conditions"]

#: Events of a self-drawn win (杠上开花, 天胡) and of a win on another player's tile (抢杠, 杠上流泪,
#: 地胡); ``last_tile`` and ``ready_declared`` go with either. :mod:`scoring.validate` refuses an
#: event of the other way of winning; the app offers the events by them.
SELF_DRAWN_EVENTS = frozenset({"kong_bloom", "heavenly"})
DISCARD_EVENTS = frozenset({"robbing_kong", "kong_discard", "earthly"})

#: (first, second, why in English, why in Chinese): never both in one hand.
IMPOSSIBLE: tuple[tuple[str, str, str, str], ...] = (
    (
        "heavenly",
        "ready_declared",
        "the dealer can declare ready (报听) only after his first discard, and a heavenly hand (天胡) "
        "is won on the first 14 tiles, before it",
        "庄家打出第一张牌后才能报听，天胡是起手十四张就胡，在那之前",
    ),
    (
        "robbing_kong",
        "last_tile",
        'the last tile must be discarded (海底 "必须…打出去"): it cannot be added to a pung and '
        "robbed (抢杠)",
        "最后一张牌必须打出去，不能拿去补杠，也就不能被抢杠",
    ),
    (
        "heavenly",
        "payer_melds",
        "a heavenly hand (天胡) is won before anyone has discarded, so no other player can have a meld yet",
        "天胡时还没有人打过牌，别家不可能有副露或杠",
    ),
    (
        "heavenly",
        "payer_ready_declared",
        "a heavenly hand (天胡) is won before anyone has played a turn, so no other player has "
        "declared ready (报听) yet",
        "天胡时别家还没有出过牌，不可能已经报听",
    ),
    (
        "earthly",
        "payer_exposed_melds",
        "an earthly hand (地胡) is won on the dealer's first discard: before it the dealer can "
        "have made only a concealed kong, no pung, exposed kong or chow",
        "地胡胡的是庄家打的第一张牌，庄家在此之前最多只能暗杠，不可能碰、明杠或吃",
    ),
    (
        "earthly",
        "payer_ready_declared",
        "an earthly hand (地胡) is won on the dealer's first discard, and the dealer can declare "
        "ready (报听) only after it",
        "地胡胡的是庄家打的第一张牌，庄家要打出第一张牌之后才能报听",
    ),
)


def conditions(events: Iterable[str], payers: Iterable[Payer]) -> set[str]:
    """The events and the payer conditions of one hand, as the names :data:`IMPOSSIBLE` uses."""
    out = set(events)
    for p in payers:
        if p.melds:
            out.add("payer_melds")
        if any(m.is_exposed for m in p.melds):
            out.add("payer_exposed_melds")
        if p.ready_declared:
            out.add("payer_ready_declared")
    return out


def check_timing(events: Iterable[str], payers: Iterable[Payer]) -> None:
    """Refuse a hand holding both entries of a row of :data:`IMPOSSIBLE` (DECISIONS §1.3a).

    ``events``: the input's event names (``last_tile``, not ``last_tile_draw``); ``payers``: the
    checked payers. Raises :class:`HandError` ``inconsistent_event`` naming both and why.
    """
    have = conditions(events, payers)
    for first, second, en, _zh in IMPOSSIBLE:
        if first in have and second in have:
            raise HandError(
                E.INCONSISTENT_EVENT,
                f"{first} and {_label(second)} cannot happen in one hand: {en} (DECISIONS §1.3a)",
            )


def _label(name: str) -> str:
    return {
        "payer_melds": "a payer's meld",
        "payer_exposed_melds": "the discarder's exposed meld",
        "payer_ready_declared": "a payer's ready_declared",
    }.get(name, name)


def check_events(ev: set[str], self_drawn: bool, dealer: bool, melds: Sequence[Meld]) -> None:
    """Each event against the rest of the input (docs/score-json.md "Event checks"): won the
    right way (self-drawn or on a discard), by the right player, with the melds it needs or
    forbids; and the events no hand holds together (天胡 with any kong or last-tile event, 地胡
    with 抢杠 / 海底). Raises :class:`HandError` ``inconsistent_event``."""

    def bad(message: str) -> HandError:
        return HandError(E.INCONSISTENT_EVENT, message)

    wrong = ev & (DISCARD_EVENTS if self_drawn else SELF_DRAWN_EVENTS)  # won the other way
    if "kong_bloom" in ev:
        if "kong_bloom" in wrong:
            raise bad("kong_bloom (杠上开花) is a self-draw: set self_drawn to true")
        if not any(m.is_kong for m in melds):
            raise bad("kong_bloom (杠上开花) needs a kong among the winner's melds")
    for e, zh in (("robbing_kong", "抢杠"), ("kong_discard", "杠上流泪")):
        if e in wrong:
            raise bad(f"{e} ({zh}) is a win on another player's tile: set self_drawn to false")
    if {"robbing_kong", "kong_discard"} <= ev:
        raise bad("robbing_kong and kong_discard cannot both happen on one winning tile")
    if "heavenly" in ev:
        if "heavenly" in wrong or not dealer:
            raise bad("heavenly (天胡) is the dealer's self-drawn win on the first 14 tiles")
        if melds:
            raise bad("heavenly (天胡) is won on the first 14 tiles: there can be no melds")
    if "earthly" in ev:
        if "earthly" in wrong or dealer:
            raise bad("earthly (地胡) is a non-dealer's win on the dealer's first discard")
        if melds:
            raise bad("earthly (地胡) comes before any meld: there can be no melds")
    if "heavenly" in ev and ev & {"robbing_kong", "kong_discard", "kong_bloom", "last_tile", "earthly"}:
        raise bad("heavenly (天胡) cannot combine with kong or last-tile events")
    # 地胡 + 杠上流泪 can happen (§1.3a): the dealer's concealed kong from his first 14, then his
    # first discard (the timing check refuses an exposed meld of his); 抢杠 and 海底 cannot
    if "earthly" in ev and ev & {"robbing_kong", "kong_bloom", "last_tile"}:
        raise bad("earthly (地胡) cannot combine with robbing_kong or last-tile events")
