"""The 牌局 / Table page driven headless by AppTest: a table in the URL, hands recorded from the
editor with seats, 黄庄 / 跟庄 raises, 炸糊, undo, edit, lock, drafts that survive a reload."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from app.ui import i18n
from ledger import Table
from ledger.store import open_store
from tests.app.conftest import APP
from tests.ledger.util import json_hand

SEATS = ("张三", "李四", "王五", "赵六")
HAND_A = "123m456p789s234mCC"  # won on 中: 平胡 1 + 门清 1 + 单钓 1 = 3 炮 on a discard, 4 self-drawn


def _open(code: str, token: str | None = None) -> AppTest:
    """A fresh browser session on `?table=CODE`: another phone, or with this phone's `token`
    (kept by its browser, a cookie) a reload."""
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["table"] = code
    if token:
        at.session_state["test_cookie"] = token
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _table(variant="jiujiang", **kw) -> str:
    return open_store().create_table(Table(variant, SEATS, **kw)).table.code


def _totals(at) -> list[str]:
    return [m.value for m in at.metric]


def _enter(at, tiles: str, winner: int, discarder: int | None) -> None:
    at.text_input(key="typed").input(tiles)
    at.button(key="btn_typed").click()
    at.run()
    at.segmented_control(key="tw_winner").set_value(winner)
    at.run()
    if discarder is not None:
        at.segmented_control(key="tw_how").set_value(discarder)
        at.run()


def _codes(tiles: str) -> list[str]:
    from scoring.tiles import parse_tiles

    return [t.code for t in parse_tiles(tiles)]


def _click(at, key: str) -> None:
    at.button(key=key).click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def test_create_a_table_puts_its_code_in_the_url():
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.segmented_control(key="page").set_value("table")
    at.run()
    for i, name in enumerate(SEATS):
        at.text_input(key=f"tn_seat{i}").input(name)
    next(b for b in at.button if b.label == i18n.catalog("zh")["table.create"]).click()
    at.run()
    code = at.query_params["table"]
    assert len(code) == 11
    assert open_store().get(code).table.seats == SEATS
    assert _totals(at) == ["0", "0", "0", "0"]


def test_record_a_win_and_every_phone_sees_it():
    code = _table()
    at = _open(code)
    _enter(at, HAND_A, winner=1, discarder=2)
    assert any("李四 +3 · 王五 -3" in m.value for m in at.markdown)  # the preview, from the seats
    _click(at, "tb_record")
    assert _totals(at) == ["0", "3", "-3", "0"]
    assert [m.label for m in at.metric][1] == "李四 · 庄"  # the winner deals next
    other = _open(code)  # another phone on the same URL, after a reload
    assert _totals(other) == ["0", "3", "-3", "0"]
    assert len(open_store().get(code).hands) == 1


def test_drawn_with_follow_raises_the_next_hand_and_undo_takes_it_back():
    code = _table()
    at = _open(code)
    at.checkbox(key="tw_followed").check()
    at.run()
    _click(at, "tb_drawn")
    nxt = next(m.value for m in at.markdown if 'id="jx-next"' in m.value)
    assert 'data-raise="2"' in nxt and 'data-dealer="0"' in nxt  # 黄庄 + 跟庄: x2; the dealer keeps dealing
    _enter(at, HAND_A, winner=0, discarder=None)  # the dealer self-draws at x2: 4 x2 from each
    _click(at, "tb_record")
    assert _totals(at) == ["24", "-8", "-8", "-8"]
    _click(at, "tb_undo")
    assert _totals(at) == ["0", "0", "0", "0"]
    assert [h.kind for h in open_store().get(code).hands] == ["drawn"]


def test_false_win_on_a_xingzi_table():
    code = _table("xingzi")
    at = _open(code)
    assert at.selectbox(key="tw_fw").value is None  # nobody chosen: 炸糊 is not offered yet
    assert at.button(key="tb_false_win").disabled
    at.selectbox(key="tw_fw").set_value(3)
    at.run()
    _click(at, "tb_false_win")
    assert _totals(at) == ["10", "10", "10", "-30"]  # 炸糊: 10 炮 to each other player (DECISIONS §1.6)


def test_edit_an_early_hand_recomputes_the_later_ones():
    code = _table()
    store = open_store()
    store.append(
        code,
        json_hand(
            store, code, {"seat": 1, "discarder": 2, "hand": {"concealed": HAND_A, "winning_tile": "C"}}
        ),
    )
    store.append(
        code,
        json_hand(
            store, code, {"seat": 1, "discarder": 2, "hand": {"concealed": HAND_A, "winning_tile": "C"}}
        ),
    )
    at = _open(code)
    assert _totals(at) == ["0", "6", "-6", "0"]
    at.number_input(key="tw_edit_n").set_value(1)
    at.run()
    at.segmented_control(key="ed_kind_1").set_value("drawn")
    next(b for b in at.button if b.key and "edit_1" in b.key).click()
    at.run()
    assert not at.exception
    assert _totals(at) == ["0", "6", "-6", "0"]  # hand 2 is now x2 (黄庄 window): 3 x2
    assert [o.raise_ for o in store.get(code).ledger().outcomes] == [1, 2]


def test_a_locked_table_is_read_only():
    code = _table()
    at = _open(code)
    _click(at, "tb_drawn")
    at.checkbox(key="tw_lock_sure").check()
    at.run()
    _click(at, "tb_lock")
    assert open_store().get(code).table.locked
    assert not [b for b in at.button if b.key in ("tb_record", "tb_drawn", "tb_undo")]
    assert any(i18n.catalog("zh")["table.locked"] in i.value for i in at.info)


def test_a_reload_mid_hand_keeps_the_draft():
    code = _table()
    at = _open(code)
    _enter(at, HAND_A, winner=3, discarder=1)
    again = _open(code, at.session_state["draft_token"])  # reload: the draft read back
    assert [t.code for t in again.session_state.hip.hand.concealed] == _codes(HAND_A)
    assert again.segmented_control(key="tw_winner").value == 3
    assert again.segmented_control(key="tw_how").value == 1
    _click(again, "tb_record")
    assert _totals(again) == ["0", "-3", "0", "3"]
    from app.drafts import open_drafts

    key = f"table:{code}:{again.session_state['draft_token']}"
    data, _ = open_drafts().load(key)  # recorded: the draft is the next, empty hand
    assert data["hand"]["concealed"] == [] and data["table"]["winner"] is None


def test_a_restored_draft_is_not_written_again_until_the_hand_changes(monkeypatch):
    from app.drafts import DraftStore

    code = _table()
    first = _open(code)
    _enter(first, HAND_A, winner=3, discarder=1)
    writes: list[str] = []
    save = DraftStore.save
    monkeypatch.setattr(
        DraftStore, "save", lambda self, key, *a, **kw: (writes.append(key), save(self, key, *a, **kw))[1]
    )
    again = _open(code, first.session_state["draft_token"])  # a reload: nothing to write
    again.run()
    assert writes == []
    _enter(again, "123m456p789s234mPP", winner=3, discarder=1)
    assert writes == [f"table:{code}:{first.session_state['draft_token']}"]


def test_the_single_hand_page_keeps_its_draft_behind_its_url_token():
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    token = at.session_state["draft_token"]
    at.text_input(key="typed").input("234m567p678s777p99s")
    at.button(key="btn_typed").click()
    at.run()
    again = AppTest.from_file(str(APP), default_timeout=60)
    again.session_state["test_cookie"] = token
    again.run()
    assert [t.code for t in again.session_state.hip.hand.concealed] == _codes("234m567p678s777p99s")


def test_bad_codes_and_missing_tables_say_so():
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["table"] = "K7QM9ACXTRE"
    at.run()
    assert not at.exception
    assert [e.value for e in at.error] == [i18n.catalog("zh")["ledger.table_not_found"]]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_table_page_words_exist_in_both_languages(lang):
    import re
    from pathlib import Path

    pages = Path(APP).parent.joinpath("ui", "table").glob("*.py")
    src = "".join(p.read_text(encoding="utf-8") for p in pages)
    keys = set(re.findall(r'"((?:table|ledger|raise)\.[a-z_]+)"', src))
    raises = ("follow", "follow_dragon", "follow_second", "follow_hold", "drawn", "drawn_consecutive")
    keys |= {f"raise.{c}" for c in raises}
    keys |= {"table.edit_keep", "table.edit_drawn", "nav.table"}
    ledger_src = "".join(
        p.read_text(encoding="utf-8") for p in (Path(APP).parents[1] / "ledger").rglob("*.py")
    )
    call = r'(?:LedgerError|StoreError|fail)\((?:[^()]|\([^()]*\))*?,\s*"([a-z_]+)",?\s*\)'
    keys |= {f"ledger.{c}" for c in re.findall(call, ledger_src)}  # every code the ledger raises
    keys |= {f"ledger.{c}" for c in ("conflict", "table_locked", "table_not_found", "store_error")}
    catalog = json.loads(Path(APP).parent.joinpath("locales", f"{lang}.json").read_text(encoding="utf-8"))
    assert sorted(k for k in keys if k not in catalog) == []


def test_house_rules_typed_when_the_table_opens():
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.segmented_control(key="page").set_value("table")
    at.run()
    create = i18n.catalog("zh")["table.create"]
    at.text_area(key="tn_rules").input('{"ledger": {"drawn.windw": 3}}')
    next(b for b in at.button if b.label == create).click()
    at.run()
    [said] = [e.value for e in at.error]
    assert (
        said.startswith(i18n.catalog("zh")["rule.unknown"].split("{")[0]) and "drawn.windw" in said
    )  # named
    assert "table" not in at.query_params  # nothing was created
    at.text_area(key="tn_rules").input('{"ledger": {"drawn.window": 1}}')
    next(b for b in at.button if b.label == create).click()
    at.run()
    rec = open_store().get(at.query_params["table"])
    assert rec.table.house_rules == {"ledger": {"drawn.window": 1}}


@pytest.mark.parametrize(
    "typed",
    ['{"ledger": {"drawn.window": ' + "9" * 5000 + "}}", "[]", '{"ledger": {}, "ledger": {}}', "0"],
)  # a field given twice was "the last one wins" (jxmj table new --rules refuses it)
def test_house_rules_of_the_wrong_shape_are_named_and_open_nothing(typed):
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.segmented_control(key="page").set_value("table")
    at.run()
    at.text_area(key="tn_rules").input(typed)
    next(b for b in at.button if b.label == i18n.catalog("zh")["table.create"]).click()
    at.run()
    zh = i18n.catalog("zh")
    [said] = [e.value for e in at.error]
    assert not at.exception and any(
        said.startswith(zh[k].split("{")[0]) for k in ("rule.bad_json", "rule.bad_shape", "rule.too_long")
    )
    assert "table" not in at.query_params


def _kong_hand(at, kong_key: str) -> None:
    """Type a 门清 hand for seat 2 (a self-draw) and give one seat an exposed kong (`kong_key`)."""
    at.text_input(key="typed").input("123m456p789s234mEE")
    at.button(key="btn_typed").click()
    at.run()
    at.segmented_control(key="tw_winner").set_value(2)
    at.run()
    at.number_input(key=kong_key).set_value(1)
    at.run()


def test_xingzi_doubling_and_xinyu_kong_money_come_from_the_seats():
    code = _table("xingzi")
    at = _open(code)
    _enter(at, HAND_A, winner=1, discarder=None)  # 李四 self-draws: 4 炮 each, the dealer 张三 pays x2
    assert any("张三 -8 · 李四 +16 · 王五 -4 · 赵六 -4" in m.value for m in at.markdown)
    code = _table("xinyu")
    at = _open(code)
    _kong_hand(at, "tw_ke0")  # 张三 has an exposed kong: 1 from each other player
    assert not at.exception
    _click(at, "tb_record")
    assert _totals(at) == ["1", "-3", "5", "-3"]  # 门清 x2 = 2 from each; 张三's kong money


def test_xinyu_kong_money_at_a_table_whose_seats_are_named_by_digits():
    """The page sends kongs by seat index in the list form: at a table of 1 2 3 4 the object
    form's key "1" is the seat named 1 (index 0), not seat 1 (docs/ledger-json.md)."""
    code = open_store().create_table(Table("xinyu", ("1", "2", "3", "4"))).table.code
    at = _open(code)
    _kong_hand(at, "tw_ke1")  # the seat named 2 (index 1) has an exposed kong
    _click(at, "tb_record")
    assert _totals(at) == ["-3", "1", "5", "-3"]  # 门清 x2 = 2 from each; seat 1's kong money
    assert open_store().get(code).hands[0].kongs == {1: (1, 0)}


