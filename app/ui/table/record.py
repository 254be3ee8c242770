"""The hand in progress on a table: who won on whose discard, the hand (photo, fixes, 吃炮 —
the score page's own sections), 跟庄 / kong facts, a preview of the money, and the buttons
记这一手 / Record, 一炮多响 (another winner), 黄庄 / Drawn, 炸糊, undo last.

Seats drive everything the table decides: the dealer, the payers, the point value and 星子's
doubling come from the ledger (`ledger.replay`), never from the player's memory.
"""

from __future__ import annotations

import streamlit as st

from app.safe_text import md
from app.ui import drafting
from app.ui.hand import session
from app.ui.hand.conditions import conditions
from app.ui.hand.editor import hand_editor
from app.ui.hand.photo import detection_view, photo_inputs
from app.ui.hand.protocol import hand_page
from app.ui.hand.result import result_view, total_banner
from app.ui.hand.session import post, show_posted
from app.ui.i18n import t
from app.ui.messages import code_text
from app.ui.state import Conditions, EditHand
from app.ui.state.keys import UNDO_ASKED
from app.ui.state.progress import TableChoices
from app.ui.table import refs as table_refs
from app.ui.table import reopen
from app.ui.table.db import error_text, money_line, remember, shown, store, table_changed, write
from app.ui.table.facts import facts, hand_of
from app.ui.table.others import others_line
from app.ui.table.seats import relative, sync_conditions, winner_entry
from ledger import Hand, LedgerError, add_hand
from scoring import HandError, ScoreResult
from scoring.rules import load_rules

SELF = "self"
HERE = "actions"  # where the record / undo buttons leave their messages
WIDGETS = ("tw_",)
"""The page's widget keys forgotten with a hand (`session.new_hand`): winner, discarder, 跟庄,
kongs, 炸糊 seat, note — each drawn bound to the fresh `TableChoices` — and the edit panel's and
history's, drawn anew from the table."""


def record_section(rec, ledger) -> None:
    table, code = rec.table, rec.table.code
    key = drafting.table_key(code)  # this phone's own hand in progress

    def begin() -> None:  # no draft: an empty hand on this table
        session.start(EditHand(), Conditions(variant=table.variant))

    # the draft's photo and a new one: read with the tiles this table has learned
    with hand_page(
        f"table:{code}",
        key,
        begin,
        reading=lambda: table_refs.reading(code),
        restored=lambda h: _reloaded(rec, h),
    ) as h:
        _draw(rec, ledger, h, key)


def _draw(rec, ledger, h, key: str) -> None:
    table, code = rec.table, rec.table.code
    if h.table is None:  # a new hand, or a draft of the score page's shape
        h.table = TableChoices()
    choices = h.table
    if choices.seen is None:  # a hand begun now: on the table as this run shows it
        choices.seen = rec.revision
    st.subheader(t("table.this_hand", n=len(rec.hands) + 1))
    others_line(code, key, table.seats)  # another phone entering a hand on this table: one line
    _who(table, ledger, choices)
    winner = choices.winner if choices.winner is not None else ledger.next_dealer
    # no winner chosen yet, the dealer's discard chosen: the preview is the dealer's 自摸 (no
    # winner, nothing to record) until a winner is chosen
    discarder = None if choices.discarder == winner else choices.discarder
    sync_conditions(h.cond, table, ledger.next_dealer, winner, discarder, ledger.next_point_value)
    outcome = session.outcome()  # a bad number entry: no preview, nothing to record
    left, right = st.columns([5, 7], gap="large")
    with left:
        show_posted("top")  # a photo that could not be read says so here, above its inputs
        photo_inputs()
        table_refs.learned_line(code)
        detection_view()
    with right:
        hand_editor()
    left, right = st.columns([5, 7], gap="large")
    with left:
        conditions(fixed=True)
        facts(table, choices)
    with right:
        total_banner(outcome)
        names = {relative(s, winner): table.seats[s] for s in range(4)}  # payers by their names
        result_view(outcome, empty_hint=not rec.hands, names=names)  # after a recorded hand: no "还没有牌"
    _actions(rec, ledger, choices, outcome, key)
    if h.hand.is_empty and not choices.begun:  # nothing entered yet: the hand begins on this run's table
        choices.seen = rec.revision


