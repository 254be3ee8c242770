"""The scoring engine: readings → items → the largest reading → gate → payments.

It only enumerates readings (:mod:`scoring.readings`), sums (or multiplies) the registered
items of :mod:`scoring.items`, keeps the largest reading (计大不计小, DECISIONS §1.3), applies
the gates (二炮起胡 §1.4, xinyu's self-draw only §2) and pays (吃炮 and xingzi's dealer doubling
§1.5, xinyu's kong money §2). What an item is worth and why is in ``scoring/items/``; the
numbers are in ``scoring/rules/*.toml``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from scoring import errors as E
from scoring.errors import HandError
from scoring.items import EATEN_KEYS, Ctx, HandFacts, Reading, registry
from scoring.model import HandInput, Item, Payer, Payment, ScoreResult, json_type
from scoring.readings import blocks, readings, wait_set
from scoring.rules import RuleTable, kong_money
from scoring.tiles import ALL_TILES, Tile, format_tiles
from scoring.validate import CheckedHand, validate
from scoring.waits import suggest_fixes

__all__ = [
    "BELOW_MINIMUM",
    "REASON_CODES",
    "SELF_DRAW_ONLY",
    "eaten_items",
    "score",
    "score_checked",
    "score_json",
]

BELOW_MINIMUM = "below_minimum"  #: reason_code: own below 二炮起胡 on a discard (§1.4)
SELF_DRAW_ONLY = "self_draw_only"  #: reason_code: a discard in xinyu (§2)
REASON_CODES = (BELOW_MINIMUM, SELF_DRAW_ONLY)


def score(hand: HandInput, rules: RuleTable | None = None) -> ScoreResult:
    """Score a winning hand (DECISIONS §1.3-§1.5 for jiujiang/xingzi, §2 for xinyu).

    ``rules`` replaces the variant's built-in table (a house table from
    :func:`scoring.rules.load_rules_file`); ``hand.rules`` overrides single keys of it. Raises
    :class:`~scoring.errors.HandError` (with a ``code``) on invalid input or a hand that is not
    complete. A hand that may not be won is a result with ``can_win`` false and a ``reason_code``.

    >>> payers = (Payer("a", is_dealer=True), Payer("b"), Payer("c"))
    >>> r = score(HandInput("xingzi", "234p456p777pCCCPP", "P", self_drawn=True, payers=payers))
    >>> r.own, [i.key for i in r.items][:3], [p.amount for p in r.payments]
    (15, ['half_flush', 'self_drawn', 'concealed'], [30, 15, 15])
    """
    if not isinstance(hand, HandInput):
        raise HandError(
            E.BAD_FIELD,
            f"score() takes a HandInput, not {json_type(hand)}: "
            "use score_json() or HandInput.from_json() for JSON",
        )
    return score_checked(validate(hand, rules))


def score_json(data: Any) -> dict[str, Any]:
    """Score a JSON hand; returns the contract's output object (docs/score-json.md).

    Raises :class:`HandError` with a code and one sentence naming the problem on any bad input.

    >>> out = score_json({"variant": "xinyu", "concealed": "123m456p789s345sEE",
    ...                   "winning_tile": "E", "self_drawn": False})
    >>> out["can_win"], out["reason_code"]
    (False, 'self_draw_only')
    """
    return score(HandInput.from_json(data)).to_json()


def _item(rules: RuleTable, key: str, why: tuple[str, str], value: float, *, fan: bool = False) -> Item:
    name = rules.name(key)
    if fan:
        return Item(key, name[0], name[1], why[0], name[2], None, value, why[1])
    return Item(key, name[0], name[1], why[0], name[2], value, None, why[1])  # type: ignore[arg-type]


#: A line of a reading's score: ``(key, why, value)``; ``why`` is a counting item's ``(en, zh)``, ``None``
#: (a pattern) or ``_ON_TOP`` (an add-on): :func:`_items` writes those for the kept reading only.
Line = tuple[str, Any, int]
_ON_TOP: Any = object()


def _counted(ctx: Ctx, skip: set[str]) -> list[Line]:
    """The counting items (平胡, extras, adders, bonus) of one side, minus the ``skip`` keys."""
    out = []
    for d in ctx.rules.counting_items:
        if d.key in skip or d.kind == "cap":
            continue
        out.extend([(d.key, why, v) for why, v in d.fn(ctx)])
    return out


def _items(lines: list[Line], r: Reading, rules: RuleTable, fan: bool) -> list[Item]:
    """The kept reading's lines as items, each reason in English and Chinese."""
    reg = registry(rules.family)
    out = []
    for key, why, v in lines:
        if why is None:
            why = reg[key].reason(r)
        elif why is _ON_TOP:
            en, zh = reg[key].reason(r)
            base = rules.patterns[key].base
            why = (f"{en}: +{base} on top", f"{zh}：另加 {base} 炮")
        out.append(_item(rules, key, why, v, fan=fan))
    return out


