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
