"""③ How it was won: variant, 自摸 or 放炮 (and who discarded), dealer, events, point value,
and each payer's sets for 吃炮. Every widget stores a code; labels are drawn from the catalog."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from app.ui.hand import session
from app.ui.hand.numbers import COUNT, POINT_VALUE, number_field
from app.ui.hand.session import bind, bind_seat
from app.ui.i18n import label_id, labels, t
from app.ui.state import ME, OTHER_SEATS, keys
from app.ui.state.conditions import COUNTERS
from scoring.model import VARIANTS
from scoring.rules import load_rules

ss = st.session_state


def _choice(name: str, text: str, options, key, required: bool = True):
    """One row of buttons bound to the hand's `cond.<name>`; `key(option)` is the catalog key of its label."""
    return bind(
        name,
        st.segmented_control,
        text,
        options,
        format_func=labels(options, key),
        required=required,
        width="stretch",
    )


def conditions(fixed: bool = False) -> None:
    """The conditions; `fixed`: a table decides variant, 自摸 / discarder, dealer and point value
    (the 牌局 page, from its seats), so only the events and the payers' 吃炮 are asked."""
    cond = session.hip().cond
    if not fixed:
        _how()
    rules = load_rules(cond.variant)
    options = cond.events_offered()
    cond.events = [e for e in cond.events if e in options]
    ss[keys.widget("events")] = list(cond.events)
    picked = st.pills(
        t("cond.events"),
        options,
        selection_mode="multi",
        format_func=labels(options, lambda e: f"event.{e}"),
        key="w_events",
        wrap=True,
    )
    cond.events = list(picked or [])
    if not fixed:
        fan = rules.family == "fan"
        pv_label = t("cond.point_value_xinyu") if fan else t("cond.point_value")
        number_field(pv_label, "w_point_value", cond.point_value, *POINT_VALUE, width=180)
    if rules.bonus_tile is not None:
        _payer_inputs(rules.payer_ready_declared)


def _how() -> None:
    """Variant, 自摸 or 放炮 and who discarded, and the dealer."""
    cond = session.hip().cond
    _choice("variant", t("cond.variant"), VARIANTS, lambda v: f"variant.{v}")
    rules = load_rules(cond.variant)
    if rules.self_draw_only:
        cond.self_drawn = True
        st.caption(t("cond.self_drawn_only"))
    else:
        _choice(
            "self_drawn",
            t("cond.how"),
            [True, False],
            lambda v: "cond.self_drawn" if v else "cond.discard",
        )
    if not cond.self_drawn:
        _choice("discarder", t("cond.discarder"), OTHER_SEATS, lambda s: f"seat.{s}")
    _dealer(rules.options.dealer_doubles)


def _dealer(doubles: bool) -> None:
    """Who is the dealer (庄家). Not chosen until the player says so: where the dealer's
    payments double (星子), the page asks, and nothing is doubled meanwhile. Where the dealer
    changes nothing in a hand's score (九江, 新余: `dealer_doubles` off), no selector: one line
    says why, and no dealer is set."""
    cond = session.hip().cond
    if not doubles:
        st.caption(t("cond.dealer_same", variant=t(f"variant.{cond.variant}")))
        cond.dealer = None
        return
    value = _choice("dealer", t("cond.dealer"), [ME, *OTHER_SEATS], lambda s: f"seat.{s}", required=False)
    if value is None:
        st.warning(t("cond.dealer_needed"))
    cond.dealer = value


PANEL_OPEN = keys.PANEL_OPEN
"""Whether the player left the 吃炮 panel open (kept apart from the widget, whose identity
changes with its title, i.e. with the language)."""


PAYER_TAB = keys.PAYER_TAB
"""The seat whose tab the player chose in the 吃炮 panel (kept apart from the tabs, whose
labels, and so their identity, change with the language)."""


TAB_DEFAULT = keys.TAB_DEFAULT
"""`(labels, seat)`: the tabs' default as given since their labels last changed."""


def _chosen_payer(seats: Sequence[str]) -> str:
    """The seat of the tab the player chose last (its label in either language), else the first."""
    chosen = label_id(ss.get(keys.PAYERS_TAB), {s: f"seat.{s}" for s in seats})
    if chosen is not None:
        ss[PAYER_TAB] = chosen
    return ss[PAYER_TAB] if ss.get(PAYER_TAB) in seats else seats[0]


def _tab_default(labels_now: list[str], seats: Sequence[str]) -> str:
    """The tabs' `default`: the chosen seat's label, fixed while the labels stay the same. The
    default is part of the tabs' identity: were it to follow every tap, each tap would make new
    tabs, and an entry typed while they are drawn again would be lost."""
    kept = ss.get(TAB_DEFAULT)
    if not kept or kept[0] != labels_now:
        kept = ss[TAB_DEFAULT] = (labels_now, t(f"seat.{_chosen_payer(seats)}"))
    else:
        _chosen_payer(seats)
    return kept[1]


def _payer_inputs(ready_declared: bool) -> None:
    """Each payer's 發 / 中白 / kongs (吃炮) in a panel that stays open until the player closes
    it: its open state (`PANEL_OPEN`, across a language switch too) and the chosen payer's tab
    are kept in the session, and the count of entries is said below it, never above (an
    element drawn above would move the panel and close it).

    A closed panel draws no field (issue 37: its 18 number fields cost a photo's rerun ~0.03 s
    on a busy server, drawn unseen): the counts live in the hand's `cond.seats`, and opening the
    panel (a rerun) draws each field from them again, so nothing entered is lost."""
    cond = session.hip().cond
    seats = cond.payers
    if ss.get(keys.PAYERS_OPEN) is not None:  # the panel as the player left it last run
        ss[PANEL_OPEN] = bool(ss[keys.PAYERS_OPEN])
    is_open = bool(ss.get(PANEL_OPEN, False))
    title = t("cond.payers") if ready_declared else t("cond.payers_no_ready")  # 星子: no 报听
    with st.expander(title, expanded=is_open, key="payers_open", on_change="rerun"):
        st.caption(t("cond.payers_help"))
        if is_open:
            _payer_fields(seats, ready_declared)
    entered = sum(cond.seats[s].entries for s in seats)
    if entered:
        st.caption(t("cond.payers_some", n=entered))


def _payer_fields(seats: Sequence[str], ready_declared: bool) -> None:
    """The open panel's tabs, one per payer, each with its counts and 报听."""
    cond = session.hip().cond
    names = [t(f"seat.{s}") for s in seats]
    tabs = st.tabs(names, default=_tab_default(names, seats), key="payers_tab", on_change="rerun")
    for tab, s in zip(tabs, seats, strict=True):
        with tab:
            cols = st.columns(2)
            for n, f in enumerate(COUNTERS):
                with cols[n % 2]:
                    label, who = t(f"payer.{f}"), t(f"seat.{s}")
                    number_field(label, f"w_{s}_{f}", cond.seats[s].count(f), *COUNT, name=f"{who} {label}")
            if ready_declared:
                bind_seat(s, "ready_declared", st.checkbox, t("payer.ready_declared"))
