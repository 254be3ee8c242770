"""A bad value in a rules TOML file (`jxmj score --rules`) or a hand's JSON is named in the file's
words, never Python's: a TOML date is "a date" (was `datetime.date(1979, 5, 27)`), `1e400` is "a
number too large" (was echoed as `inf`), `true` is "a boolean (true)" (was `True`)."""

from __future__ import annotations

import datetime
import json

import pytest

from scoring import HandError, load_overrides, load_rules_file, score_json
from scoring.jsontype import json_type

HAND = {"variant": "jiujiang", "concealed": "234p567p99p", "winning_tile": "9p", "self_drawn": False,
        "melds": [{"kind": "pung", "tiles": "111p"}, {"kind": "pung", "tiles": "888p"}]}  # fmt: skip
NUMBER = "rules: options.min_win must be a whole number, not"
SWITCH = "rules: options.dealer_doubles must be true or false, not"


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ("min_win = 1979-05-27", f"{NUMBER} a date"),
        ("dealer_doubles = 1979-05-27T07:32:00Z", f"{SWITCH} a date and time"),
        ("dealer_doubles = 1979-05-27T07:32:00", f"{SWITCH} a date and time"),
        ("[options]\nmin_win = 07:32:00", f"{NUMBER} a time"),
        ("min_win = 1e400", f"{NUMBER} a number too large"),
        ("min_win = -1e400", f"{NUMBER} a number too large"),
        ("min_win = inf", f"{NUMBER} a number too large"),
        ("min_win = nan", f"{NUMBER} nan (not a number)"),
        ("min_win = 2.5", f"{NUMBER} a number (2.5)"),
        ("min_win = true", f"{NUMBER} a boolean (true)"),
        ("min_win = [1979-05-27]", f"{NUMBER} a list"),
        ("min_win = 'x'", f"{NUMBER} a string ('x')"),
        ("min_win = 2000000", "rules: options.min_win must be from 0 to 1,000,000, not a number (2000000)"),
        ("dealer_doubles = 1", f"{SWITCH} a number (1)"),
    ],
)
def test_a_bad_rule_value_in_a_toml_file_is_named_in_its_words(tmp_path, toml, message):
    path = tmp_path / "house.toml"
    path.write_text(toml + "\n", encoding="utf-8")
    with pytest.raises(HandError) as e:
        score_json({**HAND, "rules": load_overrides(path)})
    assert (e.value.code, str(e.value)) == ("bad_rule_value", message)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("winner_is_dealer", "1e400", "winner_is_dealer must be true or false, not a number too large"),
        ("self_drawn", "-1e400", "self_drawn must be true or false, not a number too large"),
        ("self_drawn", "2.5e3", "self_drawn must be true or false, not a number (2500.0)"),
    ],
)
def test_a_number_too_large_in_a_hand_is_not_echoed_as_inf(field, value, message):
    with pytest.raises(HandError) as e:
        score_json({**HAND, field: json.loads(value)})  # as app.jsonin.parse reads it: a float
    assert (e.value.code, str(e.value)) == ("bad_field", message)


@pytest.mark.parametrize(
    ("toml", "said"),
    [
        ("patterns = 1979-05-27", "patterns must be a table, not a date"),  # was "'datetime.date' object is…"
        ("options = 1e400", "options must be a table, not a number too large"),  # was "float"
        ("extras = true", "extras must be a table, not a boolean (true)"),  # was "bool"
    ],
)
def test_a_whole_rule_table_names_a_section_that_is_no_table_in_its_words(tmp_path, toml, said):
    path = tmp_path / "table.toml"
    path.write_text(f'variant = "jiujiang"\n{toml}\n', encoding="utf-8")
    with pytest.raises(HandError) as e:
        load_rules_file(path)
    assert (e.value.code, str(e.value)) == ("bad_rule_table", f"the rule table {path}: {said}")


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (None, "null"),
        (False, "a boolean (false)"),
        (3, "a number (3)"),
        (2.5, "a number (2.5)"),
        (float("inf"), "a number too large"),
        (float("-inf"), "a number too large"),
        (float("nan"), "nan (not a number)"),
        ("yes", "a string ('yes')"),
        ([1], "a list"),
        ({"a": 1}, "an object"),
        (datetime.date(1979, 5, 27), "a date"),
        (datetime.time(7, 32), "a time"),
        (datetime.datetime(1979, 5, 27, 7, 32, tzinfo=datetime.UTC), "a date and time"),
    ],
)
def test_json_type_says_each_json_and_toml_type_in_the_files_words(value, said):
    assert json_type(value) == said
