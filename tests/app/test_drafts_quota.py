"""Drafts under quotas (issue 39 item 3): strangers' uploads never push out a phone's hand in
progress; a phone's own drafts are capped; photos are stored bounded; new tokens rate-limited."""

from __future__ import annotations

import io
import os

import pytest
import sqlalchemy as sa
from streamlit.testing.v1 import AppTest

from app.drafts import open_drafts, policy
from app.drafts import photo as draft_photo
from app.drafts.ratelimit import Limiter, client_of
from app.ui import drafting
from ledger import LedgerError
from tests.app.conftest import APP
from tests.ledger.conftest import fresh_url

LONG_AGO = "2000-01-01T00:00:00+00:00"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A fresh, empty database URL of each kind, the drafts' tables dropped too."""
    from app.drafts import store as D

    yield from fresh_url(request, tmp_path, (D.metadata,))


def _age(store, key: str, when: str = LONG_AGO) -> None:
    with store.engine.begin() as conn:
        conn.execute(sa.text("UPDATE jxmj_app_drafts SET updated = :t WHERE key = :k"), {"t": when, "k": key})


def _keys(store) -> set[str]:
    with store.engine.connect() as conn:
        return {r[0] for r in conn.execute(sa.text("SELECT key FROM jxmj_app_drafts"))}


def test_a_phones_draft_survives_100_uploads_from_strangers(monkeypatch, db_url):
    monkeypatch.setattr(policy, "MAX_DRAFTS_BYTES", 64 * 1024)
    store = open_drafts(db_url)
    victim = store.issue()
    mine = f"table:K7QM9ACXTRE:{victim}"
    store.save(mine, {"hand": "111m234p567s789s55m"}, b"V" * 4096)
    refused = 0
    for _ in range(100):  # each a fresh session: a new token, a 4 KiB photo of its own
        stranger = store.issue()
        try:
            store.save(f"token:{stranger}", {"hand": stranger}, os.urandom(4096))
        except LedgerError as e:
            assert e.code == "drafts_full"
            refused += 1
    assert store.load(mine) == ({"hand": "111m234p567s789s55m"}, b"V" * 4096)
    assert refused > 50  # past the cap the newcomers are refused, nobody active pushed out


def test_the_oldest_idle_draft_goes_first(monkeypatch, db_url):
    monkeypatch.setattr(policy, "MAX_DRAFTS_BYTES", 20 * 1024)
    store = open_drafts(db_url)
    store.save("token:OLDIDLEDRFT", {"n": 1}, os.urandom(6000))
    store.save("token:NEWIDLEDRFT", {"n": 2}, os.urandom(6000))
    store.save("token:ACTIVEDRAFT", {"n": 3}, os.urandom(6000))
    _age(store, "token:OLDIDLEDRFT", "2026-01-01T00:00:00+00:00")
    _age(store, "token:NEWIDLEDRFT", "2026-01-01T00:00:01+00:00")
    monkeypatch.setattr(policy, "ttl_seconds", lambda: 10 * 365 * 86400.0)  # idle, not expired
    store.save("token:NEWCOMERDFT", {"n": 4}, os.urandom(6000))
    assert _keys(store) == {"token:NEWIDLEDRFT", "token:ACTIVEDRAFT", "token:NEWCOMERDFT"}
    with pytest.raises(LedgerError) as e:  # the next: one idle left to go, then only active ones
        store.save("token:NEXTCOMERD", {"n": 5}, os.urandom(6000))
        store.save("token:THIRDCOMER", {"n": 6}, os.urandom(6000))
    assert e.value.code == "drafts_full"
    assert {"token:ACTIVEDRAFT", "token:NEWCOMERDFT"} <= _keys(store)


def test_one_phone_holds_at_most_its_quota(monkeypatch, db_url):
    monkeypatch.setattr(policy, "PHONE_BYTES", 10 * 1024)
    store = open_drafts(db_url)
    store.save("token:OTHERPHONEX", {"n": 0}, os.urandom(6000))
    store.save("table:K7QM9ACXTRE:PHONEAAAAAA", {"n": 1}, os.urandom(6000))
    store.save("table:K7QM9ACXTRF:PHONEAAAAAA", {"n": 2}, os.urandom(6000))  # the phone's first goes
    assert _keys(store) == {"token:OTHERPHONEX", "table:K7QM9ACXTRF:PHONEAAAAAA"}
    assert policy.owner("edit:K7QM9ACXTRE:PHONEAAAAAA") == "PHONEAAAAAA"


def _noise_png(side: int) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.frombytes("RGB", (side, side), os.urandom(side * side * 3)).save(out, "PNG", compress_level=1)
    return out.getvalue()


