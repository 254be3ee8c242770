"""One message mechanism for the whole app (`app.ui.flash`): a `Flash` is a catalog key worded
when drawn, in that run's language; `session.post` / `session.show_posted(where)` is the one queue
(a photo not read, a 牌局 write's outcome beside its button); a success is a toast, the rest beside
their cause."""

from __future__ import annotations

import ast

import pytest
from streamlit.testing.v1 import AppTest

from app.ui import i18n
from app.ui.flash import Flash, code_flash, ledger_flash
from ledger import ConflictError, LedgerError
from tests.app.conftest import ROOT

ZH, EN = i18n.catalog("zh"), i18n.catalog("en")
MELD = Flash("warning", "msg.meld_needs_tiles", {"kind": Flash("info", "meld.pung")})
TYPED = Flash("error", "msg.typed_bad", {"text": "12**x**", "why": code_flash("fifth_copy", "five 1m")})


@pytest.mark.parametrize(
    ("flash", "zh", "en"),
    [
        (Flash("success", "table.recorded", {"n": 3}), "第 3 把已记下。", "Hand 3 recorded."),
        (ledger_flash(ConflictError("table X changed since you loaded it")),
         ZH["ledger.conflict"] + " " + ZH["ledger.reloaded"],
         "table X changed since you loaded it " + EN["ledger.reloaded"]),
        (ledger_flash(LedgerError("cannot_win", "hand 2: 王五 cannot win")), ZH["ledger.cannot_win"],
         "hand 2&#58; 王五 cannot win"),  # the ledger's sentence names the hand; inert Markdown
        (ledger_flash(LedgerError("fifth_copy", "hand 4: five copies of 1m")), ZH["code.fifth_copy"],
         "hand 4&#58; five copies of 1m"),  # a scoring code the ledger passed through
        (ledger_flash(LedgerError("no_such_code_yet", "what")), ZH["code.unknown"], "what"),
        (MELD, "手里没有足够的牌组成“碰”。", "The standing tiles do not hold enough tiles for “Pung 碰”."),
        (TYPED, "看不懂这个牌串：12&#42;&#42;x&#42;&#42;（同一张牌不会超过四张。）",
         "Could not read that tile string: 12&#42;&#42;x&#42;&#42; (five 1m)"),
        (Flash("error", "image.corrupt", detail="cannot identify image"), ZH["image.corrupt"],
         EN["image.corrupt"] + " (cannot identify image)"),  # the decoder's detail: English page only
    ],
)  # fmt: skip
def test_a_flash_is_worded_when_drawn_in_that_runs_language(flash, zh, en):
    for lang, want in (("zh", zh), ("en", en), ("zh", zh)):  # the same Flash, either language, any time
        i18n.set_lang(lang)
        assert flash.text() == want
    i18n.set_lang("zh")


def _script():
    import streamlit as st

    from app.ui.flash import Flash
    from app.ui.hand.session import post, show_posted

    if "go" not in st.session_state:
        st.session_state.go = True
        post(Flash("error", "ledger.conflict", where="actions"))
        post(Flash("warning", "msg.no_tiles"))
        post(Flash("success", "table.recorded", {"n": 2}, where="actions"))
        post(Flash("info", "msg.flowers_dropped", where="settle"))
        st.rerun()
    st.header("photo")
    show_posted("top")
    st.header("actions")
    show_posted("actions")
    st.header("end")
    show_posted()  # whatever is left, where its place was not drawn


def test_posted_messages_are_drawn_once_each_at_its_place_after_the_rerun():
    at = AppTest.from_function(_script)
    at.run()
    assert not at.exception
    kids = at.main.children
    order = [(kids[k].type, kids[k].value) for k in sorted(kids) if kids[k].type != "toast"]
    assert order == [
        ("header", "photo"), ("warning", ZH["msg.no_tiles"]), ("header", "actions"),
        ("error", ZH["ledger.conflict"]), ("header", "end"), ("info", ZH["msg.flowers_dropped"]),
    ]  # fmt: skip
    assert [x.value for x in at.toast] == ["第 2 把已记下。"]  # a success: a toast
    assert at.session_state.hip.flash == []
    at.run()
    assert not at.error and not at.warning and not at.info and not at.toast  # shown once


def _calls(tree: ast.AST) -> set[str]:
    return {f"{n.func.value.id}.{n.func.attr}" for n in ast.walk(tree) if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name)}  # fmt: skip


def test_the_app_has_one_message_mechanism():
    """No other module queues, words or toasts messages of its own (there were two queues: the
    牌局 page's pre-worded `tbl_flash` texts and the score page's `session.flash`)."""
    own = ROOT / "app" / "ui" / "flash.py"
    found = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        if path == own:
            continue
        src = path.read_text(encoding="utf-8")
        tree = ast.parse(src)
        names = [n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef)]
        found += [f"{path.name}: def {n}" for n in names if "flash" in n.lower()]
        found += [f"{path.name}: st.toast" for c in _calls(tree) if c == "st.toast"]
        found += [f"{path.name}: tbl_flash" for _ in range(src.count("tbl_flash"))]
    assert found == []
    assert "st.toast" in _calls(ast.parse(own.read_text(encoding="utf-8")))


def test_a_flash_level_is_one_streamlit_draws():
    from app.ui.hand.session import post

    with pytest.raises(ValueError, match="level 'ok'"):
        post(Flash("ok", "table.recorded"))


def test_the_english_table_page_says_a_conflict_in_english(monkeypatch):
    from ledger.store import Store
    from tests.app.conftest import APP
    from tests.app.test_table_page import _click, _table

    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["table"], at.query_params["lang"] = _table(), "en"
    at.run()

    def meanwhile(*args, **kwargs):  # another phone wrote between this page's read and its write
        raise ConflictError("table X changed since you loaded it (hands now: 1, you saw: 0)")

    monkeypatch.setattr(Store, "append", meanwhile)
    _click(at, "tb_drawn")
    # what the table holds now, in English (the ledger's own sentence is for the CLI)
    assert [w.value for w in at.warning] == [EN["table.changed"].format(n=0, money="0")]
