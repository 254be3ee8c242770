"""The scoring engine: readings → items → the largest reading → gate → payments.

jiujiang / xingzi (DECISIONS §1): own = base + wait/condition adders + bonus adders, every
reading tried and the largest kept (计大不计小, §1.3), the 二炮起胡 gate (§1.4), 吃炮 per payer
and xingzi's dealer doubling (§1.5). xinyu (§2): product of multipliers with exclusion groups,
an optional cap, self-draw only, kong money.
"""

from __future__ import annotations

from typing import Any

from scoring import errors as E
from scoring.decompose import is_all_honours, seven_pairs_of, standard_readings, waits_of
from scoring.errors import HandError
from scoring.model import Block, HandInput, Item, Payer, Payment, ScoreResult, json_type
from scoring.patterns import registry
from scoring.patterns.base import HandFacts, Reading
from scoring.patterns.pao import DRAGONS, pair_runs, pung_run_length
from scoring.rules import RuleTable
from scoring.tiles import ALL_TILES, Tile, format_tiles
from scoring.validate import CheckedHand as Hand
from scoring.validate import validate
from scoring.waits import suggest_fixes

__all__ = [
    "BELOW_MINIMUM",
    "REASON_CODES",
    "SELF_DRAW_ONLY",
    "eaten_items",
    "score",
    "score_hand",
    "score_json",
]

BELOW_MINIMUM = "below_minimum"  #: reason_code: own below 二炮起胡 on a discard (§1.4)
SELF_DRAW_ONLY = "self_draw_only"  #: reason_code: a discard in xinyu (§2)
REASON_CODES = (BELOW_MINIMUM, SELF_DRAW_ONLY)

_WAIT_TEXT = {
    "edge_wait": "edge wait (12+3 or 89+7)",
    "closed_wait": "closed wait (13+2)",
    "single_wait": "single wait: the winning tile completes the pair",
}


def score(hand: HandInput, rules: RuleTable | None = None) -> ScoreResult:
    """Score a winning hand (DECISIONS §1.3-§1.5 for jiujiang/xingzi, §2 for xinyu).

    ``rules`` replaces the variant's built-in table (a house table from
    :func:`scoring.rules.load_rules_file`); ``hand.rules`` overrides single keys of it. Raises
    :class:`~scoring.errors.HandError` (with a ``code``) on invalid input or a hand that is not
    complete. A hand that may not be won is a result with ``can_win`` false and a ``reason_code``.

    >>> r = score(HandInput("xingzi", "234p456p777pCCCPP", "P", self_drawn=True))
    >>> r.own, [i.key for i in r.items][:3], [p.amount for p in r.payments]
    (15, ['half_flush', 'self_drawn', 'concealed'], [15, 15, 15])
    """
    if not isinstance(hand, HandInput):
        raise HandError(
            E.BAD_FIELD,
            f"score() takes a HandInput, not {json_type(hand)}: "
            "use score_json() or HandInput.from_json() for JSON",
        )
    return score_hand(validate(hand, rules))


def score_json(data: Any) -> dict[str, Any]:
    """Score a JSON hand; returns the contract's output object (docs/score-json.md).

    Raises :class:`HandError` with a code and one sentence naming the problem on any bad input.

    >>> out = score_json({"variant": "xinyu", "concealed": "123m456p789s345sEE",
    ...                   "winning_tile": "E", "self_drawn": False})
    >>> out["can_win"], out["reason_code"]
    (False, 'self_draw_only')
    """
    return score(HandInput.from_json(data)).to_json()


def _item(rules: RuleTable, key: str, reason: str, *, points: int | None = None, mult=None) -> Item:
    name = rules.name(key)
    return Item(key, name[0], name[1], reason, name[2], points, mult)


_COMPILED: dict[int, tuple[RuleTable, list]] = {}


