"""The ledger fold: dealer, raise, payments and running totals derived from the hand list.

:func:`replay` is pure: the same table and hands give the same :class:`Ledger`, so an edit or
undo of any hand recomputes everything after it. Rules: DECISIONS §1.5 (who pays), §1.6
(dealer 庄家, 九江 跟庄 / 黄庄 raises, 星子 炸糊), §2 (新余 dealer and kong money 杠钱), with
every number from the ledger rule table (``ledger/rules/*.toml``) and the scoring table.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from decimal import Decimal

from ledger.errors import LedgerError
from ledger.model import SEAT_COUNT, Hand, Table
from ledger.parse import payer_seats
from ledger.recorded import NO_FACTS, Winner
from ledger.rules import LedgerRules, scoring_rules
from scoring import HandError, HandInput, Payer, RuleTable, ScoreResult, kong_money, score_winners
from scoring.frozen import FrozenMap

__all__ = ["HandOutcome", "Ledger", "Raise", "extend", "replay", "score_input"]

ZERO = Decimal(0)


@dataclass(frozen=True)
class Raise:
    """One raise on a hand (DECISIONS §1.6): ``code`` (``follow`` 跟庄, ``follow_dragon``,
    ``follow_second``, ``follow_hold`` 连庄 hold, ``drawn`` 黄庄, ``drawn_consecutive``), its
    ``factor`` and the hand ``source`` (1-based hand number) that caused it."""

    code: str
    factor: int
    source: int


@dataclass(frozen=True)
class HandOutcome:
    """What the fold derives for the hand at ``number`` (1-based position in the list):
    ``dealer`` seat, ``raise_`` (x1, x2, x4) and its ``reasons``, ``point_value`` (base x raise),
    one ``ScoreResult`` per winner, ``deltas`` (money per seat, summing to 0) and running
    ``totals`` after it. ``error`` is set only by a lenient replay of a hand that no longer scores."""

    number: int
    hand: Hand
    dealer: int
    raise_: int
    reasons: tuple[Raise, ...]
    point_value: Decimal
    results: tuple[ScoreResult, ...]
    deltas: tuple[Decimal, ...]
    totals: tuple[Decimal, ...]
    error: str | None = None


@dataclass(frozen=True)
class Ledger:
    """A replayed table: ``outcomes`` per hand, ``totals`` per seat, and the state of the next
    hand (``next_dealer``, ``next_raise``, ``next_reasons``, ``next_point_value``)."""

    table: Table
    outcomes: tuple[HandOutcome, ...]
    totals: tuple[Decimal, ...]
    next_dealer: int
    next_raise: int
    next_reasons: tuple[Raise, ...]
    end: _State | None = dataclasses.field(default=None, repr=False, compare=False)
    """The fold's state after the last hand (:func:`extend` goes on from it)."""

    @property
    def next_point_value(self) -> Decimal:
        return self.table.base * self.next_raise


@dataclass
class _State:
    dealer: int
    played: int = 0  # hands ended so far (a 炸糊 that does not end the hand is not one)
    windows: list[tuple[int, int, Raise]] = dataclasses.field(
        default_factory=list
    )  # first, last played index
    hold: tuple[int, int, int] | None = None  # seat, first played index, source hand
    last_drawn: bool = False


def replay(table: Table, hands: list[Hand] | tuple[Hand, ...], *, strict: bool = True) -> Ledger:
    """Fold ``hands`` of ``table`` into a :class:`Ledger`.

    ``strict``: a hand that no longer scores raises :class:`LedgerError` naming it (used before
    every write); ``strict=False`` marks it with ``error`` and zero money instead (reading an old
    ledger never fails). Money is :class:`~decimal.Decimal`, exact for a base with 4 decimals.
    """
    lr = table.ledger_rules
    st = _State(dealer=lr["dealer.first"] % SEAT_COUNT)
    return _fold(table, lr, hands, st, (), (ZERO,) * SEAT_COUNT, strict)


def extend(ledger: Ledger, *hands: Hand, strict: bool = True) -> Ledger:
    """``ledger`` with ``hands`` folded on after its last hand: the same :class:`Ledger` as
    ``replay(table, [*ledger_hands, *hands])``, at the cost of those hands, not the whole table.

    ``ledger`` must come from :func:`replay` or :func:`extend` (it carries the fold's state);
    raises :class:`LedgerError` as :func:`replay` does for ``hands``, :class:`ValueError` for
    a ledger without that state. ``strict`` on a lenient replay that marked a hand (``error``):
    the strict replay of all the hands, which names the first hand at fault.
    """
    if ledger.end is None:
        raise ValueError("extend() needs a Ledger made by replay() or extend()")
    if strict and any(o.error for o in ledger.outcomes):
        return replay(ledger.table, [*(o.hand for o in ledger.outcomes), *hands])
    st = dataclasses.replace(ledger.end, windows=list(ledger.end.windows))  # the ledger stays as it was
    table = ledger.table
    return _fold(table, table.ledger_rules, hands, st, ledger.outcomes, ledger.totals, strict)


