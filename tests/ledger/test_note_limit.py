"""One note limit: `ledger.model.MAX_NOTE_CHARS` is what the ledger's parse refuses past and what the
CLI's reader (`app.ledgerin`) checks before parsing; no second copy of the number."""

from __future__ import annotations

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
