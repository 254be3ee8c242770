"""The score page's 吃炮 panel, in AppTest: it keeps its open state and its chosen payer tab while
payers are entered and across a language switch."""

from __future__ import annotations

from app.ui import i18n


def _lang(at, lang: str) -> None:
    at.segmented_control(key="lang").set_value(lang)
    at.run()
    i18n.set_lang(lang)


def test_the_eaten_panel_stays_open_while_two_payers_are_entered(at):
    """The 吃炮 panel closed on its first entry (the count appeared above it and moved it): it
    now keeps its open state and its payer tab in the session, and the count is said below."""
    first, second = at.session_state.hip.cond.payers[:2]
    at.session_state["payers_open"] = True  # the player opens the panel
    at.run()
    for seat in (first, second):
        at.number_input(key=f"w_{seat}_bonus_tiles").set_value(1)
        at.run()
        [panel] = [e for e in at.expander if e.label.startswith("吃炮")]
        assert panel.proto.expanded, seat
    i18n.set_lang("zh")
    assert i18n.t("cond.payers_some", n=2) in [c.value for c in at.caption]
    _lang(at, "en")  # a language switch keeps it open (new tab labels, the same panel)
    assert not at.exception, [e.value for e in at.exception]
    assert next(e for e in at.expander if e.label == i18n.t("cond.payers")).proto.expanded
    _lang(at, "zh")
    at.session_state["payers_open"] = False  # the player closes it: it stays closed
    at.run()
    assert not next(e for e in at.expander if e.label.startswith("吃炮")).proto.expanded


def _payer_tab(at) -> int:
    """The index of the payer tab the page shows selected."""
    [tabs] = [b for b in at._tree if getattr(b, "type", "") == "tab_container"]
    return tabs.proto.tab_container.default_tab_index


def test_the_chosen_payer_tab_stays_chosen_across_a_language_switch(at):
    """A language switch gives the payers' tabs new labels: the chosen payer stays chosen."""
    at.session_state["payers_open"] = True
    at.run()
    at.session_state["payers_tab"] = i18n.catalog("zh")["seat.across"]  # the player picks 对家
    at.run()
    assert _payer_tab(at) == 1
    _lang(at, "en")
    assert (_payer_tab(at), at.session_state["payers_tab"]) == (1, "Across 对家")
    _lang(at, "zh")
    assert (_payer_tab(at), at.session_state["payers_tab"]) == (1, "对家")


def _count_fields(at) -> list[str]:
    return [n.key for n in at.number_input if n.key and n.key.startswith("w_") and n.key != "w_point_value"]


def test_a_closed_panel_draws_no_field_and_keeps_what_was_entered(at):
    """Issue 37: the closed 吃炮 panel drew its 18 number fields unseen on every rerun; it now
    draws none, and what the player entered stays in the hand (counted while closed, shown again
    when it opens)."""
    first = at.session_state.hip.cond.payers[0]
    assert _count_fields(at) == []  # closed: no field
    at.session_state["payers_open"] = True
    at.run()
    assert len(_count_fields(at)) == 6 * len(at.session_state.hip.cond.payers)  # 發, 4 sets, kongs
    at.number_input(key=f"w_{first}_bonus_tiles").set_value(2)
    at.run()
    at.session_state["payers_open"] = False
    at.run()
    at.run()  # a later rerun, e.g. a tap on a tile
    assert _count_fields(at) == []
    assert at.session_state.hip.cond.seats[first].count("bonus_tiles") == 2  # counted while closed
    i18n.set_lang("zh")
    assert i18n.t("cond.payers_some", n=2) in [c.value for c in at.caption]
    at.session_state["payers_open"] = True
    at.run()
    assert at.number_input(key=f"w_{first}_bonus_tiles").value == 2  # shown again
    assert not at.exception