def _fold(
    table: Table,
    lr: LedgerRules,
    hands: Iterable[Hand],
    st: _State,
    done: tuple[HandOutcome, ...],
    totals: Iterable[Decimal],
    strict: bool,
) -> Ledger:
    """Fold ``hands`` onto the state ``st`` after the outcomes ``done`` (running ``totals``);
    ``lr``: ``table.ledger_rules``, read once by the caller."""
    house = FrozenMap(table.house_rules.get("scoring"))  # once, not per hand
    totals = list(totals)
    outcomes = list(done)
    for hand in hands:
        number = len(outcomes) + 1
        raise_, reasons = _raise(st, lr)
        pv = table.base * raise_
        results: tuple[ScoreResult, ...] = ()
        error, deltas = None, [ZERO] * SEAT_COUNT
        try:
            results, deltas = _money(table, lr, house, hand, number, st.dealer, pv)
        except LedgerError as e:
            if strict:
                raise
            error = e.message
        totals = [t + d for t, d in zip(totals, deltas, strict=True)]
        outcomes.append(
            HandOutcome(
                number, hand, st.dealer, raise_, reasons, pv, results, tuple(deltas), tuple(totals), error
            )
        )
        _advance(st, lr, hand, number)
    raise_, reasons = _raise(st, lr)
    return Ledger(table, tuple(outcomes), tuple(totals), st.dealer, raise_, reasons, st)


def _raise(st: _State, lr: LedgerRules) -> tuple[int, tuple[Raise, ...]]:
    """The raise of the hand about to be played (DECISIONS §1.6: never multiplied, the largest holds)."""
    k = st.played
    active = [r for first, last, r in st.windows if first <= k <= last]
    if st.hold is not None and k >= st.hold[1]:
        if st.dealer == st.hold[0]:
            active.append(Raise("follow_hold", lr["follow.hold"], st.hold[2]))
        else:
            st.hold = None  # the 连庄 dealer stepped down: the hold is over for good
    active = [r for r in active if r.factor > 1]
    if not active:
        return 1, ()
    if lr["raises.combine"] == "multiply":
        return functools.reduce(lambda a, r: a * r.factor, active, 1), tuple(active)
    return max(r.factor for r in active), tuple(active)


def _advance(st: _State, lr: LedgerRules, hand: Hand, number: int) -> None:
    """Next dealer and the raises this hand opens (DECISIONS §1.6, §2)."""
    if hand.kind == "false_win" and not lr["false_win.ends_hand"]:
        return
    d, k = st.dealer, st.played
    if hand.kind == "win":
        seats = [w.seat for w in hand.winners]
        nxt = seats[0]
        if len(seats) > 1 and not (lr["dealer.several_winners"] == "dealer_keeps" and d in seats):
            discarder = hand.discarder
            assert discarder is not None  # several winners: on one discard
            nxt = min(
                seats, key=lambda s: (s - discarder) % SEAT_COUNT
            )  # counter-clockwise from the discarder
        elif len(seats) > 1:
            nxt = d
        if nxt == d and lr["dealer.after_dealer_win"] == "next":
            nxt = (d + 1) % SEAT_COUNT
    else:
        key = "dealer.after_drawn" if hand.kind == "drawn" else "dealer.after_false_win"
        nxt = (d + 1) % SEAT_COUNT if lr[key] == "next" else d
    st.windows = [w for w in st.windows if w[1] > k]
    f = hand.follow
    if f.followed and lr["follow.enabled"]:
        code, factor = "follow", lr["follow.raise"]
        if f.dragon and lr["follow.raise_dragon"] >= factor:
            code, factor = "follow_dragon", lr["follow.raise_dragon"]
        if f.second and lr["follow.raise_second"] >= factor:
            code, factor = "follow_second", lr["follow.raise_second"]
        st.windows.append((k + 1, k + 1, Raise(code, factor, number)))
        st.hold = (nxt, k + 2, number)
    if hand.kind == "drawn":
        st.windows.append((k + 1, k + lr["drawn.window"], Raise("drawn", lr["drawn.raise"], number)))
        if st.last_drawn:
            st.windows.append(
                (k + 1, k + 1, Raise("drawn_consecutive", lr["drawn.consecutive_raise"], number))
            )
    st.last_drawn = hand.kind == "drawn"
    st.played, st.dealer = k + 1, nxt