def _compiled(rules: RuleTable) -> tuple[list, list]:
    """[(key, PatternDef, PatternRule)] of a table in table order: all, and those that are not
    events (enough when the input has no events). Cached per table."""
    got = _COMPILED.get(id(rules))
    if got is None or got[0] is not rules:
        reg = registry(rules.family)
        missing = [k for k in rules.patterns if k not in reg]
        if missing:
            raise HandError(
                E.BAD_RULE_TABLE,
                f"rule table {rules.variant}: no predicate for pattern(s) {', '.join(missing)}",
            )
        full = [(k, reg[k], p) for k, p in rules.patterns.items()]
        got = _COMPILED[id(rules)] = (rules, (full, [x for x in full if not x[1].event]))
    return got[1]


def _readings(h: Hand, facts: HandFacts) -> list[Reading]:
    out: list[Reading] = []
    win = h.win
    for pair, sets in standard_readings(h.counts):
        seen = set()
        if pair == win:
            out.append(Reading(facts, "standard", sets, pair, (), ("pair", win), "single"))
        for blk in sets:
            if blk in seen:
                continue
            kind, t = blk
            if kind == "pung":
                if t != win:
                    continue
                wait = "pung"
            else:
                if not t <= win <= t + 2:
                    continue
                if win == t + 1:
                    wait = "closed"
                elif (win == t + 2 and t % 9 == 0) or (win == t and t % 9 == 6):
                    wait = "edge"
                else:
                    wait = "open"
            seen.add(blk)
            out.append(Reading(facts, "standard", sets, pair, (), blk, wait))
    if not h.melds:
        pairs = seven_pairs_of(h.counts)
        if pairs is not None:
            out.append(Reading(facts, "seven_pairs", pairs=tuple(pairs), win_block=("pair", win)))
        if h.rules.all_honours_free_shape and is_all_honours(h.counts):
            out.append(Reading(facts, "free", win_block=("free", win)))
    return out


def _waits(h: Hand) -> list[int]:
    before = list(h.counts)
    before[h.win] -= 1
    held = list(h.held)
    held[h.win] -= 1
    return waits_of(
        before,
        len(h.melds),
        h.rules.allowed_kinds,
        held,
        free_honours=h.rules.all_honours_free_shape,
    )


_EMPTY: frozenset[str] = frozenset()


