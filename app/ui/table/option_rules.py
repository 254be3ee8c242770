"""House rules when a table opens, the scoring side: each option of the variant's rule table
(``[options]`` of ``scoring/rules/<variant>.toml``, typed as `scoring.rules.options.Options`) as a
widget — a checkbox for a switch, a number for a count, a multiselect for a list of events —
with its default and its DECISIONS section. A changed option becomes the scoring house rule
``options.<name>``; the ledger replays every hand with it (`ledger.rules.scoring_rules`).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.ui.hand.numbers import number_field
from app.ui.i18n import has, t
from scoring.rules import load_rules
from scoring.rules.options import Options

__all__ = ["OPTION_RANGE", "event_choices", "options_form", "scoring_options"]

#: the whole numbers a number option may take in the form (the JSON box: 0 … 1,000,000)
OPTION_RANGE = (0, 1000)


def scoring_options(variant: str) -> list[tuple[str, Any, str]]:
    """``(name, default, DECISIONS section)`` of every option of `variant`, in table order; a
    list option's default as a tuple."""
    rules = load_rules(variant)
    out = []
    for name, default in rules.raw.get("options", {}).items():
        ref = Options.ref(name)
        pattern = rules.patterns.get(name.removesuffix("_is_addon"))
        if not ref and pattern is not None:  # <pattern>_is_addon: the pattern row's section
            ref = pattern.rule.removeprefix("DECISIONS").strip()
        out.append((name, tuple(default) if isinstance(default, list) else default, ref))
    return out


def event_choices(variant: str) -> tuple[str, ...]:
    """What a list of events (``min_win_exceptions``) may hold: the variant's events, 海底 as
    the engine tells it apart (``last_tile_draw`` / ``last_tile_discard``)."""
    out: list[str] = []
    for e in load_rules(variant).events:
        out.extend(("last_tile_draw", "last_tile_discard") if e == "last_tile" else (e,))
    return tuple(out)


def event_label(e: str) -> str:
    """An event's name on the page (the catalog's ``event.<e>``, else ``rule.opt.event.<e>``)."""
    return t(f"event.{e}") if has(f"event.{e}") else t(f"rule.opt.event.{e}")


def _shown(default: Any) -> str:
    if isinstance(default, bool):
        return t("rule.yes") if default else t("rule.no")
    if isinstance(default, tuple):
        return t("list.sep").join(map(event_label, default)) or t("rule.opt.none")
    return str(default)


def options_form(variant: str) -> dict[str, Any]:
    """A widget per scoring option of `variant` (widget keys ``tro_<variant>_<name>``); returns
    the options that differ from the table's defaults as house rules, ``{"options.<name>": value}``
    (a list as a list, in the choices' order)."""
    out: dict[str, Any] = {}
    for name, default, ref in scoring_options(variant):
        label = t("rule.label", name=t(f"rule.opt.{name}"), default=_shown(default))
        help_ = t("rule.ref", ref=ref) if ref else None
        key = f"tro_{variant}_{name}"
        if isinstance(default, bool):
            value: Any = st.checkbox(label, value=default, key=key, help=help_)
        elif isinstance(default, int):
            value = number_field(label, key, default, *OPTION_RANGE, help=help_)
            if value is None:  # the field says what is wrong; the form is refused (`BAD_FIELDS`)
                continue
        else:
            choices = event_choices(variant)
            picked = st.multiselect(
                label, choices, default=[e for e in default if e in choices], key=key, help=help_,
                format_func={e: event_label(e) for e in choices}.__getitem__, placeholder=t("rule.opt.none"),
            )  # fmt: skip
            value = tuple(e for e in choices if e in picked)
            if set(value) == set(default):
                value = default
        if value != default:
            out[f"options.{name}"] = list(value) if isinstance(value, tuple) else value
    return out
