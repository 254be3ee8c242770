"""The 牌局 page's import: a file that is not taken is said once, in the slot under the
uploader (where the page's script says why a file of another type is refused), and the uploader
starts empty: the chip never names the refused file, and the next file's message replaces it."""

from __future__ import annotations

import html
import re

from app.ui import i18n
from tests.app.test_table_page import _open, _table

ZH, EN = i18n.catalog("zh"), i18n.catalog("en")


def _slots(at) -> list[tuple[str, bool, str]]:
    """(data-for, hidden, text) of every refusal slot on the page."""
    out = []
    for e in at.get("html"):
        for m in re.finditer(
            r'<div class="jx-refused" data-for="([^"]+)"[^>]*?( hidden)?>(.*?)</div>', e.proto.body
        ):
            out.append((m[1], bool(m[2]), html.unescape(m[3])))
    return out


def _import_slots(at) -> list[tuple[str, bool, str]]:
    return [s for s in _slots(at) if s[0].startswith("tb_import")]


def test_a_refused_import_is_said_under_a_fresh_uploader_once():
    at = _open(_table())
    assert _import_slots(at) == [("tb_import", True, "")]
    at.file_uploader(key="tb_import").set_value(("bad.json", b'{"not": "an export"}', "application/json"))
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert _import_slots(at) == [("tb_import_1", False, ZH["ledger.bad_import"])]
    assert not [e for e in at.error if ZH["ledger.bad_import"] in e.value]  # said once, in the slot
    assert at.file_uploader(key="tb_import_1").value is None  # no chip of bad.json
    at.run()  # any other tap: the slot is the script's again
    assert _import_slots(at) == [("tb_import_1", True, "")]


def test_the_next_refused_file_replaces_the_message_of_the_one_before():
    """On the English page each message names its own file's problem (the ledger's sentence)."""
    at = _open(_table())
    at.segmented_control(key="lang").set_value("en")
    at.run()
    at.file_uploader(key="tb_import").set_value(("bad.json", b'{"not": "an export"}', "application/json"))
    at.run()
    [(_, _, first)] = [s for s in _import_slots(at) if not s[1]]
    at.file_uploader(key="tb_import_1").set_value(("worse.json", b"{", "application/json"))
    at.run()
    shown = [s for s in _import_slots(at) if not s[1]]
    assert len(shown) == 1 and shown[0][0] == "tb_import_2"
    assert shown[0][2].startswith("not a jxmj table export") and shown[0][2] != first


def _export(**table) -> bytes:
    import json

    from ledger.exchange import FORMAT

    base = {"variant": "jiujiang", "seats": ["甲", "乙", "丙", "丁"], "base": 1}
    return json.dumps({"format": FORMAT, "version": 2, "table": {**base, **table}, "hands": []}).encode()


def test_the_chinese_page_says_why_an_export_is_refused():
    """Break-it, session 23: every refusal read "这个文件不是 jxmj 的牌局导出文件" on the Chinese page,
    while `jxmj table import` named the problem (the English page shows the ledger's sentence)."""
    why = lambda key: ZH["ledger.bad_import_why"].format(why=ZH[key])  # noqa: E731
    cases = [
        (_export(seats=["甲", "甲", "丙", "丁"]), why("ledger.bad_seats")),
        (_export(variant="shanghai"), why("ledger.unknown_variant")),
        (_export(base=-5), why("ledger.bad_money")),
        (_export().replace(b'"version": 2', b'"version": 99'), why("ledger.import_version")),
        (_export(seats=["甲\u202e", "乙", "丙", "丁"]), why("ledger.import_names")),
        (b'{"not": "an export"}', ZH["ledger.bad_import"]),  # no more to say
    ]
    at = _open(_table())
    for n, (data, said) in enumerate(cases):
        key = "tb_import" if n == 0 else f"tb_import_{n}"
        at.file_uploader(key=key).set_value((f"f{n}.json", data, "application/json"))
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        assert [s[2] for s in _import_slots(at) if not s[1]] == [said], n
