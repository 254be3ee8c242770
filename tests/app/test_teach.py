"""The "why not" teaching (`app.ui.teach`) asks the scoring package and keeps no rule of its own:
the patterns it teaches are the variant's less those registered as events (`ItemDef.event`), and the
one-tile change is `scoring.why_not.one_tile_changes`'."""

from __future__ import annotations

import pytest

from app.ui import i18n
from app.ui.state import Conditions, EditHand, hand_input
from app.ui.teach import shape_patterns, statuses
from scoring import score
from scoring.items import registry
from scoring.model import EVENTS
from scoring.rules import load_rules
from scoring.tiles import parse_tiles
from scoring.why_not import Change


@pytest.mark.parametrize("variant", ["jiujiang", "xingzi", "xinyu"])
def test_the_taught_patterns_are_the_tables_less_the_events(variant):
    rules = load_rules(variant)
    by_play = set(EVENTS) | {"last_tile_draw", "last_tile_discard"}  # set by how the hand was won
    assert shape_patterns(variant) == [k for k in rules.patterns if k not in by_play]
    assert {k for k in rules.patterns if registry(rules.family)[k].event} == by_play & set(rules.patterns)


def test_the_one_tile_change_is_the_scoring_packages():
    i18n.set_lang("zh")
    hand = EditHand.typed([t.code for t in parse_tiles("123m456m678m111p99p")], [])
    cond = Conditions(variant="jiujiang")
    result = score(hand_input(hand, cond))
    by_key = {s.key: s for s in statuses(hand, cond, result)}
    straight = by_key["pure_straight"]
    assert not straight.holds and straight.name == "一条龙"
    assert isinstance(straight.change, Change)
    assert (straight.change.old.code, straight.change.new.code) == ("6m", "9m")
    assert "清一色" not in [s.name for s in by_key.values() if s.holds]
