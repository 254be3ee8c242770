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
