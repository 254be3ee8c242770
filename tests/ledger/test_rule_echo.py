"""A refused house-rule value is echoed cut short (ledger.errors.shown), never in full."""

import pytest

from ledger import LedgerError
from ledger.rules import load_ledger_rules


@pytest.mark.parametrize("value", ["x" * 5000, ["max"] * 2000])
def test_a_long_refused_value_is_cut_in_the_message(value):
    with pytest.raises(
        LedgerError, match=r"raises\.combine = .{80}… is not allowed: use max / multiply"
    ) as e:
        load_ledger_rules("jiujiang", {"raises.combine": value})
    assert len(str(e.value)) < 200
    assert e.value.code == "bad_rule"


@pytest.mark.parametrize(
    ("rule", "value", "message"),
    [
        ("drawn.window", True, "drawn.window = true is not allowed: use a whole number from 0 to 1000"),
        ("drawn.window", None, "drawn.window = null is not allowed: use a whole number from 0 to 1000"),
        ("false_win.ends_hand", "yes", "false_win.ends_hand = 'yes' is not allowed: use true or false"),
        ("false_win.ends_hand", 1, "false_win.ends_hand = 1 is not allowed: use true or false"),
        ("raises.combine", [True, None], "raises.combine = [true, null] is not allowed: use max / multiply"),
    ],
)
def test_a_refused_value_reads_as_the_file_spells_it_never_as_python(rule, value, message):
    with pytest.raises(LedgerError) as e:
        load_ledger_rules("jiujiang", {rule: value})
    assert str(e.value) == f"house rule {message}"
    assert "True" not in str(e.value) and "None" not in str(e.value) and "bool" not in str(e.value)
