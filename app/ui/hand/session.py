"""The one owner of the hand in progress in the session: a `HandInProgress`
(`app.ui.state.progress`) under one key, ``keys.HIP`` (:func:`hip`); the hands of
the other pages and tables wait under ``"hip_parked"`` (by `HandInProgress.ns`) until
:func:`use` brings them back. Every section reads and edits the hand through :func:`hip` and
its methods; a draft is that object as a whole (`app.ui.drafting`).

Widget keys Streamlit itself needs stay widget keys; their values flow into the object here, in
:func:`sync_from_widgets` (up front, every run) and :func:`bind` / :func:`bind_seat` (as each is
drawn), or in the widget's own callback:

| keys | widget | flows into |
|---|---|---|
| `w_variant`, `w_self_drawn`, `w_discarder`, `w_dealer`, `w_events` | ③ the conditions | `cond` |
| `w_point_value`, `w_{seat}_{count}` | number fields (`numbers`) | `cond`, or `bad_numbers` |
| `w_{seat}_ready_declared` | checkbox (报听) | `cond.seats[seat]` |
| `meldkind_*`, `bonus_*` | ② a meld's kind, the 發 set aside | `hand` (callbacks), or `bad_numbers` (發) |
| `typed` | ② the tile string | `hand` (its button's callback) |
| `uploader`, `camera`, `camera_on` | ① a photo | `photo`, `hand` (`photo.take_new_photos`) |
| `payers_open`, `payers_was_open`, `payers_tab` | ③ the 吃炮 panel, open or not | — (how it is shown) |
| `tw_*` | the 牌局 page's winner, discarder, 跟庄, kongs, 炸糊 seat, note | `table` (:func:`bind_choice`) |

Every session key is declared in `app.ui.state.keys`. `pending_photo` is the tests' way in
(AppTest cannot upload): bytes read as an upload. The `w_*` keys are dropped when another hand
becomes current, so every widget reads its own hand again.

A widget's value lives in the browser as long as its key is drawn: dropping the key on the
server alone leaves the browser sending the old value with the next tap (a 跟庄 tick outlived its
hand that way). So every widget of a hand is drawn bound — its key set from the model when
missing, which the browser takes as the widget's new value — and :func:`new_hand` begins the
next hand as a fresh model with the hand's widget keys (`HAND_WIDGETS`, and the page's own)
dropped.
"""

from __future__ import annotations

import streamlit as st

from app.ui import services
from app.ui.flash import Flash, check_level, show
from app.ui.state import Conditions, EditHand, keys
from app.ui.state.photo_tiles import for_variant, in_hand
from app.ui.state.progress import HandInProgress
from scoring import ScoreResult
from scoring.rules import load_rules

ss = st.session_state
KEY = keys.HIP
PARKED = keys.HIP_PARKED
HAND_WIDGETS = (keys.WIDGET, keys.TYPED)
"""The keys (prefixes) of the editor's widgets that hold a value of one hand: forgotten by
:func:`new_hand` (the 發 field's and a meld kind's keys name their value: never stale)."""

__all__ = [
    "KEY",
    "bind",
    "bind_choice",
    "bind_seat",
    "deselect",
    "hip",
    "new_hand",
    "outcome",
    "post",
    "set_hand",
    "show_posted",
    "start",
    "started",
    "undo",
    "use",
]


def hip() -> HandInProgress:
    """The hand in progress of the page shown (an empty one, not started, before any page used one)."""
    got = ss.get(KEY)
    if got is None:
        got = ss[KEY] = HandInProgress()
    return got


def post(f: Flash) -> None:
    """Leave `f` for :func:`show_posted` at ``f.where`` (this run's, or the next's after a rerun)."""
    hip().post(check_level(f))


def show_posted(where: str | None = None) -> None:
    """Draw (and forget) the messages posted for `where`; every one left when `where` is None."""
    for f in hip().take(where):
        show(f)


def use(ns: str) -> None:
    """Make the hand in progress of `ns` (`"score"`, `"table:CODE"`) the current one: the score
    page and each table keep their own, and moving between pages keeps both."""
    current = ss.get(KEY)
    if current is not None and current.ns == ns:
        return
    parked: dict[str, HandInProgress] = ss.setdefault(PARKED, {})
    if current is not None and current.ns is not None:
        parked[current.ns] = current
    for k in [k for k in ss if isinstance(k, str) and k.startswith(keys.WIDGET)]:
        del ss[k]
    ss[KEY] = parked.pop(ns, None) or HandInProgress(ns=ns)


def started() -> bool:
    return hip().started


def start(hand: EditHand, cond: Conditions) -> None:
    """Begin the hand in progress (`HandInProgress.start`)."""
    hip().start(hand, cond)


