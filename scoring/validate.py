"""Rule checks of a :class:`~scoring.model.HandInput` against its variant (DECISIONS §0, §1.1, §2).

Types are already checked (the dataclasses of :mod:`scoring.model` do that); this module checks
what depends on the rules — the tile set, the bonus tile, meld shapes and the chow rule, tile
counts and copies, events, payers — and produces a :class:`CheckedHand` for the engine, or
raises :class:`~scoring.errors.HandError` with a code and one sentence naming the fault.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from scoring import errors as E
from scoring.errors import HandError
from scoring.model import KONG_KINDS, HandInput, Meld, Payer
from scoring.payer_sets import lay_out
from scoring.result import DefaultName
from scoring.rules import RuleTable, load_rules
from scoring.tiles import Tile, counts_of, format_tiles
from scoring.timing import check_events, check_timing

__all__ = ["CheckedHand", "check_meld", "check_tiles", "validate"]

_NO_EVENTS: frozenset[str] = frozenset()
_DEFAULT_THREE = tuple(Payer(c.en, default_name=c) for c in (DefaultName("player", i) for i in (1, 2, 3)))
_DISCARDER = DefaultName("discarder")
_DEFAULT_DISCARDER = (Payer(_DISCARDER.en, default_name=_DISCARDER),)
_DEFAULT_DEALER_DISCARDER = (Payer(_DISCARDER.en, is_dealer=True, default_name=_DISCARDER),)


@dataclass(slots=True)
class CheckedHand:
    """A checked hand, ready to score."""

    rules: RuleTable
    concealed: tuple[Tile, ...]
    counts: list[int]  # standing tiles, winning tile included
    win: int
    melds: tuple[Meld, ...]
    bonus_tiles: int
    self_drawn: bool
    events: frozenset[str]  # pattern keys of the events: last_tile → last_tile_draw / last_tile_discard
    winner_is_dealer: bool
    payers: tuple[Payer, ...]
    point_value: float | Decimal
    held: list[int]  # the winner's own count of each kind (hand + melds)
    robbed_note: tuple[str, str] | None = None  # (en, zh)


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
                E.TILE_NOT_IN_VARIANT,
                f"{kind} {tile.code} ({tile.zh}){_where(where)} is not a {rules.name_en} tile: "
                f"{rules.name_en} plays 120 tiles without winds (DECISIONS §0)",
            )
        if rules.bonus_tile is not None and t == rules.bonus_tile:
            place = "stand in a hand" if standing else "form a meld"
            raise HandError(
                E.BONUS_TILE_IN_HAND,
                f"Green dragon 發 (F){_where(where)}: in {rules.name_en} it is a bonus tile, set aside "
                f"when drawn; it never may {place} — count it in bonus_tiles (DECISIONS §1.1)",
            )


def check_meld(m: Meld, rules: RuleTable, where: str) -> None:
    """Meld shape (§1.2): pung = 3 alike, kongs = 4 alike, chow = 3 in sequence of one suit."""
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
            raise HandError(E.BAD_MELD, f"{label}: a pung is three identical tiles")
    elif m.kind in KONG_KINDS:
        if len(t) != 4 or len(set(t)) != 1:
            raise HandError(E.BAD_MELD, f"{label}: a kong is four identical tiles")
    else:  # chow
        if rules.chow == "never":
            raise HandError(E.CHOW_NOT_ALLOWED, f"{label}: {rules.name_en} has no chow (DECISIONS §2)")
        if len(t) != 3 or t[0] >= 27 or t[0] // 9 != t[2] // 9 or (t[1] - t[0], t[2] - t[1]) != (1, 1):
            raise HandError(E.BAD_MELD, f"{label}: a chow is three consecutive tiles of one suit")


def _check_melds(melds: tuple[Meld, ...], rules: RuleTable, prefix: str, owner: str) -> None:
    """One player's melds: each shape valid for the variant, and the chow rule (§1.1).
    ``prefix`` names the player in messages ("" = the winner)."""
    for i, m in enumerate(melds):
        check_meld(m, rules, f"{prefix}meld {i + 1}")
    _check_chow_rule(melds, rules, owner)


def _check_chow_rule(melds: tuple[Meld, ...], rules: RuleTable, owner: str) -> None:
    """At most four melds, and the chow rule (§1.1, §1.3a): one chow, as the fourth meld, after
    three pungs or exposed kongs. For a payer, ``melds`` includes the counted sets laid out."""
    if len(melds) > 4:
        raise HandError(
            E.TOO_MANY_MELDS,
            f"{owner}: {len(melds)} sets in all (counted sets and melds); a hand has at most four "
            "(DECISIONS §1.3a)",
        )
    chows = sum(1 for m in melds if m.kind == "chow")
    if chows and rules.chow == "fourth_meld_only" and (chows > 1 or len(melds) != 4):
        raise HandError(
            E.CHOW_NOT_ALLOWED,
            f"{owner}: chow is allowed only once, as the fourth meld when three melds are already "
            f"down ({rules.name_en}, DECISIONS §1.1); got {chows} chow(s) among {len(melds)} melds",
        )
    if chows and rules.chow == "fourth_meld_only" and any(m.kind == "concealed_kong" for m in melds):
        raise HandError(  # §1.3a: the three melds before the chow are "碰或明杠"
            E.CHOW_NOT_ALLOWED,
            f"{owner}: chow is allowed only after three pungs or exposed kongs (碰或明杠) are down; "
            f"a concealed kong (暗杠) is not one of them ({rules.name_en}, DECISIONS §1.1, §1.3a)",
        )


def validate(hand: HandInput, rules: RuleTable | None = None) -> CheckedHand:
    """Check ``hand`` against the rules of its variant (or ``rules``, a house table).

    Raises :class:`HandError` naming the problem. The hand's ``rules`` overrides, if any, are
    applied to the table first (:meth:`scoring.rules.RuleTable.with_overrides`).
    """
    if rules is None:
        rules = load_rules(hand.variant)
    if hand.rules:
        rules = rules.with_overrides(hand.rules)
    v = rules.name_en  # in messages: the variant as players name it

    concealed = hand.concealed
    check_tiles(concealed, rules, "the hand", standing=True)
    win = hand.winning_tile
    check_tiles([win], rules, "winning_tile", standing=True)
    melds = hand.melds
    if melds:
        _check_melds(melds, rules, "", "the winner's melds")
    self_drawn = hand.self_drawn
    winner_is_dealer = hand.winner_is_dealer
    bonus = hand.bonus_tiles
    if bonus and rules.bonus_tile is None:
        raise HandError(
            E.NO_BONUS_TILES,
            f"bonus_tiles = {bonus}: {v} has no bonus tiles (the Green dragon 發 is an ordinary tile there)",
        )

    expected = 14 - 3 * len(melds)
    if len(concealed) != expected:
        n_kongs = sum(1 for m in melds if m.is_kong)
        melded = sum(len(m.tiles) for m in melds)
        raise HandError(
            E.WRONG_TILE_COUNT,
            f"wrong tile count: {len(concealed)} standing + {melded} in melds; a winning hand has "
            f"14 tiles plus one per kong ({14 + n_kongs} here), i.e. {expected} standing with "
            f"{len(melds)} meld(s)",
        )
    if win not in concealed:
        raise HandError(
            E.WINNING_TILE_NOT_IN_HAND,
            f"the winning tile {win.code} ({win.zh}) is not in the hand {format_tiles(concealed)}: "
            "concealed must include it",
        )

    ev = set(hand.events)
    if ev:
        for e in hand.events:
            if e not in rules.events:
                raise HandError(
                    E.EVENT_NOT_IN_VARIANT,
                    f"event {e!r} has no place in {v} (its events: {', '.join(rules.events)})",
                )
        check_events(ev, self_drawn, winner_is_dealer, melds)
        events = {e for e in ev if e != "last_tile"}
        if "last_tile" in ev:
            events.add("last_tile_draw" if self_drawn else "last_tile_discard")
        frozen_events = frozenset(events)
    else:
        frozen_events = _NO_EVENTS

    counts = counts_of(concealed)
    held = list(counts)
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    payers = _payers(hand, rules, self_drawn, winner_is_dealer, ev)
    payers = lay_out(payers, held)  # counted sets as melds
    for p in payers:  # a counted set is a meld: the four-meld limit and the chow rule (§1.3a)
        if p.melds:
            _check_chow_rule(p.melds, rules, f"payer {p.name!r}'s sets")
    _check_payer_facts(payers, rules, hand, ev)
    robbed_note = None
    if "robbing_kong" in ev:
        payers, robbed_note = _robbed(payers, win)

    _check_copies(held, payers, rules, bonus, win if "robbing_kong" in ev else None)
    if ev:
        check_timing(ev, payers)  # pairs the play's timing rules out (§1.3a)

    return CheckedHand(  # positional, in field order (the hot path)
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
        hand.point_value,
        held,
        robbed_note,
    )


def _robbed(payers: tuple[Payer, ...], win: Tile) -> tuple[tuple[Payer, ...], tuple[str, str]]:
    """抢杠 (§1.3, §1.3a): only an added kong is robbed, so the robbed player (the one payer) must
    show the pung the winning tile extends; that pung counts as their (exposed) added kong."""
    p = payers[0]
    idx = next((i for i, m in enumerate(p.melds) if m.kind == "pung" and m.tile == win), None)
    kong = next((m for m in p.melds if m.is_kong and m.tile == win), None)
    if kong is not None and kong.kind == "added_kong" and idx is None:
        # the robbed kong given as the added kong it was becoming: the same as its pung
        return payers, (
            f"{p.name}'s added kong of {win.code} is the robbed kong",
            f"{p.name_zh}的 {win.code} 补杠就是被抢的杠",
        )
    if kong is not None:
        raise HandError(
            E.INCONSISTENT_EVENT,
            f"robbing_kong: {p.name} already has a kong ({kong.kind}) of {win.code} ({win.zh}); "
            "only a pung being made an added kong can be robbed — give that meld as the pung it was",
        )
    if idx is None:
        raise HandError(
            E.ROBBED_PUNG_MISSING,
            f"robbing_kong (抢杠): the robbed player {p.name} must show the pung of {win.code} ({win.zh}) "
            "that the winning tile was adding to (DECISIONS §1.3a); add it to that payer's melds",
        )
    new = tuple(Meld("added_kong", (win,) * 4) if i == idx else m for i, m in enumerate(p.melds))
    return (replace(p, melds=new), *payers[1:]), (  # the default name's code kept
        f"{p.name}'s pung of {win.code} counts as the robbed (added) kong",
        f"{p.name_zh}的 {win.code} 碰算作被抢的补杠",
    )


def _check_payer_facts(payers: tuple[Payer, ...], rules: RuleTable, hand: HandInput, ev: set[str]) -> None:
    """Input that would move money silently: 杠上流泪 needs the discarder's kong (§1.3a); a xingzi
    self-draw needs the dealer among its payers, or its x2 would vanish (§1.5)."""
    if "kong_discard" in ev and not any(m.is_kong for m in payers[0].melds):
        name = payers[0].name  # the default payer is named "discarder": not said twice
        who = "the discarder" if name == "discarder" else f"the discarder {name}"
        raise HandError(
            E.DISCARDER_KONG_MISSING,
            f"kong_discard (杠上流泪): {who} must show the kong made just "
            "before the discard (DECISIONS §1.3a); add it to that payer's melds",
        )
    if (
        hand.self_drawn
        and not hand.winner_is_dealer
        and rules.options.dealer_doubles
        and rules.options.dealer_doubles_on_self_draw
        and not any(p.is_dealer for p in payers)
    ):
        raise HandError(
            E.DEALER_NOT_PAYING,
            f"{rules.name_en} self-draw by a non-dealer: the dealer is one of the three payers and pays "
            "double (DECISIONS §1.5); mark that payer is_dealer true (or winner_is_dealer, if the "
            "winner deals)",
        )


def _check_copies(
    held: list[int], payers: tuple[Payer, ...], rules: RuleTable, bonus: int, robbed: Tile | None
) -> None:
    """At most four of each tile in everything the input shows (§0)."""
    total = list(held)
    for p in payers if payers is not _DEFAULT_THREE and payers is not _DEFAULT_DISCARDER else ():
        for m in p.melds:
            # the robbed kong's fourth tile is the winning tile, already counted in the hand
            n = (
                3
                if robbed is not None and m.kind == "added_kong" and m.tile == robbed and p is payers[0]
                else 4
            )
            for t in m.tiles[:n]:
                total[t] += 1
    if rules.bonus_tile is not None:
        total[rules.bonus_tile] += bonus + sum(p.bonus_tiles for p in payers)
    for k, n in enumerate(total) if max(total) > 4 else ():
        if n > 4:
            tile = Tile(k)
            what = "發 (F) set aside" if k == rules.bonus_tile else f"{tile.code} ({tile.zh})"
            raise HandError(
                E.FIFTH_COPY, f"five or more copies of {what}: {n} appear in the input; a set has four"
            )


def _default_name(i: int, n: int, given: set[str]) -> DefaultName:
    """The code of a payer's default name that no payer was given in English or in Chinese:
    ``player 2`` or ``玩家2`` named by the user is kept, and the default is another."""
    role = "player" if n == 3 else "discarder"
    code, k = DefaultName(role, i + 1 if n == 3 else 0), 1
    while code.en in given or code.zh in given:  # [{"name": "玩家2"}, {}, {}]: "player 1"
        code = DefaultName(role, k)
        k += 1
    given.add(code.en)
    return code


def _payers(
    hand: HandInput, rules: RuleTable, self_drawn: bool, winner_is_dealer: bool, ev: set[str]
) -> tuple[Payer, ...]:
    raw = hand.payers
    n = 3 if self_drawn or rules.self_draw_only else 1
    if raw is None:
        if self_drawn or rules.self_draw_only:
            return _DEFAULT_THREE
        return _DEFAULT_DEALER_DISCARDER if "earthly" in ev else _DEFAULT_DISCARDER
    if not (rules.self_draw_only and not self_drawn) and len(raw) != n:
        how = "a self-draw has three payers" if n == 3 else "a discard win has one payer (the discarder)"
        raise HandError(E.BAD_PAYERS, f"{len(raw)} payers given: {how}")
    out: list[Payer] = []
    given = {p.name for p in raw}
    for i, p in enumerate(raw):
        named = p.name.strip() != ""  # a name of spaces only is no name: it gets the default
        code = None if named else _default_name(i, n, given)
        name = p.name if code is None else code.en
        where = f"payer {name!r}"
        if p.bonus_tiles and rules.bonus_tile is None:
            raise HandError(
                E.NO_BONUS_TILES,
                f"{where}: bonus_tiles = {p.bonus_tiles}, but {rules.name_en} has no bonus tiles",
            )
        if p.ready_declared and not rules.payer_ready_declared:
            raise HandError(
                E.EVENT_NOT_IN_VARIANT,
                f"{where}: ready_declared (报听) is a Jiujiang rule, not {rules.name_en}",
            )
        for j, m in enumerate(p.melds):  # shapes here; the count and chow rule once the
            check_meld(m, rules, f"{where} meld {j + 1}")  # counted sets are laid out (§1.3a)
        out.append(p if code is None else replace(p, name=name, default_name=code))
    dealers = sum(p.is_dealer for p in out) + winner_is_dealer
    if dealers > 1:
        raise HandError(E.BAD_PAYERS, "more than one dealer among the winner and the payers")
    if "earthly" in ev and out and not out[0].is_dealer:
        raise HandError(
            E.INCONSISTENT_EVENT, "earthly (地胡): the discarder must be the dealer (is_dealer true)"
        )
    names = [p.name for p in out]
    if len(set(names)) != len(names):
        raise HandError(E.BAD_PAYERS, f"payer names must differ: {names}")
    return tuple(out)