def _eval_pao(r: Reading, h: CheckedHand, n_waits: int) -> tuple[int, list[Line]]:
    """own 炮 of one reading (§1.3): the holding patterns' bases, every counting item, the
    add-ons. A pattern marked ``compare_without`` (七仙女) is also tried as not holding, and the
    larger total kept (计大不计小)."""
    rules = h.rules
    pats = rules.pattern_items if h.events else rules.plain_pattern_items
    holding = [k for k, d, _p in pats if d.fn(r)]
    best = _sum_pao(r, h, n_waits, holding)
    for k in holding:
        if rules.patterns[k].compare_without:
            alt = _sum_pao(r, h, n_waits, [x for x in holding if x != k])
            if (-alt[0], len(alt[1])) < (-best[0], len(best[1])):
                best = alt
    return best


def _sum_pao(r: Reading, h: CheckedHand, n_waits: int, holding: list[str]) -> tuple[int, list[Line]]:
    rules = h.rules
    pats = rules.patterns
    removed: set[str] = set()
    for k in holding:
        removed.update(pats[k].replaces)
    addons = [k for k in holding if pats[k].addon and k not in removed]
    flowers = [k for k in holding if k not in removed and not pats[k].addon]
    lines: list[Line] = []
    for k in flowers:
        p = pats[k]
        lines.append(
            (k, None, p.base_self_drawn if (p.base_self_drawn is not None and h.self_drawn) else p.base)
        )
    lines.extend(_counted(Ctx(r, rules, flowers, removed, n_waits, h.bonus_tiles, rules.bonus), removed))
    lines.extend([(k, _ON_TOP, pats[k].base) for k in addons])
    return sum([v or 0 for _k, _w, v in lines]), lines


def eaten_items(rules: RuleTable, payer: Payer) -> list[Item]:
    """吃炮 (DECISIONS §1.5): what the winner eats from one payer — 發, 中/白 melds, kongs, an
    exposed 红旗飘飘, a 报听 declaration — scored by the same item functions as the winner's
    hand (:data:`scoring.items.EATEN_KEYS`) with the ``[eaten]`` values. Standing 中/白
    triplets cannot be eaten."""
    if not (payer.bonus_tiles or payer.melds or payer.ready_declared):
        return []
    r = Reading(HandFacts.of_payer(rules, payer), "payer")
    ctx = Ctx(r, rules, bonus_tiles=payer.bonus_tiles, values=rules.eaten, payer=payer)
    reg = registry("pao")
    out: list[Item] = []
    for key in EATEN_KEYS:
        d = reg[key]
        if d.kind != "pattern":
            out.extend(_item(rules, key, why, v) for why, v in d.fn(ctx))
        elif d.fn(r):
            en, zh = d.reason(r)
            why = (f"{payer.name}'s {en}", f"{payer.name_zh}的{zh}")
            out.append(_item(rules, key, why, rules.eaten.get(key, 0)))
    return [i for i in out if i.points]


def _eval_fan(r: Reading, h: CheckedHand) -> tuple[int, list[Line]]:
    """The product of the multipliers that hold (§2), the largest of each exclusion group; the
    cap is applied to the kept reading only (:func:`_cap`)."""
    rules = h.rules
    pats = rules.patterns
    holding = [k for k, d, _p in (rules.pattern_items if h.events else rules.plain_pattern_items) if d.fn(r)]
    for group in rules.exclusion_groups:
        members = [k for k in holding if k in group]
        if len(members) > 1:
            best = max(members, key=lambda k: (pats[k].multiplier, -group.index(k)))
            holding = [k for k in holding if k not in members or k == best]
    ctx = Ctx(r, rules, holding)
    lines = _counted(ctx, set())
    reg = registry("fan")
    for k in holding:  # a predicate may count (开杠 per kong where the table says so)
        n = reg[k].fn(r)
        lines.extend([(k, None, pats[k].multiplier)] * int(n))
    own = 1
    for _k, _w, m in lines:
        own *= m
    return own, lines


def _cap(r: Reading, h: CheckedHand, own: int, lines: list[Line]) -> int:
    """封顶 (§2) on the kept reading, chosen by its uncapped product (计大不计小): the cap limits
    what is paid, not what the hand is; the 封顶 item says so. Returns the capped product."""
    for why, m in registry("fan")["cap"].fn(Ctx(r, h.rules, values={"own": own})):
        lines.append(("cap", why, m))
        own = h.rules.options.cap
    return own