def _money(
    table: Table, lr: LedgerRules, house: FrozenMap, hand: Hand, number: int, dealer: int, pv: Decimal
) -> tuple[tuple[ScoreResult, ...], list[Decimal]]:
    def fail(msg: str, code: str = "bad_hand") -> LedgerError:
        return LedgerError(code, f"hand {number}: {msg}")

    if hand.follow.followed and not lr["follow.enabled"]:
        raise fail("跟庄 is a 九江 rule: this table's rules have no 跟庄 raise", "rule_not_in_variant")
    if hand.kongs and not lr["kong_money.enabled"]:
        raise fail(
            "kong money (杠钱) is a 新余 rule: record kongs in the winner's hand instead",
            "rule_not_in_variant",
        )
    deltas = [ZERO] * SEAT_COUNT
    results: tuple[ScoreResult, ...] = ()
    rules = scoring_rules(table.variant, house)
    if hand.kind == "win":
        results = _score_win(table, hand, dealer, pv, house, fail)
        for w, res in zip(hand.winners, results, strict=True):
            if not res.can_win:
                raise fail(f"{table.seats[w.seat]} cannot win this hand: {res.reason}", "cannot_win")
            for s, p in zip(payer_seats(w.seat, hand.discarder), res.payments, strict=True):
                assert isinstance(p.amount, Decimal)  # the point value given to the engine is one
                deltas[s] -= p.amount
                deltas[w.seat] += p.amount
    elif hand.kind == "false_win":
        penalty = lr["false_win.penalty"]
        if penalty <= 0:
            raise fail(
                "this table's rules have no 炸糊 penalty (DECISIONS §1.6: a 星子 rule)", "rule_not_in_variant"
            )
        declarer = hand.declarer
        assert declarer is not None  # a false win has its declarer (ledger.parse)
        for s in range(SEAT_COUNT):
            if s != declarer:
                double = lr["false_win.dealer_doubles"] and dealer in (s, declarer)
                amount = penalty * pv * (2 if double else 1)
                deltas[s] += amount
                deltas[declarer] -= amount
    if hand.kind != "false_win":
        _kong_money(table, lr, hand, rules, pv, deltas, fail)
    return tuple(results), deltas


def _score_win(
    table: Table, hand: Hand, dealer: int, pv: Decimal, house: FrozenMap, fail: Callable[..., LedgerError]
) -> tuple[ScoreResult, ...]:
    """Every winner of the hand, scored together as one discard (``scoring.score_winners``: each
    on its own, the discarder paying each, DECISIONS §1.5). A bad hand is named by its winner."""
    inputs = []
    for w in hand.winners:
        try:
            inputs.append(score_input(table, hand, w, dealer, pv))
        except HandError as own:
            raise fail(f"{table.seats[w.seat]}'s hand: {own}", own.code) from None
    try:
        return _score(tuple(inputs), table.variant, house)
    except HandError as e:
        for w, one in zip(hand.winners, inputs, strict=True):  # whose hand is it?
            try:
                _score((one,), table.variant, house)
            except HandError as own:
                raise fail(f"{table.seats[w.seat]}'s hand: {own}", own.code) from None
        raise fail(f"the winners' hands do not fit one discard: {e}", e.code) from None


def _kong_money(
    table: Table,
    lr: LedgerRules,
    hand: Hand,
    rules: RuleTable,
    pv: Decimal,
    deltas: list[Decimal],
    fail: Callable[..., LedgerError],
) -> None:
    """新余 kong money of the players other than the winner (DECISIONS §2); the winner's own
    comes with the scored payments."""
    if not lr["kong_money.enabled"] or (hand.kind == "drawn" and not lr["kong_money.in_drawn_hand"]):
        return
    winners = {w.seat for w in hand.winners}
    for s, (exposed, concealed) in hand.kongs.items():
        if s in winners:
            raise fail(
                f"{table.seats[s]} won: their kongs are the melds of their hand, not kongs", "bad_hand"
            )
        if hand.kind == "win" and not lr["kong_money.from_every_player"]:
            continue
        each = Decimal(kong_money(rules.options, exposed, concealed, pv))
        for o in range(SEAT_COUNT):
            if o != s:
                deltas[o] -= each
                deltas[s] += each


def score_input(table: Table, hand: Hand, w: Winner, dealer: int, pv: Decimal) -> HandInput:
    """The engine's input for winner ``w``: the recorded hand plus what the table decides —
    variant, self_drawn, winner_is_dealer, point_value (a Decimal: the payments come back exact),
    payers by seat with their 吃炮 facts. Raises the :class:`HandError` of a stored hand that no
    longer reads (``w.problem``)."""
    if w.hand is None:
        assert w.problem is not None
        raise w.problem
    payers = tuple(
        _payer(w.eaten.get(s, NO_FACTS), table.seats[s], s == dealer)
        for s in payer_seats(w.seat, hand.discarder)
    )
    return w.hand.hand_input(table.variant, hand.discarder is None, w.seat == dealer, pv, payers)


@functools.lru_cache(maxsize=4096)
def _payer(facts: Payer, name: str, is_dealer: bool) -> Payer:
    """The paying seat: its 吃炮 facts, name and dealer mark (the same few, hand after hand)."""
    return replace(facts, name=name, is_dealer=is_dealer)


@functools.lru_cache(maxsize=16384)
def _score(hands: tuple[HandInput, ...], variant: str, house: FrozenMap) -> tuple[ScoreResult, ...]:
    """Score the winners of one hand (cached on the typed inputs: a replay after an edit
    re-scores only what changed)."""
    return score_winners(hands, scoring_rules(variant, house))
