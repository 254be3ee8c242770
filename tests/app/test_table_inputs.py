"""The 开一桌 form as a new user fills it: numbers out of range, names and titles over their
limit, an invisible control character — each kept as typed and said under its field, in the
page's language, and no table opened with anything the player did not type."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from app.ui import i18n
from ledger.store import open_store
from tests.app.conftest import APP

ZH, EN = i18n.catalog("zh"), i18n.catalog("en")


def _start(lang: str = "zh") -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=60)
    if lang != "zh":
        at.query_params["lang"] = lang
    at.run()
    at.segmented_control(key="page").set_value("table")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _create(at, lang: str = "zh") -> list[str]:
    label = (ZH if lang == "zh" else EN)["table.create"]
    next(b for b in at.button if b.label == label).click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return [e.value for e in at.error]


@pytest.mark.parametrize(
    "typed, said",
    [
        (-5.0, "每炮多少钱（新余：每分）：请输入 0.01 到 10000 之间的数。"),
        (20000.0, "每炮多少钱（新余：每分）：请输入 0.01 到 10000 之间的数。"),
        (
            float("inf"),
            "每炮多少钱（新余：每分）：输入的不是 0.01 到 10000 之间的数（空着、太大或不是数），已改回 1。",
        ),
    ],
)
def test_a_base_out_of_range_is_said_in_chinese_and_opens_nothing(typed, said):
    at = _start()
    at.number_input(key="tn_base").set_value(typed)
    errors = _create(at)
    assert said in errors and "table" not in at.query_params
    assert errors[-1] == ZH["table.fix_fields"].format(fields=ZH["table.base"])
    assert not any("outside the allowed range" in e for e in errors)
    proto = at.number_input(key="tn_base").proto
    assert not proto.has_min and not proto.has_max
    assert at.number_input(key="tn_base").value == (1.0 if typed == float("inf") else typed)  # as shown


def test_the_base_error_is_english_on_the_english_page():
    at = _start("en")
    at.number_input(key="tn_base").set_value(-5.0)
    errors = _create(at, "en")
    assert f"{EN['table.base']}: enter a number from 0.01 to 10000." in errors


def test_a_good_decimal_base_opens_the_table_with_it():
    at = _start()
    at.number_input(key="tn_base").set_value(2.5)
    assert _create(at) == []
    assert str(open_store().get(at.query_params["table"]).table.base) == "2.5"


@pytest.mark.parametrize("n", [25, 10_000])
def test_a_long_name_is_kept_said_under_its_field_and_opens_nothing(n):
    at = _start()
    at.text_input(key="tn_seat0").input("张" * n)
    errors = _create(at)
    assert at.text_input(key="tn_seat0").value == "张" * n  # never silently "东"
    assert not at.text_input(key="tn_seat0").max_chars  # 0: none
    assert f"1 号位：最多 24 个字，现在有 {n} 个。请删短一些。" in errors and "table" not in at.query_params
    assert "每个名字最多 24 个字" in " ".join(c.value for c in at.caption)


def test_an_81_character_title_is_said_in_english_and_opens_nothing():
    at = _start("en")
    at.text_input(key="tn_title").input("t" * 81)
    errors = _create(at, "en")
    assert f"{EN['table.title']}: at most 80 characters, and it has 81. Shorten it." in errors
    assert "table" not in at.query_params
    assert at.text_input(key="tn_title").placeholder == "at most 80 characters"


def test_a_right_to_left_override_is_named_not_called_a_duplicate():
    at = _start()
    at.text_input(key="tn_seat1").input("\u202eA")
    errors = _create(at)
    assert "2 号位：含有不允许的字符 U+202E RIGHT-TO-LEFT OVERRIDE" in errors[0]
    assert ZH["ledger.bad_seats"] not in errors and "table" not in at.query_params


def test_fixed_fields_then_open_the_table_with_the_names_typed():
    at = _start()
    at.text_input(key="tn_seat0").input("张" * 25)
    _create(at)
    at.text_input(key="tn_seat0").input("张三")
    assert _create(at) == []
    assert open_store().get(at.query_params["table"]).table.seats == ("张三", "南", "西", "北")


def test_a_house_rule_number_out_of_range_is_named_and_opens_nothing():
    from app.ui.table.option_rules import OPTION_RANGE

    at = _start()
    at.segmented_control(key="tn_variant").set_value("xinyu")
    at.run()
    cap = at.number_input(key="tro_xinyu_cap")
    assert not cap.proto.has_min and not cap.proto.has_max
    cap.set_value(-5.0)
    errors = _create(at)
    lo, hi = OPTION_RANGE
    assert f"{cap.label}：请输入 {lo} 到 {hi} 之间的整数。" in errors and "table" not in at.query_params
    assert errors[-1] == ZH["table.fix_fields"].format(fields=cap.label)


def _open(at, typed: str) -> list[str]:
    at.text_input(key="to_code").input(typed)
    next(b for b in at.button if b.label == ZH["table.open_button"]).click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return [e.value for e in at.error]


def test_a_long_paste_in_the_code_field_is_kept_said_and_opens_nothing():
    """The 牌局码 field had max_chars=20: the browser cut a longer paste without a word."""
    at = _start()
    pasted = "K7QM9ACXTRE 是我们今晚的牌局，快来，别迟到了"
    assert _open(at, pasted) == [f"牌局码：最多 20 个字，现在有 {len(pasted)} 个。请删短一些。"]
    assert at.text_input(key="to_code").value == pasted and not at.text_input(key="to_code").max_chars
    assert "table" not in at.query_params
    assert _open(at, "K7QM-9ACX") == [ZH["ledger.bad_code"]]  # short but no code: said as before
    assert "table" not in at.query_params


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_pasted_join_link_opens_its_table(lang):
    from ledger import Table

    code = open_store().create_table(Table("jiujiang", ("张三", "李四", "王五", "赵六"), "1", {})).table.code
    at = _start()
    link = f"  http://192.168.1.5:8501/table?table={code.lower()}&lang={lang}  "  # the QR button's address
    assert len(link) > 20 and _open(at, link) == []
    assert at.query_params["table"] == code  # the table is shown (its code in the address)


def test_a_name_of_combining_marks_only_is_refused_as_an_empty_one_and_kept():
    """ "\u0301" alone shows nothing: the ledger refuses it (bad_seats, as an empty name), the
    field keeps what was typed, and no table is opened."""
    at = _start()
    at.text_input(key="tn_seat2").input("\u0301")
    assert _create(at) == [ZH["ledger.bad_seats"]]
    assert "table" not in at.query_params and at.text_input(key="tn_seat2").value == "\u0301"
