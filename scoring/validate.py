"""Validation of a :class:`~scoring.model.HandInput` against a variant (DECISIONS §0, §1.1, §2).

Produces a :class:`Hand` — the normalised, checked hand the engine scores — or raises
:class:`~scoring.errors.HandError` with one sentence naming the tile or meld at fault.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.errors import HandError
from scoring.model import EVENTS, KONG_KINDS, MELD_KINDS, HandInput, Meld, Payer
from scoring.rules import RuleTable, load_rules
from scoring.tiles import NUM_KINDS, Tile, format_tiles, parse_tile, parse_tiles

__all__ = [
    "MAX_POINT_VALUE",
    "Hand",
    "check_meld",
    "check_point_value",
    "check_tiles",
    "coerce_meld",
    "validate",
]

_F = int(Tile.F)
_NO_EVENTS: frozenset[str] = frozenset()
_DEFAULT_THREE = tuple(Payer(name=f"player {i + 1}") for i in range(3))
_DEFAULT_DISCARDER = (Payer(name="discarder"),)
_DEFAULT_DEALER_DISCARDER = (Payer(name="discarder", is_dealer=True),)


@dataclass(slots=True)
class Hand:
    """A checked hand, ready to score."""

    rules: RuleTable
    concealed: list[Tile]
    counts: list[int]  # standing tiles, winning tile included
    win: int
    melds: tuple[Meld, ...]
    bonus_tiles: int
    self_drawn: bool
    events: frozenset[str]  # pattern keys of the events: last_tile → last_tile_draw / last_tile_discard
    winner_is_dealer: bool
    payers: tuple[Payer, ...]
    point_value: float
    held: list[int]  # the winner's own count of each kind (hand + melds)
    robbed_note: str | None = None


def _where(text: str) -> str:
    return f" in {text}" if text else ""


def check_tiles(tiles: Sequence[int], rules: RuleTable, where: str, *, standing: bool) -> None:
    """Every tile exists in the variant; the bonus tile never stands in a hand or meld (§0, §1.1)."""
    if rules.allowed_kinds.issuperset(tiles):
        return
    honours = rules.honours
    for t in tiles:
        tile = Tile(t)
        if t >= 27 and t not in honours:
            kind = "wind" if t <= int(Tile.N) else "tile"
            raise HandError(
                f"{kind} {tile.code} ({tile.zh}){_where(where)} is not in the {rules.variant} tile set: "
                f"{rules.name_en} plays 120 tiles without winds (DECISIONS §0)"
            )
        if rules.bonus_tile is not None and t == rules.bonus_tile:
            place = "stand in a hand" if standing else "form a meld"
            raise HandError(
                f"發 (F){_where(where)}: in {rules.variant} 發 is a bonus tile, set aside when drawn; "
                f"it never may {place} — count it in bonus_tiles (DECISIONS §1.1)"
            )


def coerce_meld(m: Any, where: str) -> Meld:
    """A :class:`Meld`, or a mapping ``{"kind", "tiles"}``, as a Meld."""
    if isinstance(m, Meld):
        if all(isinstance(t, Tile) for t in m.tiles) and list(m.tiles) == sorted(m.tiles):
            return m
        return Meld(m.kind, tuple(sorted(parse_tiles(m.tiles))))
    if isinstance(m, Mapping):
        kind = m.get("kind")
        tiles = m.get("tiles")
        if not isinstance(kind, str):
            raise HandError(f"{where}: 'kind' must be one of {', '.join(MELD_KINDS)}")
        if not isinstance(tiles, str):
            raise HandError(f"{where}: 'tiles' must be a tile string such as '777p'")
        if kind not in MELD_KINDS:
            raise HandError(f"{where}: unknown meld kind {kind!r}; use one of {', '.join(MELD_KINDS)}")
        try:
            return Meld(kind, tuple(sorted(parse_tiles(tiles))))
        except HandError as e:
            raise HandError(f"{where}: {e}") from None
    if isinstance(m, tuple) and len(m) == 2:
        return coerce_meld({"kind": m[0], "tiles": m[1]}, where)
    if isinstance(m, str) and len(m.split()) == 2:  # "pung 777p"
        kind, tiles = m.split()
        return coerce_meld({"kind": kind, "tiles": tiles}, where)
    raise HandError(f"{where}: a meld is an object with 'kind' and 'tiles' (or a string like 'pung 777p')")


def check_meld(m: Meld, rules: RuleTable, where: str) -> None:
    """Meld shape (§1.2): pung = 3 alike, kongs = 4 alike, chow = 3 in sequence of one suit."""
    if m.kind not in MELD_KINDS:
        raise HandError(f"{where}: unknown meld kind {m.kind!r}; use one of {', '.join(MELD_KINDS)}")
    t = m.tiles
    kind = m.kind
    n = len(t)
    if rules.allowed_kinds.issuperset(t):
        if kind == "pung":
            if n == 3 and t[0] == t[2]:
                return
        elif kind == "chow":
            if rules.chow != "never" and n == 3 and t[0] < 27 and t[1] == t[0] + 1 and t[2] == t[0] + 2:
                if t[0] // 9 == t[2] // 9:
                    return
        elif n == 4 and t[0] == t[3]:
            return
    # slow path: say what is wrong
    shown = format_tiles(t) if len(t) <= 8 else f"{format_tiles(t[:8])}… ({len(t)} tiles)"
    label = f"{where} ({m.kind} {shown})"
    check_tiles(t, rules, label, standing=False)
    if m.kind == "pung":
        if len(t) != 3 or len(set(t)) != 1:
            raise HandError(f"{label}: a pung is three identical tiles")
    elif m.kind in KONG_KINDS:
        if len(t) != 4 or len(set(t)) != 1:
            raise HandError(f"{label}: a kong is four identical tiles")
    else:  # chow
        if rules.chow == "never":
            raise HandError(f"{label}: {rules.variant} has no chow (DECISIONS §2)")
        if len(t) != 3 or t[0] >= 27 or t[0] // 9 != t[2] // 9 or (t[1] - t[0], t[2] - t[1]) != (1, 1):
            raise HandError(f"{label}: a chow is three consecutive tiles of one suit")


def _checked_melds(raw: Any, rules: RuleTable, prefix: str, owner: str) -> tuple[Meld, ...]:
    """One player's melds, coerced and checked: a list, at most four, each shape valid for the
    variant, and the chow rule (§1.1). ``prefix`` names the player in messages ("" = the winner)."""
    if isinstance(raw, (str, bytes, Mapping)) or not isinstance(raw, Sequence):
        raise HandError(f"{prefix}melds must be a list of {{kind, tiles}} objects")
    if len(raw) > 4:  # before coercing: a huge list is answered at once
        raise HandError(f"{prefix}{len(raw)} melds: a hand has at most four")
    melds = tuple(coerce_meld(m, f"{prefix}meld {i + 1}") for i, m in enumerate(raw))
    for i, m in enumerate(melds):
        check_meld(m, rules, f"{prefix}meld {i + 1}")
    _check_chow_rule(melds, rules, owner)
    return melds


def _check_chow_rule(melds: Sequence[Meld], rules: RuleTable, who: str) -> None:
    chows = sum(1 for m in melds if m.kind == "chow")
    if chows and rules.chow == "fourth_meld_only" and (chows > 1 or len(melds) != 4):
        raise HandError(
            f"{who}: chow is allowed only once, as the fourth meld when three melds are already "
            f"down ({rules.variant}, DECISIONS §1.1); got {chows} chow(s) among {len(melds)} melds"
        )


def _bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise HandError(f"{name} must be true or false, not {value!r}")
    return value


def _bonus(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 4:
        raise HandError(f"{name} must be a whole number from 0 to 4 (發 set aside), not {value!r}")
    return value


def validate(hand: HandInput, rules: RuleTable | None = None) -> Hand:
    """Check ``hand`` for its variant and normalise it. Raises HandError naming the problem."""
    if rules is None:
        if not isinstance(hand.variant, str):
            raise HandError("variant must be one of jiujiang, xingzi, xinyu")
        rules = load_rules(hand.variant)
    v = rules.variant

    concealed = sorted(parse_tiles(hand.concealed))
    check_tiles(concealed, rules, "the hand", standing=True)
    win = parse_tile(hand.winning_tile)
    check_tiles([win], rules, "winning_tile", standing=True)

    melds = _checked_melds(hand.melds, rules, "", "the winner's melds") if hand.melds != () else ()

    self_drawn = hand.self_drawn
    if self_drawn is not True and self_drawn is not False:
        _bool(self_drawn, "self_drawn")
    winner_is_dealer = hand.winner_is_dealer
    if winner_is_dealer is not True and winner_is_dealer is not False:
        _bool(winner_is_dealer, "winner_is_dealer")
    bonus = hand.bonus_tiles
    if bonus != 0 or type(bonus) is not int:
        bonus = _bonus(bonus, "bonus_tiles")
    if bonus and rules.bonus_tile is None:
        raise HandError(f"bonus_tiles = {bonus}: {v} has no bonus tiles (發 is an ordinary tile there)")

    expected = 14 - 3 * len(melds)
    if len(concealed) != expected:
        n_kongs = sum(1 for m in melds if m.is_kong)
        melded = sum(len(m.tiles) for m in melds)
        raise HandError(
            f"wrong tile count: {len(concealed)} standing + {melded} in melds; a winning hand has "
            f"14 tiles plus one per kong ({14 + n_kongs} here), i.e. {expected} standing with "
            f"{len(melds)} meld(s)"
        )
    if win not in concealed:
        raise HandError(
            f"the winning tile {win.code} ({win.zh}) is not in the hand {format_tiles(concealed)}: "
            "concealed must include it"
        )

    # events
    if not isinstance(hand.events, (list, tuple)) and (
        isinstance(hand.events, (str, bytes)) or not isinstance(hand.events, Sequence)
    ):
        raise HandError("events must be a list of event names")
    raw_events: list[str] = []
    for e in hand.events or ():
        if not isinstance(e, str) or e not in EVENTS:
            raise HandError(f"unknown event {e!r}: use any of {', '.join(EVENTS)}")
        if e not in rules.events:
            raise HandError(
                f"event {e!r} has no place in {v} (its events: {', '.join(sorted(rules.events))})"
            )
        if e not in raw_events:
            raw_events.append(e)
    ev = set(raw_events)
    if ev:
        _check_events(ev, self_drawn, winner_is_dealer, melds, v)
        events = {e for e in ev if e != "last_tile"}
        if "last_tile" in ev:
            events.add("last_tile_draw" if self_drawn else "last_tile_discard")
        frozen_events = frozenset(events)
    else:
        frozen_events = _NO_EVENTS

    # payers
    payers = _payers(hand, rules, self_drawn, winner_is_dealer, ev)

    # robbing the kong: the robbed player's pung of the winning tile counts as their added kong
    robbed_note = None
    if "robbing_kong" in ev:
        p = payers[0]
        idx = next((i for i, m in enumerate(p.melds) if m.kind == "pung" and m.tile == win), None)
        kong = next((m for m in p.melds if m.is_kong and m.tile == win), None)
        if kong is not None and kong.kind == "added_kong" and idx is None:
            # the robbed kong given as the added kong it was becoming: the same as its pung
            new = p.melds
            robbed_note = f"{p.name}'s added kong of {win.code} is the robbed kong"
        elif kong is not None:
            raise HandError(
                f"robbing_kong: {p.name} already has a kong ({kong.kind}) of {win.code} ({win.zh}); "
                "only a pung being made an added kong can be robbed — give that meld as the pung it was"
            )
        elif idx is None:
            new = (*p.melds, Meld("added_kong", (win,) * 4))
            robbed_note = f"robbed kong of {win.code} added to {p.name}'s melds"
        else:
            new = tuple(Meld("added_kong", (win,) * 4) if i == idx else m for i, m in enumerate(p.melds))
            robbed_note = f"{p.name}'s pung of {win.code} counts as the robbed (added) kong"
        if len(new) > 4:
            raise HandError(f"robbing_kong: {p.name} would have five melds with the robbed kong")
        payers = (Payer(p.name, p.is_dealer, p.bonus_tiles, new, p.ready_declared), *payers[1:])

    # copies: at most four of each tile in everything the input shows
    counts = _counts(concealed)
    held = list(counts)
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    total = list(held)
    for p in payers if payers is not _DEFAULT_THREE and payers is not _DEFAULT_DISCARDER else ():
        for m in p.melds:
            robbed = "robbing_kong" in ev and m.kind == "added_kong" and m.tile == win and p is payers[0]
            for t in m.tiles[: 3 if robbed else 4]:
                total[t] += 1
    if rules.bonus_tile is not None:
        total[rules.bonus_tile] += bonus + sum(p.bonus_tiles for p in payers)
    for t, n in enumerate(total) if max(total) > 4 else ():
        if n > 4:
            tile = Tile(t)
            what = "發 (F) set aside" if t == rules.bonus_tile else f"{tile.code} ({tile.zh})"
            raise HandError(f"five or more copies of {what}: {n} appear in the input; a set has four")

    pv = hand.point_value
    if type(pv) is not int or pv != 1:
        check_point_value(pv)

    return Hand(  # positional, in field order (the hot path)
        rules,
        concealed,
        counts,
        int(win),
        melds,
        bonus,
        self_drawn,
        frozen_events,
        winner_is_dealer,
        payers,
        pv,
        held,
        robbed_note,
    )


MAX_POINT_VALUE = 10**12


def check_point_value(pv: Any) -> None:
    """point_value: a positive, finite number no larger than :data:`MAX_POINT_VALUE`.

    The bound keeps every amount finite: ``1e308`` would otherwise pay ``Infinity`` (not JSON)
    and an integer beyond a float's range would crash ``math.isfinite``.
    """
    if isinstance(pv, bool) or not isinstance(pv, (int, float)):
        raise HandError(f"point_value must be a positive number, not {pv!r}")
    if (isinstance(pv, float) and not math.isfinite(pv)) or pv <= 0:
        raise HandError(f"point_value must be a positive number, not {pv!r}")
    if pv > MAX_POINT_VALUE:
        raise HandError(f"point_value is too large: at most {MAX_POINT_VALUE:,} points per 炮")


def _counts(tiles: Sequence[int]) -> list[int]:
    c = [0] * NUM_KINDS
    for t in tiles:
        c[t] += 1
    return c


def _check_events(ev: set[str], self_drawn: bool, dealer: bool, melds: Sequence[Meld], v: str) -> None:
    if "kong_bloom" in ev:
        if not self_drawn:
            raise HandError("kong_bloom (杠上开花) is a self-draw: set self_drawn to true")
        if not any(m.is_kong for m in melds):
            raise HandError("kong_bloom (杠上开花) needs a kong among the winner's melds")
    for e, zh in (("robbing_kong", "抢杠"), ("kong_discard", "杠上流泪")):
        if e in ev and self_drawn:
            raise HandError(f"{e} ({zh}) is a win on another player's tile: set self_drawn to false")
    if {"robbing_kong", "kong_discard"} <= ev:
        raise HandError("robbing_kong and kong_discard cannot both happen on one winning tile")
    if "heavenly" in ev:
        if not (self_drawn and dealer):
            raise HandError("heavenly (天胡) is the dealer's self-drawn win on the first 14 tiles")
        if melds:
            raise HandError("heavenly (天胡) is won on the first 14 tiles: there can be no melds")
    if "earthly" in ev:
        if self_drawn or dealer:
            raise HandError("earthly (地胡) is a non-dealer's win on the dealer's first discard")
        if melds:
            raise HandError("earthly (地胡) comes before any meld: there can be no melds")
    if "heavenly" in ev and ev & {"robbing_kong", "kong_discard", "kong_bloom", "last_tile", "earthly"}:
        raise HandError("heavenly (天胡) cannot combine with kong or last-tile events")
    if "earthly" in ev and ev & {"robbing_kong", "kong_discard", "kong_bloom", "last_tile"}:
        raise HandError("earthly (地胡) cannot combine with kong or last-tile events")


def _default_name(i: int, n: int, given: set[Any]) -> str:
    """A payer's default name that no payer was given: ``player 2`` named by the user is kept."""
    base = f"player {i + 1}" if n == 3 else "discarder"
    name, k = base, 1
    while name in given:  # payers [{"name": "player 2"}, {}, {}]: the second is "player 1"
        name = f"player {k}" if n == 3 else f"discarder {k}"
        k += 1
    given.add(name)
    return name


