"""How the hand was won, and who pays: the conditions the player sets (no Streamlit here).

`hand_input(hand, conditions)` turns an `EditHand` and `Conditions` into the engine's typed
`scoring.HandInput` — the app never builds score JSON.

Every value stored is a code (`"xingzi"`, `"left"`, `"kong_bloom"`), never a label: the page
translates codes when it draws them, so switching language changes nothing stored.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from app.photo_hand import UNKNOWN
from app.ui.state.hand import EditHand
from scoring import HandInput, Meld, Payer
from scoring.model import EVENTS
from scoring.rules import load_rules
from scoring.tiles import ALL_TILES

ME = "me"
OTHER_SEATS = ("right", "across", "left")
"""The three other players: 下家, 对家, 上家."""

SELF_DRAWN_EVENTS = frozenset({"kong_bloom", "heavenly"})
"""Events of a self-drawn win (杠上开花, 天胡); the others of `DISCARD_EVENTS` are discard wins."""
DISCARD_EVENTS = frozenset({"robbing_kong", "kong_discard", "earthly"})


@dataclass(frozen=True, slots=True)
class PayerSet:
    """A kind of set a payer shows, counted for 吃炮 (DECISIONS §1.5): `key` names the count,
    and each one is laid out for the engine as a `kind` meld of `size` tiles from `pool`."""

    key: str
    kind: str
    pool: tuple[str, ...]
    size: int


_DRAGONS = ("C", "P")
_SUITED_HIGH_FIRST = tuple(t.code for t in ALL_TILES[26::-1])
PAYER_SETS = (
    PayerSet("dragon_pungs", "pung", _DRAGONS, 3),
    PayerSet("dragon_kongs", "kong", _DRAGONS, 4),
    PayerSet("dragon_concealed_kongs", "concealed_kong", _DRAGONS, 4),
    PayerSet("kongs", "kong", _SUITED_HIGH_FIRST, 4),
    PayerSet("concealed_kongs", "concealed_kong", _SUITED_HIGH_FIRST, 4),
)
COUNTERS = ("bonus_tiles", *(k.key for k in PAYER_SETS))
"""The counts a seat can enter (each 0..4), in the order the page shows them."""


@dataclass(slots=True)
class Seat:
    """What one paying player shows, for 吃炮 (DECISIONS §1.5): counts, not tiles.
    `bonus_tiles`: 發 set aside; `sets`: per `PayerSet.key`, how many; `ready_declared`: 报听 (九江)."""

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
        return bool(load_rules(self.variant).option("dealer_doubles", False))

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


class PayerTilesImpossible(ValueError):
    """The payers' counted sets need more copies of a tile than exist."""


def hand_input(hand: EditHand, cond: Conditions) -> HandInput:
    """The engine's input for this hand under these conditions.

    Unknown tiles must be named first (the caller checks `UNKNOWN`). The payers' counted
    sets become melds of concrete tiles (the engine takes melds, not counts), chosen so no
    tile is used more than four times.

    Raises:
        PayerTilesImpossible: the counts cannot be laid out as legal melds.
        scoring.HandError: from the engine's own checks of the input.
    """
    rules = load_rules(cond.variant)
    has_bonus = rules.bonus_tile is not None
    events = [e for e in cond.events if e in cond.events_offered()]
    melds = tuple(Meld.of(m.kind, [t.code for t in m.tiles]) for m in hand.melds)
    used = Counter(t.code for t in hand.tiles if t.code != UNKNOWN)  # copies taken, shared by all payers
    payers = []
    for name in cond.payers:
        seat = cond.seats[name]
        payer_melds = _payer_melds(seat, used) if has_bonus else ()
        payers.append(
            Payer(
                name=name,
                is_dealer=cond.dealer == name,
                bonus_tiles=seat.bonus_tiles if has_bonus else 0,
                melds=payer_melds,
                ready_declared=seat.ready_declared and rules.payer_ready_declared,
            )
        )
    win = hand.winning_tile or ""
    if "robbing_kong" in events and not cond.self_drawn and win:
        # 抢杠: the robbed player (the one discarder) had the pung the winning tile completes
        payers[0] = replace(payers[0], melds=(*payers[0].melds, Meld.of("pung", [win] * 3)))
    return HandInput(
        variant=cond.variant,
        concealed=[t.code for t in hand.concealed],
        winning_tile=win,
        self_drawn=cond.self_drawn,
        melds=melds,
        bonus_tiles=hand.bonus_tiles if has_bonus else 0,
        events=tuple(events),
        winner_is_dealer=cond.dealer == ME,
        payers=tuple(payers),
        point_value=cond.point_value,
    )


def _payer_melds(seat: Seat, count: Counter) -> tuple[Meld, ...]:
    """Concrete melds for a payer's counted 中/白 sets and kongs (legal tiles, nothing more);
    `count` (copies of each tile already used) is updated."""
    melds = []
    for ps in PAYER_SETS:
        for _ in range(seat.sets[ps.key]):
            free = [c for c in ps.pool if count[c] + ps.size <= 4 and (ps.pool is _DRAGONS or not count[c])]
            if not free:
                raise PayerTilesImpossible(ps.kind)
            count[free[0]] += ps.size
            melds.append(Meld.of(ps.kind, [free[0]] * ps.size))
    return tuple(melds)


__all__ = [
    "COUNTERS",
    "DISCARD_EVENTS",
    "ME",
    "OTHER_SEATS",
    "PAYER_SETS",
    "SELF_DRAWN_EVENTS",
    "Conditions",
    "PayerTilesImpossible",
    "Seat",
    "hand_input",
    "tile_kinds",
]
