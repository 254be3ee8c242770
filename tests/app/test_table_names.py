"""Seat names on the 牌局 page are inert Markdown and HTML (issue 15 item 8, `app.safe_text.md`):
a name is shown as its characters in every label, paragraph and HTML block, never as syntax."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from app.safe_text import md
from ledger import Table
from ledger.store import open_store
from tests.app.conftest import APP

HOSTILE = ("<svg onload=alert(1)>", "**bold**", "[c](http://h.x/)", ":red[d]")


def _texts(node, out: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(element type, text) of every markdown body and label under `node` (AppTest's tree)."""
    for attr in ("value", "label", "body"):
        v = getattr(node, attr, None)
        if isinstance(v, str):
            out.append((getattr(node, "type", type(node).__name__), v))
    for child in (getattr(node, "children", None) or {}).values():
        _texts(child, out)
    return out


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_hostile_seat_names_are_shown_as_text_everywhere_on_the_table_page(lang):
    store = open_store()
    code = store.create_table(Table("xingzi", HOSTILE)).table.code
    store.append(code, {"kind": "false_win", "declarer": 0})  # history, metrics, settlement
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["table"] = code
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    texts = _texts(at._tree, [])
    for name in HOSTILE:
        raw = [(kind, text[:120]) for kind, text in texts if name in text]
        assert raw == [], f"{name!r} shown as Markdown/HTML"
        assert any(md(name) in text for _, text in texts)  # ... and shown
    transfers = next(text for _, text in texts if 'id="jx-transfers"' in text)
    assert transfers.count(md(HOSTILE[0])) == 3  # 炸糊: the declarer pays each of the three
