"""Number fields that never change what the player typed behind their back.

Streamlit's integer `number_input` turns a typed 2.5 into 2, and one with `min_value` /
`max_value` keeps showing an out-of-range entry while the server keeps the previous value —
the total then shows a number the player did not enter. Here every count is a plain float
field without limits (the browser passes on whatever was typed), and the page checks it:

- `accept(value, lo, hi)` is the whole number `value` stands for, or None (not whole, out of
  `lo..hi`, not finite); `whole=False` takes any finite number in range;
- `sync(cond, bonus_key)` takes this run's entries into `cond` up front and gives the keys of the
  bad ones, the hand's 發 field's among them (the hand in progress keeps them, `bad_numbers`);
  while one is bad the result says so instead of showing a total;
- `number_field(...)` draws a field and, under it, the error for a bad entry, naming the field
  and its range in the page's language (never Streamlit's own English range message: no
  `min_value` / `max_value` reach Streamlit). Streamlit hands over an entry that is no finite
  number (1e309 is infinite to the browser) as the field's default, here None, as it does an
  emptied field: such a field is set back to the last good value and the error under it says
  so — what the field shows is what the page counts.
"""

from __future__ import annotations

import math
from typing import Literal, overload

import streamlit as st

from app.ui.i18n import t
from app.ui.state import keys
from app.ui.state.conditions import COUNTERS

ss = st.session_state
POINT_VALUE = (1, 9999)
COUNT = (0, 4)


BAD_FIELDS = keys.BAD_FIELDS
"""Session key: where a page sets a list before drawing a form, `number_field` adds the label
of each field drawn with a refused entry (the page then refuses the form, naming them)."""
NAMES = keys.NAMES
"""Session key: {widget key: the field's name in messages} of every field drawn (`bad_text`)."""
RESET = keys.RESET
"""Session key: the widget keys whose entry was empty or no finite number, set back this run."""


@overload
def accept(value: object, lo: float, hi: float, whole: Literal[True] = ...) -> int | None: ...
@overload
def accept(value: object, lo: float, hi: float, whole: Literal[False]) -> float | None: ...
@overload
def accept(value: object, lo: float, hi: float, whole: bool) -> int | float | None: ...
def accept(value: object, lo: float, hi: float, whole: bool = True) -> int | float | None:
    """`value` as a whole number in `lo..hi` (any finite number there when not `whole`), or None.

    >>> accept(2.0, 0, 4), accept(2.5, 0, 4), accept(5, 0, 4), accept(float("nan"), 0, 4)
    (2, None, None, None)
    >>> accept(2.5, 0.01, 10000, whole=False), accept(-5.0, 0.01, 10000, whole=False)
    (2.5, None)
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    if not lo <= value <= hi:
        return None
    if not whole:
        return float(value)
    return int(value) if value == int(value) else None


def _unset(key: str, current: float) -> None:
    """Set widget `key` back to `current` when its entry is empty or no finite number (before
    the widget is drawn this run), noting it in `RESET` for the error under the field."""
    value = ss[key]
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        ss[key] = float(current)
        ss.setdefault(RESET, set()).add(key)


def _check(key: str, lo: int, hi: int, bad: set[str]) -> int | None:
    """The accepted entry of widget `key`, None when there is none or it is bad (then in `bad`)."""
    value = ss.get(key)
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return None  # none yet, or none to count: the field sets it back (`number_field`)
    good = accept(value, lo, hi)
    if good is None:
        bad.add(key)
    return good


def sync(cond, bonus_key: str | None = None) -> set[str]:
    """Take this run's number entries into `cond`; the keys of the bad ones. `bonus_key`: the
    hand's 發 field (`app.ui.hand.editor`, where the variant has a bonus tile), checked like the
    counts — its good entry reaches the hand through the field's own callback."""
    bad: set[str] = set()
    if bonus_key is not None:
        _check(bonus_key, *COUNT, bad)
    pv = _check("w_point_value", *POINT_VALUE, bad)
    if pv is not None:
        cond.point_value = pv
    for seat, info in cond.seats.items():
        for name in COUNTERS:
            n = _check(f"w_{seat}_{name}", *COUNT, bad)
            if n is not None:
                info.set_count(name, n)
    return bad


def number_field(
    label: str,
    key: str,
    current: float,
    lo: float,
    hi: float,
    *,
    whole: bool = True,
    name: str | None = None,
    **kwargs,
) -> int | float | None:
    """A number field for a whole number in `lo..hi` (any number there when not `whole`),
    starting at `current`; `kwargs` go to `st.number_input` (never `min_value`/`max_value`).

    Returns the accepted entry, or None while it is not one: then an error under the field
    names it (`label`) and its range, and the stored value is left as it was. An entry that is
    empty or no finite number is set back to `current` and the error says so. `name`: the
    field in messages away from it (`bad_text`; default `label`)."""
    ss.setdefault(NAMES, {})[key] = name or label
    if key not in ss:
        ss[key] = float(current)
    _unset(key, current)
    kwargs.setdefault("step", 1.0 if whole else 0.5)
    st.number_input(label, value=None, key=key, format="%g", **kwargs)  # no number: None
    good = accept(ss[key], lo, hi, whole)  # the check `sync` made up front, on the same entry
    reset = key in ss.get(RESET, ())
    if reset:
        ss[RESET].discard(key)
        st.error(t("num.reset", field=label, lo=_g(lo), hi=_g(hi), value=_g(current)))
    elif good is None:
        st.error(t("num.bad_field" if whole else "num.bad_field_decimal", field=label, lo=_g(lo), hi=_g(hi)))
    if (reset or good is None) and isinstance(ss.get(BAD_FIELDS), list):
        ss[BAD_FIELDS].append(label)  # a form with it is refused: nothing typed is changed unseen
    return None if reset else good


def bad_text(keys) -> str:
    """The sentence for the result panel while the entries of widget `keys` (`sync`'s) are
    bad, naming each field in the page's language as it was last drawn (`NAMES`), in the
    order drawn. Raises nothing: a key never drawn is named by itself."""
    names = ss.get(NAMES, {})
    shown = [names[k] for k in names if k in keys] + [k for k in sorted(keys) if k not in names]
    return t("msg.bad_number_in", fields=t("list.sep").join(shown))


def _g(x: float) -> str:
    """`x` as the field shows it: 1, 0.01, 10000."""
    return f"{x:g}"
