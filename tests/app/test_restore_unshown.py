"""A draft whose photo could not be shown again on restore (the server busy reading other photos:
`PhotoBusy`) keeps its photo's source and boxes (branch breakit3; failed before its fix): the next
save wrote the draft as a typed hand (``photo_src`` "manual") without its boxes, so a later reload
read the photo again as a new reading (other boxes maybe, the fixed tiles' numbers naming others)
and the score page no longer learned from it (a typed hand teaches nothing).

The painted scene and stand-in models of tests/app/test_table_refs.py."""

from __future__ import annotations

import pytest

from app.drafts import open_drafts
from app.photo_gate import PhotoBusy
from app.ui import restored_photo
from app.ui.state import Selection
from tests.app.conftest import token_of
from tests.app.test_score_refs import _fixed_hand, _open
from tests.app.test_table_refs import models  # noqa: F401 (a fixture)


def _busy(*_a, **_k):
    raise PhotoBusy


@pytest.mark.usefixtures("models")
def test_a_restore_while_busy_keeps_the_photos_source_and_boxes(monkeypatch):
    at = _open()
    token = token_of(at)
    _fixed_hand(at)  # the 8s read 7s, renamed
    seen = at.session_state.hip
    boxes = [(d.tile, tuple(round(float(v), 1) for v in d.xyxy)) for d in seen.photo.result.detections]
    fixed = [(t.code, t.detection) for t in seen.hand.tiles]

    with monkeypatch.context() as m:
        m.setattr(restored_photo, "shown", _busy)
        busy = _open(token)  # a reload while the server reads other photos: no photo shown
        assert busy.session_state.hip.photo is None
        hand = busy.session_state.hip.hand
        busy.session_state.hip.hand = hand.with_tile(Selection(0), "9m")  # an edit: the draft saved
        busy.run()
        assert not busy.exception, [e.value for e in busy.exception]
    stored = open_drafts().load(f"token:{token}")[0]
    assert stored["photo_src"] == "upload" and "boxes" in stored  # before: "manual", no boxes

    again = _open(token)  # the server free again
    back = again.session_state.hip
    assert back.photo is not None and back.photo_src == "upload"
    assert [(d.tile, d.xyxy) for d in back.photo.result.detections] == boxes
    assert [(t.code, t.detection) for t in back.hand.tiles] == [("9m", fixed[0][1]), *fixed[1:]]


@pytest.mark.usefixtures("models")
def test_a_hand_typed_over_its_unshown_photo_is_kept_typed(monkeypatch):
    at = _open()
    token = token_of(at)
    _fixed_hand(at)
    with monkeypatch.context() as m:
        m.setattr(restored_photo, "shown", _busy)
        busy = _open(token)
        busy.session_state.hip.typed_over()
        busy.session_state.hip.hand = busy.session_state.hip.hand.unlinked()
        busy.run()
    stored = open_drafts().load(f"token:{token}")[0]
    assert stored["photo_src"] == "typed" and "boxes" in stored
