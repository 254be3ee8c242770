"""④ Result: the headline total, decomposition, items, payments, what-ifs, and — for a hand
that is not complete yet — the single-tile fixes."""

from __future__ import annotations

import html

import streamlit as st

from app.ui import services
from app.ui.hand import numbers, session
from app.ui.hand.why_not import why_not
from app.ui.i18n import t
from app.ui.messages import cannot_win_text, code_text
from app.ui.render.html import (
    cannot_win_html,
    decomposition_html,
    items_table,
    mini_html,
    num,
    payments_table,
    total_html,
    wait_label,
    whatif_html,
)
from app.ui.render.tiles import name, row_html
from app.ui.state import ME, OTHER_SEATS
from scoring import ScoreResult
from scoring.rules import load_rules

Outcome = ScoreResult | services.Refusal
APP_REFUSALS = {"empty", "no_winning_tile", "unknown_tiles", "payer_tiles"}


def mini_summary(outcome: Outcome) -> None:
    if isinstance(outcome, ScoreResult):
        st.markdown(mini_html(outcome), unsafe_allow_html=True)


def total_banner(outcome: Outcome) -> None:
    """The headline: what the winner collects (or why the hand cannot be won)."""
    if not isinstance(outcome, ScoreResult):
        return
    html_ = total_html(outcome) if outcome.can_win else cannot_win_html(cannot_win_text(outcome))
    st.markdown(html_, unsafe_allow_html=True)


def result_view(outcome: Outcome, empty_hint: bool = True, names: dict[str, str] | None = None) -> None:
    """The result under the total; `empty_hint=False` says nothing for a hand with no tiles yet
    (the 牌局 page after a hand is recorded: "还没有牌" there reads as "no hands yet")."""
    if isinstance(outcome, services.Refusal):
        if empty_hint or outcome.code != "empty":
            _refusal(outcome)
        return
    r = outcome
    if r.decomposition:
        st.markdown(f"**{t('res.decomposition')}**")
        st.markdown(
            decomposition_html(r.decomposition, session.hip().hand.winning_tile), unsafe_allow_html=True
        )
        waits = t("res.waits", tiles=" ".join(name(w.code) for w in r.waits)) if r.waits else ""
        if r.wait:
            st.caption(" · ".join(x for x in (t("res.wait", wait=wait_label(r)), waits) if x))
    # a hand that may not be won says so once, in the headline (total_banner)
    st.markdown(items_table(r), unsafe_allow_html=True)
    why_not(session.hip().hand, session.hip().cond, r, "score")
    if r.can_win and r.payments:
        st.markdown(f"**{t('res.payments')}**")
        st.markdown(payments_table(r, names), unsafe_allow_html=True)  # names: the 牌局 page's seats


def _refusal(refusal: services.Refusal) -> None:
    if refusal.code == "dealer_not_chosen":
        st.warning(t("res.dealer_first"))
        if refusal.provisional is not None:
            st.markdown(items_table(refusal.provisional), unsafe_allow_html=True)
    elif refusal.code == "empty":
        st.info(t("msg.empty_hand"))
    elif refusal.code in APP_REFUSALS:
        st.warning(t(f"msg.{refusal.code}"))
    elif refusal.code == "engine_failed":
        st.error(t("err.scoring_missing"))
    elif refusal.code == "bad_number":
        st.error(numbers.bad_text(session.hip().bad_numbers))  # names the fields to fix
    elif refusal.code == "not_complete":
        found = _found()
        st.warning(t("res.not_complete" if found else "res.not_complete_fix"))
        _suggestions(found)
    else:
        st.warning(t("res.hand_problem", msg=code_text(refusal.code, refusal.message)))
        _suggestions(_found())


def what_ifs() -> None:
    """Totals for self-drawn vs discard and dealer vs not, computed at once."""
    hip = session.hip()
    h, cond = hip.hand, hip.cond
    if h.winning_tile is None:
        return
    st.markdown(f"**{t('res.whatif')}**")
    other = cond.dealer if cond.dealer not in (None, ME) else OTHER_SEATS[-1]
    dealers = [ME, other] if load_rules(cond.variant).options.dealer_doubles else [cond.dealer]
    columns = [t("res.wi_dealer"), t("res.wi_not_dealer")] if len(dealers) == 2 else [t("res.total")]
    rows = []
    for self_drawn in (True, False):
        cells = []
        for dealer in dealers:
            trial = cond.copy(self_drawn=self_drawn, dealer=dealer)
            out = services.score_hand(h, trial)
            cur = self_drawn == cond.self_drawn and (
                len(dealers) == 1 or (dealer == ME) == (cond.dealer == ME)
            )
            if isinstance(out, ScoreResult):
                text = num(out.total) if out.can_win else t("res.wi_no")
            else:
                text = "–"
            cells.append((text, cur))
        rows.append((t("cond.self_drawn") if self_drawn else t("cond.discard"), cells))
    st.markdown(whatif_html(columns, rows), unsafe_allow_html=True)
    st.caption(t("res.whatif_help"))


def _found() -> list:
    """The smallest single-tile changes that make the hand whole, a photo tile's runner-up reading
    first, then unsure tiles (none for an empty hand)."""
    h = session.hip()
    if not h.hand.concealed:
        return []
    dets = h.photo.result.detections if h.photo is not None and h.photo_src != "typed" else []
    return services.suggest(h.hand, h.cond, seconds={k: d.second for k, d in enumerate(dets)})


def _suggestions(found: list) -> None:
    """When the hand is not complete: the `found` changes, each with one tap to apply it."""
    h = session.hip().hand
    if not h.concealed:
        return
    if not found:
        if h.tile_count != 14:
            st.info(t("msg.count", n=h.tile_count))
        return
    st.markdown(f"**{t('sug.title')}**")
    for k, s in enumerate(found):
        r = s.result
        if not isinstance(r, ScoreResult):
            worth = t("sug.still_no")
        elif not r.can_win:
            worth = t("res.wi_no")
        else:
            worth = t("sug.worth", total=num(r.total))
        if s.remove and s.add:
            pics = row_html([s.remove], size="sm") + " → " + row_html([s.add], size="sm")
            text = t("sug.change", a=name(s.remove), b=name(s.add))
        elif s.add:
            pics, text = "+ " + row_html([s.add], size="sm"), t("sug.add", b=name(s.add))
        else:
            pics, text = "− " + row_html([s.remove], size="sm"), t("sug.remove", a=name(s.remove))
        with st.container(horizontal=True, vertical_alignment="center", key=f"sugrow_{k}", wrap=False):
            st.button(t("sug.apply"), key=f"sug_{k}", on_click=_on_apply, args=(s,), type="primary")
            st.markdown(f"{pics} &nbsp;{html.escape(text)} · {html.escape(worth)}", unsafe_allow_html=True)


def _on_apply(s: services.Suggestion) -> None:
    h = session.hip()
    h.set_hand(s.hand)
    h.sel = None
