"""The edit panel's state is one typed object (`EditChoices`), not five loose session keys."""

from __future__ import annotations

from pathlib import Path

from app.ui.state.edit_choices import EditChoices

ROOT = Path(__file__).resolve().parents[2]


def test_a_new_generation_gives_every_form_widget_a_new_key():
    c = EditChoices()
    assert [c.key("ed_kind", 3), c.key("ed_ke2", 1)] == ["ed_kind_3", "ed_ke2_1"]
    c.renew()
    c.renew()
    assert [c.key("ed_kind", 3), c.key("ed_ke2", 1)] == ["ed_kind_3_2", "ed_ke2_1_2"]


def test_a_draft_forgotten_is_neither_saved_nor_restored_and_is_read_once_a_table():
    c = EditChoices(saved={"A": {"v": 1}, "B": {"v": 1}}, restored={"A": 2}, gone={"A": 5})
    c.forget("A")
    assert (c.saved, c.restored, c.gone) == ({"B": {"v": 1}}, {}, {"A": 5})  # "gone" is said on
    assert [c.note_read("A"), c.note_read("A"), c.note_read("B")] == [True, False, True]


def test_the_edit_panel_keeps_no_loose_session_keys():
    for name in ("edit.py", "edit_draft.py"):
        text = (ROOT / "app" / "ui" / "table" / name).read_text(encoding="utf-8")
        for old in ("tbl_edit_gen", "tbl_edit_saved", "tbl_edit_restored", "tbl_edit_gone", "_edit_read:"):
            assert old not in text, (name, old)


def test_the_edit_form_is_the_recorded_hand_and_takes_the_widgets_values_by_name():
    from types import SimpleNamespace

    from app.ui.state.edit_form import SELF, EditForm
    from ledger import Follow, Hand

    one = (SimpleNamespace(seat=2),)  # the form reads a winner's seat only
    won = Hand("win", one, None, follow=Follow(True, True), kongs={1: (1, 0)}, note="x")
    f = EditForm.of(won, kongs=True)
    assert (f.single, f.winner, f.discarder) == (True, 2, SELF)
    assert (f.followed, f.dragon, f.second, f.note) == (True, True, False, "x")
    values = f.values()
    assert values["ed_w"] == 2 and values["ed_d"] == SELF and values["ed_ke1"] == 1 and values["ed_kc3"] == 0
    assert len(values) == 8 + 8  # every field, and each seat's exposed / concealed kongs
    g = f.with_values({"ed_d": 0, "ed_note": None, "ed_kc3": 2, "ed_kind": "drawn"})
    assert (g.discarder, g.note, g.kind, g.kongs[3], g.kongs[1]) == (0, "", "drawn", (0, 2), (1, 0))
    assert f.with_values(f.values()) == f  # the recorded hand's values: the recorded hand's form
    drawn = EditForm.of(Hand("drawn"), kongs=False)
    assert set(drawn.values()) == {"ed_kind", "ed_f", "ed_fd", "ed_fs", "ed_note"}  # no winner, no kongs
