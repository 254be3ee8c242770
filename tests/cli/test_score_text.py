"""`jxmj score --format text --lang zh|en`, `--rules FILE.toml`: the Chinese text of one hand per
variant compared line by line, house rules from a file, and output on a terminal that is not UTF-8."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys

import pytest

from app import cli
from scoring import format_text, score
from tests.scoring.util import parse_case

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# one hand per variant: 九江 with a kong and 吃炮, 星子 dealer doubling and 卡, 新余 a quad in 七对
ZH = [
    (
        "jj 234m567p99s +9s pung:CCC kong:8888m payer:pung:PPP",
        """\
九江麻将 — 可以胡
牌型（标准，考虑了 1 种读法）：[二三四万] [五六七筒] [九九条*] [碰:中中中] [明杠:八八八八万]
听牌：单钓：九条（胡前听 九条）   （* = 胡的那张）
明细：
  名     炮  说明                          规则
  平胡   1   无花（平胡）                  规则 1.3
  单钓   1   单钓：九条配成将，只听这一张  规则 1.3、1.3a
  中/白  1   自己的中明碰                  规则 1.3、1.5
  杠     1   自己的 八八八八万 明杠        规则 1.3、1.5
本身：4 炮
付款（每炮 1）：
  付款人  吃炮  付
  放炮者  1     5
    吃 放炮者 的：中/白 +1 — 放炮者的白明碰
赢家共收：5
""",
    ),
    (
        "xz 123m456p789s345s55p +2m self",
        """\
星子麻将 — 可以胡
牌型（标准，考虑了 1 种读法）：[一二三万*] [四五六筒] [三四五条] [七八九条] [五五筒]
听牌：卡张：一三万听二万（胡前听 二万）   （* = 胡的那张）
明细：
  名    炮  说明                            规则
  平胡  1   无花（平胡）                    规则 1.3
  自摸  1   自摸                            规则 1.3、1.3a
  门清  1   没有明牌                        规则 1.3、1.3a
  卡张  1   卡张：一三万听二万，只听这一张  规则 1.3、1.3a
本身：4 炮
付款（每炮 1）：
  付款人   吃炮  翻倍  付
  a（庄）  0     ×2    8
  b        0           4
  c        0           4
赢家共收：16
""",
    ),
    (
        "xy 11m33p4444p55p77sEE +E self",
        """\
新余麻将 — 可以胡
牌型（七对，考虑了 1 种读法）：[一一万] [三三筒] [四四四四筒] [五五筒] [七七条] [东东*]
听牌：七对：东配成对（胡前听 东）   （* = 胡的那张）
明细：
  名          番  说明                         规则
  基本分      ×1  每家 1 分，乘以成立的每一番  规则 2
  豪华七小对  ×8  七小对里有四张一样           规则 2
本身：8（番数相乘）
付款（每分 1）：
  付款人  付
  玩家1   8
  玩家2   8
  玩家3   8
