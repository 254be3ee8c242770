"""A hand typed over the bundled sample keeps the sample's photo on a reload (break-it, session 23:
the photo section was gone after a reload; an upload's came back). The store keeps no bytes for
the sample: the draft's boxes carry its digest, and only the sample's digest brings it back."""

from __future__ import annotations

import hashlib

from app.ui import drafting, services
from tests.app.conftest import token_of
from tests.app.test_score_refs import _open

TYPED = "123m456p789s234mCC"


def test_a_hand_typed_over_the_sample_keeps_its_photo_on_a_reload():
    at = _open()  # a new phone: the sample, read
    assert at.session_state.hip.photo_src == "sample"
    boxes = [d.tile for d in at.session_state.hip.photo.result.detections]
    at.text_input(key="typed").input(TYPED)
    at.button(key="btn_typed").click()
    at.run()
    assert at.session_state.hip.photo_src == "typed" and at.session_state.hip.photo is not None
    again = _open(token_of(at))  # the reload
    back = again.session_state.hip
    assert back.photo is not None and back.photo_src == "typed"  # before: None, "manual"
    assert [d.tile for d in back.photo.result.detections] == boxes  # the boxes the player saw
    typed = at.session_state.hip.hand.tiles
    assert [t.code for t in back.hand.tiles] == [t.code for t in typed]


def test_only_the_samples_digest_brings_the_sample_back():
    sample = services.sample_photo()
    assert sample is not None
    digest = hashlib.sha256(sample).hexdigest()
    assert drafting._sample_bytes("sample", None) == sample
    assert drafting._sample_bytes("typed", (None, 0, digest)) == sample
    assert drafting._sample_bytes("typed", (None, 0, "0" * 64)) is None  # another photo's boxes
    assert drafting._sample_bytes("typed", None) is None
    assert drafting._sample_bytes("upload", (None, 0, "")) is None