def _reloaded(rec, h) -> None:
    """A draft read back (a reload, a new session): the page shows the table as it is now, so
    the hand begins there — the revision a phone shows is the one its record checks. A hand
    entered before another phone changed the table says so now, with what the table holds,
    instead of a refusal at 记这一手 on a page that showed that table all along."""
    choices = h.table
    if choices is None or choices.seen in (None, rec.revision):
        return
    if not h.hand.is_empty or choices.begun:  # something entered on the table as it was
        post(table_changed(rec.table.code, HERE, "table.changed_reload"))
    choices.seen = rec.revision


def _who(table, ledger, choices: TableChoices) -> None:
    """Winner and discarder, as seats (the dealer is marked)."""
    seats = list(range(4))

    def name(s: int) -> str:
        mark = " · " + t("table.dealer_mark") if s == ledger.next_dealer else ""
        return md(table.seats[s]) + mark  # the options of a segmented control are Markdown

    session.bind_choice("winner", st.segmented_control, t("table.winner"), seats, format_func=name)
    if load_rules(table.variant).self_draw_only:
        choices.discarder = None
        return
    options = [SELF, *(s for s in seats if s != choices.winner)]
    session.bind_choice(
        "discarder", st.segmented_control, t("table.how"), options,
        key="how", shown=lambda d: d if d in options else SELF, fits=lambda v: v in options,
        taken=lambda v: v if isinstance(v, int) else None,  # None or SELF: a self-draw
        format_func=lambda s: t("cond.self_drawn") if s == SELF else name(s), required=True,
    )  # fmt: skip


def _win(table, choices: TableChoices) -> Hand:
    h = session.hip()
    assert choices.winner is not None  # the caller asks for a winner first
    entry = winner_entry(table, h.hand, h.cond, choices.winner)
    return hand_of(table, choices, "win", (*choices.pending, entry))