赢家共收：24
""",
    ),
]


@pytest.mark.parametrize(("spec", "expected"), ZH, ids=["jiujiang", "xingzi", "xinyu"])
def test_chinese_text_line_by_line(spec, expected):
    got = format_text(score(parse_case(spec)), lang="zh").splitlines()
    want = expected.splitlines()
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g == w, f"line {i + 1}"


@pytest.mark.parametrize(
    ("spec", "wait_zh", "wait_en"),
    [
        ("jj 123m456p789s345s55p +2m", "卡张：一三万听二万", "closed 2m in 1m_3m"),
        ("jj 123m345p789s345s55m +4p", "卡张：三五筒听四筒", "closed 4p in 3p_5p"),
        ("jj 123m456p789s345s55p +3m", "边张：一二万听三万", "edge 3m"),
        ("jj 123m456p789s345s55p +7s", "边张：八九条听七条", "edge 7s"),
        ("xz 234m567p99s +9s pung:777p pung:111s", "单钓：九条", "single 9s"),
        ("jj 234m567p999sCC +9s pung:777p", "对倒：九条", "two-pair wait (对倒) 9s"),
        ("jj 234m567p678s99s +6s pung:777p self", "两面：七八条听六条", "open 6s"),
        (
            "xy ESWNCFPESWNCFE +E self",
            "不论牌型：东东东南南西西北北中中發發白",
            "free shape of honours EEESSWWNNCCFFP",
        ),
    ],
)
def test_wait_words_print_the_real_tiles(spec, wait_zh, wait_en):
    r = score(parse_case(spec))
    assert f"听牌：{wait_zh}（" in format_text(r, "zh")
    assert f"Wait: {wait_en};" in format_text(r, "en")


def test_a_quad_in_seven_pairs_prints_as_one_block():
    text = format_text(score(parse_case("jj 11m33p4444p55p77s99s +9s")), "en")
    assert "[4444p]" in text and "[44p]" not in text


def test_format_text_refuses_an_unknown_language():
    with pytest.raises(ValueError, match="lang"):
        format_text(score(parse_case("xy ESWNCFPESWNCFE +E self")), lang="fr")


HAND = {"variant": "jiujiang", "concealed": "234p567p99p", "winning_tile": "9p", "self_drawn": False,
        "melds": [{"kind": "pung", "tiles": "111p"}, {"kind": "pung", "tiles": "888p"}]}  # fmt: skip


def run(monkeypatch, capsys, hand, *args):
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(hand)))
    rc = cli.main(["score", "-", *args])
    return rc, capsys.readouterr().out


def test_lang_option_and_its_locale_default(monkeypatch, capsys):
    rc, out = run(monkeypatch, capsys, HAND, "--format", "text", "--lang", "zh")
    assert rc == 0 and out.startswith("九江麻将 — 可以胡") and "本身：25 炮" in out
    rc, out = run(monkeypatch, capsys, HAND, "--format", "text", "--lang", "en")
    assert rc == 0 and out.startswith("九江 Jiujiang — can win") and "Own: 25 炮" in out
    for var in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert run(monkeypatch, capsys, HAND, "--format", "text")[1].startswith("九江麻将")
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    assert run(monkeypatch, capsys, HAND, "--format", "text")[1].startswith("九江 Jiujiang")


def test_rules_file_overrides_and_the_hand_overrides_it_again(monkeypatch, capsys, tmp_path):
    f = tmp_path / "house.toml"
    f.write_text('"full_flush.base" = 15\n[options]\nmin_win = 30\n', encoding="utf-8")
    rc, out = run(monkeypatch, capsys, HAND, "--rules", str(f))
    data = json.loads(out)
    assert (
        rc == 0 and data["own"] == 20 and data["can_win"] is False and data["reason_code"] == "below_minimum"
    )
    assert data["rules_applied"] == {"patterns.full_flush.base": 15, "options.min_win": 30}
    rc, out = run(monkeypatch, capsys, {**HAND, "rules": {"min_win": 2}}, "--rules", str(f))
    assert json.loads(out)["can_win"] is True


@pytest.mark.parametrize(
    ("text", "code", "fragment"),
    [
        ('"full_flush.bse" = 15\n', "unknown_rule_key", "'full_flush.bse'"),
        ("[options]\nmin_win = true\n", "bad_rule_value", "options.min_win must be a whole number"),
        ("min_win = \n", "bad_rule_table", "cannot read the house rules"),
    ],
)
def test_rules_file_errors_name_the_key(monkeypatch, capsys, tmp_path, text, code, fragment):
    f = tmp_path / "house.toml"
    f.write_text(text, encoding="utf-8")
    rc, out = run(monkeypatch, capsys, HAND, "--rules", str(f))
    err = json.loads(out)
    assert rc == 2 and err["code"] == code and fragment in err["error"]


def test_chinese_text_on_an_ascii_terminal_is_no_traceback(tmp_path):
    f = tmp_path / "hand.json"
    f.write_text(json.dumps(HAND), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "app", "score", str(f), "--format", "text", "--lang", "zh"],
        capture_output=True, text=True, timeout=60, cwd=ROOT, env={**os.environ, "PYTHONIOENCODING": "ascii"},
    )  # fmt: skip
    assert out.returncode == 0 and out.stderr == "" and out.stdout.isascii()
    assert "\\u672c\\u8eab" in out.stdout  # 本身


@pytest.mark.parametrize(("spec", "expected"), ZH, ids=["jiujiang", "xingzi", "xinyu"])
def test_chinese_text_has_no_english(spec, expected):
    """Issue 25 item 9: no key or English-name column, tiles as Chinese names (the xingzi hand's
    payers are named a, b, c by its input)."""
    text = format_text(score(parse_case(spec)), "zh")
    body = [line for line in text.splitlines() if not re.match(r"^  [abc]\b", line)]
    body = [re.sub(r"规则 [0-9.、a-z]+", "", line) for line in body]  # rule sections: 1.3a
    assert not [line for line in body if re.search(r"[A-Za-z]", line)]


@pytest.mark.parametrize(
    ("spec", "zh", "en"),
    [  # 边 / 卡 / 单钓 not counted because the hand waited on two kinds: say why
        (
            "jj 123m456p789s34555s +4s self",
            "卡张的样子，但听 2 种牌（三条、四条），不算卡张",
            "closed wait shape, but waiting on 2 kinds (3s, 4s): not counted as one",
        ),
        (
            "xz 234m567p789p11122s +2s self dealer",
            "单钓的样子，但听 2 种牌（二条、三条），不算单钓",
            "single wait shape, but waiting on 2 kinds (2s, 3s): not counted as one",
        ),
    ],
)
def test_why_a_wait_is_not_counted(spec, zh, en):
    r = score(parse_case(spec))
    assert zh in format_text(r, "zh") and en in format_text(r, "en")


def test_errors_in_chinese_with_lang_zh(monkeypatch, capsys):
    bad = {**HAND, "concealed": "234p567p99p9p"}
    rc, out = run(monkeypatch, capsys, bad, "--format", "text", "--lang", "zh")
    assert rc == 2 and out.startswith("错误：牌数不对") and "（wrong_tile_count）" in out
    kong = {**HAND, "melds": [{"kind": "pung", "tiles": "111p"}, {"kind": "kong", "tiles": "9999p"}]}
    rc, out = run(monkeypatch, capsys, kong, "--format", "text", "--lang", "zh")
    assert rc == 2 and "同一种牌超过了四张：九筒" in out
    rc, out = run(monkeypatch, capsys, bad, "--format", "text", "--lang", "en")
    assert rc == 2 and out.startswith("error: wrong tile count")
