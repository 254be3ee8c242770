"""`app.drafts.refs.add`: a hand whose every reference the phone keeps already (taught again after a
reload, or from a second tab) adds nothing; one that differs by a single reference is kept."""

from __future__ import annotations

from app.drafts import open_drafts
from app.drafts import refs as P
from ledger.store.refs import TableRef


def _hand(odd: bytes) -> list[TableRef]:
    return [TableRef("7p", "m", 1, b"\0\0\x80?"), TableRef("8s", "m", 1, odd)]


def test_a_hand_taught_again_is_kept_once(tmp_path):
    store = open_drafts(f"sqlite:///{tmp_path / 'drafts.sqlite3'}")
    token = store.issue()
    first = P.add(store, token, _hand(b"\0\0\0@"))
    assert first > 0 and P.state(store, token)[0] == 2
    assert P.add(store, token, _hand(b"\0\0\0@")) == 0  # the same hand again: nothing added
    assert P.state(store, token)[0] == 2
    assert P.add(store, token, _hand(b"\0\0@@")) == first + 1  # its 8s looks otherwise: a new hand
    assert [r.tile for r in P.refs_of(store, token, "m")] == ["7p", "8s", "7p", "8s"]
    other = store.issue()
    assert P.add(store, other, _hand(b"\0\0\0@")) > 0  # another phone's references are its own
    store.close()
