"""The hand in progress as one object (`app.ui.state.progress.HandInProgress`): its edits, where
its photo's bytes go, and its draft — which reads drafts written before it existed."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from app.drafts import open_drafts
from app.ui.flash import Flash
from app.ui.state import Conditions, EditHand, Selection
from app.ui.state.draft import from_json, to_json
from app.ui.state.progress import UNDO_DEPTH, HandInProgress, TableChoices
from ledger import Table
from ledger.store import open_store
from scoring import parse_tiles
from tests.app.conftest import APP


def hand(text: str) -> EditHand:
    """`hand("123m55p")`: one code per tile, the last one the winning tile."""
    return EditHand.typed([t.code for t in parse_tiles(text)])


def codes(h: EditHand) -> str:
    return "".join(t.code for t in h.concealed)


def _seats(**across) -> dict:
    """The three payers as a draft writes them; `across` fills 对家's entries."""
    empty = {
        "dragon_pungs": 0,
        "dragon_kongs": 0,
        "dragon_concealed_kongs": 0,
        "kongs": 0,
        "concealed_kongs": 0,
    }

    def seat(bonus=0, ready=False, **sets):
        return {"bonus_tiles": bonus, "sets": {**empty, **sets}, "ready_declared": ready}

    return {"right": seat(), "across": seat(**across), "left": seat()}


def _tile(code: str, conf=None, detection=None, uncertain=False) -> dict:
    return {"code": code, "conf": conf, "detection": detection, "uncertain": uncertain}


# Drafts as the app wrote them before the hand in progress was one object (commit c623a04):
# the single-hand page's (read from a photo, a meld laid apart, 星子 on a discard with 吃炮) ...
OLD_SCORE_DRAFT = {
    "v": 1,
    "hand": {
        "concealed": [_tile("2p", 0.41, 3, True), _tile("3p"), _tile("4p"), _tile("5s"), _tile("5s")],
        "melds": [{"kind": "pung", "tiles": [_tile("7m")] * 3}],
        "winning_index": 2,
        "bonus_tiles": 1,
    },
    "cond": {
        "variant": "xingzi",
        "self_drawn": False,
        "events": ["kong_bloom"],
        "dealer": "left",
        "discarder": "across",
        "point_value": 3,
        "seats": _seats(bonus=2, kongs=1),
    },
    "photo_src": "upload",
}
# ... and a table's (winner, discarder, 跟庄, a kong of seat 3, the revision it was begun on).
OLD_TABLE_DRAFT = {
    "v": 1,
    "hand": {"concealed": [_tile("1m"), _tile("1m")], "melds": [], "winning_index": 1, "bonus_tiles": 0},
    "cond": {
        "variant": "jiujiang",
        "self_drawn": True,
        "events": [],
        "dealer": None,
        "discarder": "left",
        "point_value": 1,
        "seats": _seats(),
    },
    "table": {
        "winner": 2,
        "discarder": 1,
        "followed": True,
        "dragon": False,
        "second": False,
        "kongs": {"3": [1, 0]},
        "pending": [],
        "seen": 4,
    },
    "photo_src": "manual",
}


def test_an_old_single_hand_draft_reads_back_whole():
    back = from_json(OLD_SCORE_DRAFT)
    assert codes(back.hand) == "2p3p4p5s5s" and back.hand.winning_tile == "4p"
    assert [(m.kind, m.codes) for m in back.hand.melds] == [("pung", ["7m", "7m", "7m"])]
    assert back.hand.bonus_tiles == 1 and back.hand.concealed[0].needs_check
    c = back.cond
    assert (c.variant, c.self_drawn, c.events, c.dealer, c.discarder, c.point_value) == (
        "xingzi", False, ["kong_bloom"], "left", "across", 3,
    )  # fmt: skip
    assert (c.seats["across"].bonus_tiles, c.seats["across"].sets["kongs"], c.seats["right"].entries) == (
        2,
        1,
        0,
    )
    assert back.table is None and back.photo_src == "upload" and not back.started


def test_an_old_table_draft_reads_back_whole():
    back = from_json(OLD_TABLE_DRAFT)
    assert codes(back.hand) == "1m1m"
    assert back.table == TableChoices(winner=2, discarder=1, followed=True, kongs={3: (1, 0)}, seen=4)


@pytest.mark.parametrize("old", [OLD_SCORE_DRAFT, OLD_TABLE_DRAFT], ids=["score", "table"])
def test_an_old_draft_is_written_again_byte_for_byte(old):
    """The shape did not change: the draft of what was read is the row as it was."""
    assert json.dumps(to_json(from_json(old)), ensure_ascii=False) == json.dumps(old, ensure_ascii=False)