def _payers(
    hand: HandInput, rules: RuleTable, self_drawn: bool, winner_is_dealer: bool, ev: set[str]
) -> tuple[Payer, ...]:
    raw = hand.payers
    n = 3 if self_drawn or rules.self_draw_only else 1
    if raw is None:
        if self_drawn or rules.self_draw_only:
            return _DEFAULT_THREE
        return _DEFAULT_DEALER_DISCARDER if "earthly" in ev else _DEFAULT_DISCARDER
    if isinstance(raw, (str, bytes, Mapping)) or not isinstance(raw, Sequence):
        raise HandError("payers must be a list of player objects")
    if not (rules.self_draw_only and not self_drawn) and len(raw) != n:
        how = "a self-draw has three payers" if n == 3 else "a discard win has one payer (the discarder)"
        raise HandError(f"{len(raw)} payers given: {how}")
    out: list[Payer] = []
    given = {getattr(p, "name", None) if not isinstance(p, Mapping) else p.get("name") for p in raw}
    for i, p in enumerate(raw):
        where = f"payer {i + 1}"
        if isinstance(p, Mapping):
            p = Payer(
                name=p.get("name", ""),
                is_dealer=p.get("is_dealer", False),
                bonus_tiles=p.get("bonus_tiles", 0),
                melds=p.get("melds", ()),
                ready_declared=p.get("ready_declared", False),
            )
        elif not isinstance(p, Payer):
            raise HandError(f"{where} must be an object")
        name = p.name if p.name != "" else _default_name(i, n, given)
        if not isinstance(name, str):
            raise HandError(f"{where}: name must be a string")
        where = f"payer {name!r}"
        is_dealer = _bool(p.is_dealer, f"{where}: is_dealer")
        bonus = _bonus(p.bonus_tiles, f"{where}: bonus_tiles")
        if bonus and rules.bonus_tile is None:
            raise HandError(f"{where}: bonus_tiles = {bonus}, but {rules.variant} has no bonus tiles")
        ready = _bool(p.ready_declared, f"{where}: ready_declared")
        if ready and not rules.payer_ready_declared:
            raise HandError(f"{where}: ready_declared (报听) is a jiujiang rule, not {rules.variant}")
        melds = _checked_melds(p.melds, rules, f"{where} ", f"{where}'s melds")
        out.append(Payer(name, is_dealer, bonus, melds, ready))
    dealers = sum(p.is_dealer for p in out) + winner_is_dealer
    if dealers > 1:
        raise HandError("more than one dealer among the winner and the payers")
    if "earthly" in ev and out and not out[0].is_dealer:
        raise HandError("earthly (地胡): the discarder must be the dealer (is_dealer true)")
    names = [p.name for p in out]
    if len(set(names)) != len(names):
        raise HandError(f"payer names must differ: {names}")
    return tuple(out)
