"""Why not, from the rules themselves (issue 25 items 4-5): every pattern and every adder of every
variant has its own reason, in both languages, naming that item's own condition. Hands are
one-line strings ``"<variant> <concealed> <win> [self] [dealer] [event=<e>] [melds <kind> <tiles>, ...]"``."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from scoring import load_rules
from scoring.model import VARIANTS
from scoring.why_not import REASONS, explain, item_keys, one_tile_changes
from scoring.why_not.base import reason_of
from tests.scoring.util import parse_case


def lines(line: str) -> dict[str, tuple[str, str]]:
    return {w.key: (w.zh, w.en) for w in explain(parse_case(line))}


#: the words of each pattern's own condition its why-not must name (zh, en) — one row per pattern
#: key of any table: a new pattern fails test_every_pattern_key_has_its_condition until it is here
CONDITION_WORDS = {
    "half_flush": ("字牌", "honour"),
    "full_flush": ("一种花色", "one suit"),
    "all_pungs": ("刻子", "pungs"),
    "pure_straight": ("七八九", "7-8-9"),
    "seven_pairs": ("七对", "seven pairs"),
    "seven_fairies": ("连续七对", "seven consecutive pairs"),
    "all_melded": ("四副", "four"),
    "red_flag": ("红中和白板", "Red and White dragons"),
    "kong_bloom": ("补牌", "replacement tile"),
    "robbing_kong": ("补杠", "adds to a pung"),
    "kong_discard": ("开杠后打出", "discard right after"),
    "last_tile_draw": ("最后一张", "last tile"),
    "last_tile_discard": ("最后一张", "last tile"),
    "heavenly": ("起手十四张", "first fourteen"),
    "earthly": ("第一张", "first discard"),
    "ready_declared": ("报听", "declaring ready"),
    "concealed": ("没有碰", "pung"),  # 新余: "no claimed pung"; 九江 星子: "no pung, exposed kong…"
    "kong": ("杠", "kong"),
    "luxury_seven_pairs": ("四张一样", "four alike"),
    "all_honours": ("全是字牌", "honour"),
}
#: a hand lacking most patterns, per variant (a 平胡 with a chow, a pung, two suits)
PLAIN = {
    "jiujiang": "jj 123m456p789s345s55p +2m self",
    "xingzi": "xz 123m456p789s345s55p +2m self dealer",
    "xinyu": "xy 123m456p789s55p +2m self pung:777s",
}
_LATIN = re.compile(r"[A-Za-z]")
_CJK = re.compile(r"[\u3400-\u9fff]")


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_item_key_has_a_reason(variant):
    rules = load_rules(variant)
    for key in item_keys(rules):
        assert reason_of(rules, key) is not None, key


def test_no_reason_for_a_key_no_table_has():
    keys = {k for v in VARIANTS for k in item_keys(load_rules(v))}
    assert {key for _family, key in REASONS} <= keys


@pytest.mark.parametrize(("variant", "key"), [(v, k) for v in VARIANTS for k in load_rules(v).patterns])
def test_every_pattern_key_has_its_condition(variant, key):
    zh_word, en_word = CONDITION_WORDS[key]
    got = lines(PLAIN[variant])
    assert key in got, f"{key} holds in the plain hand: pick another"
    zh, en = got[key]
    assert zh_word in zh and load_rules(variant).patterns[key].name_zh in zh
    assert en_word in en and load_rules(variant).patterns[key].name_en in en


HANDS = [  # many shapes: every line of each must be language-pure
    *PLAIN.values(),
    "xz 234m678s99sCCC +C pung:777p",
    "jj 11223344556677m +7m self",
    "jj 1199m4455p7799sCC +C self",
    "xz 99s +9s pung:CCC pung:PPP pung:555s pung:777p",
    "jj 123m456p345s55p +2m self kong_bloom concealed_kong:9999s",
    "xy EEESSSWWWNNNCC +C self",
    "xy 11223344556677m +7m self",
    "jj 111m222m333m555m99m +5m",
    "jj 123m456p789s345s55p +2m self ready_declared",
]


@pytest.mark.parametrize("line", HANDS)
def test_lines_are_language_pure(line):
    for zh, en in lines(line).values():
        assert not _LATIN.search(zh), zh
        assert not _CJK.search(en), en


@pytest.mark.parametrize(
    ("line", "key", "zh_part", "en_part"),
    [  # item 4: 红旗飘飘 needs 中 and 白 sets, not pairs
        ("xz 234m678s99sCCC +C pung:777p", "red_flag", "没有白板", "no White dragon"),
        ("xz 123m456p789sCCCPP +P", "red_flag", "白板只有2张", "only 2 White dragons"),
        # item 5: the adders say why they are missing
        (
            "jj 123m456p789s345s55p +2m self ready_declared",
            "concealed",
            "报听不算门清",
            "Declared ready",
        ),
        (
            "jj 123m456p345s55p +2m self kong_bloom concealed_kong:9999s",
            "self_drawn",
            "杠上开花不算自摸",
            "never counts",
        ),
        ("xy 123m456p345s55p +2m self concealed_kong:9999s", "concealed", "暗杠", "concealed kong"),
        ("jj 123m456p789s345s55p +2m", "self_drawn", "别人打的牌", "discard"),
        ("jj 123m456p789s345s55p +2m", "kong", "没有杠", "no kong"),
        ("jj 111m222m333m555m99m +5m", "edge_wait", "听2种牌", "waiting on 2 kinds"),
        ("jj 123m456p789s345s55p +2m", "edge_wait", "中间一张", "middle"),
        ("jj 99s +9s self pung:111m pung:777p pung:555s pung:666s", "closed_wait", "配成将", "pair"),
        ("jj 11223344556677m +7m", "concealed", "七对不算门清", "never counts"),
        ("jj 11223344556677m +7m self", "basic", "已有花：七仙女", "flower pattern"),
        ("xz 99s +9s pung:CCC pung:PPP pung:555s pung:777p", "edge_wait", "配成将", "pair"),
        # issue 36 item 13: "只有0副副露" — a number set apart, and none said as none
        ("jj 123m456p789s345s55p +2m", "all_melded", "没有副露", "0 exposed"),
        ("jj 123m456p789s55p +2m pung:777s", "all_melded", "只有 1 副副露", "1 exposed"),
    ],
)
def test_reasons_name_the_cause(line, key, zh_part, en_part):
    zh, en = lines(line)[key]
    assert zh_part in zh and en_part in en


def test_kong_reason_differs_by_variant():
    jj = lines("jj 123m456p789s345s55p +2m self")["kong"][0]
    xy = lines("xy 123m456p789s345s55p +2m self")["kong"][0]
    assert jj != xy and "红中" in jj and "红中" not in xy


def test_zero_adder_names_the_pattern():
    # JJ 报听 gives 单钓 nothing (its adders: 自摸, 边卡)
    zh, en = lines("jj 123m456p789s345mCC +C ready_declared")["single_wait"]
    assert "报听不加单钓" in zh and "give(s) it nothing" in en


@pytest.mark.parametrize(
    "line", [PLAIN["jiujiang"], "xz 123m456p789s345s55p +3m", "xy 123m456p789s345sEE +E self"]
)
def test_one_tile_changes_make_the_item_hold(line):
    h = parse_case(line)
    changes = one_tile_changes(h)
    assert changes
    for key, c in changes.items():
        assert h.concealed[c.index] == c.old and c.new != c.old and c.total > 0
        tiles = list(h.concealed)
        tiles[c.index] = c.new
        win = c.new if c.old == h.winning_tile and h.concealed.count(c.old) == 1 else h.winning_tile
        changed = replace(h, concealed=tuple(tiles), winning_tile=win)
        assert key not in {w.key for w in explain(changed)}