@pytest.mark.parametrize(
    "data",
    [None, [], {"v": 2, **{k: v for k, v in OLD_SCORE_DRAFT.items() if k != "v"}}, {"v": 1, "hand": {}},
     {**OLD_SCORE_DRAFT, "cond": {**OLD_SCORE_DRAFT["cond"], "mood": "good"}}],
    ids=["null", "list", "newer version", "no tiles", "unknown condition"],
)  # fmt: skip
def test_a_draft_that_does_not_read_back_is_none(data):
    assert from_json(data) is None


def test_a_photo_source_nobody_writes_reads_as_manual():
    assert from_json({**OLD_SCORE_DRAFT, "photo_src": "<b>"}).photo_src == "manual"


def test_an_old_draft_restores_on_the_single_hand_page():
    store = open_drafts()
    token = store.issue()
    store.save(f"token:{token}", {**OLD_SCORE_DRAFT, "photo_src": "manual"})
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.session_state["test_cookie"] = token
    at.run()
    assert not at.exception
    hip = at.session_state.hip
    assert hip.started and hip.ns == "score" and codes(hip.hand) == "2p3p4p5s5s"
    assert (hip.cond.variant, hip.cond.point_value, hip.cond.seats["across"].bonus_tiles) == ("xingzi", 3, 2)
    assert at.segmented_control(key="w_variant").value == "xingzi"  # the widgets show it too


def test_an_old_table_draft_restores_on_its_table():
    code = open_store().create_table(Table("jiujiang", ("张三", "李四", "王五", "赵六"))).table.code
    store = open_drafts()
    token = store.issue()
    store.save(f"table:{code}:{token}", {**OLD_TABLE_DRAFT, "table": {**OLD_TABLE_DRAFT["table"], "seen": 0}})
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["table"] = code
    at.session_state["test_cookie"] = token  # the phone's token, kept by its browser
    at.run()
    assert not at.exception
    hip = at.session_state.hip
    assert hip.ns == f"table:{code}" and codes(hip.hand) == "1m1m"
    assert (hip.table.winner, hip.table.discarder, hip.table.followed, hip.table.kongs) == (
        2,
        1,
        True,
        {3: (1, 0)},  # typed, as the ledger's Hand.kongs; the draft keeps its JSON shape
    )
    assert at.session_state.tw_winner == 2


def test_a_draft_holds_what_the_page_needs_again_not_the_moment():
    hip = HandInProgress(hand=hand("123m"), cond=Conditions(variant="xinyu"), photo_src="typed")
    hip.select(Selection(0))
    hip.set_hand(hip.hand.plus("4m"))
    hip.flash.append(Flash("info", "msg.no_tiles"))
    back = from_json(to_json(hip))
    assert (codes(back.hand), back.cond.variant, back.photo_src) == ("1m2m3m4m", "xinyu", "typed")
    assert (back.sel, back.undo, back.flash, back.table) == (None, [], [], None)


def test_undo_steps_back_and_keeps_at_most_its_depth():
    hip = HandInProgress()
    hip.start(hand("1m"), Conditions())
    for code in ["2m", "3m", "4m"] * 12:
        hip.set_hand(hip.hand.plus(code))
    assert len(hip.undo) == UNDO_DEPTH + 1
    hip.sel = Selection(0)
    hip.undo_edit()
    assert len(hip.hand.concealed) == 36 and hip.sel is None
    hip.undo = []
    hip.undo_edit()  # nothing to undo: the hand stays
    assert len(hip.hand.concealed) == 36


@pytest.mark.parametrize(
    ("before", "tap", "after"),
    [
        (None, Selection(1), Selection(1)),
        (Selection(1), Selection(1), None),
        (Selection(0), Selection(2), Selection(2)),
    ],
)
def test_a_tap_selects_or_lets_go(before, tap, after):
    hip = HandInProgress(hand=hand("123m"), sel=before, picker="add", panel_msg=Flash("warning", "msg.x"))
    hip.select(tap)
    assert (hip.sel, hip.picker, hip.panel_msg) == (after, None, None)


def test_an_edit_clears_the_messages_about_the_hand_before_it():
    hip = HandInProgress(panel_msg=Flash("warning", "a"), typed_msg=Flash("error", "b"))
    hip.set_hand(hand("55p"), undoable=False)
    assert (hip.panel_msg, hip.typed_msg, hip.undo) == (None, None, [])


