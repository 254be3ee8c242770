"""Why not (为什么不是…): for a scored hand, every item of its variant's table that the hand did
not get — each pattern, adder, bonus and extra — and why, in one line in English and one in
Chinese, from the rules themselves (issue 25 items 4-5; DECISIONS §1.3, §1.3a, §2).

``explain(hand) -> tuple[WhyNot, ...]``: one :class:`WhyNot` per missing item key, in table
order (patterns, then the adders and the rest). A line names what this hand lacks *and* the
item's own condition: ``不是红旗飘飘：白板只有2张——要红中和白板都成刻子或杠``. Where the condition
holds but the item is still missing, the line names the rule that removed it: an exclusion
(``杠上开花不算自摸``), a replacing pattern, an exclusion group, a holding pattern that gives the
adder nothing, or the larger reading (计大不计小). ``one_tile_changes(hand)``: the single-tile change
of the standing tiles that makes each item hold, with the total it would then collect.

Every key gets its reason from :func:`scoring.items.lacks.because`, beside the item's
function in its :mod:`scoring.items` module (one rule, one place); a table key with none is an
error (``KeyError``), so a new pattern cannot be added without its why-not. Raises
:class:`~scoring.errors.HandError` where :func:`scoring.score` does (the hand must be valid).

>>> from scoring import HandInput
>>> h = HandInput.from_json({"variant": "xingzi", "concealed": "123m456p789s345s55p",
...                          "winning_tile": "2m", "self_drawn": False})
>>> [w.zh for w in explain(h) if w.key == "red_flag"]
['不是红旗飘飘：没有红中、没有白板——要红中和白板都成刻子或杠']
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal

from scoring.engine import score_checked
from scoring.errors import HandError
from scoring.model import HandInput
from scoring.result import ScoreResult
from scoring.rules import RuleTable
from scoring.rules.overrides import ADDER_KEYS
from scoring.tiles import Tile
from scoring.validate import validate
from scoring.why_not.base import REASONS, Facts, Reason, reason_of

__all__ = ["REASONS", "Change", "WhyNot", "explain", "item_keys", "one_tile_changes"]

_SKIP = frozenset({"cap"})  # a bound on the product, not an item a hand gets


@dataclass(frozen=True, slots=True)
class WhyNot:
    """Item ``key`` (``name_zh`` / ``name_en``) is missing from this hand: ``en`` / ``zh`` the
    whole line; ``lacks_*`` what this hand lacks (or the rule that removed it); ``cond_*`` the
    item's own condition."""

    key: str
    name_en: str
    name_zh: str
    lacks_en: str
    lacks_zh: str
    cond_en: str
    cond_zh: str

    pattern: bool = True  # a pattern ("not 混一色"), else an adder, bonus or extra ("no 自摸")

    @property
    def en(self) -> str:
        return f"{'not' if self.pattern else 'no'} {self.name_en}: {self.lacks_en}; it needs {self.cond_en}"

    @property
    def zh(self) -> str:
        return f"{'不是' if self.pattern else '不算'}{self.name_zh}：{self.lacks_zh}——要{self.cond_zh}"

    def line(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


@dataclass(frozen=True, slots=True)
class Change:
    """Standing tile ``old`` becomes ``new`` (``index`` into the sorted ``hand.concealed``): then
    the item holds and the hand collects ``total``."""

    index: int
    old: Tile
    new: Tile
    total: float | Decimal


def item_keys(rules: RuleTable) -> tuple[str, ...]:
    """Every item key of a table a hand can get: its patterns, 平胡, then its other named items."""
    basic = rules.basic.get("key", "basic")
    rest = [k for k in rules.names if k not in rules.patterns and k not in _SKIP]
    return (*rules.patterns, *([basic] if rules.family == "pao" else []), *rest)


def explain(
    hand: HandInput, result: ScoreResult | None = None, rules: RuleTable | None = None
) -> tuple[WhyNot, ...]:
    """Every item of the variant ``hand`` did not get, with its why-not (module docstring)."""
    checked = validate(hand, rules)
    if result is None:
        result = score_checked(checked)
    have = frozenset(i.key for i in result.items if (i.points or 0) != 0 or (i.multiplier or 1) != 1)
    facts = Facts.of(checked, result, have)
    out = []
    for key in item_keys(checked.rules):
        if key in have:
            continue
        reason = reason_of(checked.rules, key)
        if reason is None:
            raise KeyError(f"no why-not registered for item {key!r} ({checked.rules.variant})")
        out.append(_why(facts, reason))
    return tuple(out)


#: English names without Chinese in them (the tables' ``name_en`` of these keys holds 發)
_EN = {"bonus_tile": "Bonus tile (Green dragon)", "four_bonus_tiles": "All four Green dragons"}


def _name(rules: RuleTable, key: str) -> tuple[str, str]:
    zh, en, _ = rules.name(key)
    return _EN.get(key, en), zh


def _why(x: Facts, reason: Reason) -> WhyNot:
    rules, key = x.rules, reason.key
    en, zh = _name(rules, key)
    said = reason.missing(x) or _removed_by(x, key)
    return WhyNot(key, en, zh, said[0], said[1], reason.cond_en, reason.cond_zh, key in rules.patterns)


def _removed_by(x: Facts, key: str) -> tuple[str, str]:
    """The rule that removed an item whose own condition holds here."""
    rules = x.rules
    en, zh = _name(rules, key)
    for p in sorted(set(rules.exclusions.get(key, ())) & x.have):
        p_en, p_zh = _name(rules, p)
        return f"{p_en} never counts {en}", f"{p_zh}不算{zh}"
    for p in sorted(x.have & set(rules.patterns)):
        if key in rules.patterns[p].replaces:
            p_en, p_zh = _name(rules, p)
            return f"{p_en} replaces it", f"{p_zh}代替了它"
    for group in rules.exclusion_groups:
        won = [g for g in group if g in x.have]
        if key in group and won:
            p_en, p_zh = _name(rules, won[0])
            return f"only the largest of its group counts: {p_en}", f"同组只算最大的：{p_zh}"
    flowers = [p for p in rules.patterns if p in x.have and not rules.patterns[p].addon]
    if key == rules.basic.get("key", "basic") and flowers:
        p_en, p_zh = _name(rules, flowers[0])
        return f"{p_en} holds, a flower pattern", f"已有花：{p_zh}"
    if (
        key in ADDER_KEYS
        and key not in rules.patterns
        and flowers
        and not any(rules.patterns[p].adders.get(key, 0) for p in flowers)
    ):
        names = [_name(rules, p) for p in flowers]
        return (
            f"{' and '.join(n[0] for n in names)} give(s) it nothing",
            f"{'、'.join(n[1] for n in names)}不加{zh}",
        )
    return "the larger reading of these tiles does without it", "计大不计小：按更大的读法算，其中没有它"


def one_tile_changes(hand: HandInput, rules: RuleTable | None = None) -> dict[str, Change]:
    """For each item key, the single change of a standing tile that makes it hold with the
    largest total (items the hand already holds included); hands that cannot win are skipped."""
    table = validate(hand, rules).rules
    best: dict[str, Change] = {}
    tiles = list(hand.concealed)
    for i, old in enumerate(tiles):
        if i and old == tiles[i - 1]:
            continue  # the same tile kind: the same trial hands
        for new in table.tile_kinds:
            if new == old:
                continue
            concealed = (*tiles[:i], Tile(new), *tiles[i + 1 :])
            win = hand.winning_tile
            if old == win and tiles.count(win) == 1:
                win = Tile(new)
            try:
                trial = score_checked(validate(replace(hand, concealed=concealed, winning_tile=win), rules))
            except HandError:
                continue
            if not trial.can_win:
                continue
            for it in trial.items:
                got = best.get(it.key)
                if got is None or trial.total > got.total:
                    best[it.key] = Change(i, old, Tile(new), trial.total)
    return best