def _drawn_in_order(node) -> list:
    """The page's elements in the order they are drawn (AppTest's tree, depth first)."""
    out = [node]
    for child in getattr(node, "children", {}).values():
        out += _drawn_in_order(child)
    return out


def test_record_and_undo_say_so_where_the_player_looks_and_no_empty_hand_hint_after_a_hand(monkeypatch):
    """A success is a toast (in view wherever the page is scrolled), an error sits under the
    buttons, never at the top of the page; after a hand no "还没有牌" (it read as "no hands yet")."""
    zh = i18n.catalog("zh")
    code = _table()
    at = _open(code)
    assert [i.value for i in at.info] == [zh["msg.empty_hand"]]  # a new table: where to start
    _click(at, "tb_drawn")
    _enter(at, HAND_A, winner=0, discarder=1)
    _click(at, "tb_record")
    assert [x.value for x in at.toast] == [zh["table.recorded"].format(n=2)] and not at.success
    assert zh["msg.empty_hand"] not in [i.value for i in at.info]
    _click(at, "tb_undo")
    assert [x.value for x in at.toast] == [zh["table.undone"].format(n=2)]
    from ledger.errors import ConflictError
    from ledger.store import Store

    def meanwhile(*args, **kwargs):  # another phone wrote between this page's read and its write
        raise ConflictError("the table changed")

    monkeypatch.setattr(Store, "append", meanwhile)
    _click(at, "tb_drawn")
    # the table as it is now, and the hand kept (tests/app/test_table_phones.py)
    assert [e.value for e in at.warning] == [zh["table.changed"].format(n=1, money="0")]
    order = _drawn_in_order(at.main)
    place = {id(e): k for k, e in enumerate(order)}
    undo, said = place[id(at.button(key="tb_undo"))], place[id(at.warning[0])]
    chart = next(k for k, e in enumerate(order) if getattr(e, "value", None) == zh["table.chart"])
    assert undo < said < chart  # under the buttons, not at the top of the page