@pytest.mark.parametrize(
    ("source", "kept"),
    [("upload", b"jpeg"), ("camera", b"jpeg"), ("sample", None), ("manual", None), ("sample_manual", None)],
)
def test_a_draft_keeps_the_bytes_of_a_photo_taken_here(source, kept):
    photo = object()
    hip = HandInProgress()
    hip.show_photo(photo, source, b"jpeg")
    assert (hip.photo, hip.photo_src, hip.photo_bytes, hip.photo_unsaved) == (photo, source, kept, True)


def test_a_new_photo_is_unsaved_until_the_draft_is_written():
    hip = HandInProgress()
    hip.start(hand("55p"), Conditions())
    draft = to_json(hip)
    hip.mark_saved("token:X", draft)
    assert hip.is_saved("token:X", draft) and not hip.is_saved("token:Y", draft)
    hip.show_photo(object(), "upload", b"jpeg")
    assert not hip.is_saved("token:X", draft)  # the same JSON, a new photo: written again
    hip.mark_saved("token:X", draft)  # the store holds the photo's bytes now: the session lets go
    assert (hip.photo_bytes, hip.photo_stored) == (None, True)
    hip.typed_over()  # typed over: the photo stays, drawn grey, its bytes in the store
    assert (hip.photo_src, hip.photo_bytes, hip.photo_stored, hip.photo_unsaved) == (
        "typed",
        None,
        True,
        False,
    )
    hip.show_photo(object(), "camera", b"jpeg2")  # a new photo: its bytes held until written
    assert (hip.photo_bytes, hip.photo_stored, hip.photo_unsaved) == (b"jpeg2", False, True)
    hip.forget_saved("token:X")
    assert not hip.is_saved("token:X", draft)


def test_starting_again_keeps_the_table_choices_unless_given_and_what_the_store_holds():
    hip = HandInProgress(ns="table:K7QM9ACXTRE", table=TableChoices(winner=1), typed_msg=Flash("error", "b"))
    hip.start(hand("123m"), Conditions())
    hip.show_photo(object(), "camera", b"jpeg")
    hip.mark_saved("table:K7QM9ACXTRE:T", {"v": 1})
    hip.photo_seen.add("file-1")
    hip.start(EditHand(), Conditions(variant="xinyu"))  # 一炮多响: the next winner, same choices
    assert hip.table.winner == 1 and hip.typed_msg is None  # the tile string box is emptied too
    assert (hip.photo, hip.photo_bytes, hip.photo_unsaved) == (None, None, True)  # the draft drops it next
    hip.start(EditHand(), Conditions(), TableChoices())
    assert hip.table == TableChoices() and hip.ns == "table:K7QM9ACXTRE" and hip.started
    assert hip.photo_seen == {"file-1"}  # the uploader's file, already read: not the next hand's photo


def test_the_message_queue_gives_each_place_its_own_once():
    """`HandInProgress.post` / `take` are the queue (pure: `app.ui.flash` stays a leaf); `take(None)`
    takes what is left, in the order posted."""
    h = HandInProgress()
    a, b, c = (
        Flash("error", "ledger.conflict", where="actions"),
        Flash("info", "x"),
        Flash("info", "y", where="actions"),
    )
    for f in (a, b, c):
        h.post(f)
    assert h.take("actions") == [a, c]
    assert h.take("actions") == []
    assert h.take() == [b]
    assert h.flash == []


def test_a_new_hand_is_a_brand_new_model_but_for_the_fields_it_names():
    """`start` keeps exactly `KEPT`: every other field, one added later too, is as new."""
    from dataclasses import fields

    from app.ui.state.progress import KEPT

    old = HandInProgress(
        ns="table:K", hand=hand("123m"), table=TableChoices(winner=1, followed=True, note="x"),
        picker="add", undo=[hand("1m")], panel_msg=Flash("warning", "a"), typed_msg=Flash("error", "b"),
        flash=[Flash("info", "c")], photo_src="upload", photo_bytes=b"j", photo_seen={"f"},
        timing={"total": 1.0}, bad_numbers={"w_x"}, saved=("k", {}), saved_photo="p",
    )  # fmt: skip
    kept = {f.name: getattr(old, f.name) for f in fields(old) if f.name in KEPT}
    old.start(EditHand(), Conditions(), TableChoices())
    new = HandInProgress(started=True, table=TableChoices(), **kept)

    def whole(h):
        return {f.name: getattr(h, f.name) for f in fields(h)}

    assert whole(old) == whole(new)
    assert set(KEPT) == {"ns", "flash", "photo_seen", "saved", "saved_photo"}