def _actions(rec, ledger, choices: TableChoices, outcome, key: str) -> None:
    table, code, n = rec.table, rec.table.code, len(rec.hands)
    data: Hand | None = None
    problem = None
    if choices.winner is None:
        problem = t("table.choose_winner")
    elif not (isinstance(outcome, ScoreResult) and outcome.can_win):
        problem = t("table.not_winning")
    else:
        try:
            data = _win(table, choices)
            _, after = add_hand(table, rec.hands, data, before=ledger)  # one hand folded, not the table
            deltas = after.outcomes[-1].deltas
            st.markdown(t("table.preview") + " " + money_line(table.seats, deltas))
        except (LedgerError, HandError) as e:
            data, problem = None, error_text(e) if isinstance(e, LedgerError) else code_text(e.code, str(e))
    if choices.pending:
        names = t("list.sep").join(md(table.seats[w.seat]) for w in choices.pending)
        st.caption(t("table.pending", names=names))
    if problem:
        st.caption(problem)

    def reset() -> None:  # the next hand: a fresh model, only the evening kept (`progress.KEPT`)
        session.new_hand(EditHand(), Conditions(variant=table.variant), TableChoices(), WIDGETS)
        drafting.clear(key)

    def append(new: Hand) -> None:
        # checked against the revision this phone showed when the hand was begun: another
        # phone's write since (the same hand, or any other) is a conflict, never a double
        try:
            hand, after = store().append(code, new, expected=n, revision=choices.seen, before=ledger)
        except LedgerError:
            choices.seen = None  # the next run shows the table as it is now: the hand begins there
            raise
        remember(rec, (*rec.hands, hand), after)
        table_refs.learn(code, n + 1, photo=new.kind == "win")  # the set, from its photo
        reset()

    cols = st.columns(5)
    if cols[0].button(t("table.record"), type="primary", disabled=data is None, key="tb_record"):
        won = data
        assert won is not None  # the button is disabled without it
        write(lambda: append(won), HERE, "table.recorded", code=code, n=n + 1)
    if choices.discarder is not None and cols[1].button(
        t("table.another_winner"), disabled=data is None, key="tb_more"
    ):
        assert data is not None  # the button is disabled without it
        choices.pending = list(data.winners)
        table_refs.hold(code)  # this winner's photo tiles, learned when the hand is recorded
        # the next winner's hand: fresh, the discard's facts (跟庄, kongs, who discarded) kept
        session.new_hand(EditHand(), Conditions(variant=table.variant), None, ("tw_winner",))
        choices.winner = None
        st.rerun()
    if cols[2].button(t("table.drawn"), key="tb_drawn"):
        drawn = hand_of(table, choices, "drawn")
        write(lambda: append(drawn), HERE, "table.recorded", code=code, n=n + 1)
    lr = table.ledger_rules
    if lr["false_win.penalty"] > 0:
        session.bind_choice(
            "declarer", cols[3].selectbox, t("table.false_win_by"), range(4), key="fw",
            format_func=lambda s: table.seats[s], placeholder=t("a11y.choose"),
        )  # fmt: skip
        who = choices.declarer
        if cols[3].button(t("table.false_win"), key="tb_false_win", disabled=who is None):
            false_win = hand_of(table, choices, "false_win")
            write(lambda: append(false_win), HERE, "table.recorded", code=code, n=n + 1)
    busy = not session.hip().hand.is_empty or choices.begun  # a hand being entered: undo replaces it

    def undo() -> None:
        st.session_state.pop(UNDO_ASKED, None)
        write(lambda: _undo(rec), HERE, "table.undone", code=code, changed="table.changed_undo", n=n)

    if n and cols[4].button(t("table.undo"), key="tb_undo"):
        if busy:
            st.session_state[UNDO_ASKED] = n  # asked first: the hand on screen would be replaced
        else:
            undo()
    if n and busy and st.session_state.get(UNDO_ASKED) == n:
        st.warning(t("table.undo_ask", n=n))
        yes, no = st.columns(2)
        if yes.button(t("table.undo_yes"), key="tb_undo_yes"):
            undo()
        if no.button(t("table.undo_no"), key="tb_undo_no"):
            st.session_state.pop(UNDO_ASKED, None)
            st.rerun()
    if busy and st.button(t("table.drop"), key="tb_drop"):
        reset()  # this phone's hand in progress, dropped on purpose
        st.rerun()
    show_posted(HERE)  # beside the buttons that made them


def _undo(rec) -> None:
    """Take the last hand off the table and put what it held back in the editor (tiles, melds,
    winning tile, events, 吃炮 counts, winner and discarder, 跟庄 / kong facts), to correct and
    record again; the draft saved on the next run keeps it. A hand being entered meanwhile
    stays one editor undo away."""
    table, last = rec.table, rec.hands[-1]
    try:
        state = reopen.editor_state(table, last)
    except (HandError, KeyError, TypeError, ValueError):  # a stored hand that no longer reads:
        # undo still, the editor as it is
        state = None
    # the hand this phone showed: another phone's write since is a conflict
    after = store().undo(table.code, expected=len(rec.hands), revision=shown(rec))
    remember(rec, rec.hands[:-1], after)
    table_refs.forget(table.code, len(rec.hands))
    if state is None:
        return
    h = session.hip()
    before = h.hand if h.started else None
    hand, cond, choices = state
    choices.seen = None  # begun again on the table without it
    session.new_hand(hand, cond, choices, WIDGETS)
    if before is not None and not before.is_empty:
        h.undo = [before]  # the hand being entered meanwhile: one editor undo away