def new_hand(hand: EditHand, cond: Conditions, table=None, widgets: tuple[str, ...] = ()) -> None:
    """Begin the next hand (`HandInProgress.start`: a fresh model, only its `KEPT` fields carried;
    `table`: the 牌局 page's fresh choices, None: kept) and forget the widgets that showed the
    last one — `HAND_WIDGETS` and the page's `widgets` (key prefixes) — so that each is drawn
    from the fresh model on the next run, in the browser too."""
    hip().start(hand, cond, table)
    forget_widgets((*HAND_WIDGETS, *widgets))


def forget_widgets(prefixes: tuple[str, ...]) -> None:
    """Drop the widget keys that start with one of `prefixes`: each widget is drawn from the
    model again on the next run (bound widgets set their key when it is missing)."""
    for k in [k for k in ss if isinstance(k, str) and k.startswith(prefixes)]:
        del ss[k]


def set_hand(hand: EditHand, undoable: bool = True) -> None:
    """Make `hand` current; the one before goes on the undo stack."""
    hip().set_hand(hand, undoable)


def undo() -> None:
    hip().undo_edit()


def deselect() -> None:
    hip().deselect()


def bind(name: str, widget, *args, **kwargs):
    """Render `widget` bound to `hip().cond.<name>` and write its value back."""
    cond = hip().cond
    key = keys.widget(name)
    if key not in ss:
        ss[key] = getattr(cond, name)
    value = widget(*args, key=key, **kwargs)
    if value is not None:
        setattr(cond, name, value)
    return getattr(cond, name)


def bind_choice(
    name: str, widget, *args, key: str | None = None, shown=None, fits=None, taken=None, **kwargs
):
    """Render `widget` bound to ``hip().table.<name>`` (the 牌局 page's `TableChoices`) and
    write its value back, None included (no winner chosen). Its key, ``keys.table_widget(name)``,
    is set from the model when missing: a fresh hand's widget shows, and the browser sends back,
    the fresh choices, never the last hand's (`new_hand` forgets the keys).

    `key`: the widget's name when it is not the field's (``how`` for ``discarder``); `shown`: the
    widget's value of the model's (default: the same); `fits`: False for a widget value no longer
    offered (set again from the model); `taken`: the model's value of the widget's."""
    choices = hip().table
    if choices is None:
        raise ValueError("bind_choice: no TableChoices on this page's hand")
    wkey = keys.table_widget(key or name)
    if wkey not in ss or (fits is not None and not fits(ss[wkey])):
        v = getattr(choices, name)
        ss[wkey] = v if shown is None else shown(v)
    value = widget(*args, key=wkey, **kwargs)
    setattr(choices, name, value if taken is None else taken(value))
    return getattr(choices, name)


def bind_seat(seat: str, name: str, widget, *args, **kwargs) -> None:
    """Render `widget` bound to one count (`COUNTERS`) or `ready_declared` of a paying seat."""
    info = hip().cond.seats[seat]
    key = keys.widget(f"{seat}_{name}")
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
    h = hip()
    if h.bad_numbers:
        return services.Refusal("bad_number")
    return services.score_hand(h.hand, h.cond)


def sync_from_widgets() -> None:
    """Copy this run's widget values into `hip().cond` first, so the result is computed once, up front."""
    from app.ui.hand import numbers

    h = hip()
    cond: Conditions = h.cond
    was = cond.variant
    for name in ("variant", "self_drawn", "discarder"):
        v = ss.get(keys.widget(name))
        if v is not None:
            setattr(cond, name, v)
    if cond.variant != was:
        _variant_changed(h)
    bonus = f"bonus_{h.hand.bonus_tiles}" if load_rules(cond.variant).bonus_tile is not None else None
    h.bad_numbers = numbers.sync(cond, bonus)  # point value, counts, 發: whole numbers in range, else bad
    if (dealer := keys.widget("dealer")) in ss:
        cond.dealer = ss[dealer]  # None: not chosen
    if (events := keys.widget("events")) in ss:
        cond.events = list(ss[events] or [])
    for seat, info in cond.seats.items():
        _store_seat(info, "ready_declared", ss.get(keys.widget(f"{seat}_ready_declared")))
    if load_rules(cond.variant).self_draw_only:
        cond.self_drawn = True


def _variant_changed(h: HandInProgress) -> None:
    """What the new variant sets aside, derived again from the photo's reading
    (`state.photo_tiles.for_variant`: 發 set aside in 九江 / 星子 stand in the hand in 新余)."""
    photo = h.photo if h.photo_src != "typed" and (in_hand(h.hand) or h.hand.is_empty) else None
    dets, groups = (photo.result.detections, photo.result.groups) if photo is not None else ((), ())
    hand = for_variant(h.hand, dets, groups, h.cond.variant)
    if hand != h.hand:
        h.set_hand(hand)
