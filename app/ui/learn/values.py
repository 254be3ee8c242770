"""A variant's values on the Learn page, read from its rule table (``scoring.load_rules``), never
typed in a catalog (issue 38: one rule, one place): the catalog's ``rules.<variant>.<section>``
prose explains, these tables count.

Pure (no Streamlit): `value_tables(variant, section)` gives the tables of one Learn section, each
a header and rows of words in the current language (`app.ui.i18n`); `rules_view` draws them.

- 九江 / 星子 (炮), section 1.3: each pattern's base and its adders (自摸 / 门清 / 边 / 卡 / 单钓),
  平胡 first; then the extras and the bonus items, always added. Section 1.5: what the winner
  eats from each payer (吃炮).
- 新余 (番), section 2: each pattern's multiplier, the cap, the kong money.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.ui.i18n import lang, t
from scoring.rules import RuleTable, load_rules

__all__ = ["ValueTable", "value_tables"]

ADDERS = ("self_drawn", "concealed", "edge_wait", "closed_wait", "single_wait")

#: the words of each value entry of ``[extras]`` / ``[bonus]`` / ``[eaten]`` (``{n}``: its maximum)
ENTRY_WORDS = {
    "pair_run": "learn.entry_pair_run",
    "pair_run_extra": "learn.entry_pair_run_extra",
    "luxury": "learn.entry_luxury",
    "pung_run_three": "learn.entry_pung_run_three",
    "pung_run_four": "learn.entry_pung_run_four",
    "bonus_tile": "learn.entry_bonus_tile",
    "four_bonus_tiles": "learn.entry_four_bonus_tiles",
    "dragon_pung": "learn.entry_dragon_pung",
    "dragon_standing": "learn.entry_dragon_standing",
    "dragon_kong": "learn.entry_dragon_kong",
    "dragon_concealed_kong": "learn.entry_dragon_concealed_kong",
    "kong": "learn.entry_kong",
    "concealed_kong": "learn.entry_concealed_kong",
    "red_flag": "learn.entry_red_flag",
    "ready_declared": "learn.entry_ready_declared",
}
_NEVER = "—"


@dataclass(frozen=True)
class ValueTable:
    """One table of values: its header and rows, every cell a word or a number as text."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def markdown(self) -> str:
        lines = [self.header, tuple("---" for _ in self.header), *self.rows]
        return "\n".join("| " + " | ".join(cells) + " |" for cells in lines)


def value_tables(variant: str, section: str) -> tuple[ValueTable, ...]:
    """The value tables of one Learn section of ``variant`` (none for a section without values)."""
    rules = load_rules(variant)
    if rules.family == "fan":
        return (_multipliers(rules),) if section == "2" else ()
    if section == "1.3":
        return _patterns(rules), _always(rules)
    if section == "1.5" and rules.eaten:
        return (_entries(rules.eaten, rules, t("learn.vt_payer_shows"), t("learn.vt_eaten")),)
    return ()


def _name(rules: RuleTable, key: str) -> str:
    zh, en, _ref = rules.name(key)
    return zh if lang() == "zh" else en


def _adders(values: dict[str, int]) -> tuple[str, ...]:
    return tuple(str(values[k]) if k in values else _NEVER for k in ADDERS)


def _patterns(rules: RuleTable) -> ValueTable:
    header = (t("learn.vt_item"), t("learn.vt_pao"), *(_name(rules, k) for k in ADDERS))
    rows: list[tuple[str, ...]] = [
        (_name(rules, rules.basic.get("key", "basic")), str(rules.basic.get("points", 1)))
    ]
    rows[0] += _adders(rules.basic.get("adders", {}))
    for key, p in rules.patterns.items():
        base = str(p.base)
        if p.base_self_drawn is not None:
            base = t("learn.vt_base_self_drawn", base=p.base, self_drawn=p.base_self_drawn)
        adders = _adders(p.adders)
        if p.addon:  # on top of the hand's own 炮: the hand's adders are its patterns' (or 平胡's)
            base, adders = t("learn.vt_on_top", n=p.base), tuple("" for _ in ADDERS)
        rows.append((_name(rules, key), base, *adders))
    return ValueTable(header, tuple(rows))


def _always(rules: RuleTable) -> ValueTable:
    extras = {k: v for k, v in rules.extras.items() if k in ENTRY_WORDS}
    return _entries({**extras, **rules.bonus}, rules, t("learn.vt_item"), t("learn.vt_pao"))


def _entries(values: dict[str, int], rules: RuleTable, what: str, worth: str) -> ValueTable:
    rows = []
    for entry, v in values.items():
        if not v:
            continue  # a value the variant does not play (xingzi eats no 报听)
        most = rules.extras.get(f"{entry}_max", "")
        rows.append((t(ENTRY_WORDS[entry], n=most), f"+{v}"))
    return ValueTable((what, worth), tuple(rows))


def _multipliers(rules: RuleTable) -> ValueTable:
    rows = [(_name(rules, k), f"×{p.multiplier}") for k, p in rules.patterns.items()]
    o = rules.options
    rows.append((t("learn.vt_cap"), f"×{o.cap}" if o.cap else t("learn.vt_no_cap")))
    rows.append((t("learn.vt_kong_money_exposed"), str(o.kong_money_exposed)))
    rows.append((t("learn.vt_kong_money_concealed"), str(o.kong_money_concealed)))
    return ValueTable((t("learn.vt_item"), t("learn.vt_times")), tuple(rows))