def _gate(h: CheckedHand, own: float) -> tuple[tuple[str, str] | None, str | None]:
    """((reason, reason_zh), reason_code) when the hand may not be won, else (None, None)."""
    rules = h.rules
    if rules.self_draw_only and not h.self_drawn:
        why = (
            f"{rules.name_en} is won by self-draw only (DECISIONS §2)",
            f"{rules.name_zh}只能自摸胡（规则 2）",
        )
        return why, SELF_DRAW_ONLY
    if rules.family == "pao" and not h.self_drawn:
        need = rules.options.min_win
        exceptions = set(rules.options.min_win_exceptions)
        if own < need and not (exceptions & h.events):
            return (
                f"below the minimum (二炮起胡): {own} 炮 on a discard, {need} needed; "
                "吃炮 does not count (DECISIONS §1.4)",
                f"不够二炮起胡：点炮只有 {own} 炮，要 {need} 炮；吃炮不算（规则 1.4）",
            ), BELOW_MINIMUM
    return None, None


def _exact(x: Any) -> Any:
    """A :class:`~decimal.Decimal` amount in its shortest form (``2``, not ``2.0``); a number as it is."""
    if not isinstance(x, Decimal):
        return x
    return x.quantize(Decimal(1)) if x == x.to_integral() else x.normalize()


def _payments(h: CheckedHand, own: float) -> list[Payment]:
    """What each payer pays (§1.5 / §2), in the type of the point value (a Decimal stays exact)."""
    rules = h.rules
    # a float or an exact Decimal: ``own`` and the eaten points are whole 炮 / 番, so either
    # multiplies exactly (float x Decimal is never computed)
    pv: Any = h.point_value
    out: list[Payment] = []
    if rules.family == "pao":
        doubles = rules.options.dealer_doubles
        # xingzi (§1.5): the dealer's win and the dealer's discard are doubled; the dealer's share
        # of another player's self-draw too, unless dealer_doubles_on_self_draw is false
        dealer_pays_double = not h.self_drawn or rules.options.dealer_doubles_on_self_draw
        for p in h.payers:
            eaten = eaten_items(rules, p)
            e = sum(i.points or 0 for i in eaten)
            doubled = doubles and (h.winner_is_dealer or (p.is_dealer and dealer_pays_double))
            amount = _exact((own + e) * pv * (2 if doubled else 1))
            out.append(Payment(p.name, p.is_dealer, e, tuple(eaten), doubled, 0, amount, p.default_name))
        return out
    concealed = sum(m.kind == "concealed_kong" for m in h.melds)
    km = kong_money(rules.options, sum(m.is_kong for m in h.melds) - concealed, concealed, pv)
    amount = _exact(own * pv + km)
    return [Payment(p.name, p.is_dealer, 0, (), False, km, amount, p.default_name) for p in h.payers]


def score_checked(h: CheckedHand) -> ScoreResult:
    """Score a checked hand (see :func:`score`): the largest reading, gated and paid."""
    rules = h.rules
    found = readings(h, HandFacts.of_hand(h))
    if not found:
        raise HandError(E.NOT_COMPLETE, _not_complete_message(h))
    ws = wait_set(h)  # needed for 独听 and shown in the result
    pao = rules.family == "pao"
    best = None
    best_key = None
    for idx, r in enumerate(found):
        own, lines = _eval_pao(r, h, len(ws)) if pao else _eval_fan(r, h)
        key = (-own, len(lines), idx)  # 计大不计小; ties: fewer items, then the first (stable)
        if best_key is None or key < best_key:
            best_key, best = key, (r, own, lines)
    assert best is not None
    r, own, lines = best
    if not pao and rules.options.cap:
        own = _cap(r, h, own, lines)
    items = _items(lines, r, rules, not pao)  # reasons for the kept reading only
    why, reason_code = _gate(h, own)
    payments = _payments(h, own) if why is None else []
    note = h.robbed_note
    return ScoreResult(  # positional, in field order (the hot path)
        rules.variant,
        why is None,
        why and why[0],
        own,
        tuple(items),
        blocks(r, h),
        r.shape,
        r.wait,
        tuple([ALL_TILES[t] for t in ws]),
        tuple(payments),
        h.point_value,
        len(found),
        (note[0],) if note else (),
        reason_code,
        rules.applied,
        why and why[1],
        ALL_TILES[h.win],
        (note[1],) if note else (),
    )


def _not_complete_message(h: CheckedHand) -> str:
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