def _eval_pao(r: Reading, h: Hand, waits: list[int]) -> tuple[int, list[Item]]:
    rules = h.rules
    reg = registry("pao")
    pats = rules.patterns
    holding = [k for k, d, _p in _compiled(rules)[0 if h.events else 1] if d.holds(r)]
    removed: set[str] = set()
    for k in holding:
        removed.update(pats[k].replaces)
    if removed:
        holding = [k for k in holding if k not in removed]
    items: list[Item] = []
    if holding:
        for k in holding:
            p = pats[k]
            pts = p.base_self_drawn if (p.base_self_drawn is not None and h.self_drawn) else p.base
            items.append(_item(rules, k, reg[k].reason(r), points=pts))
    else:
        items.append(
            _item(rules, "basic", "no flower pattern (平胡)", points=int(rules.basic.get("points", 1)))
        )

    ex = rules.extras
    # extras: 潇洒 / 滚 / 豪华 in seven pairs, 潇洒碰碰胡 (§1.3 extras)
    if r.shape == "seven_pairs":
        if "pair_run" not in removed:
            left = ex.get("pair_run_extra_max", 3)
            for start, n in pair_runs(r):
                run = format_tiles(range(start, start + n))
                items.append(_item(rules, "pair_run", f"pairs {run} in a run", points=ex.get("pair_run", 0)))
                for j in range(ex.get("pair_run_min", 3), n):
                    if left <= 0 or "pair_run_extra" in removed:
                        break
                    left -= 1
                    t = Tile(start + j)
                    items.append(
                        _item(
                            rules,
                            "pair_run_extra",
                            f"pair {t.code}{t.code} beyond three in the run",
                            points=ex.get("pair_run_extra", 0),
                        )
                    )
        if "luxury" not in removed:
            quads = [t for t in sorted(set(r.pairs)) if r.pairs.count(t) == 2]  # see luxury_count
            for t in quads[: ex.get("luxury_max", 3)]:
                items.append(
                    _item(
                        rules, "luxury", f"{Tile(t).code * 4} used as two pairs", points=ex.get("luxury", 0)
                    )
                )
    if "all_pungs" in holding:
        start, n = pung_run_length(r)
        if n >= 3:
            run = " ".join(Tile(t).code * 3 for t in range(start, start + n))
            if n >= 4:
                items.append(
                    _item(
                        rules,
                        "pung_run",
                        f"four consecutive triplets {run} (潇洒带滚)",
                        points=ex.get("pung_run_four", 0),
                    )
                )
            else:
                items.append(
                    _item(
                        rules,
                        "pung_run",
                        f"three consecutive triplets {run}",
                        points=ex.get("pung_run_three", 0),
                    )
                )

    # wait / condition adders (§1.3): once each, at the largest value a holding pattern gives
    excluded = rules.exclusions
    basic_adders = rules.basic.get("adders", {})
    held = set(holding)

    def value(a: str) -> int:
        if held & excluded.get(a, _EMPTY):
            return 0
        if holding:
            return max(pats[k].adders.get(a, 0) for k in holding)
        return int(basic_adders.get(a, 0))

    facts = r.facts
    if h.self_drawn:
        v = value("self_drawn")
        if v:
            items.append(_item(rules, "self_drawn", "won on own draw", points=v))
    if not facts.exposed:
        v = value("concealed")
        if v:
            why = "no exposed meld" + (" (concealed kongs keep it)" if facts.n_melds else "")
            items.append(_item(rules, "concealed", why, points=v))
    if r.wait in ("edge", "closed", "single"):
        key = f"{r.wait}_wait"
        v = value(key)
        if v:
            if not rules.option("wait_bonus_needs_single_wait", True):
                items.append(_item(rules, key, _WAIT_TEXT[key], points=v))
            elif len(waits) == 1:
                items.append(_item(rules, key, _WAIT_TEXT[key] + ", the only tile waited on", points=v))

    # bonus adders (§1.3), always
    b = rules.bonus
    n = h.bonus_tiles
    for i in range(n):
        items.append(
            _item(rules, "bonus_tile", f"發 set aside ({i + 1} of {n})", points=b.get("bonus_tile", 0))
        )
    if n == 4:
        items.append(
            _item(rules, "four_bonus_tiles", "all four 發 set aside", points=b.get("four_bonus_tiles", 0))
        )
    if r.shape == "standard":
        for kind, t in r.sets:
            if kind != "pung" or t not in DRAGONS:
                continue
            zh = Tile(t).zh
            if r.win_block == (kind, t) and not h.self_drawn:
                items.append(
                    _item(
                        rules,
                        "dragon_set",
                        f"{zh} triplet completed by a discard counts as exposed",
                        points=b.get("dragon_pung", 0),
                    )
                )
            else:
                items.append(
                    _item(
                        rules,
                        "dragon_set",
                        f"concealed {zh} triplet standing in the hand",
                        points=b.get("dragon_standing", 0),
                    )
                )
    for m in h.melds:
        items.extend(_meld_items(rules, m, b, "own"))
    return sum(i.points or 0 for i in items), items


def _meld_items(rules: RuleTable, m, table: dict[str, int], whose: str) -> list[Item]:
    t = m.tile
    zh = Tile(t).zh
    if t in DRAGONS:
        if m.kind == "pung":
            return [
                _item(
                    rules, "dragon_set", f"{whose} exposed pung of {zh}", points=table.get("dragon_pung", 0)
                )
            ]
        if m.kind == "concealed_kong":
            return [
                _item(
                    rules,
                    "dragon_set",
                    f"{whose} concealed kong of {zh}",
                    points=table.get("dragon_concealed_kong", 0),
                )
            ]
        if m.is_kong:
            return [
                _item(
                    rules, "dragon_set", f"{whose} exposed kong of {zh}", points=table.get("dragon_kong", 0)
                )
            ]
        return []
    if m.kind == "concealed_kong":
        return [
            _item(rules, "kong", f"{whose} concealed kong of {m.code}", points=table.get("concealed_kong", 0))
        ]
    if m.is_kong:
        return [_item(rules, "kong", f"{whose} exposed kong of {m.code}", points=table.get("kong", 0))]
    return []


