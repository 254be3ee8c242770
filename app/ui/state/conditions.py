"""How the hand was won, and who pays: the conditions the player sets (no Streamlit here).

`hand_input(hand, conditions)` turns an `EditHand` and `Conditions` into the engine's typed
`scoring.HandInput` — the app never builds score JSON; the payers' sets go as counts.

Every value stored is a code (`"xingzi"`, `"left"`, `"kong_bloom"`), never a label: the page
translates codes when it draws them, so switching language changes nothing stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from app.ui.state.hand import EditHand
from scoring import HandInput, Meld, Payer
from scoring.model import EVENTS, SET_KEYS
from scoring.rules import load_rules
from scoring.tiles import ALL_TILES
from scoring.timing import DISCARD_EVENTS, SELF_DRAWN_EVENTS

ME = "me"
OTHER_SEATS = ("right", "across", "left")
"""The three other players: 下家, 对家, 上家."""

COUNTERS = ("bonus_tiles", *SET_KEYS)
"""The counts a seat can enter (each 0..4), in the order the page shows them (`scoring.Payer` fields)."""


@dataclass(slots=True)
class Seat:
    """What one paying player shows, for 吃炮 (DECISIONS §1.5): counts, not tiles.
    `bonus_tiles`: 發 set aside; `sets`: per `scoring.payer_sets.SET_KEYS` key, how many;
    `ready_declared`: 报听 (九江)."""

    bonus_tiles: int = 0
    sets: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNTERS[1:], 0))
    ready_declared: bool = False

    @property
    def entries(self) -> int:
        """How many things were entered (the caption "吃炮：已填 n 项")."""
        return self.bonus_tiles + sum(self.sets.values()) + int(self.ready_declared)

    def count(self, key: str) -> int:
        return self.bonus_tiles if key == "bonus_tiles" else self.sets[key]

    def set_count(self, key: str, n: int) -> None:
        if key == "bonus_tiles":
            self.bonus_tiles = int(n)
        else:
            self.sets[key] = int(n)


@dataclass(slots=True)
class Conditions:
    """How the hand was won.

    Attributes:
        variant: `scoring.rules.VARIANTS`.
        self_drawn: 自摸 (True) or on a discard.
        events: codes of `scoring.model.EVENTS` the variant knows.
        dealer: `ME`, one of `OTHER_SEATS`, or None — not chosen yet: nobody's payment is doubled
            and the page asks.
        discarder: the seat that discarded the winning tile (a discard win).
        point_value: points per 炮 (九江/星子) or the base (新余), a whole number >= 1.
        seats: per seat, what it shows for 吃炮.
    """

    variant: str = "jiujiang"
    self_drawn: bool = True
    events: list[str] = field(default_factory=list)
    dealer: str | None = None
    discarder: str = "left"
    point_value: int = 1
    seats: dict[str, Seat] = field(default_factory=lambda: {s: Seat() for s in OTHER_SEATS})

    @property
    def payers(self) -> tuple[str, ...]:
        """The seats that pay: all three on a self-draw, the discarder otherwise."""
        return OTHER_SEATS if self.self_drawn else (self.discarder,)

    @property
    def dealer_matters(self) -> bool:
        """The variant doubles the dealer's payments (星子, DECISIONS §1.5)."""
        return load_rules(self.variant).options.dealer_doubles

    def events_offered(self) -> tuple[str, ...]:
        """The variant's events that fit the way it was won, in `EVENTS` order."""
        known = set(load_rules(self.variant).events)
        skip = DISCARD_EVENTS if self.self_drawn else SELF_DRAWN_EVENTS
        return tuple(e for e in EVENTS if e in known and e not in skip)

    def copy(self, **changes) -> Conditions:
        """A deep copy with `changes` (the what-if table tries other ways of winning)."""
        seats = {s: replace(v, sets=dict(v.sets)) for s, v in self.seats.items()}
        return replace(self, events=list(self.events), seats=seats, **changes)


def tile_kinds(variant: str) -> tuple[str, ...]:
    """Codes of the tiles that stand in a hand of `variant` (its rule table's `tile_kinds`)."""
    return tuple(ALL_TILES[k].code for k in load_rules(variant).tile_kinds)


def hand_input(hand: EditHand, cond: Conditions) -> HandInput:
    """The engine's input for this hand under these conditions; the payers' sets go as counts
    (the engine lays them out as melds, `scoring.payer_sets`).

    Unknown tiles must be named first (the caller checks `UNKNOWN`).

    Raises:
        scoring.HandError: from the engine's own checks of the input.
    """
    rules = load_rules(cond.variant)
    has_bonus = rules.bonus_tile is not None  # 吃炮: the variants with 發
    events = [e for e in cond.events if e in cond.events_offered()]
    melds = tuple(Meld.of(m.kind, [t.code for t in m.tiles]) for m in hand.melds)
    payers = []
    for name in cond.payers:
        seat = cond.seats[name]
        counts: dict[str, Any] = {k: seat.sets[k] for k in SET_KEYS} if has_bonus else {}
        payers.append(
            Payer(
                name=name,
                is_dealer=cond.dealer == name,
                bonus_tiles=seat.bonus_tiles if has_bonus else 0,
                ready_declared=seat.ready_declared and rules.payer_ready_declared,
                **counts,
            )
        )
    win = hand.winning_tile or ""
    if "robbing_kong" in events and not cond.self_drawn and win:
        # 抢杠: the robbed player (the one discarder) had the pung the winning tile completes
        payers[0] = replace(payers[0], melds=(*payers[0].melds, Meld.of("pung", [win] * 3)))
    return HandInput.of(
        cond.variant,
        [t.code for t in hand.concealed],
        win,
        self_drawn=cond.self_drawn,
        melds=melds,
        bonus_tiles=hand.bonus_tiles if has_bonus else 0,
        events=tuple(events),
        winner_is_dealer=cond.dealer == ME,
        payers=tuple(payers),
        point_value=cond.point_value,
    )


__all__ = [
    "COUNTERS",
    "DISCARD_EVENTS",
    "ME",
    "OTHER_SEATS",
    "SELF_DRAWN_EVENTS",
    "Conditions",
    "Seat",
    "hand_input",
    "tile_kinds",
]
