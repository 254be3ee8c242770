"""The score page's session state: what the player entered, kept across reruns and pages.

| key | type | what |
|---|---|---|
| `hand` | `EditHand` | the hand being edited |
| `cond` | `Conditions` | how it was won, who pays |
| `sel` | `Selection \\| None` | the tapped tile |
| `picker` | `"add" \\| None` | the add-a-tile picker is open |
| `undo` | `list[EditHand]` | earlier hands, newest last |
| `panel_msg` | `Flash \\| None` | a refused edit, said inside the tile panel |
| `flash` | `list[Flash]` | messages posted for a place on the page, shown once (`app.ui.flash`) |
| `typed_msg` | `Flash \\| None` | a tile string that could not be read, said under its box |
| `photo` | `Photo \\| None` | the photo read last (its boxes are drawn) |
| `photo_src` | `str` | `sample`, `upload`, `camera`, `manual`, `sample_manual`, `typed` |
| `photo_seen` | `set[str]` | uploads already read (a rerun does not read them again) |
| `bad_numbers` | `set[str]` | number widgets whose entry is not a whole number in range (`numbers`) |

Widgets bind to the typed values with `bind()`, so widget keys may come and go.
"""

from __future__ import annotations

import streamlit as st

from app.ui import services
from app.ui.state import Conditions, EditHand
from scoring import ScoreResult
from scoring.rules import load_rules

ss = st.session_state
UNDO_DEPTH = 30


STATE_KEYS = ("hand", "cond", "sel", "picker", "undo", "flash", "panel_msg", "typed_msg", "photo",
              "photo_src", "photo_seen", "timing", "_photo_obj", "_photo_blob", "_photo_dirty")  # fmt: skip
"""The keys of one hand in progress (the score page's, or one table's on the 牌局 page)."""


def use(ns: str) -> None:
    """Make the hand in progress of `ns` (`"score"`, `"table:CODE"`) the current one: the score
    page and each table keep their own, and moving between pages keeps both."""
    current = ss.get("hand_ns")
    if current == ns:
        return
    if current is not None:
        ss[f"ns:{current}"] = {k: ss[k] for k in STATE_KEYS if k in ss}
    for k in [k for k in ss if isinstance(k, str) and (k in STATE_KEYS or k.startswith("w_"))]:
        del ss[k]
    for k, v in ss.pop(f"ns:{ns}", {}).items():
        ss[k] = v
    ss.hand_ns = ns


def started() -> bool:
    return "hand" in ss


def start(hand: EditHand, cond: Conditions) -> None:
    """First run of a session."""
    ss.cond = cond
    ss.hand = hand
    ss.sel = None
    ss.picker = None
    ss.undo = []
    ss.flash = []
    ss.panel_msg = None
    ss.photo = None
    ss.photo_src = "manual"
    ss.photo_seen = set()
    ss.bad_numbers = set()
    ss.timing = None


def set_hand(hand: EditHand, undoable: bool = True) -> None:
    """Make `hand` current; the one before goes on the undo stack."""
    if undoable:
        ss.undo = [*ss.undo[-UNDO_DEPTH:], ss.hand]
    ss.hand = hand
    ss.panel_msg = None
    ss.typed_msg = None


def undo() -> None:
    if ss.undo:
        ss.hand = ss.undo.pop()
    ss.sel = None
    ss.panel_msg = None


def deselect() -> None:
    ss.sel = None
    ss.picker = None
    ss.panel_msg = None


def bind(name: str, widget, *args, **kwargs):
    """Render `widget` bound to `ss.cond.<name>` and write its value back."""
    key = f"w_{name}"
    if key not in ss:
        ss[key] = getattr(ss.cond, name)
    value = widget(*args, key=key, **kwargs)
    if value is not None:
        setattr(ss.cond, name, value)
    return getattr(ss.cond, name)


def bind_seat(seat: str, name: str, widget, *args, **kwargs) -> None:
    """Render `widget` bound to one count (`COUNTERS`) or `ready_declared` of a paying seat."""
    info = ss.cond.seats[seat]
    key = f"w_{seat}_{name}"
    if key not in ss:
        ss[key] = info.ready_declared if name == "ready_declared" else info.count(name)
    value = widget(*args, key=key, **kwargs)
    _store_seat(info, name, value)


def _store_seat(info, name: str, value) -> None:
    if value is None:
        return
    if name == "ready_declared":
        info.ready_declared = bool(value)
    else:
        info.set_count(name, value)


def outcome() -> ScoreResult | services.Refusal:
    """This run's result of the hand on the page (after :func:`sync_from_widgets`): a
    ``bad_number`` refusal while a number entry is bad — never a total, a preview or a recorded
    hand computed from a number the player did not enter — else `services.score_hand`."""
    if ss.get("bad_numbers"):
        return services.Refusal("bad_number")
    return services.score_hand(ss.hand, ss.cond)


def sync_from_widgets() -> None:
    """Copy this run's widget values into `ss.cond` first, so the result is computed once, up front."""
    from app.ui.hand import numbers

    cond: Conditions = ss.cond
    numbers.sync(cond)  # point value and counts: whole numbers in range, else noted as bad
    for name in ("variant", "self_drawn", "discarder"):
        v = ss.get(f"w_{name}")
        if v is not None:
            setattr(cond, name, v)
    if "w_dealer" in ss:
        cond.dealer = ss["w_dealer"]  # None: not chosen
    if "w_events" in ss:
        cond.events = list(ss["w_events"] or [])
    for seat, info in cond.seats.items():
        _store_seat(info, "ready_declared", ss.get(f"w_{seat}_ready_declared"))
    if load_rules(cond.variant).self_draw_only:
        cond.self_drawn = True