def test_a_large_photo_is_stored_bounded(monkeypatch):
    pytest.importorskip("PIL")
    monkeypatch.setattr(draft_photo, "MAX_PHOTO_BYTES", 200 * 1024)
    monkeypatch.setattr(draft_photo, "MAX_SIDE", 600)
    big = _noise_png(1000)  # 3 MB of noise: no JPEG of it at full size fits 200 KiB
    assert len(big) > 2 * 2**20
    store = open_drafts()
    store.save("token:BIGPHOTODFT", {"n": 1}, big)
    _, kept = store.load("token:BIGPHOTODFT")
    from PIL import Image

    img = Image.open(io.BytesIO(kept))
    assert img.format == "JPEG" and max(img.size) <= 600 and len(kept) <= 200 * 1024
    store.save("token:SMALLPHOTOD", {"n": 2}, b"small photo")  # within the bound: kept as it is
    assert store.load("token:SMALLPHOTOD")[1] == b"small photo"
    store.save("token:NOTAPHOTOXX", {"n": 3}, b"\x00" * (300 * 1024))  # does not decode: not kept
    assert store.load("token:NOTAPHOTOXX") == ({"n": 3}, None)


def test_the_limiter_counts_per_client_in_a_window():
    lim = Limiter(most=3, window_s=60.0, clients=2)
    assert [lim.allow("a", at=t) for t in (0, 1, 2, 3)] == [True, True, True, False]
    assert lim.allow("b", at=3)  # another client
    assert lim.allow("a", at=60.5)  # the first left the window
    lim.allow("c", at=61)  # a third client: the least recent ("b") forgotten
    assert set(lim._seen) == {"a", "c"}


@pytest.mark.parametrize(
    ("env", "expected"), [(None, 20), ("200", 200), ("1", 1), ("0", 20), ("-5", 20), ("２０", 20), ("x", 20)]
)
def test_a_parlour_may_raise_the_new_tokens_per_client(monkeypatch, env, expected):
    from app.drafts.ratelimit import ENV_MOST, most

    if env is None:
        monkeypatch.delenv(ENV_MOST, raising=False)
    else:
        monkeypatch.setenv(ENV_MOST, env)
    assert most() == expected


def test_the_client_is_its_address_or_what_the_local_proxy_appended():
    assert client_of("192.168.1.7", "10.0.0.1") == "192.168.1.7"  # a direct phone: its address
    assert client_of(None, "1.2.3.4, 192.168.1.7") == "192.168.1.7"  # behind nginx: what it appended
    assert client_of(None, None) is None and client_of(None, " ") is None  # the box's own user


def test_new_tokens_are_rate_limited_per_client(monkeypatch):
    monkeypatch.setattr(drafting, "_client", lambda: "203.0.113.9")
    limiter = Limiter(most=2)
    monkeypatch.setattr(drafting, "_limiter", lambda: limiter)
    issued = []
    for _ in range(3):
        at = AppTest.from_file(str(APP), default_timeout=60)
        at.run()
        issued.append(at.session_state["draft_token"])
    store = open_drafts()
    assert [store.known(t) for t in issued] == [True, True, False]
    assert at.session_state["drafts_off"] is True


def test_a_save_with_room_reads_no_list_of_drafts(monkeypatch, tmp_path):
    """Issue 37: every save listed every stored draft (400 rows of an evening: ~0.013 s of a
    photo's CPU); with room for it, one aggregate row says so, and a phone's keys are counted
    as `owner` counts them (`token:P`, `table:T:P`, `P`; not `table:T:XP`)."""
    monkeypatch.setattr(policy, "PHONE_BYTES", 10 * 1024)
    store = open_drafts(f"sqlite:///{tmp_path / 'l.sqlite3'}")
    for key in ("token:PHONEAAAAAA", "table:K7QM9ACXTRE:PHONEAAAAAA", "table:K7QM9ACXTRE:XPHONEAAAAAA"):
        store.save(key, {"k": key}, os.urandom(3000))
    statements = []
    sa.event.listen(store.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    store.save("table:K7QM9ACXTRF:PHONEAAAAAA", {"n": 1}, os.urandom(3000))  # 9 KB of the phone's
    listed = [s for s in statements if "ORDER BY" in s and "jxmj_app_drafts.updated" in s]
    assert listed == [] and any("sum(" in s for s in statements)
    assert len(_keys(store)) == 4  # nothing went
    store.save("table:K7QM9ACXTRG:PHONEAAAAAA", {"n": 2}, os.urandom(3000))  # 12 KB: one of its goes
    assert _keys(store) == {  # (saved in the same second: the first by key)
        "token:PHONEAAAAAA",
        "table:K7QM9ACXTRE:XPHONEAAAAAA",  # another phone's
        "table:K7QM9ACXTRF:PHONEAAAAAA",
        "table:K7QM9ACXTRG:PHONEAAAAAA",
    }
