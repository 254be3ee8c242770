"""Several winners on one discard (一炮多响, DECISIONS §1.1, §1.5): each is scored on its own.

:func:`score_winners` scores the hands one by one with :func:`scoring.score` after checking that
they describe one discard: the same variant, the same winning tile, all won on a discard, the
same discarder (the one payer of each), at most four copies of a tile across every winner's
tiles and the discarder's melds (the discarded tile counted once), and at most one dealer. The
discarder pays each winner: the table ledger sums the results.

>>> from scoring.model import HandInput, Payer
>>> d = (Payer("d"),)
>>> a = HandInput("jiujiang", "123m456p789s345s55p", "2m", self_drawn=False, payers=d)
>>> b = HandInput("jiujiang", "22m456p789s345s678s", "2m", self_drawn=False, payers=d)
>>> [(r.own, r.payments[0].amount) for r in score_winners([a, b])]
[(3, 3), (3, 3)]
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring import errors as E
from scoring.engine import score
from scoring.errors import HandError
from scoring.model import HandInput, Payer
from scoring.result import ScoreResult
from scoring.rules import RuleTable
from scoring.tiles import NUM_KINDS, Tile

__all__ = ["score_winners"]


def _bad(message: str) -> HandError:
    return HandError(E.INCONSISTENT_WINNERS, f"several winners on one discard: {message}")


def _discarder(hand: HandInput) -> Payer | None:
    if hand.payers is None:
        return None
    if len(hand.payers) != 1:
        raise _bad(f"each winner has the discarder as its one payer, not {len(hand.payers)} payers")
    return hand.payers[0]


def score_winners(hands: Sequence[HandInput], rules: RuleTable | None = None) -> tuple[ScoreResult, ...]:
    """Score every winner of one discard, in the order given (``rules`` as in :func:`score`).

    Each result is what that winner alone would score (own 炮, 吃炮 from the discarder, the
    二炮起胡 gate — one winner may be below it while another wins). Raises :class:`HandError` with
    code ``inconsistent_winners`` when the hands do not describe one discard, or any code of
    :func:`score` for a bad hand. One hand is scored as :func:`score` would.
    """
    hands = list(hands)
    if not hands or not all(isinstance(h, HandInput) for h in hands):
        raise _bad("give a non-empty list of HandInput")
    if len(hands) > 3:
        raise _bad(f"{len(hands)} winners: a discard has at most three")
    if len(hands) == 1:  # a lone winner (a self-draw too, with its three payers) is one score()
        return (score(hands[0], rules),)
    first = hands[0]
    if any(h.variant != first.variant for h in hands):
        raise _bad("the winners play different variants")
    if any(h.self_drawn for h in hands) and len(hands) > 1:
        raise _bad("a self-draw has one winner; several winners all win on the discard")
    if any(h.winning_tile != first.winning_tile for h in hands):
        raise _bad(f"every winner wins on the discarded tile {first.winning_tile.code}")
    discarders = {_discarder(h) for h in hands}
    if len(discarders) > 1:
        raise _bad("the winners name different discarders (the one payer must be the same player)")
    if sum(h.winner_is_dealer for h in hands) > 1:
        raise _bad("more than one winner is the dealer")
    _check_copies(hands, next(iter(discarders)))
    return tuple(score(h, rules) for h in hands)


def _check_copies(hands: list[HandInput], discarder: Payer | None) -> None:
    total = [0] * NUM_KINDS
    for h in hands:
        for t in h.concealed:
            total[t] += 1
        for m in h.melds:
            for t in m.tiles:
                total[t] += 1
        total[h.winning_tile] -= 1  # the discard stands in every winner's hand: one tile
    total[hands[0].winning_tile] += 1
    for m in discarder.melds if discarder is not None else ():
        for t in m.tiles:
            total[t] += 1
    for k, n in enumerate(total):
        if n > 4:
            tile = Tile(k)
            raise HandError(
                E.FIFTH_COPY,
                f"several winners on one discard: {n} copies of {tile.code} ({tile.zh}) among the "
                "winners' hands and the discarder's melds; a set has four",
            )
