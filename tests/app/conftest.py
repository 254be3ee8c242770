"""Shared helpers for the app tests (AppTest and the real browser)."""

from __future__ import annotations

import contextlib
import os
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app" / "streamlit_app.py"
SAMPLE_JPG = ROOT / "app" / "assets" / "sample_hand.jpg"


@contextlib.contextmanager
def photo_gate_held() -> Iterator[None]:
    """Another user's photo holds the whole photo gate (`app.photo_gate.MEMORY`) inside the block."""
    from app import photo_gate

    started, done = threading.Event(), threading.Event()

    def other_users_photo() -> None:
        with photo_gate.photo_slot(cost=photo_gate.MEMORY):
            started.set()
            done.wait(30)

    hog = threading.Thread(target=other_users_photo)
    hog.start()
    started.wait(10)
    try:
        yield
    finally:
        done.set()
        hog.join(10)


def total_of(at) -> float | None:
    """The headline total (合计收) on an AppTest page, or None when there is none."""
    for md in at.markdown:
        m = re.search(r'id="jx-total" data-total="([0-9.]+)"', md.value)
        if m:
            return float(m.group(1))
    return None


def button_by_prefix(at, prefix: str):
    """The button whose key starts with `prefix` (tile buttons carry state flags in their keys)."""
    for b in at.button:
        if b.key and b.key.startswith(prefix):
            return b
    raise AssertionError(f"no button with key {prefix}*: {[b.key for b in at.button]}")


@pytest.fixture(autouse=True)
def default_language() -> Iterator[None]:
    """Every app test ends in the default language (zh) of this thread: a test that sets en
    (`i18n.set_lang`) leaves the next test's AppTest reading labels in zh, as it expects (one that
    did not made test_table_page's records fail after test_apptest's en pages, run together)."""
    yield
    from app.ui import i18n

    i18n.set_lang(i18n.DEFAULT)


COOKIE = "test_cookie"
"""An AppTest's browser cookie: AppTest sends none, so each AppTest that stands for a phone's
reload sets ``at.session_state[COOKIE]`` to its token before its first run (`phone_cookie`)."""


@pytest.fixture(autouse=True)
def phone_cookie(monkeypatch):
    """The app reads the phone's draft token from its cookie (`app.ui.drafting._cookie_token`);
    in AppTest, from the session key :data:`COOKIE` the test set (or none)."""
    import streamlit as st

    from app.ui import drafting

    monkeypatch.setattr(drafting, "_cookie_token", lambda: st.session_state.get(COOKIE, ""))


def token_of(at) -> str:
    """The phone's draft token an AppTest's session holds (what its browser's cookie keeps)."""
    return at.session_state["draft_token"]


@pytest.fixture(autouse=True)
def ledger_db(tmp_path, monkeypatch):
    """Every app test keeps its tables and drafts in a database of its own (never the user's)."""
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    monkeypatch.setenv("JXMJ_DB", url)
    return url


@pytest.fixture(autouse=True)
def page_walk(monkeypatch):
    """With ``JXMJ_PAGE_WALK=1``, every AppTest run of every app test is read whole by the
    language walk (`tests.app.gloss_rules.page_problems`, in the page's own language) and the
    test fails on what it finds. Off by default: a test may name players in another script."""
    if os.environ.get("JXMJ_PAGE_WALK") != "1":
        yield
        return
    from streamlit.testing.v1 import AppTest

    from tests.app.gloss_rules import page_problems

    found: list[tuple[str, str]] = []
    run = AppTest.run

    def walked(self, *args, **kwargs):
        out = run(self, *args, **kwargs)
        lang = self.session_state["lang"] if "lang" in self.session_state else "zh"
        found.extend(f for f in page_problems(self, lang) if f not in found)
        return out

    monkeypatch.setattr(AppTest, "run", walked)
    yield
    assert found == []


@pytest.fixture
def at():
    from streamlit.testing.v1 import AppTest

    app = AppTest.from_file(str(APP), default_timeout=60)
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    return app


@pytest.fixture
def fresh_store() -> Iterator[None]:
    """A store and reader built anew for the test (Streamlit's resource cache cleared before and
    after), and the thread's language Chinese again after it: AppTest runs in this thread, so an
    English test would leave the next one reading English."""
    import streamlit as st

    from app.ui import i18n

    st.cache_resource.clear()
    yield
    st.cache_resource.clear()
    i18n.set_lang("zh")