def eaten_items(rules: RuleTable, payer: Payer) -> list[Item]:
    """吃炮 (DECISIONS §1.5): what the winner eats from one payer — 發, 中/白 melds, kongs,
    an exposed 红旗飘飘, a 报听 declaration. Standing 中/白 triplets cannot be eaten."""
    if not (payer.bonus_tiles or payer.melds or payer.ready_declared):
        return []
    e = rules.eaten
    out: list[Item] = []
    who = payer.name
    n = payer.bonus_tiles
    for i in range(n):
        out.append(_item(rules, "bonus_tile", f"{who}'s 發 ({i + 1} of {n})", points=e.get("bonus_tile", 0)))
    if n == 4:
        out.append(
            _item(rules, "four_bonus_tiles", f"{who} holds all four 發", points=e.get("four_bonus_tiles", 0))
        )
    for m in payer.melds:
        out.extend(_meld_items(rules, m, e, f"{who}'s"))
    kinds_ok = (
        (lambda m: m.kind != "chow")
        if rules.option("payer_red_flag_counts_concealed_kong", True)
        else (lambda m: m.kind != "chow" and m.is_exposed)
    )
    flags = {m.tile for m in payer.melds if kinds_ok(m)}
    if all(d in flags for d in DRAGONS) and e.get("red_flag", 0):
        out.append(
            _item(rules, "red_flag", f"{who}'s exposed 中 and 白 sets (红旗飘飘)", points=e["red_flag"])
        )
    if payer.ready_declared and rules.payer_ready_declared and e.get("ready_declared", 0):
        out.append(_item(rules, "ready_declared", f"{who} declared ready (报听)", points=e["ready_declared"]))
    return [i for i in out if i.points]


def _eval_fan(r: Reading, h: Hand) -> tuple[float, list[Item]]:
    rules = h.rules
    reg = registry("fan")
    pats = rules.patterns
    holding = [k for k, d, _p in _compiled(rules)[0 if h.events else 1] if d.holds(r)]
    for group in rules.exclusion_groups:
        members = [k for k in holding if k in group]
        if len(members) > 1:
            best = max(members, key=lambda k: (pats[k].multiplier, -group.index(k)))
            holding = [k for k in holding if k not in members or k == best]
    items = [_item(rules, "basic", "1 point per payer, times every multiplier that holds", mult=1)]
    own = 1
    for k in holding:
        m = pats[k].multiplier
        own *= m
        items.append(_item(rules, k, reg[k].reason(r), mult=m))
    cap = rules.option("cap", 0) or 0
    if cap and own > cap:
        items.append(_item(rules, "cap", f"capped at {cap} (was {own})", mult=cap / own))
        own = cap
    return own, items


def _blocks(r: Reading, h: Hand) -> tuple[Block, ...]:
    out: list[Block] = []
    T = ALL_TILES
    if r.shape == "standard":
        for kind, t in r.sets:
            tiles = (T[t], T[t + 1], T[t + 2]) if kind == "chow" else (T[t],) * 3
            out.append(Block(kind, tiles, "hand", False))
        out.append(Block("pair", (T[r.pair],) * 2, "hand", False))
        wk, wt = r.win_block
        for i, (kind, t) in enumerate(r.sets):
            if kind == wk and t == wt:
                out[i].winning = True
                break
        else:
            out[-1].winning = True
    elif r.shape == "seven_pairs":
        out.extend(Block("pair", (T[t],) * 2, "hand", False) for t in r.pairs)
        for b in out:
            if b.tiles[0] == h.win:
                b.winning = True
                break
    else:
        names = {1: "single", 2: "pair", 3: "pung", 4: "quad"}
        for t in range(27, 34):
            n = h.counts[t]
            if n:
                out.append(Block(names[n], (T[t],) * n, "hand", t == h.win))
    out.extend(Block(m.kind, m.tiles, "meld") for m in h.melds)
    return tuple(out)