def test_a_bad_number_entry_on_the_table_page_previews_and_records_nothing():
    """As on the score page (tests/app/test_hostile_input.py): a payer count of 2.5 is never taken as
    the previous count — no money preview, the record buttons off, the error shown."""
    code = _table()
    at = _open(code)
    _enter(at, HAND_A, winner=1, discarder=2)
    assert any("李四 +3 · 王五 -3" in m.value for m in at.markdown)
    at.session_state["payers_open"] = True  # the 吃炮 panel opened: a closed one draws no field
    at.run()
    keys = [n.key for n in at.number_input if n.key and n.key.endswith("_bonus_tiles")]
    assert keys
    at.number_input(key=keys[0]).set_value(2.5)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    i18n.set_lang("zh")
    errors = [e.value for e in at.error]
    assert i18n.t("num.bad_field", field="發", lo=0, hi=4) in errors
    said = i18n.t("msg.bad_number_in", fields="\0").split("\0")  # the result panel names the field
    assert any(e.startswith(said[0]) and e.endswith(said[1]) and "發" in e for e in errors), errors
    assert not any("李四 +3 · 王五 -3" in m.value for m in at.markdown)
    assert at.button(key="tb_record").disabled and at.button(key="tb_more").disabled
    at.number_input(key=keys[0]).set_value(0)
    at.run()
    assert not at.button(key="tb_record").disabled


@pytest.mark.parametrize(
    "raw",
    [
        b'{"format": 1, "format": 2}',  # a duplicate field
        b'{"n": ' + b"9" * 5000 + b"}",  # past Python's int digits: a ValueError escaped before
        b'{"seat": "\\ud800"}',  # a lone surrogate (a PostgreSQL text column refuses it)
        b"\xff{}",  # not UTF-8
        b"[1,",  # not JSON
    ],
)
def test_an_uploaded_export_is_read_as_strictly_as_jxmj_table_import(raw):
    from app.ui.table.settle_view import read_export
    from ledger import LedgerError

    with pytest.raises(LedgerError) as e:
        read_export(raw)
    assert e.value.code == "bad_import" and e.value.message.startswith("not a jxmj table export: ")


def test_an_uploaded_export_with_a_bom_reads():
    from app.ui.table.settle_view import read_export

    assert read_export(b'\xef\xbb\xbf{"a": [1, 2]}') == {"a": [1, 2]}
