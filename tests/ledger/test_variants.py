"""The variants the ledger and `jxmj table new` take are the rules registry's (scoring.rules.VARIANTS)."""

from __future__ import annotations

import argparse

import pytest

from app import cmd_table
from ledger.errors import LedgerError
from ledger.rules import load_ledger_rules
from scoring.rules import VARIANTS


def test_table_new_offers_the_registry_variants():
    parser = argparse.ArgumentParser()
    cmd_table.add_arguments(parser)
    new = parser._subparsers._group_actions[0].choices["new"]
    (variant,) = [a for a in new._actions if a.dest == "variant"]
    assert tuple(variant.choices) == VARIANTS


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_registry_variant_has_ledger_rules(variant):
    assert load_ledger_rules(variant)["drawn.window"] >= 0


def test_an_unknown_variant_is_named_with_the_registry_names():
    with pytest.raises(LedgerError, match=r"unknown variant 'mahjong': use jiujiang, xingzi or xinyu$"):
        load_ledger_rules("mahjong")
