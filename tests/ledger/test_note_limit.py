"""One note limit: `ledger.model.MAX_NOTE_CHARS` is what the ledger's parse refuses past and what the
CLI's reader (`app.ledgerin`) checks before parsing; no second copy of the number."""

from __future__ import annotations

import re

import pytest

from app import ledgerin
from ledger import LedgerError, Table
from ledger.model import MAX_NOTE_CHARS
from ledger.parse import Context, parse_hand
from tests.ledger.util import SEATS


def _note(text: str):
    return parse_hand(Table("jiujiang", SEATS), {"kind": "drawn", "note": text}, Context(1))


def test_the_parse_takes_a_note_up_to_the_limit_and_names_it():
    assert MAX_NOTE_CHARS == 200
    assert _note("周" * MAX_NOTE_CHARS).note == "周" * MAX_NOTE_CHARS
    with pytest.raises(LedgerError, match=f"note must be text of at most {MAX_NOTE_CHARS} characters"):
        _note("周" * (MAX_NOTE_CHARS + 1))


def test_the_cli_reader_checks_the_same_limit():
    assert ledgerin.LIMITS["note"] == MAX_NOTE_CHARS
    assert not hasattr(ledgerin, "MAX_NOTE_CHARS") or ledgerin.MAX_NOTE_CHARS is MAX_NOTE_CHARS
    ledgerin.read_hand_text('{"kind": "drawn", "note": "%s"}' % ("x" * MAX_NOTE_CHARS))
    with pytest.raises(LedgerError):
        ledgerin.read_hand_text('{"kind": "drawn", "note": "%s"}' % ("x" * (MAX_NOTE_CHARS + 1)))


@pytest.mark.parametrize(
    "note, said",
    [
        ("a\x00b", "U+0000"),  # PostgreSQL stores no NUL in text: it failed there as no error code
        ("第二圈\n老王换座", "U+000A LINE FEED"),  # the app's note is one line
        ("\u202egnaw oal", "U+202E RIGHT-TO-LEFT OVERRIDE"),  # shown reversed: "lao wang"
    ],
)
def test_a_note_with_a_control_or_format_character_is_refused_as_a_seat_name_is(note, said):
    """It was stored as given: a NUL, a line break, a right-to-left override (the history, the
    picture and the CSV showed it reversed or broken; the CSV wrote U+FFFD for it)."""
    with pytest.raises(LedgerError, match=re.escape(said)) as e:
        _note(note)
    assert e.value.code == "bad_hand"


def test_a_stored_note_with_one_still_reads():
    """A note stored before the check reads as stored (the store's lenient parse)."""
    hand = parse_hand(Table("jiujiang", SEATS), {"kind": "drawn", "note": "a\nb"}, Context(1, lenient=True))
    assert hand.note == "a\nb" and _note("周五 😀🀄 =1+1 مرحبا").note == "周五 😀🀄 =1+1 مرحبا"
