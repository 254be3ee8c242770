"""Number fields that never change what the player typed behind their back.

Streamlit's integer `number_input` turns a typed 2.5 into 2, and one with `min_value` /
`max_value` keeps showing an out-of-range entry while the server keeps the previous value —
the total then shows a number the player did not enter. Here every count is a plain float
field without limits (the browser passes on whatever was typed), and the page checks it:

- `accept(value, lo, hi)` is the whole number `value` stands for, or None (not whole, out of
  `lo..hi`, not finite);
- `sync(cond)` takes this run's entries into `cond` up front and gives the keys of the bad ones
  (the hand in progress keeps them, `bad_numbers`); while one is bad the result says so instead
  of showing a total;
- `number_field(...)` draws a field and, under it, the error for a bad entry.
"""

from __future__ import annotations

import math

import streamlit as st

from app.ui.i18n import t
from app.ui.state.conditions import COUNTERS

ss = st.session_state
POINT_VALUE = (1, 9999)
COUNT = (0, 4)


def accept(value: object, lo: int, hi: int) -> int | None:
    """`value` as a whole number in `lo..hi`, or None.

    >>> accept(2.0, 0, 4), accept(2.5, 0, 4), accept(5, 0, 4), accept(float("nan"), 0, 4)
    (2, None, None, None)
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    if value != int(value) or not lo <= value <= hi:
        return None
    return int(value)


def _check(key: str, lo: int, hi: int, bad: set[str]) -> int | None:
    """The accepted entry of widget `key`, None when there is none or it is bad (then in `bad`)."""
    value = ss.get(key)
    if value is None:
        return None
    good = accept(value, lo, hi)
    if good is None:
        bad.add(key)
    return good


def sync(cond) -> set[str]:
    """Take this run's number entries into `cond`; the keys of the bad ones."""
    bad: set[str] = set()
    pv = _check("w_point_value", *POINT_VALUE, bad)
    if pv is not None:
        cond.point_value = pv
    for seat, info in cond.seats.items():
        for name in COUNTERS:
            n = _check(f"w_{seat}_{name}", *COUNT, bad)
            if n is not None:
                info.set_count(name, n)
    return bad


def number_field(label: str, key: str, current: int, lo: int, hi: int, **kwargs) -> None:
    """A number field for a whole number in `lo..hi`, starting at `current`; an error under
    it while its entry is not one (the stored value is then left as it was)."""
    if key not in ss:
        ss[key] = float(current)
    st.number_input(label, key=key, step=1.0, format="%g", **kwargs)
    if accept(ss[key], lo, hi) is None:  # the check `sync` made up front, on the same entry
        st.error(t("num.bad", lo=lo, hi=hi))
