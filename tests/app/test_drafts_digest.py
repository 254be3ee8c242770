"""A photo's draft write does the least it must (issue 37, "cheaper photos"): the photo read
hashed its bytes once (`Photo.digest`), so the draft store does not hash ~2 MB again, and a
draft kept is written by one statement, not deleted and inserted."""

from __future__ import annotations

import hashlib

import pytest
import sqlalchemy as sa

from app.drafts import KEEP, open_drafts
from app.drafts import store as D
from app.ui import drafting
from app.ui.hand import photo as photo_section
from tests.app.conftest import token_of

PHOTO = b"\xff\xd8" + bytes(range(256)) * 400


@pytest.fixture
def store(tmp_path):
    got = open_drafts(f"sqlite:///{tmp_path / 'd.sqlite3'}")
    yield got
    got.close()


@pytest.fixture
def hashed(monkeypatch):
    """The lengths of what the draft store hashes."""
    seen: list[int] = []

    class Counting:
        @staticmethod
        def sha256(data):
            seen.append(len(data))
            return hashlib.sha256(data)

    monkeypatch.setattr(D, "hashlib", Counting)
    return seen


def _photo_of(store, key: str) -> str | None:
    with store.engine.connect() as conn:
        return conn.execute(sa.text("SELECT photo FROM jxmj_app_drafts WHERE key = :k"), {"k": key}).scalar()


def test_a_digest_given_is_not_computed_again(store, hashed):
    digest = hashlib.sha256(PHOTO).hexdigest()
    store.save("token:A", {"n": 1}, PHOTO, digest)
    assert hashed == [] and _photo_of(store, "token:A") == digest
    assert store.load("token:A") == ({"n": 1}, PHOTO)
    store.save("token:B", {"n": 2}, PHOTO)  # none given: hashed here, the same photo stored once
    assert hashed == [len(PHOTO)] and _photo_of(store, "token:B") == digest


def test_a_digest_never_names_a_copy_made_smaller(store, hashed, monkeypatch):
    smaller = b"\xff\xd8smaller"
    monkeypatch.setattr(D, "bounded", lambda blob: smaller)  # a photo over the draft's bound, re-encoded
    store.save("token:A", {}, PHOTO, hashlib.sha256(PHOTO).hexdigest())
    assert hashed == [len(smaller)] and _photo_of(store, "token:A") == hashlib.sha256(smaller).hexdigest()
    assert store.load("token:A") == ({}, smaller)


def test_a_draft_kept_is_updated_in_place(store):
    token = store.issue()  # an issued token is an empty draft
    key = f"token:{token}"
    sql: list[str] = []
    sa.event.listen(store.engine, "before_cursor_execute", lambda *a: sql.append(a[2].split()[0].upper()))
    store.save(key, {"n": 1}, PHOTO)
    store.save(key, {"n": 2}, b"\xff\xd8other")
    drafts_written = [s for s in sql if s in ("INSERT", "DELETE", "UPDATE")]
    assert drafts_written.count("DELETE") == 4  # purge and sweep, each save: no draft deleted
    assert store.load(key) == ({"n": 2}, b"\xff\xd8other")
    store.save("token:NEW", {"n": 3}, KEEP)  # none yet: inserted
    assert store.load("token:NEW") == ({"n": 3}, None)


def test_an_uploaded_photo_reaches_the_draft_hashed_once(at, hashed):
    data = photo_section.services.SAMPLE_PHOTO.read_bytes()
    at.session_state["pending_photo"] = data
    at.run()
    assert not at.exception
    key = f"token:{token_of(at)}"
    assert drafting.store().load(key)[1] == data
    assert hashed == []  # the page's read hashed it (`Photo.digest`); the store did not
    assert _photo_of(drafting.store(), key) == hashlib.sha256(data).hexdigest()
