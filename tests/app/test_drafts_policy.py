"""Drafts nobody else can open, that expire, in a store of bounded size (app.drafts.policy)."""

from __future__ import annotations

from datetime import timedelta

import pytest
import sqlalchemy as sa
from streamlit.testing.v1 import AppTest

from app.drafts import open_drafts
from app.drafts import policy as drafts
from tests.app.conftest import APP

CHOSEN = "33333333333"  # a token someone picked and sent round as a link


def _typed(at: AppTest, tiles: str) -> None:
    at.text_input(key="typed").input(tiles)
    at.button(key="btn_typed").click()
    at.run()


def test_a_token_the_server_did_not_issue_opens_nothing():
    victim = AppTest.from_file(str(APP), default_timeout=60)
    victim.session_state["test_cookie"] = "K7QM9ACXTRE"  # a well-formed code, never issued
    victim.run()
    issued = victim.session_state["draft_token"]
    assert issued != "K7QM9ACXTRE" and open_drafts().load(f"token:{issued}") is not None
    _typed(victim, "111m234p567s789s55m")
    mine = [t.code for t in victim.session_state.hip.hand.concealed]
    assert mine == ["1m", "1m", "1m", "2p", "3p", "4p", "5s", "6s", "7s", "7s", "8s", "9s", "5m", "5m"]
    assert open_drafts().load("token:K7QM9ACXTRE") is None  # the victim's hand is not under it
    other = AppTest.from_file(str(APP), default_timeout=60)
    other.session_state["test_cookie"] = "K7QM9ACXTRE"
    other.run()
    assert other.session_state["draft_token"] not in ("K7QM9ACXTRE", issued)
    theirs = [t.code for t in other.session_state.hip.hand.concealed]
    assert theirs != mine


def test_a_token_not_issued_opens_no_phones_draft_on_a_table():
    """A table's ``?d=`` too: a token the server never issued (nor any phone's live draft) gets a
    fresh one; an issued token with a live table draft is known even after its own row expired."""
    store = open_drafts()
    store.save("table:K7QM9ACXTRE:VICTIM4TOKN", {"hand": 1})  # not issued: a bare key
    token = store.issue()
    assert store.known(token) and not store.known("K7QM9ACXTRF")
    store.save(f"table:K7QM9ACXTRE:{token}", {"hand": 2})
    with store.engine.begin() as conn:  # the issued token's own row saved long ago
        conn.execute(
            sa.text("UPDATE jxmj_app_drafts SET updated = '2000-01-01T00:00:00+00:00' WHERE key = :k"),
            {"k": f"token:{token}"},
        )
    assert store.known(token)  # its table draft lives
    with store.engine.begin() as conn:
        conn.execute(sa.text("UPDATE jxmj_app_drafts SET updated = '2000-01-01T00:00:00+00:00'"))
    assert not store.known(token)  # all of it expired: a fresh token next time


def test_a_malformed_token_is_replaced_by_an_issued_one():
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.session_state["test_cookie"] = CHOSEN  # "3" is no code letter
    at.run()
    token = at.session_state["draft_token"]
    assert token != CHOSEN and open_drafts().load(f"token:{token}") is not None


def test_an_address_with_another_phones_token_opens_a_fresh_draft():
    """The token is kept by the browser (a cookie), never in the address: an address copied from
    another phone, ``?d=`` and all, opens a fresh draft of its own and drops the ``?d=``."""
    victim = AppTest.from_file(str(APP), default_timeout=60)
    victim.run()
    token = victim.session_state["draft_token"]
    assert "d" not in victim.query_params
    scripts = [e.proto.body for e in victim.get("html") if "document.cookie" in e.proto.body]
    assert len(scripts) == 1 and f'"jxmj_d={token}; Path=/;' in scripts[0]
    _typed(victim, "111m234p567s789s55m")
    mine = [t.code for t in victim.session_state.hip.hand.concealed]
    copied = AppTest.from_file(str(APP), default_timeout=60)
    copied.query_params["d"] = token  # the victim's address, as an older release wrote it
    copied.run()
    assert copied.session_state["draft_token"] != token and "d" not in copied.query_params
    assert [t.code for t in copied.session_state.hip.hand.concealed] != mine
    assert open_drafts().load(f"token:{token}")[0] != {}  # the victim's hand, untouched
    again = AppTest.from_file(str(APP), default_timeout=60)
    again.session_state["test_cookie"] = token  # the victim reloads: its browser sends the cookie
    again.run()
    assert again.session_state["draft_token"] == token
    assert [t.code for t in again.session_state.hip.hand.concealed] == mine


def test_drafts_expire_with_their_photos(monkeypatch):
    store = open_drafts()
    store.save("table:K7QM9ACXTRE", {"hand": 1}, b"photo bytes")
    assert store.load("table:K7QM9ACXTRE") == ({"hand": 1}, b"photo bytes")
    with store.engine.begin() as conn:  # saved long ago
        conn.execute(sa.text("UPDATE jxmj_app_drafts SET updated = '2000-01-01T00:00:00+00:00'"))
    assert store.load("table:K7QM9ACXTRE") is None
    store.save("table:K7QM9ACXTRF", {"other": 1})  # the next save deletes it
    with store.engine.connect() as conn:
        keys = [r[0] for r in conn.execute(sa.text("SELECT key FROM jxmj_app_drafts"))]
    assert "table:K7QM9ACXTRE" not in keys
    monkeypatch.setenv(drafts.ENV_HOURS, "0.5")
    assert drafts.ttl_seconds() == 1800.0
    monkeypatch.setenv(drafts.ENV_HOURS, "soon")
    assert drafts.ttl_seconds() == 24 * 3600.0


def test_the_drafts_store_is_capped_oldest_idle_first(monkeypatch):
    monkeypatch.setattr(drafts, "MAX_DRAFTS_BYTES", 3100)
    store = open_drafts()
    hour_ago = drafts.now() - timedelta(hours=1)
    for i in range(4):
        store.save(f"table:T{i}", {"i": i}, b"x" * 1000)
        with store.engine.begin() as conn:  # each saved a minute after the one before, all idle now
            conn.execute(
                sa.text("UPDATE jxmj_app_drafts SET updated = :t WHERE key = :k"),
                {"t": (hour_ago + timedelta(minutes=i)).isoformat(), "k": f"table:T{i}"},
            )
    with store.engine.connect() as conn:
        keys = sorted(r[0] for r in conn.execute(sa.text("SELECT key FROM jxmj_app_drafts")))
        total = conn.execute(
            sa.text("SELECT sum(length(data) + coalesce(length(blob), 0)) FROM jxmj_app_drafts")
        ).scalar()
    assert keys == ["table:T1", "table:T2", "table:T3"] and total <= 3100


def test_a_damaged_draft_is_corrupt_store_not_a_crash():
    from ledger import StoreError

    store = open_drafts()
    store.save("table:K7QM9ACXTRE", {"hand": 1})
    with store.engine.begin() as conn:
        conn.execute(sa.text("UPDATE jxmj_app_drafts SET data = :d"), {"d": "[" * 100_000 + "]" * 100_000})
    with pytest.raises(StoreError) as e:
        store.load("table:K7QM9ACXTRE")
    assert e.value.code == "corrupt_store"
