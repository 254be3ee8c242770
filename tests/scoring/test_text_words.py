"""Issue 36 item 12, the words: the text of every item key's case (tests/scoring/test_items.py)
walked line by line, as the why-not test walks every key — 边/卡/单钓 reasons say the real tiles,
七对 is never 单钓, an adder a holding pattern shuts out has its line (地胡不算门清, the why-not's
words), and the why-not wording (已有花：地胡, the three suits, 新余 开杠 once)."""

from __future__ import annotations

import re

import pytest

from scoring import format_text, load_rules, score
from scoring.model import VARIANTS
from scoring.text_zh import wait_zh, zh_codes
from scoring.why_not import explain
from tests.scoring.test_items import FAN_CASES, PAO_CASES
from tests.scoring.util import parse_case

ALL = [c.values[0] for c in PAO_CASES + FAN_CASES]
IDS = [c.id for c in PAO_CASES + FAN_CASES]
TEMPLATES = ("12 听 3", "13 听 2", "12+3", "13+2", "凑成将", "七对单钓", "the winning tile completes")
_RULES = re.compile(r"规则 [0-9.、a-z]+")


@pytest.mark.parametrize("spec", ALL, ids=IDS)
def test_every_key_case_text_in_real_words(spec):
    r = score(parse_case(spec))
    zh, en = format_text(r, "zh"), format_text(r, "en")
    assert not [t for t in TEMPLATES if t in zh or t in en]
    body = [_RULES.sub("", line) for line in zh.splitlines() if not re.match(r"^  [abc]\b", line)]
    assert not [line for line in body if re.search(r"[A-Za-z]", line)]  # tiles as names, in zh
    for item in r.items:
        assert zh_codes(item.reason_zh) in zh and item.reason in en
    if r.shape == "seven_pairs":  # 七对不算单钓 (DECISIONS §1.3a)
        assert "单钓" not in zh.splitlines()[2] and "single" not in en.splitlines()[2]


@pytest.mark.parametrize(
    ("spec", "zh", "en"),
    [
        ("jj 123m456p789s345s55p +2m", "卡张：一三万听二万，只听这一张", "closed wait: 13m waiting on 2m"),
        ("jj 123m345p789s345s55m +4p", "卡张：三五筒听四筒，只听这一张", "closed wait: 35p waiting on 4p"),
        ("jj 123m456p789s345s55p +3m", "边张：一二万听三万，只听这一张", "edge wait: 12m waiting on 3m"),
        ("xz 789m456p789s345s55p +7m", "边张：八九万听七万，只听这一张", "edge wait: 89m waiting on 7m"),
        ("xz 234m567p99s +9s pung:777p pung:111s", "单钓：九条配成将，只听这一张", "single wait: 9s"),
    ],
)
def test_wait_reasons_are_the_wait_line_tiles(spec, zh, en):
    r = score(parse_case(spec))
    item = next(i for i in r.items if i.key.endswith("_wait"))
    assert zh_codes(item.reason_zh) == zh and item.reason.startswith(en)
    assert wait_zh(r).split("：")[1] in zh  # the wait line's tiles, the same words


#: (variant, adder, pattern) → a hand where the adder's own condition holds and the pattern shuts
#: it out of the whole hand (DECISIONS §1.3a); a new exclusion of a table needs its row here
EXCLUDED = {
    ("self_drawn", "last_tile_draw"): "{v} 123m456p789s345s55p +2m self last_tile",
    ("self_drawn", "kong_bloom"): "{v} 123m456p345s55p +2m self kong_bloom concealed_kong:9999s",
    ("self_drawn", "seven_fairies"): "{v} 11223344556677m +7m self",
    ("concealed", "seven_pairs"): "{v} 11m33m55p77p99s22s44s +4s",
    ("concealed", "seven_fairies"): "{v} 11223344556677m +7m self",
    ("concealed", "heavenly"): "{v} 123m456p789s345s55p +2m self dealer heavenly",
    ("concealed", "earthly"): "{v} 123m456p789s345s55p +3m earthly",
    ("concealed", "ready_declared"): "{v} 123m456p789s345s55p +2m ready_declared",
    ("single_wait", "all_melded"): "{v} 99s +9s pung:111m pung:777p pung:555s pung:666s",
    ("single_wait", "heavenly"): "{v} 123m456p789s345sCC +C self dealer heavenly",
    ("edge_wait", "heavenly"): "{v} 123m456p789s345s55p +3m self dealer heavenly",
    ("closed_wait", "heavenly"): "{v} 123m456p789s345s55p +2m self dealer heavenly",
}
PAIRS = [(v, a, p) for v in VARIANTS for a, by in load_rules(v).exclusions.items() for p in sorted(by)]