def score_hand(h: Hand) -> ScoreResult:
    """Score a validated :class:`~scoring.validate.Hand` (see :func:`score`)."""
    rules = h.rules
    facts = HandFacts(h)
    readings = _readings(h, facts)
    if not readings:
        raise HandError(E.NOT_COMPLETE, _not_complete_message(h))

    ws = _waits(h)  # needed for 独听 and shown in the result
    best = None
    best_key = None
    pao = rules.family == "pao"
    for idx, r in enumerate(readings):
        own, items = _eval_pao(r, h, ws) if pao else _eval_fan(r, h)
        key = (-own, len(items), idx)
        if best_key is None or key < best_key:
            best_key, best = key, (r, own, items)
    assert best is not None
    r, own, items = best

    can_win, reason, reason_code = True, None, None
    if rules.self_draw_only and not h.self_drawn:
        can_win, reason, reason_code = (
            False,
            f"{rules.variant} is won by self-draw only (DECISIONS §2)",
            SELF_DRAW_ONLY,
        )
    elif pao and not h.self_drawn:
        need = int(rules.option("min_win", 0) or 0)
        exceptions = set(rules.option("min_win_exceptions", []))
        if own < need and not (exceptions & h.events):
            can_win, reason_code = False, BELOW_MINIMUM
            reason = (
                f"below the minimum (二炮起胡): {own} 炮 on a discard, {need} needed; "
                "吃炮 does not count (DECISIONS §1.4)"
            )

    payments: list[Payment] = []
    if can_win:
        pv = h.point_value
        if pao:
            doubles = bool(rules.option("dealer_doubles", False))
            for p in h.payers:
                eaten = eaten_items(rules, p)
                e = sum(i.points or 0 for i in eaten)
                doubled = doubles and (h.winner_is_dealer or p.is_dealer)
                amount = (own + e) * pv * (2 if doubled else 1)
                payments.append(Payment(p.name, p.is_dealer, e, tuple(eaten), doubled, 0, amount))
        else:
            km = 0
            for m in h.melds:
                if m.kind == "concealed_kong":
                    km += int(rules.option("kong_money_concealed", 2))
                elif m.is_kong:
                    km += int(rules.option("kong_money_exposed", 1))
            if rules.option("kong_money_times_point_value", False):
                km = km * pv
            for p in h.payers:
                payments.append(Payment(p.name, p.is_dealer, 0, (), False, km, own * pv + km))

    notes = (h.robbed_note,) if h.robbed_note else ()
    return ScoreResult(  # positional, in field order (the hot path)
        rules.variant,
        can_win,
        reason,
        own,
        tuple(items),
        _blocks(r, h),
        r.shape,
        r.wait,
        tuple([ALL_TILES[t] for t in ws]),
        tuple(payments),
        h.point_value,
        len(readings),
        notes,
        reason_code,
        rules.applied,
    )


def _not_complete_message(h: Hand) -> str:
    hand = format_tiles(h.concealed)
    melds = "".join(f" + {m.kind} {m.code}" for m in h.melds)
    msg = f"not a winning hand: {hand}{melds} is neither four sets and a pair nor seven pairs"
    if h.rules.all_honours_free_shape:
        msg = msg.replace("seven pairs", "seven pairs nor all honours")
    try:
        fixes = suggest_fixes(h.concealed, h.melds, h.rules.variant, winning_tile=Tile(h.win), limit=3)
    except HandError:
        fixes = []
    if fixes:
        msg += "; it would win with " + " or ".join(f.describe() for f in fixes)
    return msg
