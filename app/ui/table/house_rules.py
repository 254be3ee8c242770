"""House rules when a table opens: each between-hand rule of the variant (its ledger rule table)
as a widget with its default and its DECISIONS section, the JSON box kept as "advanced"; an
error names the key and what it may be, in the page's language.

Only values that differ from the variant's default become house rules, so a table opened with
the form untouched has none.
"""

from __future__ import annotations

import math
import re
from typing import Any

import streamlit as st

from app import jsonin
from app.ui.hand.numbers import number_field
from app.ui.i18n import has, t
from ledger import LedgerError
from ledger.errors import shown
from ledger.rules import CHOICES, INT_RANGE, INT_RANGES, load_ledger_rules, rule_sections, scoring_rules
from scoring import HandError
from scoring.errors import BAD_RULE_VALUE, UNKNOWN_RULE_KEY
from scoring.rules import load_rules
from scoring.rules.overrides import MAX_VALUE

ss = st.session_state
MAX_RULES = 4000
RULES_EXAMPLE = '{"ledger": {"drawn.window": 3}, "scoring": {"full_flush.base": 15}}'

__all__ = ["RuleProblem", "rules_form", "typed_rules"]


class RuleProblem(Exception):
    """A house rule that cannot be: ``text`` says which key and why, in the page's language."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def _value_text(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return t("rule.yes") if value else t("rule.no")
    if isinstance(value, str) and key in CHOICES:
        return t(f"rule.choice.{value}")
    return str(value)


def rules_form(variant: str) -> dict[str, Any]:
    """A widget per ledger rule of `variant` (widget keys ``tr_<variant>_<key>``); returns the
    values that differ from the defaults, ``{"section.key": value}``."""
    defaults = load_ledger_rules(variant).values
    refs = rule_sections(variant)
    out: dict[str, Any] = {}
    for key, default in defaults.items():
        ref = refs.get(key.split(".")[0])
        label = t("rule.label", name=t(f"rule.{key}"), default=_value_text(key, default))
        help_ = t("rule.ref", ref=ref) if ref else None
        wkey = f"tr_{variant}_{key}"
        value: Any  # the widget's: a bool, a whole number or a choice
        if isinstance(default, bool):
            value = st.checkbox(label, value=default, key=wkey, help=help_)
        elif isinstance(default, int):
            value = number_field(label, wkey, default, *INT_RANGES.get(key, INT_RANGE), help=help_)
            if value is None:  # the field says what is wrong; the form is refused (`BAD_FIELDS`)
                continue
        else:
            options = CHOICES.get(key, (default,))
            value = st.selectbox(
                label, options, index=options.index(default), key=wkey, help=help_,
                placeholder=t("a11y.choose"),
                format_func={v: _value_text(key, v) for v in options}.__getitem__,  # labels made now
            )  # fmt: skip
        if value != default:
            out[key] = value
    return out


def typed_rules(
    variant: str, text: str, chosen: dict[str, Any], options: dict[str, Any] | None = None
) -> dict:
    """The table's house rules: the form's `chosen` ledger values and scoring `options`
    (``{"options.<name>": value}``, `app.ui.table.option_rules`), then the advanced JSON `text`,
    whose keys win (``cap`` there replaces the form's ``options.cap``). Raises
    :class:`RuleProblem` naming the key (or the place in the JSON)."""
    rules: Any = {}
    if text.strip():
        if len(text) > MAX_RULES:
            raise RuleProblem(t("rule.too_long", n=MAX_RULES))
        try:  # as strict as `jxmj table new --rules`: no duplicate fields, no 5000-digit numbers;
            # 1e400 is read to be refused below by its key ("drawn.window cannot be a number too large")
            rules = jsonin.parse(text, lengths=False, too_large=True)
        except jsonin.InputError as e:
            where = re.search(r"line (\d+) column (\d+)", str(e))
            raise RuleProblem(
                t("rule.bad_json_at", line=where[1], col=where[2]) if where else t("rule.bad_json")
            ) from None
        rules = {} if rules is None else rules
        if not isinstance(rules, dict) or set(rules) - {"ledger", "scoring"}:
            raise RuleProblem(t("rule.bad_shape"))
        for part in ("ledger", "scoring"):
            if not isinstance(rules.get(part, {}), dict):
                raise RuleProblem(t("rule.bad_shape"))
    ledger = {**chosen, **rules.get("ledger", {})}
    defaults = load_ledger_rules(variant).values
    for key, value in ledger.items():
        if key not in defaults:
            raise RuleProblem(t("rule.unknown", key=key, keys=", ".join(defaults)))
        try:
            load_ledger_rules(variant, {key: value})
        except (LedgerError, TypeError):
            want = _want(key, defaults[key])
            raise RuleProblem(t("rule.bad_value", key=key, value=_shown(value), want=want)) from None
    typed: set[str] = set()
    for key, value in rules.get("scoring", {}).items():
        try:
            typed.update(scoring_rules(variant, {key: value}).applied)  # its canonical key
        except (LedgerError, TypeError):  # TypeError: a value no rule can hold (a list)
            raise _scoring_problem(variant, key, value) from None
    scoring = {k: v for k, v in (options or {}).items() if k not in typed}
    scoring.update(rules.get("scoring", {}))
    out = dict(rules)
    if ledger:
        out["ledger"] = ledger
    if scoring:
        out["scoring"] = scoring
    return out


def _scoring_problem(variant: str, key: str, value: Any) -> RuleProblem:
    """Why scoring house rule `key` = `value` is refused, in the page's language: the engine's
    `HandError` by its code, with the key and what may be written there from its ``detail``
    (never its English sentence)."""
    try:
        load_rules(variant).with_overrides({key: value})
    except HandError as e:
        d = e.detail
        if e.code == UNKNOWN_RULE_KEY and "keys" in d:
            return RuleProblem(t("rule.scoring.unknown_rule_key", key=d.get("key", key), keys=d["keys"]))
        if e.code == BAD_RULE_VALUE and has(f"rule.want_{d.get('want')}"):
            want = t(f"rule.want_{d['want']}", lo=0, hi=MAX_VALUE, item=d.get("item", ""))
            named = d.get("key", key)
            return RuleProblem(t("rule.scoring.bad_rule_value", key=named, value=_shown(value), want=want))
    except TypeError:
        pass
    return RuleProblem(t("rule.bad_scoring", key=key))


def _shown(value: Any) -> str:
    """A typed JSON value as the player wrote it (``true``, not Python's ``True``; inside a list
    or an object too: ``[1, null]``, not ``[1, None]``), cut at 24; a number too large to read
    (``1e400``) in the page's words, not Python's ``inf``."""
    if isinstance(value, float) and not math.isfinite(value):
        return t("rule.value_too_large")
    if value is None or isinstance(value, bool | list | tuple | dict):
        return shown(value)[:24]  # JSON's words for its constants (ledger.errors.shown)
    return str(value)[:24]


def _want(key: str, default: Any) -> str:
    if isinstance(default, bool):
        return t("rule.want_bool")
    if isinstance(default, int):
        lo, hi = INT_RANGES.get(key, INT_RANGE)
        return t("rule.want_int", lo=lo, hi=hi)
    return t("list.sep").join(_value_text(key, v) for v in CHOICES.get(key, (default,)))
