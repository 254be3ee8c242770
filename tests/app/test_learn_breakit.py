"""Found by trying to break the score page's learning (branch breakit): each test failed before
its fix. The painted scenes and stand-in models of tests/app/test_table_refs.py."""

from __future__ import annotations

import pytest

from app.drafts import open_drafts
from app.drafts import photo as draft_photo
from app.drafts import refs as P
from app.ui import refsets
from tests.app.conftest import token_of
from tests.app.test_score_refs import WANT, _fixed_hand, _kept, _open
from tests.app.test_table_refs import SIZE, _odd, _photo, models, paint  # noqa: F401 (models: a fixture)

pytest.importorskip("onnx", reason="needs onnx (the train extra)")


@pytest.mark.usefixtures("models")
def test_a_photo_the_draft_keeps_smaller_teaches_the_tiles_where_they_are(monkeypatch):
    """A photo over the draft's byte bound is kept re-encoded smaller; once the draft holds it the
    session lets go of the original, and learning reads the smaller copy back: the boxes, in the
    original's pixels, must be cut where the tiles are in the copy (they were cut from the wrong
    places, and the set's 8s taught nothing)."""
    monkeypatch.setattr(draft_photo, "MAX_PHOTO_BYTES", 7000)  # the painted PNGs (8.5 kB) re-encoded
    monkeypatch.setattr(draft_photo, "MAX_SIDE", max(SIZE) // 2)  # at half its size
    at = _open()
    token = token_of(at)
    _fixed_hand(at)
    hip = at.session_state.hip
    assert hip.photo_bytes is None and hip.photo_stored  # the draft holds the (smaller) photo
    _photo(at, paint(odd_blue=44))
    assert _kept(token, refsets.model_key(refsets.reader())) == WANT
    assert _odd(at).code == "8s"  # read with what the 8s taught


@pytest.mark.usefixtures("models")
def test_a_hand_undo_brings_back_over_a_newer_photo_teaches_nothing():
    """Undo after a new photo brings back the hand read from the photo before, while the newer
    photo stays on the page: its tiles' boxes are the older photo's, not this one's. The next
    photo taught that hand's codes at the newer photo's boxes of the same numbers (a second time
    here; on two different photos, the wrong tiles)."""
    at = _open()
    token = token_of(at)
    _fixed_hand(at)
    _photo(at, paint(odd_blue=44))  # the first hand taught: 13 tiles, an embedding and a face each
    assert P.state(open_drafts(), token)[0] == 26
    at.button(key="btn_undo").click()  # the first hand back, over the second photo
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert all(t.detection is None for t in at.session_state.hip.hand.tiles)  # no box of this photo
    _photo(at, paint(odd_blue=48))
    assert P.state(open_drafts(), token)[0] == 26


@pytest.mark.usefixtures("models")
def test_a_hand_is_taught_once_across_a_reload():
    """The hand taught stays on the page when the next photo is refused; after a reload (or in a
    second tab of the phone) the session no longer knew it was taught, and the next photo taught
    it again: the same tiles twice, crowding out the phone's older references."""
    at = _open()
    token = token_of(at)
    _fixed_hand(at)
    _photo(at, paint(odd_blue=44))
    assert P.state(open_drafts(), token)[0] == 26
    _photo(at, paint(odd_blue=48))  # the second hand taught
    assert P.state(open_drafts(), token)[0] == 52
    _photo(at, b"not a photo")  # refused: the third hand stays, taught
    assert P.state(open_drafts(), token)[0] == 78
    again = _open(token)  # a reload: the draft's hand, read again from its photo
    _photo(again, paint(odd_blue=44))
    assert P.state(open_drafts(), token)[0] == 78
