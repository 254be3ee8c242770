"""A winner as recorded: the typed hand (:class:`RecordedHand`) and 吃炮 facts (:class:`Winner`).

The recorded hand holds what the player gives — tiles, melds, 發 set aside, events, per-hand
rules — as the engine's types (:class:`scoring.Meld`, :class:`scoring.tiles.Tile`); what the
table decides (variant, self-draw, dealer, point value, who pays) is added by the fold
(:meth:`RecordedHand.hand_input`), so a recorded hand is never scored with stale table facts.
The JSON a winner was read from is kept beside it (``recorded``) and written back as it was:
the database column and the exports hold a hand exactly as it was entered.

>>> from scoring import Payer
>>> hand = RecordedHand.of(HandInput("jiujiang", "123m456p789s234mCC", "C", False))
>>> w = Winner(1, hand, {2: Payer(bonus_tiles=1)})
>>> w.to_json()["hand"]["concealed"], w.to_json()["eaten"]
('122334m456p789sCC', [{'seat': 2, 'bonus_tiles': 1}])
>>> w.hand.hand_input("jiujiang", False, False, 1, (Payer("D"),)).payers[0].name
'D'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from scoring import HandError, HandInput, Meld, Payer
from scoring.frozen import EMPTY, FrozenMap
from scoring.model import SET_KEYS
from scoring.tiles import Tile, format_tiles

__all__ = ["NO_FACTS", "RecordedHand", "Winner", "payer_facts"]

#: A paying seat with nothing to eat (no 發, no 中/白 set, no kong, no 报听).
NO_FACTS = Payer()


@dataclass(frozen=True)
class RecordedHand:
    """A winner's hand without the fields the table decides (docs/ledger-json.md): the tiles
    standing (winning tile included), the winning tile, declared melds, 發 set aside, events and
    per-hand ``rules`` (house-rule overrides by table key), typed as in :class:`HandInput`."""

    concealed: tuple[Tile, ...]
    winning_tile: Tile
    melds: tuple[Meld, ...] = ()
    bonus_tiles: int = 0
    events: tuple[str, ...] = ()
    rules: FrozenMap = EMPTY

    @classmethod
    def of(cls, hand: HandInput) -> RecordedHand:
        """The recorded part of a scored hand (its table-decided fields dropped)."""
        rules = FrozenMap(hand.rules)  # already one (HandInput freezes it): no copy
        return cls(hand.concealed, hand.winning_tile, hand.melds, hand.bonus_tiles, hand.events, rules)

    def hand_input(
        self,
        variant: str,
        self_drawn: bool,
        winner_is_dealer: bool,
        point_value: int | float | Decimal,
        payers: tuple[Payer, ...],
    ) -> HandInput:
        """The engine's input: this hand with what the table decides for it."""
        return HandInput(
            variant, self.concealed, self.winning_tile, self_drawn, self.melds, self.bonus_tiles,
            self.events, winner_is_dealer, payers, point_value, self.rules,
        )  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        """The score-JSON fields of the hand (docs/score-json.md), ``rules`` only when set."""
        out: dict[str, Any] = {
            "concealed": format_tiles(self.concealed),
            "winning_tile": self.winning_tile.code,
            "melds": [_meld(m) for m in self.melds],
            "bonus_tiles": self.bonus_tiles,
            "events": list(self.events),
        }
        if self.rules:
            out["rules"] = dict(self.rules)
        return out


def _meld(m: Meld) -> dict[str, str]:
    return {"kind": m.kind, "tiles": m.code}


def payer_facts(p: Payer) -> dict[str, Any]:
    """A payer's 吃炮 facts as stored: only those it has (``{}`` for :data:`NO_FACTS`); counted
    sets (``dragon_pungs`` …, :data:`scoring.payer_sets.SET_KEYS`) as counts."""
    out: dict[str, Any] = {}
    if p.bonus_tiles:
        out["bonus_tiles"] = p.bonus_tiles
    if p.melds:
        out["melds"] = [_meld(m) for m in p.melds]
    if p.ready_declared:
        out["ready_declared"] = True
    for key in SET_KEYS:
        if getattr(p, key):
            out[key] = getattr(p, key)
    return out


@dataclass(frozen=True)
class Winner:
    """One winner of a hand: ``seat``, the typed ``hand`` and ``eaten``, the 吃炮 facts of each
    paying seat that has some (``{seat: Payer}``, the payer's name and dealer mark left to the
    fold; as JSON ``[{"seat": index, "bonus_tiles", "melds", "ready_declared"}]``).

    ``recorded``: ``{"hand": {...}, "eaten": {seat: {...}}}``, the JSON the winner was read
    from, written back by :meth:`to_json` as it was (None: built in Python, written from the
    types). ``problem``: a stored hand that no longer reads (its tiles, say) has ``hand`` None and
    the :class:`HandError` here; the fold marks that hand, the table still opens."""

    seat: int
    hand: RecordedHand | None
    eaten: dict[int, Payer] = field(default_factory=dict)
    recorded: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    problem: HandError | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        if self.recorded is not None:
            hand, eaten = dict(self.recorded["hand"]), self.recorded["eaten"]
        else:
            assert self.hand is not None
            hand = self.hand.to_json()
            eaten = {s: f for s, p in self.eaten.items() if (f := payer_facts(p))}
        out: dict[str, Any] = {"seat": self.seat, "hand": hand}
        if eaten:  # the seat as an index, a list (as kongs: a seat may be named "2")
            out["eaten"] = [{"seat": s, **v} for s, v in sorted(eaten.items())]
        return out