def test_every_exclusion_has_a_hand():
    assert {(a, p) for _v, a, p in PAIRS} == set(EXCLUDED)


@pytest.mark.parametrize(("variant", "adder", "pattern"), PAIRS)
def test_a_shut_out_adder_has_its_line(variant, adder, pattern):
    short = {"jiujiang": "jj", "xingzi": "xz"}[variant]
    h = parse_case(EXCLUDED[adder, pattern].format(v=short))
    r = score(h)
    rules = load_rules(variant)
    p_zh, p_en, _ = rules.name(pattern)
    a_zh, a_en, _ = rules.name(adder)
    assert pattern in {i.key for i in r.items} and adder not in {i.key for i in r.items}
    said = f"{p_zh}不算{a_zh}"  # the why-not's words
    assert said in next(w.zh for w in explain(h) if w.key == adder)
    assert f"  {said}（规则 1.3a）" in format_text(r, "zh").splitlines()
    assert f"  no {a_en}: {p_en} never counts it (DECISIONS §1.3a)" in format_text(r, "en").splitlines()


def test_no_line_where_the_adder_condition_fails():
    r = score(parse_case("jj 234m567p99s +9s pung:777p pung:111s ready_declared"))
    assert "ready_declared" in {i.key for i in r.items}
    assert "不算门清" not in format_text(r, "zh")  # pungs down: no 门清 for 报听 to shut out


def test_earthly_hand_text_says_no_concealed():
    zh = format_text(score(parse_case("jj 123m456p789s345s55p +3m earthly")), "zh")
    assert "  地胡不算门清（规则 1.3a）" in zh.splitlines()


# ---- the why-not's words ----
def lines(spec: str) -> dict[str, tuple[str, str]]:
    return {w.key: (w.zh, w.en) for w in explain(parse_case(spec))}


def test_basic_why_not_says_a_flower_is_there():
    zh, en = lines("jj 123m456p789s345s55p +3m earthly")["basic"]
    assert zh.startswith("不算平胡：已有花：地胡——") and "有花牌地胡" not in zh
    assert "Earthly hand holds" in en


@pytest.mark.parametrize(
    ("spec", "key"),
    [
        ("xy 123m456p789s345sEE +E self", "half_flush"),
        ("xy 123m456p789s345sEE +E self", "full_flush"),
        ("jj 123m456p789s345s55p +2m", "full_flush"),
    ],
)
def test_three_suits_named_all(spec, key):
    zh, en = lines(spec)[key]
    assert "万、筒、条三种都有" in zh and "Characters, Dots and Bamboo" in en


def test_two_suits_still_name_the_odd_tiles():
    zh, en = lines("xy 123m456m789m345m55p +5p self")["full_flush"]
    assert "不止一种花色：五筒" in zh and "5 Dots" in en


def test_xinyu_kong_x2_counts_once():
    r = score(parse_case("xy 55m +5m self concealed_kong:1111s kong:2222p pung:EEE pung:SSS"))
    kong = [i for i in r.items if i.key == "kong"]
    assert len(kong) == 1 and kong[0].multiplier == 2
    assert kong[0].reason_zh == "2 个杠，×2 只算一次" and "counts once" in kong[0].reason
    one = score(parse_case("xy 123m456p789sEE +E kong:3333s self"))
    assert next(i.reason_zh for i in one.items if i.key == "kong") == "有 1 个杠"
